package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/backend"
	"github.com/reconstruct/reconstruct/bank/postgres/pgtest"
	"github.com/reconstruct/reconstruct/bank/sqlite"
	"github.com/reconstruct/reconstruct/config"
)

const (
	helperEnv     = "RECONSTRUCT_TEST_BANK_HELPER"
	helperArgsEnv = "RECONSTRUCT_TEST_BANK_ARGS"
)

// runBank runs `reconstruct bank --bank db args...` in process.
func runBank(t *testing.T, db, stdin string, args ...string) (string, int) {
	t.Helper()
	out, code, _ := runBankEnv(t, nil, db, stdin, args...)
	return out, code
}

// runBankEnv runs the bank command with the given environment and returns
// its stdout, exit status and error message.
func runBankEnv(t *testing.T, env map[string]string, db, stdin string, args ...string) (string, int, string) {
	t.Helper()
	root := &cobra.Command{Use: "reconstruct", SilenceErrors: true, SilenceUsage: true}
	root.AddCommand(bankCommands(&bankOptions{getenv: func(k string) string { return env[k] }}))
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&bytes.Buffer{})
	root.SetIn(strings.NewReader(stdin))
	root.SetArgs(append([]string{"bank", "--bank", db}, args...))
	err := root.ExecuteContext(context.Background())
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	return out.String(), exitCode(err), msg
}

func decodeResp(t *testing.T, out string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("response %q is not JSON: %v", out, err)
	}
	return m
}

func mustRun(t *testing.T, db, stdin string, args ...string) map[string]any {
	t.Helper()
	out, code := runBank(t, db, stdin, args...)
	if code != 0 {
		t.Fatalf("bank %v: exit %d: %s", args, code, out)
	}
	m := decodeResp(t, out)
	res, _ := m["result"].(map[string]any)
	return res
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	objectsSpec = "../../bank/testdata/objects.json"
	keepLarge   = "../../bank/testdata/keep_large.json"
)

// bankBackend makes fresh, empty bank locations of one kind for the CLI
// conformance tests, which run against every backend.
type bankBackend struct {
	name string
	// location returns a new bank location; the bank does not exist yet
	// (a file) or holds no schema (a PostgreSQL database).
	location func(t *testing.T, dir string) string
}

var bankBackends = []bankBackend{
	{"sqlite", func(t *testing.T, dir string) string { return filepath.Join(dir, "sub", "bank.db") }},
	{"postgres", func(t *testing.T, _ string) string { return pgtest.Database(t) }},
}

// eachBackend runs the test once per backend.
func eachBackend(t *testing.T, test func(t *testing.T, be bankBackend)) {
	for _, be := range bankBackends {
		t.Run(be.name, func(t *testing.T) { test(t, be) })
	}
}

// newObjectsBank creates a bank with keep_large and the objects workspace.
func newObjectsBank(t *testing.T, be bankBackend) (dir, db string) {
	t.Helper()
	dir = t.TempDir()
	db = be.location(t, dir)
	if res := mustRun(t, db, "", "migrate"); res["created"] != true {
		t.Fatalf("migrate = %v", res)
	}
	mustRun(t, db, "", "register", "--name", "keep_large", "--function", keepLarge)
	res := mustRun(t, db, "", "create", "--workspace", "objects", "--spec", objectsSpec)
	if res["revision"] != "r000001" {
		t.Fatalf("create = %v", res)
	}
	return dir, db
}

const proposeOffset = `{"action": "propose", "workspace": "objects", "expected_revision": "r000001",
 "updates": {"offset": {"kind": "point", "data": [0, 2]}}, "locked_outputs": ["original"], "require_target_match": false}`

