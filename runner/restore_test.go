package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/candidates"
)

// A workspace's lost candidates come back from the bank's copies; when
// one has no copy, nothing is written and the error names it.
func TestRestoreCandidates(t *testing.T) {
	ctx := context.Background()
	b, closeBank, err := OpenBank(ctx, filepath.Join(t.TempDir(), "bank.db"), WriteBank, BankOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeBank()
	// The run's archive, as it was before the workspace was lost.
	old := t.TempDir()
	a, err := candidates.Open(old)
	if err != nil {
		t.Fatal(err)
	}
	var recs []candidates.Record
	for i, src := range []string{"def solve(x):\n    return x\n", "def solve(x):\n    return -x\n"} {
		rec, err := a.Add(candidates.Record{RunID: "r1", Iteration: i + 1}, []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	// Only the first program was stored in the bank.
	src, _ := a.Source(recs[0])
	if _, err := b.PutBlob(ctx, src); err != nil {
		t.Fatal(err)
	}

	ws := filepath.Join(t.TempDir(), "ws")
	_, err = RestoreCandidates(ctx, b, "r1", ws, recs)
	if err == nil || !strings.Contains(err.Error(), "1 of the run's archived candidates are missing") || !strings.Contains(err.Error(), recs[1].File) {
		t.Fatalf("err = %v, want the candidate without a copy named", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(ws, candidates.Dir)); len(entries) != 0 {
		t.Errorf("a refused restore wrote %d files", len(entries))
	}

	n, err := RestoreCandidates(ctx, b, "r1", ws, recs[:1])
	if err != nil || n != 1 {
		t.Fatalf("restore = %d, %v; want 1 candidate restored", n, err)
	}
	back, err := candidates.OpenExisting(ws)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := back.Source(recs[0]); err != nil || string(got) != string(src) {
		t.Errorf("restored program %q, %v", got, err)
	}
	if recs, _, err := back.Select("r1"); err != nil || len(recs) != 1 {
		t.Errorf("the restored manifest lists %v, %v", recs, err)
	}
}
