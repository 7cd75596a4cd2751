package binding

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/sandbox/process"
)

// contractModule is a binding written to the original workflow's contract:
// a dataclass of its own, random_inputs(k, exclude), an async evaluate
// returning records, a callable tool, on_example and workspace; and the
// other shapes a generator takes.
const contractModule = `import asyncio
import random
from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional


@dataclass
class ReconstructionTask:
    name: str
    input_type: str
    input_constraints: str
    kind: str
    oracle: Callable
    random_inputs: Optional[Callable] = None
    evaluate: Optional[Callable] = None
    on_example: Optional[Callable] = None
    tools: List[Any] = field(default_factory=list)
    workspace: Optional[str] = None
    lo: Optional[int] = None
    hi: Optional[int] = None


def _program(x):
    return 3 * x + 1


def _fresh(k, exclude):
    # Draws from a small range, so it repeats observed inputs: they must be
    # dropped and asked for again.
    out = []
    while len(out) < k:
        out.append(random.randint(0, 40))
    return out


async def _evaluate(program_path, inputs):
    import importlib.util
    spec = importlib.util.spec_from_file_location("cand", program_path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    await asyncio.sleep(0)
    out = []
    for x in inputs:
        try:
            out.append({"ok": True, "output": mod.solve(x)})
        except Exception as e:
            out.append({"ok": False, "error": "%s: %s" % (type(e).__name__, e)})
    return out


def check_candidate(program_path, limit: int = 3):
    """Runs the candidate on 0..limit-1 and says how many it gets right."""
    import subprocess, sys
    got = subprocess.run([sys.executable, program_path], input="", capture_output=True, text=True)
    ns = {}
    exec(open(program_path).read(), ns)
    right = sum(1 for x in range(limit) if ns["solve"](x) == _program(x))
    return {"right": right, "of": limit, "script_exit": got.returncode}


def make_task(name):
    return ReconstructionTask(name=name, input_type="an integer", input_constraints="0 to 40", kind="int",
                              oracle=_program, random_inputs=_fresh, evaluate=_evaluate,
                              on_example=lambda i, o, s: [i, o, s], tools=[check_candidate, "file_write"],
                              workspace="runs/contract", lo=0, hi=40)


def gen_k(k):
    return [random.randint(0, 10 ** 6) for _ in range(k)]


def gen_k_rng(k, rng):
    return [rng.randint(0, 10 ** 9) for _ in range(k)]


def gen_all(k, exclude, rng):
    return [len(exclude) * 1000 + i for i in range(k)]


def gen_stuck(k, exclude):
    return [1] * k


def gen_small(k):
    return [random.randint(0, 9) for _ in range(k)]


def with_gen(which):
    t = make_task("g")
    t.random_inputs = globals()[which]
    return t


def heldout(name):
    return [(1, 4)]
`