func TestBankCLIProtocolFlow(t *testing.T) {
	eachBackend(t, func(t *testing.T, be bankBackend) {
		dir, db := newObjectsBank(t, be)
		obs := mustRun(t, db, `{"action": "observe", "workspace": "objects"}`, "act")
		if obs["revision"] != "r000001" {
			t.Fatalf("observe = %v", obs)
		}
		out, code := runBank(t, db, "", "act", writeFile(t, dir, "propose.json", proposeOffset))
		if code != 0 {
			t.Fatalf("propose: exit %d: %s", code, out)
		}
		proposal := writeFile(t, dir, "proposal.json", out)
		// --commit takes the whole proposal response.
		res := mustRun(t, db, "", "act", "--commit", proposal)
		if got := res["revision"].(map[string]any)["revision"]; got != "r000002" {
			t.Fatalf("commit = %v, want r000002", res)
		}
		// ... or a bare receipt; this one is stale now (exit 1).
		receipt, _ := json.Marshal(decodeResp(t, out)["result"].(map[string]any)["receipt"])
		out, code = runBank(t, db, "", "act", "--commit", writeFile(t, dir, "receipt.json", string(receipt)))
		if code != 1 || decodeResp(t, out)["error"].(map[string]any)["code"] != "stale_revision" {
			t.Errorf("second commit: exit %d: %s", code, out)
		}
		fork := mustRun(t, db, `{"action": "fork", "workspace": "objects", "name": "trial", "expected_revision": "r000002"}`, "act", "-")
		if fork["revision"] != "r000002" {
			t.Errorf("fork = %v", fork)
		}
		undo := mustRun(t, db, `{"action": "undo", "workspace": "trial", "expected_revision": "r000002"}`, "act")
		if undo["revision"] != "r000003" {
			t.Errorf("undo = %v", undo)
		}
		cmp := mustRun(t, db, `{"action": "compare", "a": "objects", "b": "trial"}`, "act")
		if in := cmp["inputs"].([]any); len(in) != 1 || in[0].(map[string]any)["name"] != "offset" {
			t.Errorf("compare inputs = %v", cmp["inputs"])
		}
		co := mustRun(t, db, "", "checkout", "--workspace", "trial", "--revision", "r000002")
		if co["revision"] != "r000004" {
			t.Errorf("checkout = %v", co)
		}
		log := mustRun(t, db, "", "log", "--workspace", "trial")
		if n := len(log["revisions"].([]any)); n != 4 {
			t.Errorf("log has %d revisions, want 4", n)
		}
		list := mustRun(t, db, "", "list")
		if n := len(list["workspaces"].([]any)); n != 2 {
			t.Errorf("list = %v", list)
		}
		if ev := mustRun(t, db, "", "events", "--workspace", "objects"); len(ev["events"].([]any)) != 0 {
			t.Errorf("events = %v", ev)
		}
	})
}

func TestBankCLIExitCodes(t *testing.T) {
	eachBackend(t, func(t *testing.T, be bankBackend) {
		dir, db := newObjectsBank(t, be)
		tests := []struct {
			name  string
			stdin string
			args  []string
			code  int
			ecode string
		}{
			{"malformed JSON", `{`, []string{"act"}, 2, "malformed_request"},
			{"unknown action", `{"action": "jump"}`, []string{"act"}, 2, "malformed_request"},
			{"missing workspace", `{"action": "observe", "workspace": "nope"}`, []string{"act"}, 1, "not_found"},
			{"stale propose", strings.Replace(proposeOffset, "r000001", "r000009", 1), []string{"act"}, 1, "stale_revision"},
			{"duplicate workspace", "", []string{"create", "--workspace", "objects", "--spec", objectsSpec}, 1, "exists"},
			{"duplicate function", "", []string{"register", "--name", "keep_large", "--function", keepLarge}, 1, "exists"},
			{"bad spec", `{"inputs": {}, "nodes": [], "outputs": {"x": "y"}}`, []string{"create", "--workspace", "w2", "--spec", "-"}, 1, "invalid_graph"},
			{"not a receipt", "", []string{"act", "--commit", writeFile(t, dir, "junk.json", `{"hello": 1}`)}, 2, "malformed_request"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				out, code := runBank(t, db, tt.stdin, tt.args...)
				if code != tt.code {
					t.Errorf("exit = %d, want %d: %s", code, tt.code, out)
				}
				if got := decodeResp(t, out)["error"].(map[string]any)["code"]; got != tt.ecode {
					t.Errorf("code = %v, want %s", got, tt.ecode)
				}
			})
		}
		if _, code := runBank(t, db, "", "act", filepath.Join(dir, "missing.json")); code != 2 {
			t.Errorf("missing action file: exit %d, want 2", code)
		}
		for _, args := range [][]string{{"log"}, {"events"}, {"create", "--workspace", "x"}, {"register", "--function", keepLarge}, {"checkout", "--workspace", "objects"},
			{"register", "--name", "x"}, {"serve"}, {"act", "a.json", "--commit", "b.json"}} {
			if _, code := runBank(t, db, "", args...); code != 2 {
				t.Errorf("bank %v: exit %d, want 2", args, code)
			}
		}
	})
}

