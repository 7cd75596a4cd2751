package benchmarks

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/runner"
	"github.com/reconstruct/reconstruct/workflow"
)

// registry is the benchmark a test binding serves by name: each task's
// kind, input type and program (the hidden one, and the right answer).
var registry = map[string]struct{ Kind, InputType, Src string }{
	"sum":       {"list", "a list of integers", "def solve(x):\n    return sum(x)\n"},
	"maximum":   {"list", "a list of integers", "def solve(x):\n    return max(x, default=0)\n"},
	"reverse":   {"list", "a list of integers", "def solve(x):\n    return x[::-1]\n"},
	"sorted":    {"list", "a list of integers", "def solve(x):\n    return sorted(x)\n"},
	"negatives": {"list", "a list of integers", "def solve(x):\n    return sum(1 for v in x if v < 0)\n"},
	"add":       {"pair", "a pair [a, b] of integers", "def solve(x):\n    return x[0] + x[1]\n"},
	"mul":       {"pair", "a pair [a, b] of integers", "def solve(x):\n    return x[0] * x[1]\n"},
	"upper":     {"string", "a string", "def solve(x):\n    return x.upper()\n"},
	"length":    {"string", "a string", "def solve(x):\n    return len(x)\n"},
	"above":     {"points", "a list of [x, y] points", "def solve(x):\n    return sum(1 for p in x if p[1] > p[0])\n"},
}

const bindingModule = `import json
import random

from reconstruct_binding import ReconstructionTask

TASKS = json.loads(%s)

GENS = {
    "list": lambda rng: [rng.randint(-9, 9) for _ in range(rng.randint(0, 6))],
    "pair": lambda rng: [rng.randint(-9, 9), rng.randint(-9, 9)],
    "string": lambda rng: "".join(rng.choice("abcXYZ ") for _ in range(rng.randint(0, 8))),
    "points": lambda rng: [[rng.randint(-5, 5), rng.randint(-5, 5)] for _ in range(rng.randint(0, 5))],
}


def _program(name):
    ns = {}
    exec(TASKS[name]["Src"], ns)
    return ns["solve"]


def make_task(name, seed=0):
    t = TASKS[name]
    gen = GENS[t["Kind"]]
    return ReconstructionTask(input_type=t["InputType"], kind=t["Kind"], oracle=_program(name), name=name,
                              level=t["Kind"], lo=-9, hi=9,
                              random_inputs=lambda k, rng: [gen(rng) for _ in range(k)])


def heldout(name, seed=0):
    rng = random.Random(seed + 1)
    f = _program(name)
    return [(x, f(x)) for x in (GENS[TASKS[name]["Kind"]](rng) for _ in range(15))]
`

