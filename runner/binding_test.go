package runner

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/reconstruct/reconstruct/agent/llm"
	"github.com/reconstruct/reconstruct/binding"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// factoryModule serves one task, "double", in the shapes a binding may
// return it in, and the mistakes a binding can make.
const factoryModule = `import os

from reconstruct_binding import ReconstructionTask


def _double(xs):
    if not isinstance(xs, list):
        raise TypeError("want a list")
    return [2 * x for x in xs]


def _gen(k, rng):
    return [[rng.randint(-5, 5) for _ in range(3)] for _ in range(k)]


def as_dataclass(name="double"):
    return ReconstructionTask(input_type="a list of three integers", kind="list", oracle=_double,
                              random_inputs=_gen, lo=-5, hi=5, name=name,
                              on_example=lambda i, o, s: {"input": i, "source": s})


class Plain:
    input_type = "a list of three integers"
    kind = "list"
    function_name = "twice"

    def __init__(self):
        self.oracle = _double

    def random_inputs(self, k, exclude, rng):
        return _gen(k, rng)


def as_plain():
    return Plain()


def as_dict():
    return {"input_type": "a list of three integers", "kind": "list", "oracle": _double, "random_inputs": _gen}


def missing_field():
    return {"kind": "list", "oracle": _double}


def wrong_type():
    return {"input_type": "a list", "kind": "list", "oracle": _double, "lo": "zero", "hi": 5}


def bad_kind():
    return {"input_type": "a list", "kind": "tree", "oracle": _double}


def unknown_tool():
    t = as_dict()
    t["tools"] = ["nope"]
    return t


def no_generator():
    return {"input_type": "a list", "kind": "list", "oracle": _double}


def one_bound():
    t = as_dict()
    t["lo"] = 0
    return t


def raising(name):
    raise KeyError("no task named " + name)


not_callable = 3


def _candidate(path):
    ns = {}
    with open(path) as f:
        exec(f.read(), ns)
    return ns["solve"]


def _evaluate_doubled(path, inputs):
    # Run where candidates run: the binding's files are not there.
    if os.path.exists(os.path.join("bench", "tasks.py")):
        raise RuntimeError("evaluate runs beside the binding's files")
    f = _candidate(path)
    return [[2 * v for v in f(x)] for x in inputs]


def with_evaluate():
    t = as_dict()
    t["evaluate"] = _evaluate_doubled
    return t


async def _evaluate_records(path, inputs):
    f = _candidate(path)
    out = []
    for x in inputs:
        try:
            out.append({"ok": True, "output": f(x)})
        except Exception as e:
            out.append({"ok": False, "error": str(e)})
    return out


def with_async_evaluate():
    t = as_dict()
    t["evaluate"] = _evaluate_records
    return t


def _fail(*_):
    raise ZeroDivisionError("the hook failed on purpose")


def raising_evaluate():
    t = as_dict()
    t["evaluate"] = _fail
    return t


def raising_on_example():
    t = as_dict()
    t["on_example"] = _fail
    return t
`

// factoryTask writes the binding module (package bench, module tasks), a
// replay agent that writes the right program, and a configuration naming
// factory; it returns the configuration file.
func writeFactoryTask(t *testing.T, factory, args string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"bench/__init__.py": "",
		"bench/tasks.py":    factoryModule,
		"twice.py":          "def twice(xs):\n    return [2 * x for x in xs]\n",
		"solve.py":          "def solve(xs):\n    return [2 * x for x in xs]\n",
		"replay.yaml":       "candidates:\n  - file: solve.py\n",
		"replay_twice.yaml": "candidates:\n  - file: twice.py\n",
		"same.py":           "def solve(xs):\n    return list(xs)\n",
		"replay_same.yaml":  "candidates:\n  - file: same.py\n",
		"task.yaml": "task:\n  factory: " + factory + "\n  args: " + args + "\n" +
			"agent:\n  kind: replay\n  replay: {script: replay.yaml}\n" +
			"sandbox: {kind: process, call_timeout: 60s}\n" +
			"workflow: {max_iterations: 2, early_stop: 2}\n",
	}
	testenv.WriteFiles(t, dir, files)
	return filepath.Join(dir, "task.yaml")
}

