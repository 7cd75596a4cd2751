package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/backend"
	"github.com/reconstruct/reconstruct/bank/postgres"
	"github.com/reconstruct/reconstruct/bank/postgres/pgtest"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/workflow"
)

// sharedBank creates a PostgreSQL bank through `bank migrate`.
func sharedBank(t *testing.T, dir, loc string) {
	t.Helper()
	if r := cli(t, dir, nil, "bank", "migrate", "--bank", loc); r.code != 0 {
		t.Fatalf("bank migrate: exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
}

// TestRunOnSharedBank: a run recorded in a PostgreSQL bank on one machine
// is listed, shown and its candidates inspected from another machine that
// does not have the run's workspace.
func TestRunOnSharedBank(t *testing.T) {
	testenv.NeedPython(t)
	loc := pgtest.Database(t)
	machineA, machineB := t.TempDir(), t.TempDir()
	sharedBank(t, machineA, loc)
	ws := filepath.Join(machineA, "ws")
	r := cli(t, machineA, []string{"RECONSTRUCT_SANDBOX_KIND=process"}, "run", "--config", quickstartPath(t), "--workspace", ws, "--bank", loc, "--json")
	if r.code != 0 {
		t.Fatalf("run: exit %d\n%s", r.code, r.stderr)
	}
	var res workflow.Result
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(machineA, ".reconstruct")); !os.IsNotExist(err) {
		t.Errorf("the run made a local bank beside the shared one (%v)", err)
	}
	env := []string{"XDG_CACHE_HOME=" + filepath.Join(machineB, "cache")}
	gone := filepath.Join(machineB, "ws") // the workspace is not on machine B
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"runs", "list", "--bank", loc}, res.RunID},
		{[]string{"runs", "show", res.RunID, "--bank", loc}, "early_stop"},
		{[]string{"candidates", "list", gone, "--run", res.RunID, "--bank", loc}, "\n6     " + res.RunID},
		{[]string{"candidates", "show", gone, "2", "--run", res.RunID, "--bank", loc}, "best = x if best is None"},
		{[]string{"candidates", "diff", gone, "1", "2", "--run", res.RunID, "--bank", loc}, "-    return sorted(input_data)"},
		{[]string{"candidates", "rescore", gone, "--run", res.RunID, "--bank", loc, "--sandbox", "process"}, "30/30"},
	} {
		r := cli(t, machineB, env, tt.args...)
		if r.code != 0 || !strings.Contains(r.stdout, tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", tt.args, r.code, firstN(r.stdout, 400), r.stderr, tt.want)
		}
	}
	if r := cli(t, machineB, env, "candidates", "list", gone, "--run", "nosuchrun", "--bank", loc); r.code != 2 || !strings.Contains(r.stderr, "nosuchrun") {
		t.Errorf("an unknown run: exit %d, %s", r.code, r.stderr)
	}
	if r := cli(t, machineB, nil, "run", "--resume", res.RunID, "--bank", loc); r.code != 2 || !strings.Contains(r.stderr, "finished") {
		t.Errorf("resume of a finished run: exit %d, %s", r.code, r.stderr)
	}
}

// bankEvents counts the journal events of the bank's only run workspace.
func bankEvents(t *testing.T, loc string) (string, int) {
	t.Helper()
	ctx := context.Background()
	st, err := backend.Open(ctx, loc, backend.Options{Getenv: func(k string) string {
		if k == backend.RetryEnv {
			return "0"
		}
		return ""
	}})
	if err != nil {
		return "", 0
	}
	defer st.Close()
	wss, err := st.Workspaces(ctx)
	if err != nil || len(wss) != 1 {
		return "", 0
	}
	evs, _ := st.Events(ctx, wss[0].Name)
	return wss[0].Name, len(evs)
}

// startRun starts `reconstruct run` on the quickstart with the bank at loc
// and waits until its journal in the bank has a few events.
func startRun(t *testing.T, dir, ws, loc string, env ...string) (*exec.Cmd, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "run", "--config", quickstartPath(t), "--workspace", ws, "--bank", loc, "--json")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), asCLI+"=1", "RECONSTRUCT_SANDBOX_KIND=process"), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		if _, n := bankEvents(t, loc); n >= 3 {
			return cmd, &stderr
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the run recorded nothing in a minute: %s", stderr.String())
		}
	}
}