func shimBox(t *testing.T, dir string) sandbox.Sandbox {
	t.Helper()
	testenv.NeedPython(t)
	testenv.WriteFiles(t, dir, map[string]string{"contract.py": contractModule})
	box, err := process.New(context.Background(), process.Options{Dir: dir, Limits: sandbox.Limits{Timeout: MinTimeout}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { box.Close() })
	return box
}

func load(t *testing.T, dir, factory string, args map[string]any) *Binding {
	t.Helper()
	b, err := Load(Spec{Factory: factory, Args: args, Root: dir, Path: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func raws(vals ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(vals))
	for i, v := range vals {
		out[i] = json.RawMessage(v)
	}
	return out
}

// A task written to the contract describes itself: its own dataclass, its
// callable tool (name, docstring, parameters, the one that gets the
// candidate's path), the names of built-in tools, its workspace.
func TestContractDescription(t *testing.T) {
	dir := t.TempDir()
	box := shimBox(t, dir)
	b := load(t, dir, "contract:make_task", map[string]any{"name": "triple"})
	d, err := b.Describe(context.Background(), box, sandbox.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := &Description{Name: "triple", InputType: "an integer", InputConstraints: "0 to 40", Kind: "int",
		Lo: ptr(0.0), Hi: ptr(40.0), RandomInputs: true, OnExample: true, Evaluate: true,
		Tools: []string{"file_write"}, Workspace: "runs/contract", Heldout: true,
		CallableTools: []ToolSpec{{Name: "check_candidate", Doc: "Runs the candidate on 0..limit-1 and says how many it gets right.",
			Params: []ToolParam{{Name: "limit", Type: "integer"}}, Path: "program_path"}}}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("description (-want +got):\n%s", diff)
	}
}

func ptr[T any](v T) *T { return &v }

// random_inputs is called by its parameters — (k), (k, exclude), (k, rng),
// (k, exclude, rng) — and what it repeats is dropped and asked again, for
// more each time; one that brings nothing fresh eight times in a row has
// no more, and what it gave (fewer than asked) is all of it.
func TestContractRandomInputs(t *testing.T) {
	dir := t.TempDir()
	box := shimBox(t, dir)
	exclude := raws("1", "2", "3", "100")
	for _, tc := range []struct {
		which string
		k     int
		want  int
	}{
		{"_fresh", 6, 6},
		{"gen_k", 6, 6},
		{"gen_k_rng", 6, 6},
		{"gen_all", 6, 6},
		{"gen_stuck", 6, 0},
		// 0 and 4 to 9 are left: a generator that cannot see them drawn
		// before finds them all, and no more.
		{"gen_small", 6, 6},
		{"gen_small", 10, 7},
	} {
		t.Run(fmt.Sprintf("%s_%d", tc.which, tc.k), func(t *testing.T) {
			factory, args := "contract:with_gen", map[string]any{"which": tc.which}
			if tc.which == "_fresh" {
				factory, args = "contract:make_task", map[string]any{"name": "x"}
			}
			b := load(t, dir, factory, args)
			ins, err := box.Generate(context.Background(), sandbox.GenerateRequest{Program: b.Program(EntryGenerate), K: tc.k, Exclude: exclude, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{"1": true, "2": true, "3": true, "100": true}
			for _, in := range ins {
				if seen[string(in)] {
					t.Errorf("input %s repeats an observed or an earlier one (%s)", in, ins)
				}
				seen[string(in)] = true
			}
			if len(ins) != tc.want {
				t.Errorf("%d inputs (%s), want %d", len(ins), ins, tc.want)
			}
		})
	}
}

// evaluate may be async and return records; the candidate it is given runs
// in a process of its own, and a failed record is that input's failure.
func TestContractEvaluate(t *testing.T) {
	dir := t.TempDir()
	box := shimBox(t, dir)
	b := load(t, dir, "contract:make_task", map[string]any{"name": "x"})
	src := "import os\ndef solve(x):\n    if x == 5:\n        raise ValueError('five')\n    return [x * 3 + 1, os.getpid()]\n"
	outs, err := b.Evaluate(context.Background(), box, src, "solve", raws("1", "5", "7"), sandbox.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != 3 || !outs[0].OK() || outs[1].OK() || !outs[2].OK() || outs[1].Error != "ValueError: five" {
		t.Fatalf("outcomes %+v", outs)
	}
	var a, c [2]int
	json.Unmarshal(outs[0].Output, &a)
	json.Unmarshal(outs[2].Output, &c)
	if a[0] != 4 || c[0] != 22 || a[1] != c[1] {
		t.Errorf("outputs %s %s: want 4 and 22 from one candidate process", outs[0].Output, outs[2].Output)
	}
}

// A callable tool is called with the model's arguments and the candidate's
// path; it may import the candidate, exec its text or run it as a script,
// and the candidate still runs apart from the tool's process.
func TestContractTool(t *testing.T) {
	dir := t.TempDir()
	box := shimBox(t, dir)
	b := load(t, dir, "contract:make_task", map[string]any{"name": "x"})
	src := "def solve(x):\n    return 3 * x + 1 if x else 0\n"
	got, err := b.Tool(context.Background(), box, "check_candidate", src, "solve", json.RawMessage(`{"limit": 4}`), sandbox.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got != `{"right": 3, "of": 4, "script_exit": 0}` {
		t.Errorf("tool returned %q", got)
	}
	_, err = b.Tool(context.Background(), box, "nope", src, "solve", nil, sandbox.Limits{})
	var be *Error
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "the task has no tool nope") {
		t.Errorf("unknown tool: %v", err)
	}
}