func loadFactoryTask(t *testing.T, file string, override map[string]any) *config.Config {
	t.Helper()
	if override == nil {
		override = map[string]any{}
	}
	override["workspace"] = filepath.Join(t.TempDir(), "ws")
	override["bank.path"] = filepath.Join(t.TempDir(), "bank.db")
	c, err := config.Load(config.Options{File: file, Override: override})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A factory may return a dataclass, a plain object or a dict: each runs
// to a program that passes, with its oracle and its random_inputs in the
// oracle's sandbox, and its description recorded with the run.
func TestFactoryShapes(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	for _, tc := range []struct {
		factory, args, name, function string
		domain, onExample             bool
	}{
		{"bench.tasks:as_dataclass", "{name: double}", "double", "solve", true, true},
		{"bench.tasks:as_plain", "{}", "as_plain", "twice", false, false},
		{"bench.tasks:as_dict", "{}", "as_dict", "solve", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			override := map[string]any{"workflow.random_share": 0.5}
			if tc.function == "twice" {
				override["agent.replay.script"] = filepath.Join(filepath.Dir(writeFactoryTask(t, tc.factory, tc.args)), "replay_twice.yaml")
			}
			file := writeFactoryTask(t, tc.factory, tc.args)
			if s, ok := override["agent.replay.script"].(string); ok {
				override["agent.replay.script"] = filepath.Join(filepath.Dir(file), filepath.Base(s))
			}
			// Run binds an unbound task itself; bound first, its task is
			// at hand here.
			c, err := Bind(context.Background(), loadFactoryTask(t, file, override), nil)
			if err != nil {
				t.Fatalf("Bind: %v", err)
			}
			res, err := Run(context.Background(), c, Options{})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if c.Task.Name != tc.name || c.Task.InputType != "a list of three integers" || c.Task.Kind != "list" ||
				c.Task.FunctionName != tc.function || (c.Task.Domain != nil) != tc.domain || c.Task.Bound == nil {
				t.Errorf("bound task = %+v", c.Task)
			}
			if res.FinalAccuracy != 1 || res.RandomInputs == 0 {
				t.Errorf("final accuracy %v, %d random inputs of %d", res.FinalAccuracy, res.RandomInputs, res.KnownExamples)
			}
			log, err := os.ReadFile(filepath.Join(c.Workspace, BindingLog))
			if got := err == nil && strings.Count(string(log), "\n") == res.KnownExamples; got != tc.onExample {
				t.Errorf("binding log: %d lines for %d examples (%v), want on_example's %v", strings.Count(string(log), "\n"), res.KnownExamples, err, tc.onExample)
			}
			recorded, err := recordedRunConfig(t, c, res.RunID)
			if err != nil {
				t.Fatal(err)
			}
			if recorded.Task.Bound == nil || task.MustCanonical(recorded.Task.Bound.Description) != task.MustCanonical(c.Task.Bound.Description) {
				t.Errorf("the run recorded %+v, want the description %s", recorded.Task.Bound, c.Task.Bound.Description)
			}
		})
	}
}

func recordedRunConfig(t *testing.T, c *config.Config, run string) (*config.Config, error) {
	t.Helper()
	b, closeBank, err := OpenBank(context.Background(), c.Bank.Path, ReadBank, BankOptions{})
	if err != nil {
		return nil, err
	}
	defer closeBank()
	ws, err := FindRun(context.Background(), b, run)
	if err != nil {
		return nil, err
	}
	events, err := RunEvents(context.Background(), b, ws)
	if err != nil {
		return nil, err
	}
	return recordedConfig(events)
}

