package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/sandbox/docker"
	"github.com/reconstruct/reconstruct/workflow"
)

// The test binary doubles as the reconstruct binary: with RECONSTRUCT_TEST_AS_CLI
// set it runs main() on its arguments, so the tests drive the real command
// line, exit codes and signals included.
const asCLI = "RECONSTRUCT_TEST_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(asCLI) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

type cliResult struct {
	code           int
	stdout, stderr string
}

// cli runs reconstruct with args in dir, with env added. The per-user
// data directory (the default bank) is dir/.data.
func cli(t *testing.T, dir string, env []string, args ...string) cliResult {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), asCLI+"=1", "XDG_DATA_HOME="+filepath.Join(dir, ".data")), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return cliResult{code, out.String(), errb.String()}
}

func quickstartPath(t *testing.T) string {
	t.Helper()
	return repoPath(t, "configs", "examples", "quickstart.yaml")
}

// mustRead is the content of the file at p.
func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// repoPath is the absolute path of a file of the repository.
func repoPath(t *testing.T, elem ...string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(append([]string{"..", ".."}, elem...)...))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestVersionHelpCompletion(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"version"}, "reconstruct "},
		{[]string{"help"}, "Available Commands"},
		{[]string{"completion", "bash"}, "bash completion"},
		{[]string{"run", "--help"}, "--early-stop"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := cli(t, t.TempDir(), nil, tt.args...)
			if r.code != 0 || !strings.Contains(r.stdout, tt.want) {
				t.Errorf("exit %d, stdout %q…, want %q", r.code, firstN(r.stdout, 200), tt.want)
			}
		})
	}
}

