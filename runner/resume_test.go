package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// The kill-and-resume tests run the orchestrator in a child process (this
// test binary again) that SIGKILLs itself at a chosen point.
const (
	childEnv  = "RECONSTRUCT_TEST_CHILD_RUN" // config file of the child's run
	killAtEnv = "RECONSTRUCT_TEST_KILL_AT"   // event:occurrence[:delay]
)

func TestMain(m *testing.M) {
	if cfg := os.Getenv(childEnv); cfg != "" {
		os.Exit(childRun(cfg))
	}
	os.Exit(m.Run())
}

// killer SIGKILLs the process at the n-th event of a type, at once or after
// a delay (to land inside whatever runs next).
type killer struct {
	typ   string
	n     int
	delay time.Duration
	seen  int
}

func (k *killer) RecordEvent(_ context.Context, ev workflow.Event) error {
	if ev.Type != k.typ {
		return nil
	}
	if k.seen++; k.seen == k.n {
		if k.delay == 0 {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
		go func() {
			time.Sleep(k.delay)
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}()
	}
	return nil
}

func (k *killer) RecordExamples(context.Context, string, []task.Example) error { return nil }

func childRun(cfgPath string) int {
	c, err := config.Load(config.Options{File: cfgPath})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var recs []workflow.Recorder
	if spec := os.Getenv(killAtEnv); spec != "" {
		parts := strings.Split(spec, ":")
		n, _ := strconv.Atoi(parts[1])
		k := &killer{typ: parts[0], n: n}
		if len(parts) > 2 {
			k.delay, _ = time.ParseDuration(parts[2])
		}
		recs = append(recs, k)
	}
	if _, err := Run(context.Background(), c, Options{RunID: os.Getenv("RECONSTRUCT_TEST_RUN_ID"), Recorders: recs}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// slowQuickstart writes a config of the quickstart whose hidden program
// takes 0.2 s per input, so that a kill can land inside an oracle query.
//
// The replayed script holds exactly the proposals of a run that promotes
// five times in a row; anything that makes the run ask for one more — a
// proposal rejected because the hidden program timed out, or a correct
// candidate failing because its call timed out, which resets the streak of
// promotions — ends it with "replay script has no proposal left". On a
// loaded machine the default limits (2 s per candidate call) can be
// reached, so the limits here are far out of reach: this test is about
// kill and resume, not about limits.
func slowQuickstart(t *testing.T, dir string) string {
	t.Helper()
	qs, _ := filepath.Abs(filepath.Join("..", "configs", "examples", "quickstart"))
	hidden, err := os.ReadFile(filepath.Join(qs, "hidden.py"))
	if err != nil {
		t.Fatal(err)
	}
	slow := strings.Replace(string(hidden), "def running_max(xs):\n", "def running_max(xs):\n    import time\n    time.sleep(0.2)\n", 1)
	os.MkdirAll(filepath.Join(dir, "task"), 0o755)
	os.WriteFile(filepath.Join(dir, "task", "hidden.py"), []byte(slow), 0o644)
	cfg := fmt.Sprintf(`task:
  name: running_max
  input_type: "list of integers"
  kind: list
  domain: {lo: -50, hi: 50}
  oracle: {python: task/hidden.py, function: running_max, timeout: 120s}
agent: {kind: replay, replay: {script: %s}}
sandbox: {kind: process, call_timeout: 120s}
bank: {path: bank.db}
workspace: ws
`, filepath.Join(qs, "replay.yaml"))
	p := filepath.Join(dir, "run.yaml")
	os.WriteFile(p, []byte(cfg), 0o644)
	return p
}

// runChild runs the config in a child process whose temporary directory
// is the config's tmp/ (where its scratch directories go).
func runChild(t *testing.T, cfg, runID, killAt string) error {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(cfg), "tmp")
	os.MkdirAll(tmp, 0o755)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+cfg, killAtEnv+"="+killAt, "RECONSTRUCT_TEST_RUN_ID="+runID, "TMPDIR="+tmp)
	out, err := cmd.CombinedOutput()
	if err != nil && killAt == "" {
		t.Fatalf("child run: %v\n%s", err, out)
	}
	return err
}

func TestKillAndResume(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	ref := t.TempDir()
	if err := runChild(t, slowQuickstart(t, ref), "ref-run", ""); err != nil {
		t.Fatal(err)
	}
	want := readResult(t, filepath.Join(ref, "ws"))
	tests := []struct{ name, killAt string }{
		{"at the start of an agent session", workflow.EventIterationStarted + ":3"},
		{"after a session, before evaluation", workflow.EventTokens + ":2"},
		{"between archive and promotion", workflow.EventCandidateArchived + ":4"},
		{"during an oracle query", workflow.EventIterationFinished + ":3:300ms"},
		{"during the initial oracle query", workflow.EventProposalAccepted + ":1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cfg := slowQuickstart(t, dir)
			err := runChild(t, cfg, "ref-run", tt.killAt)
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("child was not killed: %v", err)
			}
			// The killed process left nothing in the host's temporary
			// directory: its sandboxes' scratch space was their own.
			tmp := filepath.Join(dir, "tmp")
			if left, _ := filepath.Glob(filepath.Join(tmp, "reconstruct-*")); len(left) != 0 {
				t.Errorf("the killed run left %v in its temporary directory", left)
			}
			b, closeBank, err := OpenBank(context.Background(), filepath.Join(dir, "bank.db"), ReadBank, BankOptions{})
			if err != nil {
				t.Fatal(err)
			}
			ws, _ := FindRun(context.Background(), b, "ref-run")
			before, _ := RunEvents(context.Background(), b, ws)
			closeBank()
			observed, _ := workflow.StateFromEvents(before)

			res, err := Resume(context.Background(), filepath.Join(dir, "bank.db"), "ref-run", Options{})
			if err != nil {
				t.Fatalf("resume: %v", err)
			}
			canonical := cmp.Transformer("canonical", func(raw json.RawMessage) string { return task.MustCanonical(raw) })
			opts := cmpopts.IgnoreFields(workflow.Result{}, "StartedAt", "FinishedAt", "WallSeconds", "Workspace")
			if diff := cmp.Diff(want, *res, opts, canonical); diff != "" {
				t.Errorf("resumed result differs from an uninterrupted run (-want +got):\n%s", diff)
			}
			// The journal files match the bank one for one.
			b, closeBank, _ = OpenBank(context.Background(), filepath.Join(dir, "bank.db"), ReadBank, BankOptions{})
			defer closeBank()
			inBank, _ := RunEvents(context.Background(), b, ws)
			onDisk, err := workflow.ReadEvents(filepath.Join(dir, "ws"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(inBank, onDisk, canonical); diff != "" {
				t.Errorf("events.jsonl differs from the bank journal (-bank +file):\n%s", diff)
			}
			// No example observed before the kill was queried again.
			if observed != nil {
				for _, ev := range inBank[len(before):] {
					if ev.Type != workflow.EventProposalAccepted {
						continue
					}
					var d struct{ Inputs []json.RawMessage }
					json.Unmarshal(ev.Data, &d)
					for _, in := range d.Inputs {
						for _, ex := range observed.Examples {
							if task.Equal(in, ex.Input, 0) {
								t.Errorf("input %s was observed before the kill and queried again", in)
							}
						}
					}
				}
			}
		})
	}
}

func readResult(t *testing.T, ws string) workflow.Result {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(ws, workflow.ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	var r workflow.Result
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestResumeWithAnotherMachinesConfig(t *testing.T) {
	testenv.NeedPython(t)
	dir := t.TempDir()
	cfg := slowQuickstart(t, dir)
	if err := runChild(t, cfg, "moved-run", workflow.EventIterationFinished+":2"); err == nil {
		t.Fatal("child was not killed")
	}
	bankPath := filepath.Join(dir, "bank.db")
	other, err := config.Load(config.Options{File: cfg, Override: map[string]any{"task.name": "another_task"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Resume(context.Background(), bankPath, "moved-run", Options{Config: other}); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "another_task") {
		t.Fatalf("resume with another task's configuration: %v, want a configuration error naming it", err)
	}
	// The same task on "another machine": the workspace is elsewhere (its
	// files brought along), and the run continues there.
	moved := filepath.Join(t.TempDir(), "ws")
	if err := os.Rename(filepath.Join(dir, "ws"), moved); err != nil {
		t.Fatal(err)
	}
	// The workspace is given as run --resume --workspace gives it: the
	// caller's configuration, checked, is not changed by the resumption.
	same, err := config.Load(config.Options{File: cfg})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := json.Marshal(same)
	res, err := Resume(context.Background(), bankPath, "moved-run", Options{Config: same, Workspace: moved, SandboxKind: "process"})
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := json.Marshal(same); string(after) != string(before) {
		t.Errorf("Resume changed the configuration it was given:\nbefore %s\nafter  %s", before, after)
	}
	if res.Workspace != moved || res.RunID != "moved-run" || res.FinalProgram == "" {
		t.Errorf("resumed in %s as %s (final program %d bytes), want %s", res.Workspace, res.RunID, len(res.FinalProgram), moved)
	}
	if _, err := os.Stat(filepath.Join(dir, "ws")); !os.IsNotExist(err) {
		t.Errorf("the recorded workspace was used again (%v)", err)
	}
}