// Every mistake of a binding is a configuration error naming the factory
// and what is wrong, and creates nothing.
func TestFactoryMistakesCreateNothing(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	for _, tc := range []struct {
		name, factory, args string
		want                []string
	}{
		{"missing module", "nope.tasks:as_dict", "{}", []string{"task.factory nope.tasks:as_dict", "module nope.tasks not found (searched: "}},
		{"missing callable", "bench.tasks:nothing", "{}", []string{"task.factory bench.tasks:nothing", "module bench.tasks has no callable nothing"}},
		{"not callable", "bench.tasks:not_callable", "{}", []string{"not_callable in module bench.tasks is a int, not a callable"}},
		{"factory raises", "bench.tasks:raising", "{name: foo}", []string{"task.factory bench.tasks:raising: the factory raised:", "KeyError: 'no task named foo'", "tasks.py"}},
		{"wrong arguments", "bench.tasks:as_dict", "{name: foo}", []string{"the factory raised:", "unexpected keyword argument 'name'"}},
		{"missing field", "bench.tasks:missing_field", "{}", []string{"task.factory bench.tasks:missing_field", "the returned dict has no field input_type"}},
		{"wrong type", "bench.tasks:wrong_type", "{}", []string{"task.factory bench.tasks:wrong_type", "field lo is str ('zero'), want a number"}},
		{"unknown kind", "bench.tasks:bad_kind", "{}", []string{"task.factory: bench.tasks:bad_kind returned a task whose kind: unknown value \"tree\""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := loadFactoryTask(t, writeFactoryTask(t, tc.factory, tc.args), nil)
			_, err := Run(context.Background(), c, Options{})
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("Run: %v, want a configuration error", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			for _, p := range []string{c.Workspace, c.Bank.Path} {
				if p == "" {
					continue
				}
				if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s was created (%v)", p, err)
				}
			}
		})
	}
}

// Bind's errors keep their causes for errors.Is and errors.As (the LLM
// agent's, the configuration's), and binding leaves the loaded
// configuration as it was: the bound one is a copy, checked once.
func TestBindErrorsAndCopy(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	llmAgent := map[string]any{"agent.kind": "llm", "agent.llm.model": "m", "agent.llm.api_key_env": ""}
	for _, tc := range []struct {
		name, factory string
		override      map[string]any
		is            []error
		want          string
	}{
		{"unknown tool", "bench.tasks:unknown_tool", llmAgent, []error{ErrConfig, llm.ErrConfig}, `the task's tools name "nope"`},
		{"one bound", "bench.tasks:one_bound", nil, []error{ErrConfig}, "only one of lo and hi"},
		{"random share without a generator", "bench.tasks:no_generator", map[string]any{"workflow.random_share": 0.5}, []error{ErrConfig},
			"returned a task without random_inputs, but workflow.random_share is 0.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := loadFactoryTask(t, writeFactoryTask(t, tc.factory, "{}"), tc.override)
			_, err := Bind(context.Background(), c, nil)
			for _, target := range tc.is {
				if !errors.Is(err, target) {
					t.Errorf("Bind: %v, not %v", err, target)
				}
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Bind: %v, want %q", err, tc.want)
			}
			var ce *config.Error
			if strings.Contains(tc.name, "random share") && !errors.As(err, &ce) {
				t.Errorf("Bind: %v, not a *config.Error", err)
			}
		})
	}
	t.Run("copy", func(t *testing.T) {
		t.Parallel()
		c := loadFactoryTask(t, writeFactoryTask(t, "bench.tasks:as_dataclass", "{name: twice}"), nil)
		before, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Bind(context.Background(), c, nil)
		if err != nil {
			t.Fatal(err)
		}
		after, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(before, after) {
			t.Errorf("Bind changed the loaded configuration:\n%s\n%s", before, after)
		}
		if b == c || b.Task.Bound == nil || b.Task.Name != "twice" || b.Task.Kind != "list" || b.Workflow.RandomShare != workflow.GeneratorRandomShare {
			t.Errorf("bound task %+v, random_share %g", b.Task, b.Workflow.RandomShare)
		}
		if again, err := Bind(context.Background(), b, nil); err != nil || again != b {
			t.Errorf("binding a bound configuration: %p, %v; want it as it is", again, err)
		}
	})
}