func firstN(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func TestRunQuickstartThroughCLI(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	// The iterations are counted: no call may time out on a loaded machine.
	r := cli(t, dir, []string{"RECONSTRUCT_SANDBOX_KIND=process", "RECONSTRUCT_SANDBOX_CALL_TIMEOUT=120s"}, "run", "--config", quickstartPath(t), "--workspace", ws, "--json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var res workflow.Result
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("stdout is not the Result: %v\n%s", err, r.stdout)
	}
	if res.StopReason != workflow.StopEarly || res.Iterations != 6 {
		t.Errorf("stop %s after %d iterations", res.StopReason, res.Iterations)
	}
	if n := strings.Count(r.stderr, "iter "); n != 6 {
		t.Errorf("stderr has %d iteration lines, want 6:\n%s", n, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".data", "reconstruct", "bank.db")); err != nil {
		t.Errorf("the run was not recorded in the default bank: %v", err)
	}

	// Inspect what the run archived and recorded.
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"candidates", "list", ws}, "\n6 "},
		{[]string{"candidates", "show", ws, "2"}, "best = x if best is None"},
		{[]string{"candidates", "diff", ws, "1", "2"}, "-    return sorted(input_data)"},
		{[]string{"candidates", "rescore", ws, "--sandbox", "process"}, "30/30"},
		{[]string{"candidates", "rescore", ws, "--sandbox", "process", "--tests", filepath.Join(filepath.Dir(quickstartPath(t)), "quickstart", "heldout.jsonl")}, "16/16"},
		{[]string{"runs", "list"}, res.RunID},
		{[]string{"runs", "show", res.RunID}, "early_stop"},
		{[]string{"score", "--config", quickstartPath(t), "--program", filepath.Join(ws, "candidate.py"), "--sandbox", "process"}, "passed: 16/16"},
	} {
		r := cli(t, dir, nil, tt.args...)
		if r.code != 0 || !strings.Contains(r.stdout, tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", tt.args, r.code, firstN(r.stdout, 400), r.stderr, tt.want)
		}
	}
	// rescore takes its sandbox from the environment unless --sandbox is
	// given; a bad value is a usage error naming where it came from.
	for _, tt := range []struct {
		env  []string
		args []string
		code int
		want string
	}{
		{[]string{"RECONSTRUCT_SANDBOX_KIND=process"}, []string{"candidates", "rescore", ws}, 0, "30/30"},
		{[]string{"RECONSTRUCT_SANDBOX_KIND=vm"}, []string{"candidates", "rescore", ws}, 2, `RECONSTRUCT_SANDBOX_KIND (sandbox.kind): unknown value "vm"`},
		{[]string{"RECONSTRUCT_SANDBOX_KIND=vm"}, []string{"candidates", "rescore", ws, "--sandbox", "process"}, 0, "30/30"},
		{nil, []string{"candidates", "rescore", ws, "--sandbox", "procss"}, 2, "--sandbox (sandbox.kind): unknown value \"procss\" (want auto, process or docker); did you mean process?"},
	} {
		r := cli(t, dir, tt.env, tt.args...)
		if r.code != tt.code || !strings.Contains(r.stdout+r.stderr, tt.want) {
			t.Errorf("%v %v: exit %d, stdout %q, stderr %q; want exit %d and %q", tt.env, tt.args, r.code, firstN(r.stdout, 400), r.stderr, tt.code, tt.want)
		}
	}
	// The run's program becomes a bank operation mapped over a list[json]
	// in the sandbox.
	if r := cli(t, dir, nil, "bank", "register", "--from-run", res.RunID, "--name", "running_max"); r.code != 0 {
		t.Fatalf("register --from-run: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	spec := filepath.Join(dir, "spec.json")
	os.WriteFile(spec, []byte(`{"inputs": {"xs": {"kind": "list[json]", "data": [[3,1,2],[5,-4,7],[]]}},
 "nodes": [{"id": "maxes", "map": {"op": "running_max", "items": "xs", "bindings": {}}}],
 "outputs": {"maxes": "maxes"}}`), 0o644)
	if r := cli(t, dir, nil, "bank", "create", "--workspace", "apply", "--spec", spec); r.code != 0 {
		t.Fatalf("bank create: exit %d %s", r.code, r.stdout)
	}
	obs := filepath.Join(dir, "observe.json")
	os.WriteFile(obs, []byte(`{"action": "observe", "workspace": "apply"}`), 0o644)
	r = cli(t, dir, []string{"RECONSTRUCT_SANDBOX_KIND=process"}, "bank", "act", obs)
	var resp struct {
		OK     bool
		Result struct {
			Outputs map[string]struct{ Data json.RawMessage }
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &resp); err != nil || !resp.OK || string(resp.Result.Outputs["maxes"].Data) != "[[3,3,3],[5,5,7],[]]" {
		t.Errorf("observe the mapped program: exit %d, %s, %v", r.code, r.stdout, err)
	}

	r = cli(t, dir, nil, "candidates", "list", ws, "--json")
	var recs []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &recs); err != nil || len(recs) != 6 {
		t.Errorf("candidates list --json: %d records, %v", len(recs), err)
	}
	// A finished run cannot be resumed.
	if r := cli(t, dir, nil, "run", "--resume", res.RunID); r.code != 2 || !strings.Contains(r.stderr, "finished") {
		t.Errorf("resume of a finished run: exit %d, %s", r.code, r.stderr)
	}
}

func TestBadInputExits2AndCreatesNothing(t *testing.T) {
	good, err := os.ReadFile(quickstartPath(t))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		config string // written beside the quickstart's files; "" means a missing file
		args   []string
		want   []string
	}{
		{name: "missing file", want: []string{"does not exist"}},
		{name: "unknown key", config: strings.Replace(string(good), "workflow:\n", "workflow:\n  erly_stop: 3\n", 1), want: []string{"erly_stop"}},
		{name: "wrong type", config: strings.Replace(string(good), "workflow:\n", "workflow:\n  early_stop: soon\n", 1), want: []string{"workflow.early_stop"}},
		{name: "missing required", config: strings.Replace(string(good), "  kind: list\n", "", 1), want: []string{"task.kind"}},
		// A value from a flag names the flag, not the file.
		{name: "bad flag value", config: string(good), args: []string{"--sandbox", "vm"}, want: []string{"--sandbox (sandbox.kind)", `unknown value "vm" (want auto, process or docker)`}},
		{name: "unknown flag", config: string(good), args: []string{"--frobnicate"}, want: []string{"unknown flag"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := filepath.Join(filepath.Dir(quickstartPath(t)), "bad-"+strings.ReplaceAll(tt.name, " ", "-")+".yaml")
			if tt.config != "" {
				if err := os.WriteFile(cfg, []byte(tt.config), 0o644); err != nil {
					t.Fatal(err)
				}
				defer os.Remove(cfg)
			}
			ws := filepath.Join(dir, "ws")
			r := cli(t, dir, nil, append([]string{"run", "--config", cfg, "--workspace", ws}, tt.args...)...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2; stderr %s", r.code, r.stderr)
			}
			wants := tt.want
			if tt.name != "unknown flag" && tt.name != "bad flag value" {
				wants = append(wants, cfg)
			}
			for _, w := range wants {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr %q does not name %q", r.stderr, w)
				}
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 0 {
				t.Errorf("a rejected configuration created %v", entries)
			}
		})
	}
}

