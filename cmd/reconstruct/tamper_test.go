package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/sqlite"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/runner"
)

// Finding 10 of the security issue (tamper evidence): one changed digit
// inside bank.db passed bank check, and runs show printed the altered
// example as if true. Every value is read back against its hash: bank
// check reports the run and the example a changed byte belongs to (exit
// 1), runs show refuses to show it (exit 3), and a journal altered
// behind a sound bank is named too.
func TestBankTamperingIsReported(t *testing.T) {
	testenv.NeedPython(t)
	tests := []struct {
		name string
		// alter changes one digit in the bank file, as the sqlite3 shell
		// would (its triggers dropped and restored around it): in the
		// head's examples blob, or in the batch event of the journal.
		alter string
		// check is what bank check must say; show whether runs show must
		// refuse the run.
		check []string
		show  bool
	}{
		{name: "a digit of an example in the bank's content", alter: "blobs", show: true,
			check: []string{"example 2 (input [5,-4,7,0])", "fails its hash", "content does not match its hash"}},
		{name: "a digit of an example in the journal", alter: "events",
			check: []string{"example 2 (input [5,-4,7,0])", "the journal has [5,-4,7,0] -> [5,5,7,8]", "the journal was altered"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "bank.db")
			r := cli(t, dir, []string{"RECONSTRUCT_SANDBOX_CALL_TIMEOUT=120s"}, "run", "--config", quickstartPath(t), "--workspace", filepath.Join(dir, "ws"),
				"--sandbox", "process", "--bank", db, "--run-id", "tampered", "--json")
			if r.code != 0 {
				t.Fatalf("run: exit %d: %s", r.code, r.stderr)
			}
			if r := cli(t, dir, nil, "bank", "--bank", db, "check"); r.code != 0 {
				t.Fatalf("check of a sound bank: exit %d: %s %s", r.code, r.stdout, r.stderr)
			}
			alter(t, db, tt.alter)
			r = cli(t, dir, nil, "bank", "--bank", db, "check")
			var resp struct {
				Error struct {
					Details struct {
						Problems []string `json:"problems"`
					} `json:"details"`
				} `json:"error"`
			}
			if r.code != 1 || json.Unmarshal([]byte(r.stdout), &resp) != nil {
				t.Fatalf("check: exit %d, %s %s; want 1 and the problems", r.code, r.stdout, r.stderr)
			}
			all := strings.Join(resp.Error.Details.Problems, "\n")
			t.Logf("bank check:\n%s", all)
			for _, w := range append(tt.check, "run tampered") {
				if !strings.Contains(all, w) {
					t.Errorf("bank check does not say %q", w)
				}
			}
			r = cli(t, dir, nil, "runs", "show", "tampered", "--bank", db)
			switch {
			case tt.show && (r.code != 3 || !strings.Contains(r.stderr, "tampered") || !strings.Contains(r.stderr, "does not match its hash")):
				t.Errorf("runs show: exit %d, %s %s; want 3 naming the run and the hash", r.code, r.stdout, r.stderr)
			case tt.show && strings.Contains(r.stdout, "[5,5,7,8]"):
				t.Errorf("runs show printed the altered example: %s", r.stdout)
			case !tt.show && (r.code != 0 || !strings.Contains(r.stdout, "[5,5,7,7]")):
				t.Errorf("runs show: exit %d, %s; want the bank's sound examples", r.code, r.stdout)
			}
		})
	}
}

// alter changes [5,5,7,7] to [5,5,7,8] in one row of the table (blobs:
// the head's examples; events: the first batch's event) of the bank at
// db, behind the bank's back.
func alter(t *testing.T, db, table string) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	b := bank.New(st, bank.Options{})
	ws, err := runner.FindRun(ctx, b, "tampered")
	if err != nil {
		t.Fatal(err)
	}
	log, err := b.Log(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	rec := log[len(log)-1]
	h := rec.Inputs["examples"]
	if _, tree := rec.Trees[h]; tree {
		t.Fatal("the examples are stored as a tree: the test wants one blob")
	}
	st.Close()
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	const from, to = `"output":[5,5,7,7]`, `"output":[5,5,7,8]`
	var res sql.Result
	switch table {
	case "blobs":
		res, err = raw.Exec(`DROP TRIGGER blobs_no_update; UPDATE blobs SET data = CAST(replace(CAST(data AS TEXT), ?, ?) AS BLOB) WHERE hash = ?`, from, to, h)
	case "events":
		res, err = raw.Exec(`DROP TRIGGER events_no_update; UPDATE events SET data = CAST(replace(CAST(data AS TEXT), ?, ?) AS BLOB) WHERE workspace = ? AND type = 'batch_granted' AND seq = (SELECT min(seq) FROM events WHERE workspace = ? AND type = 'batch_granted')`, from, to, ws, ws)
	}
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("%d rows altered, want 1", n)
	}
	if _, err := raw.Exec(fmt.Sprintf(`CREATE TRIGGER %s_no_update BEFORE UPDATE ON %s BEGIN SELECT RAISE(ABORT, '%s are append-only'); END`, table, table, table)); err != nil {
		t.Fatal(err)
	}
}
