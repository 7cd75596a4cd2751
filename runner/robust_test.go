package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// A user's mistake is refused before anything is created: no bank file, no
// bank workspace, no workspace directory.
func TestMistakesCreateNothing(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	foreign := t.TempDir()
	os.WriteFile(filepath.Join(foreign, "thesis.tex"), []byte("mine"), 0o644)
	dynamic := filepath.Join(t.TempDir(), "dynamic.py")
	os.WriteFile(dynamic, []byte("import builtins\nglobals()['running_max'] = lambda xs: xs\n"), 0o644)
	qs, _ := filepath.Abs(filepath.Join("..", "configs", "examples", "quickstart"))
	emptyScript := filepath.Join(t.TempDir(), "empty.yaml")
	os.WriteFile(emptyScript, []byte("candidates: []\n"), 0o644)
	tests := []struct {
		name     string
		override map[string]any
		runID    string
		force    bool
		want     string // "" when the run must start
	}{
		{name: "a run id that cannot be kept as given", runID: "kp-0.5", want: `run id "kp-0.5"`},
		{name: "a hidden function that does not exist", override: map[string]any{"task.oracle.function": "runing_max"}, want: "task.oracle.function"},
		{name: "a generator function that does not exist", override: map[string]any{"task.random_inputs.function": "gen"}, want: "task.random_inputs.function"},
		{name: "a workspace holding someone's files", override: map[string]any{"workspace": foreign}, want: "thesis.tex"},
		{name: "a workspace holding the hidden program", override: map[string]any{"workspace": qs}, want: "task.oracle.python"},
		// The agent is made before the sandboxes start: a broken interpreter
		// is not reached.
		{name: "a replay script with no candidate", override: map[string]any{"agent.replay.script": emptyScript, "sandbox.python": "/bin/false"}, want: "at least one candidate"},
		{name: "someone's files, forced", override: map[string]any{"workspace": foreign, "workflow.max_iterations": 1}, force: true},
		{name: "a function defined at run time", override: map[string]any{"task.oracle.python": dynamic, "task.allow_outside_paths": true, "task.random_inputs": nil, "workflow.max_iterations": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bankPath := filepath.Join(t.TempDir(), "bank", "bank.db")
			o := map[string]any{"bank.path": bankPath}
			for k, v := range tt.override {
				o[k] = v
			}
			c := quickstart(t, o)
			if g, ok := tt.override["task.random_inputs"]; ok && g == nil {
				// Set to nil, a section keeps the file's keys.
				c.Task.RandomInputs = nil
			}
			if w, ok := tt.override["workspace"].(string); ok {
				c.Workspace = w
			} else {
				c.Workspace = filepath.Join(t.TempDir(), "runs", "ws")
			}
			_, err := Run(context.Background(), c, Options{RunID: tt.runID, Force: tt.force})
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Run: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want a configuration error naming %q", err, tt.want)
			}
			if _, err := os.Stat(filepath.Dir(bankPath)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a refused run created the bank's directory")
			}
			if _, ok := tt.override["workspace"]; !ok {
				if _, err := os.Stat(filepath.Dir(c.Workspace)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("a refused run created %s", filepath.Dir(c.Workspace))
				}
			}
		})
	}
}