// writeBinding writes the registry's binding module (package bench) and a
// base configuration beside it; withHeldout false leaves heldout out.
func writeBinding(t *testing.T, withHeldout bool) string {
	t.Helper()
	dir := t.TempDir()
	reg, _ := json.Marshal(registry)
	quoted, _ := json.Marshal(string(reg))
	src := strings.Replace(bindingModule, "%s", string(quoted), 1)
	if !withHeldout {
		src = src[:strings.Index(src, "def heldout")]
	}
	for name, data := range map[string]string{
		"bench/__init__.py": "", "bench/binding.py": src,
		"base.yaml": "sandbox: {kind: process, call_timeout: 60s}\nbank: {enabled: false}\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "base.yaml")
}

// rightProgram ends every task with the registry's program, as an agent
// that found it would.
func rightProgram(ran *[]string) RunFunc {
	return func(ctx context.Context, c *config.Config, o runner.Options) (*workflow.Result, error) {
		*ran = append(*ran, c.Task.Name)
		if c.Task.Bound == nil || c.Task.InputType != registry[c.Task.Name].InputType {
			return nil, errors.New("the task was not bound before it ran")
		}
		return &workflow.Result{RunID: "r-" + c.Task.Name, StopReason: workflow.StopEarly, FinalProgram: registry[c.Task.Name].Src}, nil
	}
}

// A sweep over three of a factory's tasks binds each, takes its held-out
// tests from heldout(**args), scores and summarises as a directory sweep
// does, and resumes without running a finished task again.
func TestFactorySweep(t *testing.T) {
	testenv.NeedPython(t)
	base := writeBinding(t, true)
	out := filepath.Join(t.TempDir(), "out")
	var ran []string
	sw := &Sweep{Factory: "bench.binding:make_task", Base: base, Out: out, Run: rightProgram(&ran),
		Args: []map[string]any{{"name": "sum"}, {"name": "upper"}, {"name": "add", "seed": 3}}}
	sum, err := sw.Execute(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if sum.Tasks != 3 || sum.Solved != 3 || len(ran) != 3 {
		t.Fatalf("solved %d of %d, ran %v", sum.Solved, sum.Tasks, ran)
	}
	for _, r := range sum.Results {
		if r.HeldoutTotal != 15 || r.HeldoutPassed != 15 || r.Level != registry[r.Name].Kind || r.Kind != registry[r.Name].Kind {
			t.Errorf("%s: held-out %d/%d, level %q, kind %q", r.ID, r.HeldoutPassed, r.HeldoutTotal, r.Level, r.Kind)
		}
		if _, err := ReadTests(filepath.Join(out, HeldoutDir, r.ID+".jsonl")); err != nil {
			t.Errorf("%s: %v", r.ID, err)
		}
	}
	if sum.TasksDir != "bench.binding:make_task" {
		t.Errorf("summary names %q", sum.TasksDir)
	}
	// A change of the module that leaves the tasks' descriptions as they
	// were runs the tasks again, as a changed hidden program of a task
	// directory does: their results say why.
	module := filepath.Join(filepath.Dir(base), "bench", "binding.py")
	src, err := os.ReadFile(module)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(module, append(src, "\n# changed\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	ran = nil
	again, err := (&Sweep{Factory: sw.Factory, Base: base, Out: out, Run: rightProgram(&ran), Args: sw.Args}).Execute(context.Background())
	if err != nil || len(ran) != 3 || again.Solved != 3 {
		t.Errorf("sweep after the module changed: %v, ran %v, solved %d", err, ran, again.Solved)
	}
	for _, r := range again.Results {
		if r.Rerun != "its files changed since: binding:bench/binding.py" {
			t.Errorf("%s: rerun %q, want the module named", r.ID, r.Rerun)
		}
	}
	ran = nil
	if _, err := (&Sweep{Factory: sw.Factory, Base: base, Out: out, Run: rightProgram(&ran), Args: sw.Args}).Execute(context.Background()); err != nil || len(ran) != 0 {
		t.Errorf("resumed sweep: %v, ran %v", err, ran)
	}
	// A description that changed is other settings, as a changed task
	// file is.
	relevelled := strings.Replace(string(src), `level=t["Kind"]`, `level="other"`, 1)
	if relevelled == string(src) {
		t.Fatal("the module has no level to change")
	}
	if err := os.WriteFile(module, []byte(relevelled), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = (&Sweep{Factory: sw.Factory, Base: base, Out: out, Run: rightProgram(&ran), Args: sw.Args}).Execute(context.Background())
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "holds the results of 3 tasks run with other settings") || len(ran) != 0 {
		t.Errorf("sweep with changed descriptions: %v, ran %v", err, ran)
	}
}

// A factory sweep that cannot start is refused before anything is written.
func TestFactorySweepRefused(t *testing.T) {
	testenv.NeedPython(t)
	for _, tc := range []struct {
		name        string
		withHeldout bool
		args        []map[string]any
		want        string
	}{
		{"no heldout", false, []map[string]any{{"name": "sum"}}, "has no heldout(**args) callable"},
		{"unknown task", true, []map[string]any{{"name": "sum"}, {"name": "nope"}}, "task nope: "},
		{"same task twice", true, []map[string]any{{"name": "sum"}, {"name": "sum", "seed": 2}}, "both name the task sum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := writeBinding(t, tc.withHeldout)
			out := filepath.Join(t.TempDir(), "out")
			var ran []string
			_, err := (&Sweep{Factory: "bench.binding:make_task", Base: base, Out: out, Run: rightProgram(&ran), Args: tc.args}).Execute(context.Background())
			if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want refused with %q", err, tc.want)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) || len(ran) > 0 {
				t.Errorf("the refused sweep created %s (%v) or ran %v", out, err, ran)
			}
		})
	}
}