func TestScoreExitCodes(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	dir := t.TempDir()
	wrong := filepath.Join(dir, "wrong.py")
	os.WriteFile(wrong, []byte("def solve(xs):\n    return xs\n"), 0o644)
	r := cli(t, dir, nil, "score", "--config", quickstartPath(t), "--program", wrong, "--sandbox", "process", "--json")
	var sc struct {
		Accuracy float64
		Passed   int
		Total    int
	}
	if err := json.Unmarshal([]byte(r.stdout), &sc); err != nil || r.code != 1 || sc.Total != 16 || sc.Passed == 16 {
		t.Errorf("wrong program: exit %d, score %+v, %v", r.code, sc, err)
	}
	if r := cli(t, dir, nil, "score", "--config", quickstartPath(t), "--program", wrong, "--tests", filepath.Join(dir, "none.jsonl")); r.code != 2 {
		t.Errorf("missing tests file: exit %d", r.code)
	}
}

func TestInterruptWritesEverything(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"process", "docker"} {
		t.Run(kind, func(t *testing.T) { interruptRun(t, kind) })
	}
}

func interruptRun(t *testing.T, kind string) {
	testenv.NeedPython(t)
	if kind == "docker" {
		testenv.NeedDocker(t)
		if ok, reason := docker.Available(t.Context(), docker.DefaultImage()); !ok {
			testenv.Skip(t, reason)
		}
	}
	dir := t.TempDir()
	// A hidden program that takes a while per input keeps the run going
	// long enough to be interrupted after its first iterations.
	qs := filepath.Dir(quickstartPath(t))
	hidden := mustRead(t, filepath.Join(qs, "quickstart", "hidden.py"))
	slow := strings.Replace(hidden, "def running_max(xs):\n", "def running_max(xs):\n    import time\n    time.sleep(0.3)\n", 1)
	testenv.WriteFiles(t, dir, map[string]string{"hidden.py": slow, "slow.yaml": `task:
  name: running_max
  input_type: "list of integers"
  kind: list
  oracle: {python: hidden.py, function: running_max}
agent: {kind: replay, replay: {script: ` + filepath.Join(qs, "quickstart", "replay.yaml") + `}}
sandbox: {kind: ` + kind + `, call_timeout: 60s}
workspace: ws
`})
	cfg := filepath.Join(dir, "slow.yaml")
	cmd := exec.Command(os.Args[0], "run", "--config", cfg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), asCLI+"=1", "XDG_DATA_HOME="+filepath.Join(dir, ".data"))
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.HasPrefix(sc.Text(), "iter   3") {
			cmd.Process.Signal(syscall.SIGINT)
			break
		}
	}
	// The rest of stderr, then the exit status: Wait closes the pipe, so
	// it comes only once everything has been read (a Wait beside the
	// reader lost the run's last lines).
	type ending struct {
		err    error
		stderr string
	}
	done := make(chan ending, 1)
	go func() {
		var b strings.Builder
		for sc.Scan() {
			b.WriteString(sc.Text() + "\n")
		}
		done <- ending{cmd.Wait(), b.String()}
	}()
	var after string
	select {
	case end := <-done:
		var exit *exec.ExitError
		if !errors.As(end.err, &exit) || exit.ExitCode() != 1 {
			t.Errorf("interrupted run: %v, want exit status 1", end.err)
		}
		after = end.stderr
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the run did not stop after SIGINT")
	}
	if !strings.Contains(after, "reconstruct: interrupt: stopping…") || !strings.Contains(after, "--resume") {
		t.Errorf("stderr after Ctrl-C does not say it is stopping and how to continue:\n%s", after)
	}
	data, err := os.ReadFile(filepath.Join(dir, "ws", workflow.ResultFile))
	if err != nil {
		t.Fatalf("no result.json after Ctrl-C: %v (stderr %v)", err, lines)
	}
	var res workflow.Result
	json.Unmarshal(data, &res)
	if res.StopReason != workflow.StopCancelled || res.Iterations < 3 || res.FinalProgram == "" {
		t.Errorf("result after Ctrl-C: stop %s, %d iterations, final %q", res.StopReason, res.Iterations, firstN(res.FinalProgram, 40))
	}
	evs, err := workflow.ReadEvents(filepath.Join(dir, "ws"))
	if err != nil || len(evs) < 2 || evs[len(evs)-2].Type != workflow.EventFinal || evs[len(evs)-1].Type != workflow.EventRunFinished {
		t.Errorf("events.jsonl does not end with the final and run_finished events: %v", err)
	}
	if kind == "docker" {
		noContainersLeft(t, res.RunID)
	}
	// The interrupted run is continued where it stopped and finishes.
	r := cli(t, dir, nil, "run", "--resume", res.RunID, "--json")
	var resumed workflow.Result
	if err := json.Unmarshal([]byte(r.stdout), &resumed); r.code != 0 || err != nil {
		t.Fatalf("resume: exit %d, %v\n%s", r.code, err, r.stderr)
	}
	if resumed.StopReason != workflow.StopEarly || resumed.Iterations != 6 || resumed.KnownExamples != 30 {
		t.Errorf("resumed run: stop %s after %d iterations, %d examples", resumed.StopReason, resumed.Iterations, resumed.KnownExamples)
	}
	if kind == "docker" {
		noContainersLeft(t, res.RunID)
	}
	if r := cli(t, dir, nil, "run", "--resume", res.RunID); r.code != exitUsage || !strings.Contains(r.stderr, "finished") {
		t.Errorf("resume of the finished run: exit %d, %s", r.code, r.stderr)
	}
}

