package backend

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/backend/schema1"
	"github.com/reconstruct/reconstruct/bank/postgres"
	"github.com/reconstruct/reconstruct/bank/sqlite"
)

// testdata/schema1 holds banks of schema version 1, written by the code
// of that version (the commit before chunk trees): a SQLite file and a
// pg_dump of a PostgreSQL bank (its psql-only \restrict lines removed),
// each with the same workspaces: "objects" (the protocol's example, one
// commit), its fork "trial" (one undo), "examples" (a list of 600
// examples, one changed, five appended, three events), the function
// keep_large; expect.json is what that code read back (records and the
// output hashes of every revision), and proposal.json a proposal that
// code made on objects and did not commit.

// expectation is testdata/schema1/expect.json.
type expectation struct {
	Registry   string   `json:"registry"`
	Functions  []string `json:"functions"`
	Workspaces map[string][]struct {
		Revision string            `json:"revision"`
		Action   string            `json:"action"`
		Parent   string            `json:"parent"`
		Inputs   map[string]string `json:"inputs"`
		Graph    string            `json:"graph"`
		Outputs  map[string]string `json:"outputs"`
		Error    string            `json:"error"`
	} `json:"workspaces"`
	Events map[string]int `json:"events"`
}

// TestUpgradeFromSchema1: bank migrate upgrades a bank the previous schema's
// code wrote; everything it held reads as it did (records, values, output
// hashes, events, functions), a receipt that code signed still commits,
// and new revisions store large inputs as chunk trees.
func TestUpgradeFromSchema1(t *testing.T) {
	ctx := context.Background()
	var want expectation
	raw, err := os.ReadFile(filepath.Join("testdata", "schema1", "expect.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			loc := schema1.Bank(t, k.name)
			if _, err := Open(ctx, loc, Options{}); !errors.Is(err, bank.ErrSchema) || !strings.Contains(err.Error(), "older") {
				t.Fatalf("open before migrate: %v, want an older schema refused", err)
			}
			m, err := Migrate(ctx, loc, Options{})
			current := map[string]int{"sqlite": sqlite.SchemaVersion(), "postgres": postgres.SchemaVersion()}[k.name]
			if err != nil || m.From != 1 || m.To != current {
				t.Fatalf("migrate = %d → %d, %v; want 1 → %d", m.From, m.To, err, current)
			}
			b := openBank(t, loc)
			reg, err := b.Registry(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if reg.Identity() != want.Registry {
				t.Errorf("registry %s, want %s", reg.Identity(), want.Registry)
			}
			for ws, revs := range want.Workspaces {
				log, err := b.Log(ctx, ws)
				if err != nil {
					t.Fatal(err)
				}
				if len(log) != len(revs) {
					t.Fatalf("%s has %d revisions, want %d", ws, len(log), len(revs))
				}
				for i, w := range revs {
					got := log[i]
					if got.Name != w.Revision || got.Action != w.Action || got.Parent != w.Parent || got.Graph != w.Graph || !cmp.Equal(got.Inputs, w.Inputs) {
						t.Errorf("%s@%s record = %+v, want %+v", ws, w.Revision, got, w)
					}
					rev, err := b.Load(ctx, ws, w.Revision)
					if err != nil {
						t.Fatal(err)
					}
					for name, v := range rev.Graph.Inputs {
						if v.Hash() != w.Inputs[name] {
							t.Errorf("%s@%s input %s reads as %s, stored as %s", ws, w.Revision, name, v.Hash(), w.Inputs[name])
						}
					}
					obs, err := b.Observe(ctx, ws, w.Revision)
					if err != nil {
						t.Fatal(err)
					}
					outs := map[string]string{}
					for name, v := range obs.Outputs {
						outs[name] = v.Hash()
					}
					if diff := cmp.Diff(w.Outputs, outs); diff != "" || obs.Error != w.Error {
						t.Errorf("%s@%s outputs (-schema 1 +now):\n%s%s", ws, w.Revision, diff, obs.Error)
					}
				}
				events, err := b.Events(ctx, ws)
				if err != nil || len(events) != want.Events[ws] {
					t.Errorf("%s: %d events, %v; want %d", ws, len(events), err, want.Events[ws])
				}
			}

			// A receipt the schema 1 code signed commits.
			proposal, err := os.ReadFile(filepath.Join("testdata", "schema1", k.name, "proposal.json"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := bank.DecodeReceipt(proposal)
			if err != nil {
				t.Fatal(err)
			}
			res, err := b.Commit(ctx, r, "")
			if err != nil || res.Revision.Name != "r000003" {
				t.Fatalf("commit of the schema 1 proposal: %+v, %v", res, err)
			}

			// A new revision stores the changed list as a tree: bytes, not
			// the list.
			head, err := b.Load(ctx, "examples", "")
			if err != nil {
				t.Fatal(err)
			}
			items, _ := head.Graph.Inputs["examples"].Items()
			changed := slices.Clone(items)
			ex, err := bank.NewExample([]byte(`{"items":[1,2,3]}`), []byte(`"changed again"`), "random")
			if err != nil {
				t.Fatal(err)
			}
			before := blobBytes(t, k.name, loc)
			list := bank.List(bank.KindExample, changed)
			for i, step := range []int{100, 200} {
				changed[step] = ex
				list = bank.List(bank.KindExample, changed)
				name := fmt.Sprintf("r%06d", 4+i)
				rec, err := b.Update(ctx, "examples", head.Name, map[string]bank.Value{"examples": list}, nil, "")
				if err != nil || rec.Name != name {
					t.Fatalf("update: %+v, %v", rec, err)
				}
				head.Name = rec.Name
				if i == 0 {
					before = blobBytes(t, k.name, loc)
				}
			}
			added := blobBytes(t, k.name, loc) - before
			size := int64(len(list.Canonical()))
			t.Logf("one element changed in a %d-byte list: %d bytes of blobs added", size, added)
			if added > size/2 {
				t.Errorf("one element changed in a %d-byte list added %d bytes of blobs", size, added)
			}
			again, err := b.Load(ctx, "examples", "")
			if err != nil {
				t.Fatal(err)
			}
			if got := again.Graph.Inputs["examples"].Canonical(); !bytes.Equal(got, list.Canonical()) {
				t.Error("the list stored as a tree reads back different")
			}
			if _, err := b.Fork(ctx, "examples", "examples2", head.Name); err != nil {
				t.Fatal(err)
			}
			obs, err := b.Observe(ctx, "examples2", "")
			if err != nil || obs.Error != "" || !obs.Outputs["n"].Equal(bank.Index(605)) {
				t.Errorf("observe the fork: %+v, %v", obs, err)
			}
		})
	}
}