// runBankResolving runs `reconstruct bank args...` in process with an
// environment and no --bank; stderr is returned too.
func runBankResolving(t *testing.T, env map[string]string, args ...string) (string, string, int) {
	t.Helper()
	root := &cobra.Command{Use: "reconstruct", SilenceErrors: true, SilenceUsage: true}
	var out, errb bytes.Buffer
	a := &app{stdout: &out, stderr: &errb, getenv: func(k string) string { return env[k] }, logLevel: "warn", logFormat: "text"}
	if err := a.setupLog(); err != nil {
		t.Fatal(err)
	}
	root.AddCommand(bankCommands(&bankOptions{getenv: a.getenv, log: a.logger()}))
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(append([]string{"bank"}, args...))
	err := root.ExecuteContext(context.Background())
	return out.String(), errb.String(), exitCode(err)
}

// Every bank command finds its bank the same way: --bank, then
// RECONSTRUCT_BANK_PATH, then RECONSTRUCT_BANK (with a warning), then the
// per-user data directory.
func TestBankCLILocation(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name        string
		env         map[string]string
		args        []string
		want        string
		wantWarning bool
	}{
		{name: "flag", env: map[string]string{config.BankPathEnv: filepath.Join(dir, "env.db")}, args: []string{"--bank", filepath.Join(dir, "flag.db")}, want: filepath.Join(dir, "flag.db")},
		{name: "RECONSTRUCT_BANK_PATH", env: map[string]string{config.BankPathEnv: filepath.Join(dir, "env.db"), config.LegacyBankEnv: filepath.Join(dir, "old.db")}, want: filepath.Join(dir, "env.db")},
		{name: "RECONSTRUCT_BANK, with a warning", env: map[string]string{config.LegacyBankEnv: filepath.Join(dir, "old.db")}, want: filepath.Join(dir, "old.db"), wantWarning: true},
		{name: "XDG_DATA_HOME", env: map[string]string{"XDG_DATA_HOME": filepath.Join(dir, "xdg"), "HOME": filepath.Join(dir, "home")}, want: filepath.Join(dir, "xdg", "reconstruct", "bank.db")},
		{name: "HOME", env: map[string]string{"HOME": filepath.Join(dir, "home")}, want: filepath.Join(dir, "home", ".local", "share", "reconstruct", "bank.db")},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := fmt.Sprintf("w%d", i)
			out, errOut, code := runBankResolving(t, tt.env, append(tt.args, "register", "--name", ws, "--function", keepLarge)...)
			if code != 0 {
				t.Fatalf("register: exit %d: %s %s", code, out, errOut)
			}
			if _, err := os.Stat(tt.want); err != nil {
				t.Errorf("no bank at %s: %v", tt.want, err)
			}
			if got := strings.Contains(errOut, "reconstruct: warning: RECONSTRUCT_BANK is deprecated"); got != tt.wantWarning {
				t.Errorf("stderr %q: warning %v, want %v", errOut, got, tt.wantWarning)
			}
		})
	}
	// Without any of them there is no bank to find: a usage error.
	if _, errOut, code := runBankResolving(t, map[string]string{}, "list"); code != 2 {
		t.Errorf("no home: exit %d %s", code, errOut)
	}
}

