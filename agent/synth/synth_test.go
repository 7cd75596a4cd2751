package synth

import (
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"
)

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

var familyCases = []familyCase{
	{name: "constant", kind: task.KindList, typ: "list of integers",
		inputs: []string{"[1,2]", "[5]", "[]", "[3,3,3]"}, probe: []string{"[9,9]"},
		f: func(v any) any { return 3 }},
	{name: "scalar", kind: task.KindPair, typ: "pair of integers",
		inputs: []string{"[1,2]", "[5,-3]", "[0,7]", "[4,4]"}, probe: []string{"[10,3]", "[-2,-9]"},
		f: func(v any) any { p := ints(v); return p[0]*2 - p[1] }},
	{name: "conditional", kind: task.KindInt, typ: "integer",
		inputs: []string{"6", "7", "1", "10", "3", "-4", "0", "15", "-5"}, probe: []string{"12", "9", "-3"},
		f: func(v any) any {
			n := num(v)
			if n%2 == 0 {
				return n / 2
			}
			return 3*n + 1
		}},
	{name: "map", kind: task.KindList, typ: "list of integers",
		inputs: []string{"[1,-2,3]", "[0,5]", "[-7]", "[4,4,-1,2]"}, probe: []string{"[9,-9,0,2]"},
		f: func(v any) any {
			out := []int64{}
			for _, x := range ints(v) {
				out = append(out, x*x+1)
			}
			return out
		}},
	{name: "filter", kind: task.KindList, typ: "list of integers",
		inputs: []string{"[1,-2,3,8]", "[0,5,6]", "[-7,-8]", "[4,4,-1,2,9]"}, probe: []string{"[10,11,12,-14]"},
		f: func(v any) any {
			out := []int64{}
			for _, x := range ints(v) {
				if x%2 == 0 {
					out = append(out, x)
				}
			}
			return out
		}},
	{name: "scan", kind: task.KindList, typ: "list of integers",
		inputs: []string{"[1,-2,3,8]", "[0,5,6]", "[-7,-8]", "[4,4,-1,2,9]"}, probe: []string{"[3,1,4,1,5]"},
		f: func(v any) any {
			out := []int64{}
			m := int64(0)
			for i, x := range ints(v) {
				if i == 0 || x > m {
					m = x
				}
				out = append(out, m)
			}
			return out
		}},
	{name: "window", kind: task.KindList, typ: "list of integers",
		inputs: []string{"[1,-2,3,8]", "[0,5,6]", "[-7,-8]", "[4,4,-1,2,9]"}, probe: []string{"[3,1,4,1,5]"},
		f: func(v any) any {
			xs := ints(v)
			out := []int64{}
			for i := 1; i < len(xs); i++ {
				out = append(out, xs[i]-xs[i-1])
			}
			return out
		}},
	{name: "digit_loop", kind: task.KindInt, typ: "integer",
		inputs: []string{"0", "9", "38", "12345", "99", "100", "99999999999"}, probe: []string{"987654", "19"},
		f: func(v any) any {
			n := num(v)
			for n >= 10 {
				s := int64(0)
				for ; n > 0; n /= 10 {
					s += n % 10
				}
				n = s
			}
			return n
		}},
	{name: "string", kind: task.KindString, typ: "string",
		inputs: []string{`"hello world"`, `"a b c"`, `""`, `"Go is fun"`}, probe: []string{`"one two"`},
		f: func(v any) any {
			w := strings.Fields(v.(string))
			for i, j := 0, len(w)-1; i < j; i, j = i+1, j-1 {
				w[i], w[j] = w[j], w[i]
			}
			return strings.Join(w, " ")
		}},
	{name: "pairs", kind: task.KindOther, typ: "list of integer pairs",
		inputs: []string{"[[1,2],[3,4]]", "[[0,-1]]", "[]", "[[5,5],[2,9],[7,1]]"}, probe: []string{"[[8,3]]"},
		f: func(v any) any {
			out := []int64{}
			for _, p := range v.([]any) {
				q := ints(p)
				out = append(out, max(q[0], q[1]))
			}
			return out
		}},
	{name: "geometry", kind: task.KindPoints, typ: "path: list of integer points",
		inputs: []string{"[[0,0],[3,4]]", "[[1,1],[1,2],[2,2]]", "[[0,0]]", "[[0,0],[1,1],[2,0]]", "[[0,0],[3,0],[3,4]]"}, probe: []string{"[[5,5],[8,9],[8,10]]"},
		f: func(v any) any {
			out := 0.0
			ps := v.([]any)
			for i := 1; i < len(ps); i++ {
				p, q := ints(ps[i-1]), ints(ps[i])
				dx, dy := float64(q[0]-p[0]), float64(q[1]-p[1])
				out += math.Sqrt(dx*dx + dy*dy)
			}
			return out
		}},
}

