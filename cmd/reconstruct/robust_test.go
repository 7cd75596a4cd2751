package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/internal/stamp"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/workflow"
)

// writeTask writes a task directory with hidden.py and task.yaml (the
// task section and the extra YAML) and returns the config's path.
func writeTask(t *testing.T, dir, hidden, extra string) string {
	t.Helper()
	testenv.WriteFiles(t, dir, map[string]string{"hidden.py": hidden, "task.yaml": `task:
  name: t
  input_type: "an integer"
  kind: int
  oracle: {python: hidden.py, function: f, timeout: 1s}
` + extra})
	return filepath.Join(dir, "task.yaml")
}

// Ctrl-C in the middle of a synthesizer session stops the run at once,
// saying so, without waiting for the session's time limit.
func TestCtrlCInASynthesizerSession(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	dir := t.TempDir()
	// No program of the synthesizer's reaches these outputs: its session
	// would search for its whole time limit.
	cfg := writeTask(t, dir, "import hashlib\n\ndef f(x):\n    return int(hashlib.sha256(str(x).encode()).hexdigest()[:8], 16)\n",
		"agent: {kind: synth, synth: {time_limit: 300s, run_time_limit: 0s}}\nsandbox: {kind: process}\nworkspace: ws\nbank: {path: bank.db}\n")
	cmd := exec.Command(os.Args[0], "run", "--config", cfg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), asCLI+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// Wait until the first session has begun, then a little longer.
	for !strings.Contains(readFile(filepath.Join(dir, "ws", workflow.EventsFile)), workflow.EventIterationStarted) {
		select {
		case err := <-done:
			t.Fatalf("the run ended before its first session: %v\n%s", err, stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	time.Sleep(time.Second)
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-done:
		t.Logf("stopped %v after SIGINT", time.Since(sent).Round(time.Millisecond))
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitRejected {
			t.Errorf("exit %v, want status 1", err)
		}
	case <-time.After(120 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the run waited for the synthesizer's session after SIGINT:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "reconstruct: interrupt: stopping…") {
		t.Errorf("stderr does not say it is stopping:\n%s", stderr.String())
	}
	var res workflow.Result
	if err := json.Unmarshal([]byte(readFile(filepath.Join(dir, "ws", workflow.ResultFile))), &res); err != nil || res.StopReason != workflow.StopCancelled {
		t.Errorf("result.json: stop %q, %v", res.StopReason, err)
	}
}

func readFile(p string) string {
	b, _ := os.ReadFile(p)
	return string(b)
}

// A hidden program that does not answer, or answers an input two ways, is
// a broken task: exit 3 with a message naming the input and the limit.
func TestBrokenHiddenProgramExits3(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	qs := filepath.Dir(quickstartPath(t))
	replay := "agent: {kind: replay, replay: {script: " + filepath.Join(qs, "quickstart", "replay.yaml") + "}}\nsandbox: {kind: process}\nworkspace: ws\n"
	tests := []struct {
		name, hidden string
		want         []string
	}{
		{"hangs", "import time\n\ndef f(x):\n    time.sleep(60)\n", []string{"the hidden program did not answer in time on input 1 ([3,1,2])", "1s per input (task.oracle.timeout)"}},
		{"answers at random", "import random\n\ndef f(x):\n    return random.random()\n", []string{"not deterministic", "answered input [3,1,2] with"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := writeTask(t, dir, tt.hidden, replay)
			r := cli(t, dir, nil, "run", "--config", cfg)
			if r.code != exitInfra {
				t.Errorf("exit %d, want 3\n%s", r.code, r.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr does not say %q:\n%s", w, r.stderr)
				}
			}
		})
	}
}

// The runs commands read the bank of a configuration, never create one,
// and say which bank they looked in.
func TestRunsReadTheConfigsBank(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "mine.yaml")
	// The task's files stay where they are, outside the configuration's
	// directory, which the configuration must then allow.
	qs := strings.Replace(readFile(quickstartPath(t)), "quickstart/", filepath.Dir(quickstartPath(t))+"/quickstart/", -1)
	qs = strings.Replace(qs, "task:\n", "task:\n  allow_outside_paths: true\n", 1)
	os.WriteFile(cfg, []byte(qs+
		"bank: {path: banks/mine.db}\nsandbox: {kind: process}\nworkspace: ws\n"), 0o644)
	if r := cli(t, dir, nil, "run", "--config", cfg, "--run-id", "mine-1"); r.code != 0 {
		t.Fatalf("run: exit %d\n%s", r.code, r.stderr)
	}
	mine := filepath.Join(dir, "banks", "mine.db")
	if r := cli(t, dir, nil, "runs", "list", "--config", cfg); r.code != 0 || !strings.Contains(r.stdout, "mine-1") {
		t.Errorf("runs list --config: exit %d, %s %s", r.code, r.stdout, r.stderr)
	}
	def := filepath.Join(dir, ".data", "reconstruct", "bank.db")
	if r := cli(t, dir, nil, "runs", "list"); r.code != 0 || !strings.Contains(r.stdout, "no runs in the bank "+def) {
		t.Errorf("runs list of the empty default bank: exit %d, %s", r.code, r.stdout)
	}
	if _, err := os.Stat(filepath.Dir(def)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("runs list created %s", filepath.Dir(def))
	}
	for _, args := range [][]string{{"runs", "show", "nope", "--config", cfg}, {"run", "--resume", "nope", "--bank", mine}} {
		r := cli(t, dir, nil, args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, `no run "nope" in the bank `+mine) {
			t.Errorf("%v: exit %d, stderr %s", args, r.code, r.stderr)
		}
	}
	if r := cli(t, dir, nil, "runs", "show", "mine-1"); r.code != exitUsage || !strings.Contains(r.stderr, def) {
		t.Errorf("runs show in a bank that does not exist: exit %d, %s", r.code, r.stderr)
	}
}

// A workspace is never / nor full of someone else's files, and the files
// of an earlier run are moved aside rather than overwritten.
func TestWorkspaceRules(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	dir := t.TempDir()
	env := []string{"RECONSTRUCT_SANDBOX_KIND=process"}
	for _, ws := range []string{"/", dir} {
		os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
		r := cli(t, dir, env, "run", "--config", quickstartPath(t), "--workspace", ws)
		if r.code != exitUsage || !strings.Contains(r.stderr, "--workspace (workspace): "+ws) {
			t.Errorf("--workspace %s: exit %d, %s", ws, r.code, r.stderr)
		}
	}
	if _, err := os.Stat("/" + workflow.ResultFile); err == nil {
		t.Fatal("a run wrote /result.json")
	}
	ws := filepath.Join(dir, "ws")
	var ids []string
	for i := 0; i < 2; i++ {
		r := cli(t, dir, env, "run", "--config", quickstartPath(t), "--workspace", ws, "--json")
		var res workflow.Result
		if err := json.Unmarshal([]byte(r.stdout), &res); r.code != 0 || err != nil {
			t.Fatalf("run %d: exit %d, %v\n%s", i, r.code, err, r.stderr)
		}
		ids = append(ids, res.RunID)
	}
	var top struct {
		RunID string `json:"run_id"`
	}
	json.Unmarshal([]byte(readFile(filepath.Join(ws, workflow.ResultFile))), &top)
	if top.RunID != ids[1] {
		t.Errorf("result.json is run %s's, want the latest %s", top.RunID, ids[1])
	}
	for _, f := range []string{"candidate.py", workflow.ResultFile, workflow.EventsFile, workflow.ExamplesFile} {
		if _, err := os.Stat(filepath.Join(ws, workflow.PreviousDir, ids[0], f)); err != nil {
			t.Errorf("the first run's %s was not kept apart: %v", f, err)
		}
	}
}

// bench run exits 1 when a task ended in an error and says how many on its
// last line; bad input is refused before anything is created.
func TestBenchRunExitStatus(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	dir := t.TempDir()
	tasks, _ := filepath.Abs(filepath.Join("..", "..", "benchmarks", "testdata", "tasks"))
	base := filepath.Join(dir, "base.yaml")
	os.WriteFile(base, []byte("sandbox: {kind: process, call_timeout: 60s}\nagent: {synth: {time_limit: 5s}}\nworkflow: {max_iterations: 6}\nbank: {path: bank.db}\n"), 0o644)
	out := filepath.Join(dir, "out")
	r := cli(t, dir, nil, "bench", "run", "--tasks", tasks, "--filter", "^(negate|crashing_oracle)$", "--config", base, "--out", out)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != exitRejected || !strings.HasPrefix(lines[len(lines)-1], "solved 1 of 2 tasks (50.0%); 1 task ended in an error; ") {
		t.Errorf("a sweep with a failed task: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	// Resuming with other settings is refused unless --force.
	other := filepath.Join(dir, "other.yaml")
	os.WriteFile(other, []byte(readFile(base)+"workflow: {max_iterations: 6, early_stop: 2}\n"), 0o644)
	os.WriteFile(other, []byte(strings.Replace(readFile(base), "workflow: {max_iterations: 6}", "workflow: {max_iterations: 6, early_stop: 2}", 1)), 0o644)
	if r := cli(t, dir, nil, "bench", "run", "--tasks", tasks, "--filter", "^negate$", "--config", other, "--out", out); r.code != exitUsage || !strings.Contains(r.stderr, "--force") {
		t.Errorf("other settings into a finished sweep: exit %d, %s", r.code, r.stderr)
	}
	// The summary is of the whole output directory: the crashed task is
	// still an error there.
	if r := cli(t, dir, nil, "bench", "run", "--tasks", tasks, "--filter", "^negate$", "--config", other, "--out", out, "--force"); r.code != exitRejected ||
		!strings.Contains(r.stderr, "negate runs again: --force") || !strings.Contains(r.stderr, "1 of 2 tasks ended in an error") {
		t.Errorf("--force: exit %d, %s", r.code, r.stderr)
	}
	// Bad input: nothing is created.
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("workflow: {erly_stop: 1}\n"), 0o644)
	noHeldout := filepath.Join(dir, "set")
	os.MkdirAll(filepath.Join(noHeldout, "negate"), 0o755)
	for _, f := range []string{"task.yaml", "hidden.py", "generator.py"} {
		os.WriteFile(filepath.Join(noHeldout, "negate", f), []byte(readFile(filepath.Join(tasks, "negate", f))), 0o644)
	}
	for _, args := range [][]string{
		{"--tasks", tasks, "--config", bad},
		{"--tasks", noHeldout},
	} {
		out := filepath.Join(dir, "refused")
		r := cli(t, dir, nil, append(append([]string{"bench", "run"}, args...), "--out", out)...)
		if r.code != exitUsage {
			t.Errorf("bench run %v: exit %d, %s", args, r.code, r.stderr)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("bench run %v created %s", args, out)
		}
	}
}

// version and --version print the build as stamp reads it (its cases:
// internal/stamp's TestBuildOf).
func TestVersionString(t *testing.T) {
	dir := t.TempDir()
	a, b := cli(t, dir, nil, "version"), cli(t, dir, nil, "--version")
	want := "reconstruct " + stamp.This().Text + "\n"
	if a.stdout != want || b.stdout != want || a.code != 0 || b.code != 0 {
		t.Errorf("version %q, --version %q, want %q", a.stdout, b.stdout, want)
	}
}

// A binary built from a clean checkout carries its revision.
func TestVersionOfABuiltBinary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the command")
	}
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Skip(t, "git is not on PATH")
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	rev, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		testenv.Skip(t, "not a git checkout: "+err.Error())
	}
	// A clone has a .git directory of its own (a worktree's is a file that
	// the go command's VCS stamping does not follow).
	clone := filepath.Join(t.TempDir(), "src")
	if out, err := exec.Command("git", "clone", "-q", "--no-checkout", root, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	if out, err := exec.Command("git", "-C", clone, "checkout", "-q", strings.TrimSpace(string(rev))).CombinedOutput(); err != nil {
		t.Fatalf("git checkout: %v\n%s", err, out)
	}
	// The version a release sets as it is linked (README.md) is
	// what the command prints and what every record it writes names.
	const release = "v9.8.7-test"
	bin := filepath.Join(t.TempDir(), "reconstruct")
	build := exec.Command("go", "build", "-buildvcs=true", "-ldflags", "-X "+stamp.VersionVar+"="+release, "-o", bin, "./cmd/reconstruct")
	build.Dir = clone
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || !strings.Contains(string(out), "reconstruct "+release+" (revision "+string(rev[:12])) || strings.Contains(string(out), "+dirty") {
		t.Errorf("--version = %q, %v; want %s, revision %s", out, err, release, rev[:12])
	}
	out, err = exec.Command(bin, "version", "--json").Output()
	var b stamp.Build
	if err != nil || json.Unmarshal(out, &b) != nil || b.Version != release || b.Revision != strings.TrimSpace(string(rev)) {
		t.Errorf("version --json = %s, %v; want version %s, revision %s", out, err, release, rev)
	}

	// A run's records name it as their producer.
	testenv.NeedPython(t)
	dir := t.TempDir()
	cfg := quickstartTask(t, dir, "bank: {path: bank.db}\nsandbox: {kind: process}\nworkspace: ws\n")
	run := exec.Command(bin, "run", "--config", cfg)
	run.Env = append(os.Environ(), "XDG_DATA_HOME="+dir)
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	producer := release + "+" + string(rev[:12])
	res, err := os.ReadFile(filepath.Join(dir, "ws", workflow.ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	var result struct{ Producer string }
	if err := json.Unmarshal(res, &result); err != nil || result.Producer != producer {
		t.Errorf("result.json's producer %q (%v), want %s", result.Producer, err, producer)
	}
	events, err := os.ReadFile(filepath.Join(dir, "ws", workflow.EventsFile))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(events), "\n")
	var ev struct{ Producer string }
	if err := json.Unmarshal([]byte(first), &ev); err != nil || ev.Producer != producer {
		t.Errorf("the first events.jsonl line's producer %q (%v), want %s: %s", ev.Producer, err, producer, first)
	}
}

// Log lines are for people by default and JSON with --log-format json; the
// fallback from Docker reads like the rest of the output.
func TestLogFormats(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	dir := t.TempDir()
	env := []string{"DOCKER_HOST=unix:///nonexistent/reconstruct-test.sock", "RECONSTRUCT_SANDBOX_KIND=auto"}
	r := cli(t, dir, env, "run", "--config", quickstartPath(t), "--workspace", filepath.Join(dir, "a"))
	if !regexp.MustCompile(`(?m)^reconstruct: warning: sandbox.kind is auto and Docker cannot be used \(the Docker engine at unix:///nonexistent/reconstruct-test.sock does not answer: .*\): using the process sandbox`).MatchString(r.stderr) {
		t.Errorf("the fallback warning does not read like the rest of the output:\n%s", r.stderr)
	}
	r = cli(t, dir, env, "--log-format", "json", "run", "--config", quickstartPath(t), "--workspace", filepath.Join(dir, "b"))
	found := false
	sc := bufio.NewScanner(strings.NewReader(r.stderr))
	for sc.Scan() {
		var line map[string]any
		if json.Unmarshal(sc.Bytes(), &line) == nil && line["level"] == "warn" && strings.Contains(fmt.Sprint(line["msg"]), "process sandbox") {
			found = true
		}
	}
	if !found {
		t.Errorf("--log-format json: no JSON warning line:\n%s", r.stderr)
	}
	if r := cli(t, dir, nil, "--log-format", "xml", "version"); r.code != exitUsage {
		t.Errorf("--log-format xml: exit %d", r.code)
	}
}