// Reading never creates a bank: a missing one is reported, naming where
// it was looked for.
func TestBankCLIReadingCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "sub", "bank.db")
	for _, args := range [][]string{{"list"}, {"log", "--workspace", "x"}, {"events", "--workspace", "x"}, {"check"}, {"act"}} {
		stdin := ""
		if args[0] == "act" {
			stdin = `{"action": "observe", "workspace": "x"}`
		}
		out, code := runBank(t, db, stdin, args...)
		if code != 1 || !strings.Contains(out, "not_found") || !strings.Contains(out, db) {
			t.Errorf("bank %v on a missing bank: exit %d, %s", args, code, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "sub")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a reading command created %s", filepath.Join(dir, "sub"))
	}
}

// A file that exists but is no sound bank is refused, naming it, never
// started afresh; `bank check` runs the full integrity check.
func TestBankCLIRefusesBrokenFiles(t *testing.T) {
	dir, good := newObjectsBank(t, bankBackends[0]) // SQLite files only: check and quick_check are SQLite's
	if out, code := runBank(t, good, "", "check"); code != 0 || !strings.Contains(out, `"integrity":"ok"`) {
		t.Fatalf("check of a sound bank: exit %d %s", code, out)
	}
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o600)
	corrupt := filepath.Join(dir, "corrupt.db")
	corruptCopy(t, good, corrupt)
	// An empty file is no bank at all (bad input, exit 2); a damaged
	// bank is a failure of its storage (exit 3).
	for _, tt := range []struct {
		name, db, want string
		code           int
	}{
		{"empty", empty, "empty", 2},
		{"corrupted", corrupt, corrupt, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := os.ReadFile(tt.db)
			out, code, msg := runBankEnv(t, nil, tt.db, "", "create", "--workspace", "new", "--spec", objectsSpec)
			if code != tt.code || !strings.Contains(out+msg, tt.db) || !strings.Contains(out+msg, tt.want) {
				t.Errorf("write into the %s bank: exit %d, %s %s", tt.name, code, out, msg)
			}
			if after, _ := os.ReadFile(tt.db); !bytes.Equal(before, after) {
				t.Errorf("the %s bank file was changed", tt.name)
			}
			out, code = runBank(t, tt.db, "", "check")
			if code != 1 || !strings.Contains(out, "integrity_failed") {
				t.Errorf("check of the %s bank: exit %d, %s", tt.name, code, out)
			}
		})
	}
}

