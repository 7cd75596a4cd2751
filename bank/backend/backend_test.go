package backend

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/postgres"
	"github.com/reconstruct/reconstruct/bank/postgres/pgtest"
)

// kind is one backend for the tests and benchmarks that run on both.
type kind struct {
	name string
	// newBank returns the location of a new, migrated bank.
	newBank func(t testing.TB) string
}

var kinds = []kind{
	{"sqlite", func(t testing.TB) string {
		loc := filepath.Join(t.TempDir(), "bank.db")
		if _, err := Migrate(context.Background(), loc, Options{}); err != nil {
			t.Fatal(err)
		}
		return loc
	}},
	{"postgres", func(t testing.TB) string {
		loc := pgtest.Database(t)
		if _, err := Migrate(context.Background(), loc, Options{}); err != nil {
			t.Fatal(err)
		}
		return loc
	}},
}

func openBank(t testing.TB, loc string) *bank.Bank {
	t.Helper()
	st, err := Open(context.Background(), loc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return bank.New(st, bank.Options{})
}

func TestIsPostgresAndDescribe(t *testing.T) {
	tests := []struct {
		loc      string
		postgres bool
		shown    string
	}{
		{"postgres://u:pw@h:5432/db?sslmode=require", true, "postgres://u:xxxxx@h:5432/db?sslmode=require"},
		{"PostgreSQL://h/db", true, "PostgreSQL://h/db"},
		{".reconstruct/bank.db", false, ".reconstruct/bank.db"},
		{"/tmp/postgres:/x.db", false, "/tmp/postgres:/x.db"},
		{"mysql://h/db", false, "mysql://h/db"},
	}
	for _, tt := range tests {
		if got := IsPostgres(tt.loc); got != tt.postgres {
			t.Errorf("IsPostgres(%s) = %v", tt.loc, got)
		}
		if got := Describe(tt.loc); got != tt.shown {
			t.Errorf("Describe(%s) = %s, want %s", tt.loc, got, tt.shown)
		}
	}
}

func TestSettings(t *testing.T) {
	key := strings.Repeat("ab", 32)
	tests := []struct {
		name  string
		env   map[string]string
		want  postgres.Options
		error string
	}{
		{"none", nil, postgres.Options{}, ""},
		{"key", map[string]string{KeyEnv: key}, postgres.Options{Key: bytes.Repeat([]byte{0xab}, 32)}, ""},
		{"short key", map[string]string{KeyEnv: "abcd"}, postgres.Options{}, "2 bytes, want at least 32"},
		{"key not hex", map[string]string{KeyEnv: strings.Repeat("zz", 32)}, postgres.Options{}, "not hexadecimal"},
		{"retry bound", map[string]string{RetryEnv: "90s"}, postgres.Options{RetryFor: 90 * time.Second}, ""},
		{"no retries", map[string]string{RetryEnv: "0"}, postgres.Options{RetryFor: -1}, ""},
		{"bad retry", map[string]string{RetryEnv: "soon"}, postgres.Options{}, "want a duration"},
		{"negative retry", map[string]string{RetryEnv: "-1s"}, postgres.Options{}, "want a duration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pgOptions(Options{Getenv: func(k string) string { return tt.env[k] }})
			if tt.error != "" {
				if err == nil || !strings.Contains(err.Error(), tt.error) || !errors.Is(err, ErrSetting) {
					t.Fatalf("err = %v, want ErrSetting saying %q", err, tt.error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got.Key) != string(tt.want.Key) || got.RetryFor != tt.want.RetryFor {
				t.Errorf("options = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestKeyFromEnvironment: RECONSTRUCT_BANK_KEY replaces the key stored in
// a PostgreSQL bank; a receipt signed with one key is refused under the
// other.
func TestKeyFromEnvironment(t *testing.T) {
	ctx := context.Background()
	loc := kinds[1].newBank(t)
	env := func(k string) string {
		if k == KeyEnv {
			return strings.Repeat("5a", 32)
		}
		return ""
	}
	st, err := Open(ctx, loc, Options{Getenv: env})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if k, err := st.Key(ctx); err != nil || string(k) != strings.Repeat("Z", 32) {
		t.Fatalf("key = %q, %v; want the environment's", k, err)
	}
	withEnv := bank.New(st, bank.Options{})
	stored := openBank(t, loc)
	createCounter(t, stored)
	fb, err := withEnv.Propose(ctx, &bank.Proposal{Workspace: "w", Updates: map[string]bank.Value{"n": bank.Index(3)}})
	if err != nil {
		t.Fatal(err)
	}
	var ae *bank.ActionError
	if _, err := stored.Commit(ctx, fb.Receipt, ""); !errors.As(err, &ae) || ae.Code != bank.CodeReceiptTampered {
		t.Errorf("a receipt signed with the environment's key, committed under the stored key: %v", err)
	}
	if _, err := withEnv.Commit(ctx, fb.Receipt, ""); err != nil {
		t.Errorf("commit under the same key: %v", err)
	}
}

// createCounter creates workspace "w": an index input n and its double.
func createCounter(t testing.TB, b *bank.Bank) {
	t.Helper()
	g := &bank.Graph{Inputs: map[string]bank.Value{"n": bank.Index(0)},
		Nodes:   []bank.Node{{ID: "twice", Op: "number.add", Args: map[string]string{"a": "n", "b": "n"}}},
		Outputs: map[string]string{"twice": "twice"}}
	if _, err := b.Create(context.Background(), "w", g, ""); err != nil {
		t.Fatal(err)
	}
}

func TestOpenRefusesSchemas(t *testing.T) {
	ctx := context.Background()
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			loc := k.newBank(t)
			st, err := Open(ctx, loc, Options{})
			if err != nil {
				t.Fatal(err)
			}
			st.Close()
			// A newer schema, as a newer build would leave it.
			raw := map[string]string{"sqlite": `UPDATE schema_version SET version = 99`, "postgres": `INSERT INTO schema_migrations(version) VALUES (99)`}
			execRaw(t, k.name, loc, raw[k.name])
			for _, open := range []func() error{
				func() error { _, err := Open(ctx, loc, Options{}); return err },
				func() error { _, err := Migrate(ctx, loc, Options{}); return err },
			} {
				if err := open(); !errors.Is(err, bank.ErrSchema) || !strings.Contains(err.Error(), "newer") {
					t.Errorf("a newer schema: %v", err)
				}
			}
		})
	}
}

// A SQLite path that exists but holds no sound bank is refused, naming
// it, and left as it was: an empty file is never made a new bank.
func TestOpenRefusesNoBankFile(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, bytes.Repeat([]byte("not a database "), 400), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, loc, want string }{
		{"empty file", empty, "is empty (0 bytes)"},
		{"not a database", garbage, "not a sound bank file"},
		{"directory", dir, "is not a regular file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := os.ReadFile(tt.loc)
			st, err := Open(context.Background(), tt.loc, Options{})
			if err == nil {
				st.Close()
				t.Fatalf("opened %s as a bank", tt.loc)
			}
			if !strings.Contains(err.Error(), tt.loc) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q: want the path and %q", err, tt.want)
			}
			if after, _ := os.ReadFile(tt.loc); !bytes.Equal(before, after) {
				t.Errorf("%s was changed", tt.loc)
			}
		})
	}
	// A missing file is still created, as a new bank.
	st, err := Open(context.Background(), filepath.Join(dir, "new.db"), Options{})
	if err != nil {
		t.Fatalf("a new bank: %v", err)
	}
	st.Close()
}

// execRaw runs one SQL statement on a bank, past the stores.
func execRaw(t *testing.T, kind, loc, q string) {
	t.Helper()
	ctx := context.Background()
	if kind == "postgres" {
		conn, err := pgx.Connect(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
		return
	}
	db, err := sql.Open("sqlite", loc) // the driver bank/sqlite registers
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, q); err != nil {
		t.Fatal(err)
	}
}

const (
	helperEnv = "RECONSTRUCT_TEST_BACKEND_HELPER"
	// helperAttempts is how many commits each process attempts.
	helperAttempts = 12
	processes      = 8
)

// TestHelperProcess is not a test: TestEightProcessesCommit runs the test
// binary again with helperEnv set to "LOCATION\tID\tGOFILE", and this
// commits from that child process once GOFILE exists.
func TestHelperProcess(t *testing.T) {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		t.Skip("helper process for TestEightProcessesCommit")
	}
	parts := strings.Split(spec, "\t")
	if err := commitLoop(parts[0], parts[1], parts[2]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	os.Exit(0)
}

// commitLoop attempts helperAttempts commits on workspace w, each against
// the head it saw, printing "won rNNNNNN" or "stale" and journalling one
// event per attempt.
func commitLoop(loc, id, goFile string) error {
	ctx := context.Background()
	st, err := Open(ctx, loc, Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	b := bank.New(st, bank.Options{})
	for deadline := time.Now().Add(time.Minute); ; {
		if _, err := os.Stat(goFile); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return errors.New("no start signal")
		}
		time.Sleep(time.Millisecond)
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for i := range helperAttempts {
		var n int64
		fmt.Sscan(id, &n)
		fb, err := b.Propose(ctx, &bank.Proposal{Workspace: "w", Updates: map[string]bank.Value{"n": bank.Index(100*n + int64(i))}})
		if err != nil {
			return fmt.Errorf("propose %d: %w", i, err)
		}
		res, err := b.Commit(ctx, fb.Receipt, "process "+id)
		var ae *bank.ActionError
		outcome := map[string]any{"process": id, "attempt": i}
		switch {
		case err == nil:
			outcome["won"] = res.Revision.Name
			fmt.Fprintf(out, "won %s\n", res.Revision.Name)
		case errors.As(err, &ae) && ae.Code == bank.CodeStale:
			outcome["stale"] = true
			fmt.Fprintln(out, "stale")
		default:
			return fmt.Errorf("commit %d: %w", i, err)
		}
		data, _ := json.Marshal(outcome)
		if err := b.AppendEvents(ctx, "w", []bank.Event{{RunID: id, Type: "attempt", Data: data}}); err != nil {
			return fmt.Errorf("event %d: %w", i, err)
		}
	}
	return nil
}

// TestEightProcessesCommit: 8 processes commit to one workspace at once;
// every revision has exactly one winner, the losers are told stale_revision,
// and every process's journal entry is there.
func TestEightProcessesCommit(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			loc := k.newBank(t)
			b := openBank(t, loc)
			createCounter(t, b)
			goFile := filepath.Join(t.TempDir(), "go")
			outs := make([]bytes.Buffer, processes)
			errs := make([]bytes.Buffer, processes)
			cmds := make([]*exec.Cmd, processes)
			for p := range processes {
				cmds[p] = exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
				cmds[p].Env = append(os.Environ(), helperEnv+"="+loc+"\t"+fmt.Sprint(p)+"\t"+goFile)
				cmds[p].Stdout, cmds[p].Stderr = &outs[p], &errs[p]
				if err := cmds[p].Start(); err != nil {
					t.Fatal(err)
				}
			}
			time.Sleep(200 * time.Millisecond) // let them connect
			if err := os.WriteFile(goFile, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			for p := range processes {
				wg.Add(1)
				go func() { defer wg.Done(); _ = cmds[p].Wait() }()
			}
			wg.Wait()
			winners := map[string]int{}
			stale := 0
			for p := range processes {
				if code := cmds[p].ProcessState.ExitCode(); code != 0 {
					t.Fatalf("process %d: exit %d: %s", p, code, errs[p].String())
				}
				for _, line := range strings.Split(strings.TrimSpace(outs[p].String()), "\n") {
					if name, ok := strings.CutPrefix(line, "won "); ok {
						if q, dup := winners[name]; dup {
							t.Errorf("%s was won by processes %d and %d", name, q, p)
						}
						winners[name] = p
					} else if line == "stale" {
						stale++
					} else {
						t.Errorf("process %d said %q", p, line)
					}
				}
			}
			if len(winners)+stale != processes*helperAttempts {
				t.Fatalf("%d wins + %d stale, want %d attempts", len(winners), stale, processes*helperAttempts)
			}
			log, err := b.Log(context.Background(), "w")
			if err != nil {
				t.Fatal(err)
			}
			if len(log) != len(winners)+1 {
				t.Fatalf("%d revisions after %d wins", len(log), len(winners))
			}
			for i, r := range log[1:] {
				p, ok := winners[r.Name]
				if !ok || r.Message != fmt.Sprintf("process %d", p) || r.Parent != log[i].Name {
					t.Errorf("%s (%q, parent %s) was not won by exactly one process on %s", r.Name, r.Message, r.Parent, log[i].Name)
				}
			}
			events, err := b.Events(context.Background(), "w")
			if err != nil {
				t.Fatal(err)
			}
			var seen []string
			for _, e := range events {
				var o struct {
					Process string
					Attempt int
				}
				if err := json.Unmarshal(e.Data, &o); err != nil {
					t.Fatal(err)
				}
				seen = append(seen, fmt.Sprintf("%s/%02d", o.Process, o.Attempt))
			}
			slices.Sort(seen)
			seen = slices.Compact(seen)
			if len(events) != processes*helperAttempts || len(seen) != len(events) {
				t.Errorf("%d events (%d distinct), want %d", len(events), len(seen), processes*helperAttempts)
			}
			t.Logf("%d processes × %d attempts: %d revisions won, %d stale", processes, helperAttempts, len(winners), stale)
		})
	}
}