// A factory task's run resumes with its recorded description. Once the
// binding's files changed, it resumes as a task directory's run does, with
// the files as they are now, and says so, naming each changed file with its
// digest when the task was bound and now.
func TestResumeFactoryRun(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	for _, tc := range []struct {
		name   string
		change bool
	}{
		{"unchanged", false},
		{"changed", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			file := writeFactoryTask(t, "bench.tasks:as_dataclass", "{name: double}")
			c := loadFactoryTask(t, file, map[string]any{"workflow.max_iterations": 4, "workflow.early_stop": 4})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			first, err := Run(ctx, c, Options{RunID: "factory-resume", Recorders: []workflow.Recorder{&cancelAt{typ: workflow.EventCandidateArchived, n: 1, cancel: cancel}}})
			if !errors.Is(err, context.Canceled) || first.StopReason != workflow.StopCancelled {
				t.Fatalf("first run: %v, stop %s", err, first.StopReason)
			}
			module := filepath.Join(filepath.Dir(file), "bench", "tasks.py")
			orig, err := os.ReadFile(module)
			if err != nil {
				t.Fatal(err)
			}
			wantNotice := ""
			if tc.change {
				// on_example's lines say which version of the module wrote them.
				changed := strings.Replace(string(orig), `{"input": i, "source": s}`, `{"input": i, "source": s, "version": 2}`, 1)
				if err := os.WriteFile(module, []byte(changed), 0o644); err != nil {
					t.Fatal(err)
				}
				was, now := sha256.Sum256(orig), sha256.Sum256([]byte(changed))
				wantNotice = "warning: task.factory bench.tasks:as_dataclass: the binding's files in " + filepath.Dir(file) +
					" changed since the task was bound: bench/tasks.py (sha256 " + hex.EncodeToString(was[:])[:12] +
					" when bound, " + hex.EncodeToString(now[:])[:12] + " now); the run goes on with them as they are now"
			}
			var progress bytes.Buffer
			res, err := Resume(context.Background(), c.Bank.Path, "factory-resume", Options{Progress: &progress})
			if err != nil {
				t.Fatalf("resume: %v", err)
			}
			if res.FinalAccuracy != 1 || res.Iterations != 4 {
				t.Errorf("resumed run: accuracy %v after %d iterations", res.FinalAccuracy, res.Iterations)
			}
			switch got := progress.String(); {
			case wantNotice == "" && strings.Contains(got, "task.factory"):
				t.Errorf("resume of an unchanged binding said %q", got)
			case !strings.Contains(got, wantNotice):
				t.Errorf("resume said %q, want %q", got, wantNotice)
			}
			log, err := os.ReadFile(filepath.Join(c.Workspace, BindingLog))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(log), `"version":2`); got != tc.change {
				t.Errorf("binding log written by the changed module: %v, want %v:\n%s", got, tc.change, log)
			}
		})
	}
}

// A task's evaluate(program_path, inputs) runs in the evaluator's sandbox,
// away from the binding's files, sync or async, returning outputs or
// records; it can hold a candidate back, never pass it: where it disagrees
// with the candidate's own evaluation the example fails. A hook that raises
// (evaluate or on_example) is reported with its name and the run goes on to
// its end.
func TestFactoryHooks(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	for _, tc := range []struct {
		name, factory, replay string
		// accuracy is the run's final accuracy.
		accuracy float64
		// disagree: the hook disagreed with the candidate's own run.
		disagree bool
		// warn is in a warning of the run's log ("" for none of a hook).
		warn string
	}{
		{"an async evaluate returning records agrees", "bench.tasks:with_async_evaluate", "replay.yaml", 1, false, ""},
		// The candidate returns its input: the hook's doubling of what it
		// returns would make it pass, its own evaluation does not.
		{"evaluate cannot pass a candidate", "bench.tasks:with_evaluate", "replay_same.yaml", 0, true,
			"hook evaluate disagrees with the candidate's own evaluation"},
		{"evaluate cannot fail a right one unnoticed", "bench.tasks:with_evaluate", "replay.yaml", 0, true,
			"hook evaluate disagrees with the candidate's own evaluation"},
		{"without evaluate the same candidate fails", "bench.tasks:as_dict", "replay_same.yaml", 0, false, ""},
		{"evaluate raises", "bench.tasks:raising_evaluate", "replay.yaml", 1, false,
			"hook evaluate failed; the candidate's own evaluation stands: task.factory bench.tasks:raising_evaluate: evaluate raised ZeroDivisionError: the hook failed on purpose"},
		{"on_example raises", "bench.tasks:raising_on_example", "replay.yaml", 1, false,
			"hook on_example failed: task.factory bench.tasks:raising_on_example: on_example raised ZeroDivisionError: the hook failed on purpose"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			file := writeFactoryTask(t, tc.factory, "{}")
			c := loadFactoryTask(t, file, map[string]any{"agent.replay.script": filepath.Join(filepath.Dir(file), tc.replay)})
			core, logs := observer.New(zap.WarnLevel)
			res, err := Run(context.Background(), c, Options{Log: zap.New(core)})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if res.FinalAccuracy != tc.accuracy {
				t.Errorf("final accuracy %v, want %v", res.FinalAccuracy, tc.accuracy)
			}
			disagreed := false
			for _, r := range res.Events {
				disagreed = disagreed || r.Disagreements > 0
			}
			if disagreed != tc.disagree {
				t.Errorf("records say the hook disagreed: %v, want %v (%+v)", disagreed, tc.disagree, res.Events)
			}
			var hooks []string
			if n := logs.FilterMessage("hook on_example failed").Len(); n > res.Iterations+1 {
				t.Errorf("%d warnings of on_example in %d iterations, want one a batch at most", n, res.Iterations)
			}
			for _, e := range logs.All() {
				if strings.HasPrefix(e.Message, "hook ") {
					msg := e.Message
					if err, ok := e.ContextMap()["error"]; ok {
						msg += ": " + fmt.Sprint(err)
					}
					hooks = append(hooks, msg)
				}
			}
			switch {
			case tc.warn == "" && len(hooks) > 0:
				t.Errorf("hook warnings %q, want none", hooks)
			case tc.warn != "" && (len(hooks) == 0 || !strings.HasPrefix(hooks[0], tc.warn)):
				t.Errorf("hook warnings %q, want %q", hooks, tc.warn)
			}
		})
	}
}

