package synth

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Helpers shared by the package's tests.

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// familyCase is a hidden function to rediscover from a few examples.
type familyCase struct {
	name   string
	kind   task.Kind
	typ    string
	inputs []string
	// probe are further inputs the found program must get right.
	probe []string
	f     func(v any) any
}

func ints(v any) []int64 {
	var out []int64
	for _, e := range v.([]any) {
		n, _ := e.(json.Number).Int64()
		out = append(out, n)
	}
	return out
}

func num(v any) int64 { n, _ := v.(json.Number).Int64(); return n }

func examplesFor(t testing.TB, c familyCase, inputs []string) []task.Example {
	t.Helper()
	var exs []task.Example
	for _, in := range inputs {
		v, err := task.Decode(json.RawMessage(in))
		if err != nil {
			t.Fatalf("decode %s: %v", in, err)
		}
		out, err := json.Marshal(c.f(v))
		if err != nil {
			t.Fatal(err)
		}
		exs = append(exs, task.Example{Input: json.RawMessage(in), Output: out})
	}
	return exs
}

func taskFor(c familyCase) task.Task {
	return task.Task{Name: c.name, InputType: c.typ, FunctionName: "solve", Kind: c.kind}
}

// runCandidate runs the emitted program src in python3 on each input (JSON
// texts) and returns its outputs.
func runCandidate(t *testing.T, py, src string, inputs []string) []json.RawMessage {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "candidate.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	script := "import json, sys\nsys.path.insert(0, sys.argv[1])\nfrom candidate import solve\n" +
		"print(json.dumps([solve(x) for x in json.loads(sys.argv[2])]))\n"
	out, err := exec.Command(py, "-c", script, dir, "["+strings.Join(inputs, ",")+"]").CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s\n%s", err, out, src)
	}
	var got []json.RawMessage
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("decode python output %q: %v", out, err)
	}
	return got
}

func intValue(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}

// opSig writes an operator's name and signature: add(int, int) -> int.
func opSig(o *dsl.Operator) string {
	args := make([]string, len(o.Args))
	for i, a := range o.Args {
		args[i] = a.String()
	}
	return o.Name + "(" + strings.Join(args, ", ") + ") -> " + o.Ret.String()
}

// checkGolden compares got with the golden file (rewriting it under
// -update), reporting the first lines that differ.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update): %v", err)
	}
	if string(want) == got {
		return
	}
	wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
	shown := 0
	for i := 0; i < max(len(wl), len(gl)) && shown < 10; i++ {
		var a, b string
		if i < len(wl) {
			a = wl[i]
		}
		if i < len(gl) {
			b = gl[i]
		}
		if a != b {
			t.Errorf("%s:%d\nwant %s\n got %s", path, i+1, a, b)
			shown++
		}
	}
	t.Errorf("%s: %d lines, want %d", path, len(gl), len(wl))
}

// buildLambdasFully builds lambda banks without cancellation.
func buildLambdasFully(specs [dsl.NumSigs]lamSpec, anchors []int64) *dsl.Lambdas {
	b, _ := buildLambdas(specs, anchors, nil)
	return b
}

// testShared holds the lambda banks of the package's tests, built once
// for them all.
var testShared = NewShared(SharedOptions{})

// defaultLambdas returns the default lambda banks of testShared.
func defaultLambdas() *dsl.Lambdas { return testShared.defaults() }

// lambdasFor returns the lambda banks of testShared for a set of
// constants, ok false when done stopped the build.
func lambdasFor(mined []int64, done <-chan struct{}) (*dsl.Lambdas, bool) {
	return testShared.lambdasFor(mined, done)
}

// mustLambdas returns the (complete) lambda banks of a set of constants.
func mustLambdas(mined []int64) *dsl.Lambdas {
	b, _ := lambdasFor(mined, nil)
	return b
}

// testPrograms is the budget of a test's search, counted in programs so
// that a loaded machine finds what an idle one does (a deadline made
// searches flaky under load).
const testPrograms = 1 << 26

// testSpec bounds a test's search by testPrograms.
func testSpec() searchSpec {
	return searchSpec{shared: testShared, maxPrograms: testPrograms, memLimit: DefaultMemoryBytes, maxSize: defaultMaxSize}
}

// declineCase is a set of examples (input, output) a strategy must find no
// program for.
type declineCase struct {
	name string
	exs  [][2]any
}

// pairsProblem is tk's problem of the examples (input, output) given as
// Go values, and those examples.
func pairsProblem(t *testing.T, tk task.Task, pairs [][2]any) (*dsl.Problem, []task.Example) {
	t.Helper()
	var exs []task.Example
	for _, e := range pairs {
		exs = append(exs, task.Example{Input: jsonOf(t, e[0]), Output: jsonOf(t, e[1])})
	}
	p, err := newProblem(tk, exs)
	if err != nil {
		t.Fatalf("problem: %v", err)
	}
	return p, exs
}

// checkDeclines runs the strategy alone on each case's examples of task
// tk and fails when it finds a program.
func checkDeclines(t *testing.T, tk task.Task, run sketchStrategy, cases []declineCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, _ := pairsProblem(t, tk, c.exs)
			if res := strategyOnly(p, run); res.solved {
				t.Errorf("found %v, want none", res.best)
			}
		})
	}
}

// findOp returns the catalogue operator with a name and argument types.
func findOp(t *testing.T, name string, args ...dsl.Type) *dsl.Operator {
	t.Helper()
	for _, ops := range [][]*dsl.Operator{dsl.Catalog.Scalars, dsl.Catalog.Top, dsl.Catalog.Holes} {
		for _, o := range ops {
			if o.Name == name && slices.Equal(o.Args, args) {
				return o
			}
		}
	}
	t.Fatalf("no operator %s%v", name, args)
	return nil
}

// vr, cst, app and lamApp write programs: a variable, a constant, an
// operator applied to programs, with a lambda.
func vr(i int) *dsl.Node  { return &dsl.Node{Var: i, Size: 1} }
func cst(v any) *dsl.Node { return &dsl.Node{Var: -1, Const: v, Size: 1} }
func app(o *dsl.Operator, kids ...*dsl.Node) *dsl.Node {
	return &dsl.Node{Op: o, Kids: kids, Var: -1, Size: 1 + len(kids)}
}
func lamApp(o *dsl.Operator, l *dsl.Lambda, kids ...*dsl.Node) *dsl.Node {
	n := app(o, kids...)
	n.Lam = l
	return n
}

// decodeAll decodes JSON texts.
func decodeAll(t *testing.T, raws ...string) []any {
	t.Helper()
	var out []any
	for _, r := range raws {
		v, ok := dsl.DecodeRaw(json.RawMessage(r))
		if !ok {
			t.Fatalf("bad JSON %s", r)
		}
		out = append(out, v)
	}
	return out
}

// handedOver is the program a session handed over in memory; the
// synthesizer writes no candidate.py itself (the workflow does).
func handedOver(t *testing.T, res agent.WriteResult, dir string) []byte {
	t.Helper()
	if len(res.Program) == 0 {
		t.Fatalf("the session handed over no program (notes %q)", res.Notes)
	}
	if _, err := os.Stat(filepath.Join(dir, agent.CandidateFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the synthesizer wrote candidate.py itself (%v)", err)
	}
	return res.Program
}