func examplesFor(t *testing.T, c familyCase, inputs []string) []task.Example {
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

// solveCase runs the search and checks the program on the probe inputs.
func solveCase(t *testing.T, c familyCase) (*problem, program) {
	t.Helper()
	p, err := newProblem(taskFor(c), examplesFor(t, c, c.inputs))
	if err != nil {
		t.Fatalf("problem: %v", err)
	}
	res := search(p, searchSpec{deadline: time.Now().Add(30 * time.Second), memLimit: defaultMemoryBytes, maxSize: defaultMaxSize})
	if !res.solved {
		t.Fatalf("no consistent program (level %d, %d evaluated, %d kept, timeout %v, mem %v); best %v passes %d of %d", res.level, res.evaluated, res.banked, res.timedOut, res.memFull, res.best, res.passed, len(p.outs))
	}
	probes := examplesFor(t, c, c.probe)
	for _, ex := range probes {
		v, _ := task.Decode(ex.Input)
		env, err := p.b.env(v)
		if err != nil {
			t.Fatal(err)
		}
		got := toJSON(p.rounded(evalNode(res.best, env)))
		if !task.Equal(got, ex.Output, 1e-9) {
			t.Errorf("program %s on %s = %s, want %s", res.best, ex.Input, got, ex.Output)
		}
	}
	return p, program{Root: res.best, Binding: p.b.line, Vars: p.b.names, Round: p.round}
}

func TestFamilies(t *testing.T) {
	for _, c := range familyCases {
		t.Run(c.name, func(t *testing.T) {
			_, prog := solveCase(t, c)
			t.Logf("%s: %s", c.name, prog.Root)
		})
	}
}

// TestPythonMatchesGo runs each family's emitted program in python3 and
// compares it with the Go evaluation, and keeps the emitted source as a
// golden file.
func TestPythonMatchesGo(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: cannot compare emitted Python with the Go evaluator")
	}
	for _, c := range familyCases {
		t.Run(c.name, func(t *testing.T) {
			p, prog := solveCase(t, c)
			src := prog.Python("solve", "")
			golden := filepath.Join("testdata", c.name+".py")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run with -update): %v", err)
			}
			if diff := cmp.Diff(string(want), src); diff != "" {
				t.Errorf("emitted Python differs from %s (-want +got):\n%s", golden, diff)
			}
			inputs := append(append([]string{}, c.inputs...), c.probe...)
			got := runCandidate(t, py, src, inputs)
			for i, in := range inputs {
				v, _ := task.Decode(json.RawMessage(in))
				env, err := p.b.env(v)
				if err != nil {
					t.Fatal(err)
				}
				goVal := toJSON(p.rounded(evalNode(prog.Root, env)))
				if !task.Equal(got[i], goVal, 1e-9) {
					t.Errorf("input %s: python %s, go %s\n%s", in, got[i], goVal, src)
				}
			}
		})
	}
}