// noContainersLeft fails when a container of the run still exists, in any
// state.
func noContainersLeft(t *testing.T, runID string) {
	t.Helper()
	out, err := exec.Command("docker", "ps", "-a", "-q", "--filter", "label="+docker.LabelRunID+"="+runID).Output()
	if err != nil {
		t.Fatalf("docker ps: %v", err)
	}
	if ids := strings.Fields(string(out)); len(ids) > 0 {
		t.Errorf("run %s left containers %v", runID, ids)
	}
}

// TestSecondSignalAction: the first SIGTERM cancels the command and says
// what a second one does; the second runs the command's own action (a
// worker handing its tasks back) instead of quitting.
func TestSecondSignalAction(t *testing.T) {
	var buf bytes.Buffer
	a := &app{stderr: &buf}
	handed := make(chan struct{})
	a.secondSignal.Store(&signalAction{what: "hand the running tasks back", do: func() { close(handed) }})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := onSignals(cancel, &buf, a.onSecondSignal)
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute):
		t.Fatal("the first SIGTERM did not cancel the command")
	}
	if want := "terminated: stopping… (everything so far is kept; once more to hand the running tasks back)"; !strings.Contains(buf.String(), want) {
		t.Errorf("first signal said %q, want %q", buf.String(), want)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-handed:
	case <-time.After(time.Minute):
		t.Fatal("the second SIGTERM did not run the command's action")
	}
	if h := a.secondSignal.Load(); h != nil {
		t.Error("the action is still set: a third signal would not quit")
	}
	if got := a.onSecondSignal(nil); got != "quit at once" {
		t.Errorf("after the action, a signal would %q, want quit at once", got)
	}
}

// A required flag left out is bad input (exit 2), and the error names the
// command and the flag, the same way for every command.
func TestRequiredFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run"}, "run: --config is required"},
		{[]string{"score"}, "score: --config is required"},
		{[]string{"bench", "run"}, "bench run: --tasks is required"},
		{[]string{"bench", "run", "--tasks", "x"}, "bench run: --out is required"},
		{[]string{"bank", "create", "--spec", "x"}, "bank create: --workspace is required"},
		{[]string{"bank", "create", "--workspace", "w"}, "bank create: --spec is required"},
		{[]string{"bank", "register"}, "bank register: --name is required"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			dir := t.TempDir()
			r := cli(t, dir, nil, tt.args...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", r.code, r.stderr, exitUsage, tt.want)
			}
		})
	}
}
