package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/bank/backend/schema1"
	"github.com/reconstruct/reconstruct/bank/postgres"
	"github.com/reconstruct/reconstruct/bank/sqlite"
)

// A bank of schema 1 is refused by every command but migrate, which
// upgrades it; its history then reads as before and a receipt signed
// before the upgrade commits.
func TestBankMigrateSchema1(t *testing.T) {
	var want struct {
		Workspaces map[string][]struct {
			Revision string            `json:"revision"`
			Parent   string            `json:"parent"`
			Inputs   map[string]string `json:"inputs"`
			Graph    string            `json:"graph"`
		} `json:"workspaces"`
	}
	raw, err := os.ReadFile(filepath.Join(schema1.Dir(t), "expect.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	eachBackend(t, func(t *testing.T, be bankBackend) {
		t.Setenv("RECONSTRUCT_BANK_KEY", "")
		db := schema1.Bank(t, be.name)
		for _, args := range [][]string{{"list"}, {"log", "--workspace", "objects"}, {"act", "--commit", filepath.Join(schema1.Dir(t), be.name, "proposal.json")}} {
			// A sound bank of an older schema is not called a broken file.
			if out, code, msg := runBankEnv(t, nil, db, "", args...); code != 2 || !strings.Contains(msg, "bank migrate") || strings.Contains(msg, sqlite.ErrNotABank.Error()) {
				t.Errorf("bank %v before migrate: exit %d, %q, %s; want 2 saying to run bank migrate", args, code, msg, out)
			}
		}
		current := float64(postgres.SchemaVersion())
		if be.name == "sqlite" {
			current = float64(sqlite.SchemaVersion())
		}
		res := mustRun(t, db, "", "migrate")
		if res["from_version"] != 1.0 || res["version"] != current || res["created"] != false || res["changed"] != true {
			t.Errorf("migrate = %v, want from 1 to %v", res, current)
		}
		if be.name == "sqlite" {
			// The receipt key moved from the database to the key file, and
			// its bytes were wiped from the file.
			if fi, err := os.Stat(sqlite.KeyFile(db)); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("key file after migrate: %v, %v; want mode 0600", fi, err)
			}
			if res["cleaned"] == nil {
				t.Errorf("migrate of a schema 1 bank does not say its key was wiped: %v", res)
			}
		}
		for ws, revs := range want.Workspaces {
			log := mustRun(t, db, "", "log", "--workspace", ws)
			got, _ := log["revisions"].([]any)
			if len(got) != len(revs) {
				t.Fatalf("log of %s: %d revisions, want %d", ws, len(got), len(revs))
			}
			for i, w := range revs {
				r := got[i].(map[string]any)
				wantJSON, _ := json.Marshal(map[string]any{"revision": w.Revision, "parent": w.Parent, "inputs": w.Inputs, "graph": w.Graph})
				gotJSON, _ := json.Marshal(map[string]any{"revision": r["revision"], "parent": orEmpty(r["parent"]), "inputs": r["inputs"], "graph": r["graph"]})
				if !bytes.Equal(gotJSON, wantJSON) {
					t.Errorf("%s revision %d after migrate: %s, want %s", ws, i+1, gotJSON, wantJSON)
				}
			}
		}
		commit := mustRun(t, db, "", "act", "--commit", filepath.Join(schema1.Dir(t), be.name, "proposal.json"))
		if rev, _ := commit["revision"].(map[string]any); rev == nil || rev["revision"] != "r000003" {
			t.Errorf("commit of a proposal made before the upgrade = %v, want r000003", commit)
		}
		// The examples list, stored whole by schema 1, evaluates.
		examples := want.Workspaces["examples"]
		obs := mustRun(t, db, `{"action": "observe", "workspace": "examples"}`, "act")
		if head := examples[len(examples)-1].Revision; obs["revision"] != head || orEmpty(obs["error"]) != "" || obs["outputs"] == nil {
			t.Errorf("observe examples after migrate: revision %v, error %v, outputs %v; want %s evaluated", obs["revision"], obs["error"], obs["outputs"], head)
		}
		if res := mustRun(t, db, "", "migrate"); res["from_version"] != current || res["changed"] != false || res["cleaned"] != nil {
			t.Errorf("second migrate = %v, want nothing changed", res)
		}
	})
}

// orEmpty is v, or "" when v is nil (an omitted field).
func orEmpty(v any) any {
	if v == nil {
		return ""
	}
	return v
}