// noisyModule's on_example returns half a megabyte for every example.
const noisyModule = `def _double(x):
    return 2 * x


def make():
    return {"input_type": "an integer", "kind": "int", "oracle": _double,
            "random_inputs": lambda k, exclude: [len(exclude) + i for i in range(k)],
            "on_example": lambda i, o, s: "x" * 500000}
`

// The binding log is bounded: an on_example that returns half a megabyte
// an example writes a line saying it was left out, not the value.
func TestBindingLogIsBounded(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"noisy.py":    noisyModule,
		"solve.py":    "def solve(x):\n    return 2 * x\n",
		"replay.yaml": "candidates:\n  - file: solve.py\n",
		"task.yaml": "task: {factory: noisy:make}\nagent: {kind: replay, replay: {script: replay.yaml}}\n" +
			"sandbox: {kind: process, call_timeout: 60s}\nworkflow: {max_iterations: 3, early_stop: 3, random_share: 0.5}\n",
	})
	c := loadFactoryTask(t, filepath.Join(dir, "task.yaml"), nil)
	res, err := Run(context.Background(), c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(c.Workspace, BindingLog))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != res.KnownExamples || len(data) > res.KnownExamples*200 {
		t.Errorf("binding log: %d bytes in %d lines for %d examples, want a short line each", len(data), len(lines), res.KnownExamples)
	}
	if !strings.Contains(lines[0], "left out") {
		t.Errorf("binding log line %q does not say the value was left out", lines[0])
	}
}

// fakeCaller answers every on_example request with a value of size bytes.
type fakeCaller struct{ size int }

func (f fakeCaller) Call(_ context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error) {
	v, _ := json.Marshal(strings.Repeat("y", f.size))
	out := make([]sandbox.Outcome, len(req.Inputs))
	for i := range out {
		out[i] = sandbox.Outcome{Status: sandbox.StatusOK, Output: v}
	}
	return out, nil
}

// The binding log stops at MaxBindingLogBytes, and says so once.
func TestBindingLogStopsWhenFull(t *testing.T) {
	b, err := binding.Load(binding.Spec{Factory: "m:f", Root: t.TempDir(), Path: nil})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), BindingLog)
	core, logs := observer.New(zap.WarnLevel)
	h := newExampleHook(b, fakeCaller{size: MaxBindingLogLine - 100}, sandbox.Limits{}, path, zap.New(core))
	exs := make([]task.Example, 100)
	for i := range exs {
		exs[i] = task.Example{Input: json.RawMessage(strconv.Itoa(i)), Output: json.RawMessage("0"), Source: task.SourceRandom}
	}
	for range 5 {
		if err := h.RecordExamples(context.Background(), "run", exs); err != nil {
			t.Fatal(err)
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > MaxBindingLogBytes || st.Size() < MaxBindingLogBytes-MaxBindingLogLine {
		t.Errorf("binding log of %d bytes, want it filled up to %d", st.Size(), MaxBindingLogBytes)
	}
	if n := logs.FilterMessage("the binding log is full: on_example's results are no longer written").Len(); n != 1 {
		t.Errorf("%d warnings that the log is full, want 1", n)
	}
}