// checkJournals: the bank's journal of the run holds exactly the events
// of the workspace's events.jsonl, and every revision loads.
func checkJournals(t *testing.T, loc, ws string) {
	t.Helper()
	name, n := bankEvents(t, loc)
	raw, err := os.ReadFile(filepath.Join(ws, workflow.EventsFile))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(raw), "\n"); lines != n {
		t.Errorf("the bank holds %d events of %s, the workspace journal %d", n, name, lines)
	}
	st, err := backend.Open(context.Background(), loc, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b := bank.New(st, bank.Options{})
	log, err := b.Log(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range log {
		if r.Name != bank.RevisionName(i+1) {
			t.Fatalf("revision %d is named %s", i+1, r.Name)
		}
		if _, err := b.Load(context.Background(), name, r.Name); err != nil {
			t.Fatalf("%s@%s: %v", name, r.Name, err)
		}
	}
}

// TestRunAcrossServerRestart restarts the bank's server in the middle of
// a run: the run waits and finishes with everything recorded. Then a run
// whose server goes away for good exits 3 naming the bank, leaves nothing
// half-written, and resumes once the server is back.
func TestRunAcrossServerRestart(t *testing.T) {
	testenv.NeedPython(t)
	if testing.Short() {
		t.Skip("restarts a PostgreSQL server")
	}
	c := pgtest.StartCluster(t)
	dir := t.TempDir()

	t.Run("restart", func(t *testing.T) {
		loc := pgtest.DatabaseOn(t, c.URL)
		sharedBank(t, dir, loc)
		ws := filepath.Join(dir, "ws1")
		cmd, stderr := startRun(t, dir, ws, loc)
		c.Stop(t)
		time.Sleep(1500 * time.Millisecond)
		c.Start(t)
		if err := cmd.Wait(); err != nil {
			t.Fatalf("run across the restart: %v\n%s", err, stderr.String())
		}
		if !strings.Contains(stderr.String(), "retrying") {
			t.Errorf("the run never waited for the bank:\n%s", stderr.String())
		}
		checkJournals(t, loc, ws)
	})

	t.Run("gone", func(t *testing.T) {
		loc := pgtest.DatabaseOn(t, c.URL)
		sharedBank(t, dir, loc)
		ws := filepath.Join(dir, "ws2")
		cmd, stderr := startRun(t, dir, ws, loc, "RECONSTRUCT_BANK_RETRY=3s")
		c.Stop(t)
		start := time.Now()
		err := cmd.Wait()
		took := time.Since(start)
		c.Start(t)
		if code := cmd.ProcessState.ExitCode(); code != 3 || !strings.Contains(stderr.String(), postgres.Redact(loc)) {
			t.Fatalf("with the bank gone: %v (exit %d), want exit 3 naming %s:\n%s", err, code, postgres.Redact(loc), stderr.String())
		}
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		t.Logf("gave up after %v: %s", took.Round(time.Millisecond), lines[len(lines)-1])
		if took > 45*time.Second {
			t.Errorf("the run took %v to give up with a 3s retry bound", took)
		}
		// Nothing half-written: every revision loads; the bank has a
		// prefix of the run's journal.
		name, n := bankEvents(t, loc)
		raw, _ := os.ReadFile(filepath.Join(ws, workflow.EventsFile))
		if lines := strings.Count(string(raw), "\n"); n == 0 || n > lines {
			t.Errorf("%s: %d events in the bank, %d in the workspace", name, n, lines)
		}
		var res struct {
			RunID string `json:"run_id"`
		}
		for _, l := range strings.Split(string(raw), "\n") {
			if json.Unmarshal([]byte(l), &res) == nil && res.RunID != "" {
				break
			}
		}
		// The run resumes from the bank once it is back.
		r := cli(t, dir, []string{"RECONSTRUCT_SANDBOX_KIND=process"}, "run", "--resume", res.RunID, "--bank", loc)
		if r.code != 0 {
			t.Fatalf("resume: exit %d: %s", r.code, r.stderr)
		}
		checkJournals(t, loc, ws)
	})
}
