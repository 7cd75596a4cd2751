package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/workflow"
)

// slowTask writes a task no program of the synthesizer's reaches, so that
// its run searches for as long as it is let (time_limit), and returns the
// configuration's path.
func slowTask(t *testing.T, dir string) string {
	t.Helper()
	return writeTask(t, dir, "import hashlib\n\ndef f(x):\n    return int(hashlib.sha256(str(x).encode()).hexdigest()[:8], 16)\n",
		"agent: {kind: synth, synth: {time_limit: 300s, run_time_limit: 0s}}\nsandbox: {kind: process}\nbank: {path: bank.db}\n")
}

// startCLI starts reconstruct with args in dir, in the background.
func startCLI(t *testing.T, dir string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), asCLI+"=1", "XDG_DATA_HOME="+filepath.Join(dir, ".data"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd, &stderr
}

// waitFor waits until the file at p holds want, failing the test if the
// process ends first.
func waitFor(t *testing.T, cmd *exec.Cmd, stderr *bytes.Buffer, p, want string) {
	t.Helper()
	for !strings.Contains(readFile(p), want) {
		if cmd.ProcessState != nil || (cmd.Process != nil && cmd.Process.Signal(syscall.Signal(0)) != nil) {
			t.Fatalf("the command ended before %s held %q:\n%s", p, want, stderr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A workspace is one run's for as long as it runs: a second run of the
// task there is refused (exit 2) naming the first, and moves none of its
// files; a run killed outright leaves its workspace to the next.
func TestWorkspaceLock(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	dir := t.TempDir()
	cfg := slowTask(t, dir)
	ws := filepath.Join(dir, "ws")
	first, stderr := startCLI(t, dir, "run", "--config", cfg, "--workspace", ws, "--run-id", "first")
	waitFor(t, first, stderr, filepath.Join(ws, workflow.EventsFile), workflow.EventIterationStarted)

	r := cli(t, dir, nil, "run", "--config", cfg, "--workspace", ws, "--run-id", "second")
	if r.code != exitUsage {
		t.Errorf("second run: exit %d, want 2\n%s", r.code, r.stderr)
	}
	for _, w := range []string{"--workspace (workspace): " + ws + " is in use by run first (pid ", "wait for it to end, or give another workspace"} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("second run's message lacks %q:\n%s", w, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, workflow.PreviousDir)); err == nil {
		t.Errorf("the second run moved the first's files aside")
	}
	if !strings.Contains(readFile(filepath.Join(ws, workflow.EventsFile)), `"run_id":"first"`) || strings.Contains(readFile(filepath.Join(ws, workflow.EventsFile)), `"run_id":"second"`) {
		t.Errorf("events.jsonl is not the first run's alone")
	}

	// Killed outright, the first run leaves its workspace to the next.
	first.Process.Kill()
	first.Wait()
	r = cli(t, dir, []string{"RECONSTRUCT_AGENT_SYNTH_TIME_LIMIT=1s"}, "run", "--config", cfg, "--workspace", ws, "--run-id", "third", "--max-iterations", "1",
		"--log-level", "info")
	if r.code == exitUsage || strings.Contains(r.stderr, "in use") {
		t.Errorf("after the first run was killed: exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "took over the workspace of a run that ended without releasing it") || !strings.Contains(r.stderr, "run first") {
		t.Errorf("the run does not say whose workspace it took over:\n%s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, ".reconstruct-lock")); err == nil {
		t.Errorf("the lock's note is left after the run")
	}
}

// A run whose output is read by a command that stops reading (`… 2>&1 |
// head`) stops as with Ctrl-C: recorded as stopped, to be resumed, rather
// than killed in the middle by SIGPIPE and left interrupted.
func TestRunIntoAClosedPipe(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	dir := t.TempDir()
	// Sessions of a second, each writing a line.
	cfg := writeTask(t, dir, "import hashlib\n\ndef f(x):\n    return int(hashlib.sha256(str(x).encode()).hexdigest()[:8], 16)\n",
		"agent: {kind: synth, synth: {time_limit: 1s, run_time_limit: 0s}}\nsandbox: {kind: process}\nbank: {path: bank.db}\nworkflow: {max_iterations: 1000, stall_limit: 0}\n")
	cmd := exec.Command(os.Args[0], "run", "--config", cfg, "--workspace", filepath.Join(dir, "ws"), "--run-id", "piped")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), asCLI+"=1", "XDG_DATA_HOME="+filepath.Join(dir, ".data"))
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { cmd.Process.Kill() })
	// Like head -1: read the first line, then go.
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatalf("first line: %v", err)
	}
	t.Logf("read %q", line)
	// The run reaches a session and writes its next line into the closed
	// pipe.
	waitFor(t, cmd, &bytes.Buffer{}, filepath.Join(dir, "ws", workflow.EventsFile), workflow.EventIterationStarted)
	r.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() < 0 {
			t.Errorf("the run was killed by a signal: %v", err)
		}
	case <-time.After(10 * time.Minute):
		t.Fatal("the run did not end")
	}
	res := cli(t, dir, nil, "runs", "list", "--bank", filepath.Join(dir, "bank.db"))
	if !strings.Contains(res.stdout, "piped") || !strings.Contains(res.stdout, "stopped") {
		t.Errorf("the run is not recorded as stopped:\n%s%s", res.stdout, res.stderr)
	}
}
