package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/benchmarks"
	"github.com/reconstruct/reconstruct/benchmarks/cluster"
	"github.com/reconstruct/reconstruct/internal/testenv"
)

func testTaskSet(t *testing.T) string {
	t.Helper()
	return repoPath(t, "benchmarks", "testdata", "tasks")
}

func TestClusterUsageErrors(t *testing.T) {
	tasks := testTaskSet(t)
	dir := t.TempDir()
	bankFile := filepath.Join(dir, "bank.db")
	outside := filepath.Join(dir, "outside")
	os.MkdirAll(filepath.Join(outside, "t"), 0o755)
	os.WriteFile(filepath.Join(outside, "hidden.py"), []byte("def f(x):\n    return x\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "t", "task.yaml"), []byte("task: {name: t, input_type: int, kind: int, oracle: {python: ../hidden.py, function: f}}\n"), 0o644)
	tests := []struct {
		name string
		env  []string
		args []string
		code int
		want string
	}{
		{"no server", nil, []string{"bench", "run", "--engine", "temporal", "--tasks", tasks, "--out", dir, "--bank", bankFile},
			exitUsage, "no Temporal server"},
		{"no bank", nil, []string{"bench", "run", "--engine", "temporal", "--tasks", tasks, "--out", dir, "--temporal", "127.0.0.1:1"},
			exitUsage, "no shared bank"},
		{"factory sweep without arguments", nil, []string{"bench", "run", "--engine", "temporal", "--factory", "m:f", "--out", dir, "--temporal", "127.0.0.1:1", "--bank", bankFile},
			exitUsage, "--factory needs the tasks' arguments"},
		{"unknown engine", nil, []string{"bench", "run", "--engine", "slurm", "--tasks", tasks, "--out", dir},
			exitUsage, `--engine "slurm"`},
		{"local parallelism", nil, []string{"bench", "run", "--engine", "temporal", "--parallel", "4", "--tasks", tasks, "--out", dir},
			exitUsage, "--parallel is the local engine's"},
		{"bad cluster setting", []string{"RECONSTRUCT_CLUSTER_MAX_ATTEMPTS=0"},
			[]string{"bench", "run", "--engine", "temporal", "--tasks", tasks, "--out", dir, "--temporal", "127.0.0.1:1", "--bank", bankFile},
			exitUsage, "cluster.max_attempts"},
		{"server unreachable", nil, []string{"bench", "run", "--engine", "temporal", "--tasks", tasks, "--out", dir, "--temporal", "127.0.0.1:1", "--bank", bankFile},
			exitInfra, "connect to the Temporal server at 127.0.0.1:1"},
		{"worker without server", nil, []string{"worker", "--bank", bankFile}, exitUsage, "no Temporal server"},
		{"worker server unreachable", nil, []string{"worker", "--temporal", "127.0.0.1:1", "--bank", bankFile, "--workdir", dir},
			exitInfra, "connect to the Temporal server"},
		{"status unreachable", nil, []string{"bench", "status", "sweep-x", "--temporal", "127.0.0.1:1"}, exitInfra, "127.0.0.1:1"},
		{"collect without out", nil, []string{"bench", "collect", "sweep-x", "--temporal", "127.0.0.1:1", "--bank", bankFile}, exitUsage, "--out is required"},
		{"cancel without id", nil, []string{"bench", "cancel"}, exitUsage, "accepts 1 arg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := cli(t, dir, append([]string{"RECONSTRUCT_CLUSTER_TEMPORAL=", "RECONSTRUCT_BANK_PATH="}, tt.env...), tt.args...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d naming %q", r.code, r.stderr, tt.code, tt.want)
			}
		})
	}
}

// testQueue is a task queue of the test's own: no other test's worker
// takes its tasks.
func testQueue(t *testing.T) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "cli-" + hex.EncodeToString(b[:])
}