// A run id is kept exactly as given, and found by it; another run whose id
// merely ends the same way is not it.
func TestRunIDKeptAsGiven(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	bankPath := filepath.Join(t.TempDir(), "bank.db")
	for _, id := range []string{"kp-05", "05"} {
		c := quickstart(t, map[string]any{"bank.path": bankPath, "workflow.max_iterations": 1})
		if _, err := Run(context.Background(), c, Options{RunID: id}); err != nil {
			t.Fatalf("run %s: %v", id, err)
		}
	}
	b, closeBank, err := OpenBank(context.Background(), bankPath, ReadBank, BankOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeBank()
	for _, id := range []string{"kp-05", "05"} {
		ws, err := FindRun(context.Background(), b, id)
		if err != nil || ws != "running_max-"+id {
			t.Errorf("FindRun(%s) = %s, %v", id, ws, err)
		}
	}
	if _, err := FindRun(context.Background(), b, "5"); !errors.Is(err, ErrNoRun) {
		t.Errorf("FindRun(5) = %v, want ErrNoRun", err)
	}
}

// A run killed during start-up, before its journal got anything, leaves no
// stuck id: resuming it says so, and a new run may take the id.
func TestKilledDuringStartupLeavesTheIDFree(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	c := quickstart(t, nil)
	b, closeBank, err := OpenBank(context.Background(), c.Bank.Path, WriteBank, BankOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewRunWorkspace(context.Background(), b, RunWorkspaceName(c.Task.Name, "early"), c.Task.FunctionName); err != nil {
		t.Fatal(err)
	}
	closeBank()
	if _, err := Resume(context.Background(), c.Bank.Path, "early", Options{}); !errors.Is(err, ErrNotStarted) || !errors.Is(err, ErrConfig) {
		t.Errorf("resume: %v, want ErrNotStarted", err)
	}
	res, err := Run(context.Background(), c, Options{RunID: "early"})
	if err != nil || res.StopReason != workflow.StopEarly {
		t.Fatalf("a new run under the id: %v", err)
	}
	// Once the run recorded something, the id is taken.
	c2 := quickstart(t, map[string]any{"bank.path": c.Bank.Path})
	if _, err := Run(context.Background(), c2, Options{RunID: "early"}); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "--resume") {
		t.Errorf("a second run under a used id: %v", err)
	}
}

// cancelAt cancels the run at the n-th event of a type, as Ctrl-C would.
type cancelAt struct {
	typ    string
	n      int
	seen   int
	cancel context.CancelFunc
}

func (c *cancelAt) RecordEvent(_ context.Context, ev workflow.Event) error {
	if ev.Type == c.typ {
		if c.seen++; c.seen == c.n {
			c.cancel()
		}
	}
	return nil
}

func (c *cancelAt) RecordExamples(context.Context, string, []task.Example) error { return nil }

// A run stopped by Ctrl-C is continued with Resume and ends as a run never
// interrupted would.
func TestResumeACancelledRun(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	want, err := Run(context.Background(), quickstart(t, nil), Options{RunID: "whole"})
	if err != nil {
		t.Fatal(err)
	}
	c := quickstart(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first, err := Run(ctx, c, Options{RunID: "whole", Recorders: []workflow.Recorder{&cancelAt{typ: workflow.EventCandidateArchived, n: 3, cancel: cancel}}})
	if !errors.Is(err, context.Canceled) || first.StopReason != workflow.StopCancelled {
		t.Fatalf("first run: %v, stop %s", err, first.StopReason)
	}
	got, err := Resume(context.Background(), c.Bank.Path, "whole", Options{})
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	canonical := cmp.Transformer("canonical", func(raw []byte) string { return task.MustCanonical(raw) })
	opts := cmpopts.IgnoreFields(workflow.Result{}, "StartedAt", "FinishedAt", "WallSeconds", "Workspace")
	if diff := cmp.Diff(*want, *got, opts, canonical); diff != "" {
		t.Errorf("resumed result differs from an uninterrupted run (-want +got):\n%s", diff)
	}
	b, closeBank, _ := OpenBank(context.Background(), c.Bank.Path, ReadBank, BankOptions{})
	defer closeBank()
	runs, _ := Runs(context.Background(), b)
	if len(runs) != 1 || runs[0].Status != "finished" || runs[0].StopReason != workflow.StopEarly {
		t.Errorf("runs = %+v", runs)
	}
	if _, err := Resume(context.Background(), c.Bank.Path, "whole", Options{}); !errors.Is(err, workflow.ErrFinished) {
		t.Errorf("resume of the finished run: %v", err)
	}
}

// The examples of a forked run are its parent's and its own.
func TestShowRunOfAFork(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	c := quickstart(t, map[string]any{"workflow.early_stop": 2})
	if _, err := Run(context.Background(), c, Options{RunID: "parent"}); err != nil {
		t.Fatal(err)
	}
	fc := quickstart(t, map[string]any{"bank.path": c.Bank.Path, "workflow.early_stop": 1})
	res, err := Fork(context.Background(), fc, "parent", Options{RunID: "child"})
	if err != nil {
		t.Fatal(err)
	}
	b, closeBank, _ := OpenBank(context.Background(), c.Bank.Path, ReadBank, BankOptions{})
	defer closeBank()
	info, err := ShowRun(context.Background(), b, "child")
	if err != nil {
		t.Fatal(err)
	}
	if info.ForkedFrom != "parent" || len(info.Examples) != res.KnownExamples || info.Known != res.KnownExamples || res.KnownExamples <= 2 {
		t.Errorf("fork shows %d examples (known %d), the run had %d; forked from %q", len(info.Examples), info.Known, res.KnownExamples, info.ForkedFrom)
	}
}

// Scratch directories in use (locked) survive a prune; those a killed run
// of an earlier version left do not.
func TestPruneScratch(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	inUse, err := os.MkdirTemp(tmp, "reconstruct-evaluator-")
	if err != nil {
		t.Fatal(err)
	}
	lock, err := os.Open(inUse)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	stale, err := os.MkdirTemp(tmp, "reconstruct-score-")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(stale, "left.txt"), []byte("x"), 0o644)
	other := filepath.Join(tmp, "someone-else")
	os.Mkdir(other, 0o755)
	removed, err := PruneScratch(tmp)
	if err != nil || !cmp.Equal(removed, []string{stale}) {
		t.Errorf("PruneScratch = %v, %v; want %s alone", removed, err, stale)
	}
	for _, d := range []string{inUse, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}

// The workspace is given back to its owner, with what the sandbox's users
// made in it.
func TestKeepOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Skip(t, "changing a file's owner needs root")
	}
	ws := t.TempDir()
	made := filepath.Join(ws, "scratch.py")
	os.WriteFile(made, []byte("x"), 0o644)
	mine := filepath.Join(ws, "mine.txt")
	os.WriteFile(mine, []byte("x"), 0o644)
	os.Chown(mine, 1000, 1000)
	restore := keepOwner(ws, nopLog())
	sandboxUID := sandboxUIDs + 4242
	for _, p := range []string{ws, made} {
		if err := os.Chown(p, sandboxUID, sandboxUID); err != nil {
			t.Fatal(err)
		}
	}
	restore()
	for p, want := range map[string]int{ws: 0, made: 0, mine: 1000} {
		st, _ := os.Stat(p)
		if uid := int(st.Sys().(*syscall.Stat_t).Uid); uid != want {
			t.Errorf("%s owned by %d, want %d", p, uid, want)
		}
	}
}

// Reading never creates a bank, and the bank of a configuration is found.
func TestOpenBankForReading(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "sub", "bank.db")
	if _, _, err := OpenBank(context.Background(), missing, ReadBank, BankOptions{}); !errors.Is(err, ErrNoBank) || !strings.Contains(err.Error(), missing) {
		t.Errorf("read a missing bank: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(missing)); !errors.Is(err, os.ErrNotExist) {
		t.Error("reading created the bank's directory")
	}
	empty := filepath.Join(t.TempDir(), "empty.db")
	os.WriteFile(empty, nil, 0o600)
	for _, access := range []BankAccess{ReadBank, WriteBank, UpdateBank} {
		_, _, err := OpenBank(context.Background(), empty, access, BankOptions{})
		if err == nil || !strings.Contains(err.Error(), "empty") {
			t.Errorf("open an empty file (%d): %v", access, err)
		}
		// The bank is named once, not by every layer the error crossed.
		if err != nil && strings.Count(err.Error(), empty) != 1 {
			t.Errorf("open an empty file (%d): the path appears %d times in %q", access, strings.Count(err.Error(), empty), err)
		}
	}
	if st, _ := os.Stat(empty); st.Size() != 0 {
		t.Error("the empty file was written")
	}
}