func TestDeterminism(t *testing.T) {
	c := familyCases[3]
	tk := taskFor(c)
	exs := examplesFor(t, c, c.inputs)
	run := func() (string, []string) {
		a := New(Options{Seed: 42, TimeLimit: 10 * time.Second})
		dir := t.TempDir()
		if _, err := a.Write(context.Background(), agent.WriteRequest{Task: tk, Examples: exs, Workspace: dir}); err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(filepath.Join(dir, agent.CandidateFile))
		if err != nil {
			t.Fatal(err)
		}
		pr, err := a.Propose(context.Background(), agent.ProposeRequest{Task: tk, K: 6, Examples: exs, Attempt: 1})
		if err != nil {
			t.Fatal(err)
		}
		var ins []string
		for _, in := range pr.Inputs {
			ins = append(ins, string(in))
		}
		return string(src), ins
	}
	src1, in1 := run()
	src2, in2 := run()
	if src1 != src2 {
		t.Errorf("same seed, different candidates:\n%s\n---\n%s", src1, src2)
	}
	if diff := cmp.Diff(in1, in2); diff != "" {
		t.Errorf("same seed, different proposals (-first +second):\n%s", diff)
	}
}

func TestPropose(t *testing.T) {
	dom := &task.Domain{Lo: -5, Hi: 5}
	tk := task.Task{Name: "t", InputType: "list of integers", InputConstraints: "0 to 9 integers", FunctionName: "solve", Kind: task.KindList, Domain: dom}
	sorted := familyCase{f: func(v any) any {
		xs := ints(v)
		out := []int64{}
		for _, x := range xs {
			if x > 0 {
				out = append(out, x)
			}
		}
		return out
	}}
	tests := []struct {
		name     string
		k        int
		examples []string
		missing  []string
	}{
		{name: "initial", k: 2},
		{name: "after two", k: 4, examples: []string{"[1,2,3]", "[4,-5]"}, missing: []string{"empty", "has_zero", "all_equal"}},
		{name: "many", k: 12, examples: []string{"[1,2,3]", "[4,-5]", "[]", "[0]"}, missing: []string{"descending", "long"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			exs := examplesFor(t, sorted, tc.examples)
			a := New(Options{Seed: 7, TimeLimit: 5 * time.Second})
			res, err := a.Propose(context.Background(), agent.ProposeRequest{Task: tk, K: tc.k, Examples: exs, Missing: tc.missing, Domain: dom, Attempt: 1})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := len(res.Inputs), tc.k; got != want {
				t.Fatalf("got %d inputs, want %d", got, want)
			}
			seen := map[string]bool{}
			for _, ex := range exs {
				seen[task.MustCanonical(ex.Input)] = true
			}
			covered := map[string]bool{}
			for _, in := range res.Inputs {
				c := task.MustCanonical(in)
				if seen[c] {
					t.Errorf("input %s repeats an observed or proposed input", in)
				}
				seen[c] = true
				v, err := task.Decode(in)
				if err != nil {
					t.Fatalf("proposal %s is not JSON: %v", in, err)
				}
				for _, f := range task.Numbers(v) {
					if !dom.Contains(f) {
						t.Errorf("input %s leaves the domain %v", in, dom)
					}
				}
				if n := len(v.([]any)); n > 9 {
					t.Errorf("input %s is longer than the constraints allow", in)
				}
				for _, cat := range task.CategoriesOf(tk.Kind, dom, in) {
					covered[cat] = true
				}
			}
			if tc.k >= len(tc.missing) {
				for _, m := range tc.missing {
					if !covered[m] {
						t.Errorf("missing category %q not covered by %s", m, res.Inputs)
					}
				}
			}
		})
	}
}