func TestClusterSubmitStatusCancelCollect(t *testing.T) {
	addr := testenv.NeedTemporal(t)
	dir := t.TempDir()
	env := []string{"RECONSTRUCT_CLUSTER_TEMPORAL=" + addr, "RECONSTRUCT_CLUSTER_TASK_QUEUE=" + testQueue(t),
		"RECONSTRUCT_BANK_PATH=" + filepath.Join(dir, "bank.db")}
	out := filepath.Join(dir, "out")
	tasks := testTaskSet(t)

	// A task whose files lie outside its directory cannot travel.
	outside := filepath.Join(dir, "outside")
	os.MkdirAll(filepath.Join(outside, "set", "t"), 0o755)
	os.WriteFile(filepath.Join(outside, "hidden.py"), []byte("def f(x):\n    return x\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "set", "t", "task.yaml"), []byte("task: {name: t, input_type: int, kind: int, oracle: {python: ../../hidden.py, function: f}}\n"), 0o644)
	if r := cli(t, dir, env, "bench", "run", "--engine", "temporal", "--tasks", filepath.Join(outside, "set"), "--out", out); r.code != exitUsage || !strings.Contains(r.stderr, "outside the task directory") {
		t.Fatalf("task with an outside file: exit %d, %s", r.code, r.stderr)
	}

	// A worker's bad bank key is bad input (exit 2), and the error names
	// the bank it was for.
	r := cli(t, dir, append(env, "RECONSTRUCT_BANK_KEY=zz"), "worker", "--bank", "postgres://u@127.0.0.1:1/db", "--workdir", dir)
	if r.code != exitUsage || !strings.Contains(r.stderr, "open bank postgres://") || !strings.Contains(r.stderr, "RECONSTRUCT_BANK_KEY") {
		t.Errorf("worker with a bad bank key: exit %d, %s", r.code, r.stderr)
	}

	// A worker given an empty file for its bank refuses it (never makes
	// it a new bank: bad input), naming it, and leaves it empty.
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o600)
	r = cli(t, dir, env, "worker", "--bank", empty, "--workdir", dir)
	if fi, err := os.Stat(empty); r.code != exitUsage || !strings.Contains(r.stderr, empty) || !strings.Contains(r.stderr, "empty") || err != nil || fi.Size() != 0 {
		t.Errorf("worker with an empty bank file: exit %d, %s", r.code, r.stderr)
	}

	// Submitted with no worker running: it waits.
	r = cli(t, dir, env, "bench", "run", "--engine", "temporal", "--tasks", tasks, "--out", out, "--detach")
	id := strings.TrimSpace(r.stdout)
	if r.code != 0 || !strings.HasPrefix(id, "sweep-") || !strings.Contains(r.stderr, "3 tasks submitted") {
		t.Fatalf("submit: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	r = cli(t, dir, env, "bench", "status", id)
	if r.code != 0 || !strings.Contains(r.stdout, "running, 0 of 3 tasks finished (0 solved, 0 errors); no worker polls task queue cli-") {
		t.Errorf("status: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = cli(t, dir, env, "bench", "run", "--engine", "temporal", "--tasks", tasks, "--out", out)
	if r.code != exitUsage || !strings.Contains(r.stderr, id+" still writes there") {
		t.Errorf("second sweep into the same output: exit %d, %s", r.code, r.stderr)
	}
	if r = cli(t, dir, env, "bench", "cancel", id); r.code != 0 {
		t.Fatalf("cancel: exit %d, %s", r.code, r.stderr)
	}
	if r = cli(t, dir, env, "bench", "status", "sweep-unknown"); r.code != exitUsage || !strings.Contains(r.stderr, "no such sweep") {
		t.Errorf("status of an unknown sweep: exit %d, %s", r.code, r.stderr)
	}

	// A worker takes the cancelled sweep: it completes with nothing run.
	w := exec.Command(os.Args[0], "worker", "--workdir", filepath.Join(dir, "w"))
	w.Env = append(append(os.Environ(), asCLI+"=1"), env...)
	var wlog bytes.Buffer
	w.Stderr = &wlog
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if w.ProcessState == nil {
			w.Process.Kill()
			w.Wait()
		}
	}()
	r = cli(t, dir, env, "bench", "collect", id, "--out", out)
	if r.code != exitRejected || !strings.Contains(r.stderr, "cancelled with 0 of 3 tasks finished") {
		t.Errorf("collect of the cancelled sweep: exit %d, %s", r.code, r.stderr)
	}
	sum, err := benchmarks.ReadSummary(out)
	if err != nil || sum.Tasks != 0 || sum.Sweep != id {
		t.Errorf("summary of the cancelled sweep: %+v, %v", sum, err)
	}
	var st cluster.Status
	r = cli(t, dir, env, "bench", "status", id, "--json")
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || st.State != "completed" || st.Done != 0 || st.Total != 3 {
		t.Errorf("status after cancel: %+v (%v)", st, err)
	}
	// A sweep an operator terminates: collect writes what finished (here
	// nothing) and says how the sweep ended.
	out2 := filepath.Join(dir, "out2")
	r = cli(t, dir, env, "bench", "run", "--engine", "temporal", "--tasks", tasks, "--filter", "^negate$", "--out", out2, "--detach")
	id2 := strings.TrimSpace(r.stdout)
	c, err := cluster.Dial(context.Background(), addr, "default", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.TerminateWorkflow(context.Background(), id2, "", "the operator stopped it"); err != nil {
		t.Fatal(err)
	}
	r = cli(t, dir, env, "bench", "collect", id2, "--out", out2)
	if r.code != exitInfra || !strings.Contains(r.stderr, "terminated: the operator stopped it") {
		t.Errorf("collect of a terminated sweep: exit %d, %s", r.code, r.stderr)
	}
	if sum, err := benchmarks.ReadSummary(out2); err != nil || sum.Tasks != 0 {
		t.Errorf("summary of the terminated sweep: %+v, %v", sum, err)
	}

	// SIGTERM stops the idle worker cleanly.
	w.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- w.Wait() }()
	select {
	case err := <-done:
		if err != nil || !strings.Contains(wlog.String(), "stopped") {
			t.Errorf("worker after SIGTERM: %v\n%s", err, wlog.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("the worker did not stop within a minute of SIGTERM")
	}
}

func TestBenchRunBankFlag(t *testing.T) {
	testenv.NeedPython(t)
	dir := t.TempDir()
	base := filepath.Join(dir, "base.yaml")
	os.WriteFile(base, []byte("sandbox: {kind: process}\nworkflow: {max_iterations: 8}\n"), 0o644)
	flagBank, envBank := filepath.Join(dir, "flag.db"), filepath.Join(dir, "env.db")
	r := cli(t, dir, []string{"RECONSTRUCT_BANK_PATH=" + envBank}, "bench", "run", "--tasks", testTaskSet(t), "--filter", "^negate$",
		"--config", base, "--out", filepath.Join(dir, "out"), "--bank", flagBank)
	if r.code != 0 {
		t.Fatalf("bench run: exit %d, %s", r.code, r.stderr)
	}
	r = cli(t, dir, nil, "runs", "list", "--bank", flagBank, "--json")
	if r.code != 0 || strings.Count(r.stdout, `"run_id"`) != 1 {
		t.Errorf("runs in the flag's bank: exit %d, %s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(envBank); !os.IsNotExist(err) {
		t.Errorf("the environment's bank was used despite --bank (%v)", err)
	}
}