// corruptCopy copies a bank file and overwrites part of one of its pages
// past the header, as a disk fault would.
func corruptCopy(t *testing.T, from, to string) {
	t.Helper()
	// Fold the WAL into the main file first.
	st, err := sqlite.Open(context.Background(), from)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 3*4096 {
		t.Fatalf("bank file too small to corrupt: %d bytes", len(data))
	}
	page := 2 * 4096
	for i := page + 8; i < page+4096-8; i++ {
		data[i] = 0xA5
	}
	if err := os.WriteFile(to, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestBankServeStdio(t *testing.T) {
	eachBackend(t, func(t *testing.T, be bankBackend) {
		_, db := newObjectsBank(t, be)
		in := strings.Join([]string{
			`{"action": "observe", "workspace": "objects"}`,
			`not json at all`,
			``,
			`{"action": "observe"}`,
			strings.ReplaceAll(proposeOffset, "\n", " "),
			`[1, 2`,
			`{"action": "list"}`,
		}, "\n")
		out, code := runBank(t, db, in, "serve", "--stdio")
		if code != 0 {
			t.Fatalf("serve exit %d", code)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		want := []bool{true, false, false, true, false, true}
		if len(lines) != len(want) {
			t.Fatalf("%d response lines, want %d:\n%s", len(lines), len(want), out)
		}
		for i, l := range lines {
			m := decodeResp(t, l)
			if m["ok"] != want[i] {
				t.Errorf("line %d: ok = %v, want %v: %s", i, m["ok"], want[i], l)
			}
			if !want[i] && m["error"].(map[string]any)["code"] != "malformed_request" {
				t.Errorf("line %d: %s", i, l)
			}
		}
	})
}

func FuzzServeStdio(f *testing.F) {
	f.Add([]byte(`{"action": "observe", "workspace": "objects"}` + "\n" + `{"action":"list"}`))
	f.Add([]byte(strings.ReplaceAll(proposeOffset, "\n", " ")))
	f.Add([]byte(`{"action": "commit", "receipt": {"proposal_id": "x", "payload": {}, "signature": "y"}}`))
	f.Add([]byte("\x00\n{\"action\":\n"))
	st, err := sqlite.Open(context.Background(), filepath.Join(f.TempDir(), "bank.db"))
	if err != nil {
		f.Fatal(err)
	}
	defer st.Close()
	b := bank.New(st, bank.Options{})
	spec, _ := os.ReadFile(objectsSpec)
	kl, _ := os.ReadFile(keepLarge)
	b.Act(context.Background(), []byte(`{"action":"register","name":"keep_large","function":`+string(kl)+`}`))
	b.Act(context.Background(), []byte(`{"action":"create","workspace":"objects","spec":`+string(spec)+`}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		if err := serveLines(context.Background(), b, bytes.NewReader(data), &out); err != nil {
			t.Fatalf("serve: %v", err)
		}
		nonEmpty := 0
		for _, l := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 {
				nonEmpty++
			}
		}
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 1<<26)
		n := 0
		for sc.Scan() {
			n++
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatalf("response %q is not JSON", sc.Bytes())
			}
			if _, ok := m["ok"].(bool); !ok {
				t.Fatalf("response without ok: %s", sc.Bytes())
			}
		}
		if n != nonEmpty {
			t.Fatalf("%d responses for %d non-empty lines", n, nonEmpty)
		}
	})
}

// TestBankHelperProcess is not a test: the subprocess tests re-execute the
// test binary with helperEnv set, and this runs the bank command (or a
// commit loop) in that child process.
func TestBankHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("helper process for the subprocess tests")
	}
	var args []string
	if err := json.Unmarshal([]byte(os.Getenv(helperArgsEnv)), &args); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	switch mode {
	case "cli":
		root := &cobra.Command{Use: "reconstruct", SilenceErrors: true, SilenceUsage: true}
		root.AddCommand(bankCommands(&bankOptions{getenv: os.Getenv}))
		root.SetArgs(args)
		os.Exit(exitCode(root.ExecuteContext(context.Background())))
	case "commit-loop":
		// args: [db]; propose and commit minimum = 1, 2, 3, … until killed.
		ctx := context.Background()
		st, err := backend.Open(ctx, args[0], backend.Options{})
		if err != nil {
			os.Exit(3)
		}
		b := bank.New(st, bank.Options{})
		for i := 1; ; i++ {
			fb, err := b.Propose(ctx, &bank.Proposal{Workspace: "objects", Updates: map[string]bank.Value{"minimum": bank.Index(int64(i % 5))}})
			if err != nil {
				os.Exit(4)
			}
			if _, err := b.Commit(ctx, fb.Receipt, ""); err != nil {
				os.Exit(5)
			}
			fmt.Println(i)
		}
	}
	os.Exit(2)
}

func helperCmd(t *testing.T, mode string, args ...string) *exec.Cmd {
	t.Helper()
	raw, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^TestBankHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperArgsEnv+"="+string(raw))
	return cmd
}

func TestBankConcurrentCommits(t *testing.T) {
	eachBackend(t, func(t *testing.T, be bankBackend) {
		dir, db := newObjectsBank(t, be)
		for round := 0; round < 3; round++ {
			head := bank.RevisionName(round + 1)
			var files []string
			for i := 0; i < 2; i++ {
				p := fmt.Sprintf(`{"action": "propose", "workspace": "objects", "expected_revision": %q, "updates": {"minimum": {"kind": "index", "data": %d}}}`, head, 10*round+i+1)
				out, code := runBank(t, db, p, "act")
				if code != 0 {
					t.Fatalf("propose: %s", out)
				}
				files = append(files, writeFile(t, dir, fmt.Sprintf("p%d_%d.json", round, i), out))
			}
			var wg sync.WaitGroup
			outs := make([]string, 2)
			codes := make([]int, 2)
			for i := range files {
				wg.Add(1)
				go func() {
					defer wg.Done()
					cmd := helperCmd(t, "cli", "bank", "--bank", db, "act", "--commit", files[i])
					var out bytes.Buffer
					cmd.Stdout = &out
					err := cmd.Run()
					outs[i], codes[i] = out.String(), cmd.ProcessState.ExitCode()
					if err != nil && codes[i] < 0 {
						t.Errorf("helper: %v", err)
					}
				}()
			}
			wg.Wait()
			wins, stale := 0, 0
			for i := range outs {
				switch {
				case codes[i] == 0:
					wins++
				case codes[i] == 1 && strings.Contains(outs[i], `"stale_revision"`):
					stale++
				default:
					t.Errorf("round %d process %d: exit %d: %s", round, i, codes[i], outs[i])
				}
			}
			if wins != 1 || stale != 1 {
				t.Fatalf("round %d: %d wins and %d stale, want 1 and 1", round, wins, stale)
			}
			log := mustRun(t, db, "", "log", "--workspace", "objects")
			if n := len(log["revisions"].([]any)); n != round+2 {
				t.Fatalf("round %d: %d revisions, want %d", round, n, round+2)
			}
		}
		checkBankConsistent(t, db)
	})
}

// checkBankConsistent opens the bank, runs SQLite's integrity check on a
// file, and loads and evaluates every revision of every workspace.
func checkBankConsistent(t *testing.T, db string) int {
	t.Helper()
	ctx := context.Background()
	st, err := backend.Open(ctx, db, backend.Options{})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer st.Close()
	if lite, ok := st.(*sqlite.Store); ok {
		if res := lite.IntegrityCheck(ctx); res != "ok" {
			t.Fatalf("integrity check: %s", res)
		}
	}
	b := bank.New(st, bank.Options{})
	wss, err := b.Workspaces(ctx)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, w := range wss {
		log, err := b.Log(ctx, w.Name)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range log {
			if r.Name != bank.RevisionName(i+1) {
				t.Fatalf("%s: revision %d is named %s", w.Name, i+1, r.Name)
			}
			if _, err := b.Observe(ctx, w.Name, r.Name); err != nil {
				t.Fatalf("%s@%s: %v", w.Name, r.Name, err)
			}
		}
		total += len(log)
	}
	return total
}

func TestBankCrashDuringCommit(t *testing.T) {
	eachBackend(t, func(t *testing.T, be bankBackend) {
		if testing.Short() {
			t.Skip("kills subprocesses")
		}
		_, db := newObjectsBank(t, be)
		revisions := func() int {
			log := mustRun(t, db, "", "log", "--workspace", "objects")
			return len(log["revisions"].([]any))
		}
		for i, delay := range []time.Duration{30, 80, 150, 250, 400} {
			before := revisions()
			cmd := helperCmd(t, "commit-loop", db)
			var out bytes.Buffer
			cmd.Stdout = &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(delay * time.Millisecond)
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			reported := strings.Count(out.String(), "\n")
			checkBankConsistent(t, db)
			// Every reported commit is durable; at most one more exists (killed
			// after its transaction committed, before it was printed).
			added := revisions() - before
			t.Logf("kill %d after %v: %d commits reported, %d revisions added", i, delay*time.Millisecond, reported, added)
			if added != reported && added != reported+1 {
				t.Errorf("kill %d: %d revisions added, %d commits reported", i, added, reported)
			}
		}
	})
}

func TestBankCLIRejectedProposalAndPrograms(t *testing.T) {
	eachBackend(t, func(t *testing.T, be bankBackend) {
		dir, db := newObjectsBank(t, be)
		out, code := runBank(t, db, `{"action": "propose", "workspace": "objects", "updates": {"minimum": {"kind": "index", "data": 1}}, "locked_outputs": ["count"]}`, "act")
		if code != 1 || decodeResp(t, out)["error"].(map[string]any)["code"] != "constraint_failed" {
			t.Fatalf("propose: exit %d: %s", code, out)
		}
		// A rejected proposal response still carries its receipt; committing it
		// is rejected the same way.
		out, code = runBank(t, db, "", "act", "--commit", writeFile(t, dir, "rejected.json", out))
		if code != 1 || decodeResp(t, out)["error"].(map[string]any)["code"] != "constraint_failed" {
			t.Errorf("commit of a rejected proposal: exit %d: %s", code, out)
		}
		prog, err := bank.NewProgram("solve", "def solve(x):\n    return x\n")
		if err != nil {
			t.Fatal(err)
		}
		res := mustRun(t, db, "", "register", "--name", "candidate", "--program", writeFile(t, dir, "prog.json", string(prog.Canonical())))
		if res["name"] != "candidate" {
			t.Errorf("register --program = %v", res)
		}
		list := mustRun(t, db, "", "list")
		var names []string
		for _, f := range list["functions"].([]any) {
			names = append(names, f.(map[string]any)["name"].(string)+":"+f.(map[string]any)["kind"].(string))
		}
		if got, want := strings.Join(names, ","), "candidate:program,keep_large:function"; got != want {
			t.Errorf("functions = %s, want %s", got, want)
		}
	})
}

func TestServeStopsWhileIdle(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "bank.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b := bank.New(st, bank.Options{})
	in, _ := io.Pipe() // a client that never writes
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveLines(ctx, b, in, io.Discard) }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve after cancel: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("serve --stdio kept waiting for input after its context ended")
	}
}

func TestBankMigrate(t *testing.T) {
	eachBackend(t, func(t *testing.T, be bankBackend) {
		db := be.location(t, t.TempDir())
		if be.name == "postgres" {
			// A database without a bank is not silently given one.
			_, code, msg := runBankEnv(t, nil, db, "", "list")
			if code != 2 || !strings.Contains(msg, "bank migrate") {
				t.Errorf("list before migrate: exit %d, %q; want 2 saying to run bank migrate", code, msg)
			}
		}
		res := mustRun(t, db, "", "migrate")
		if res["created"] != true || res["from_version"] != 0.0 || res["changed"] != true {
			t.Errorf("first migrate = %v", res)
		}
		res = mustRun(t, db, "", "migrate")
		if res["created"] != false || res["changed"] != false || res["from_version"] != res["version"] {
			t.Errorf("second migrate = %v", res)
		}
		if list := mustRun(t, db, "", "list"); list == nil {
			t.Error("list after migrate")
		}
	})
}

func TestBankUnreachableServerExits3(t *testing.T) {
	// Nothing listens on port 1: every attempt is refused at once.
	db := "postgres://reconstruct:secret@127.0.0.1:1/bank?sslmode=disable&connect_timeout=2"
	env := map[string]string{"RECONSTRUCT_BANK_RETRY": "1s"}
	start := time.Now()
	_, code, msg := runBankEnv(t, env, db, "", "list")
	if code != 3 || !strings.Contains(msg, "127.0.0.1:1/bank") || strings.Contains(msg, "secret") {
		t.Errorf("exit %d, %q; want 3 naming the bank without its password", code, msg)
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("gave up after %v with a 1s retry bound", took)
	}
	if _, code, msg := runBankEnv(t, map[string]string{"RECONSTRUCT_BANK_RETRY": "soon"}, db, "", "list"); code != 2 || !strings.Contains(msg, "RECONSTRUCT_BANK_RETRY") {
		t.Errorf("a bad retry bound: exit %d, %q", code, msg)
	}
}