// TestProposeDistinguishes checks that proposals refute a wrong hypothesis:
// with examples that both "sorted" and "sorted set" explain, some proposed
// input must tell them apart.
func TestProposeDistinguishes(t *testing.T) {
	tk := task.Task{Name: "t", InputType: "list of integers", FunctionName: "solve", Kind: task.KindList, Domain: &task.Domain{Lo: -9, Hi: 9}}
	c := familyCase{f: func(v any) any {
		xs := ints(v)
		out := append([]int64{}, xs...)
		for i := range out {
			for j := i + 1; j < len(out); j++ {
				if out[j] < out[i] {
					out[i], out[j] = out[j], out[i]
				}
			}
		}
		return out
	}}
	exs := examplesFor(t, c, []string{"[3,1,2]", "[5,-4]"})
	a := New(Options{Seed: 3, TimeLimit: 10 * time.Second})
	res, err := a.Propose(context.Background(), agent.ProposeRequest{Task: tk, K: 4, Examples: exs, Attempt: 1})
	if err != nil {
		t.Fatal(err)
	}
	repeated := false
	for _, in := range res.Inputs {
		for _, cat := range task.CategoriesOf(tk.Kind, tk.Domain, in) {
			repeated = repeated || cat == "repeated_value"
		}
	}
	if !repeated {
		t.Errorf("no proposal separates sorted from sorted-set: %s", res.Inputs)
	}
}

func TestWriteNotesAndFallback(t *testing.T) {
	tk := task.Task{Name: "t", InputType: "object", FunctionName: "solve", Kind: task.KindOther}
	exs := []task.Example{{Input: json.RawMessage(`{"a": 1}`), Output: json.RawMessage(`1`)}}
	dir := t.TempDir()
	res, err := New(Options{}).Write(context.Background(), agent.WriteRequest{Task: tk, Examples: exs, Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Notes, "cannot express") {
		t.Errorf("notes %q do not explain the fallback", res.Notes)
	}
	src, err := os.ReadFile(filepath.Join(dir, agent.CandidateFile))
	if err != nil || !strings.Contains(string(src), "def solve(input_data):") {
		t.Errorf("fallback candidate %q (%v) does not define solve", src, err)
	}
	if res.Usage.Total() != 0 {
		t.Errorf("usage %v, want zero tokens", res.Usage)
	}
}

func BenchmarkEnumerate(b *testing.B) {
	c := familyCases[3]
	var exs []task.Example
	for _, in := range []string{"[1,-2,3]", "[0,5]", "[-7]", "[4,4,-1,2]", "[9,8,7,6,5]", "[2]", "[]", "[10,-10]"} {
		v, _ := task.Decode(json.RawMessage(in))
		out, _ := json.Marshal(c.f(v))
		exs = append(exs, task.Example{Input: json.RawMessage(in), Output: out})
	}
	// An unreachable target keeps the enumerator busy for whole levels.
	exs[0].Output = json.RawMessage(`[123456789]`)
	p, err := newProblem(taskFor(c), exs)
	if err != nil {
		b.Fatal(err)
	}
	lams := defaultLambdas()
	b.ResetTimer()
	var evaluated int64
	start, cpuStart := time.Now(), cpuTime(b)
	for i := 0; i < b.N; i++ {
		// The enumerator alone, level by level (no time-budgeted sweeps),
		// so that every iteration does the same work.
		en := newEnumerator(enumConfig{
			envs: p.envs, vars: p.b.types, consts: topConsts(p), ops: catalog.top,
			lams: lams, deadline: time.Now().Add(time.Hour), memLimit: defaultMemoryBytes,
		})
		en.grow(6, nil)
		evaluated += en.evaluated
	}
	b.ReportMetric(float64(evaluated)/time.Since(start).Seconds(), "programs/s")
	// Per CPU-second of the process (the search and its garbage collector),
	// which other processes sharing the cores do not distort.
	b.ReportMetric(float64(evaluated)/(cpuTime(b)-cpuStart).Seconds(), "programs/cpu-s")
	b.ReportMetric(float64(evaluated)/float64(b.N), "programs/op")
}

// cpuTime is the user and system CPU time the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
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
