package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/sqlite"
)

// Every value is read back against its content hash: a blob changed in
// the file behind the bank's back (a whole value, or one chunk of a large
// one) is bank.ErrTampered when loaded, and Verify names the workspace,
// revision and input it belongs to.
func TestContentIsCheckedAgainstItsHash(t *testing.T) {
	t.Setenv(bank.KeyEnv, "")
	tests := []struct {
		name  string
		input string
		// chunk: alter a chunk of a tree rather than a whole blob.
		chunk bool
	}{
		{name: "a whole value", input: "small"},
		{name: "a chunk of a large value", input: "large", chunk: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "bank.db")
			st, err := sqlite.Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			b := bank.New(st, bank.Options{})
			items := make([]bank.Value, 3000)
			for i := range items {
				items[i] = bank.Text(fmt.Sprintf("item %06d", i))
			}
			g := &bank.Graph{Inputs: map[string]bank.Value{"small": bank.Text("value 123456"), "large": bank.List(bank.KindText, items)}, Outputs: map[string]string{}}
			rec, err := b.Create(ctx, "w", g, "")
			if err != nil {
				t.Fatal(err)
			}
			if _, tree := rec.Trees[rec.Inputs["large"]]; !tree {
				t.Fatal("the large value is not stored as a tree")
			}
			if probs, err := b.Verify(ctx); err != nil || len(probs) != 0 {
				t.Fatalf("Verify of a sound bank: %v, %v", probs, err)
			}
			st.Close()
			raw, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			from, to := "123456", "123457"
			where := `hash = '` + rec.Inputs["small"] + `'`
			if tt.chunk {
				from, to = "item 001500", "item 001501"
				where = `CAST(data AS TEXT) LIKE '%item 001500%'`
			}
			res, err := raw.Exec(`DROP TRIGGER blobs_no_update; UPDATE blobs SET data = CAST(replace(CAST(data AS TEXT), ?, ?) AS BLOB) WHERE `+where, from, to)
			if err != nil {
				t.Fatal(err)
			}
			if n, _ := res.RowsAffected(); n != 1 {
				t.Fatalf("%d blobs altered, want 1", n)
			}
			raw.Close()
			st, err = sqlite.Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			b = bank.New(st, bank.Options{})
			if _, err := b.Load(ctx, "w", ""); !errors.Is(err, bank.ErrTampered) {
				t.Errorf("Load: %v, want bank.ErrTampered", err)
			}
			probs, err := b.Verify(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(probs) != 1 || probs[0].Workspace != "w" || probs[0].Revision != rec.Name || probs[0].Input != tt.input ||
				!strings.Contains(probs[0].Problem, "does not match its hash") {
				t.Errorf("Verify = %v, want one problem naming w@%s input %s", probs, rec.Name, tt.input)
			}
			v, err := b.InputAsStored(ctx, rec, tt.input)
			if err != nil || !strings.Contains(string(v.Canonical()), to) {
				t.Errorf("InputAsStored: %v; want the altered content", err)
			}
		})
	}
}
