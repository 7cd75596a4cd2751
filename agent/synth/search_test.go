package synth

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

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

// solveCase runs the search and checks the program on the probe inputs.
func solveCase(t *testing.T, c familyCase) (*dsl.Problem, dsl.Program) {
	t.Helper()
	p, err := newProblem(taskFor(c), examplesFor(t, c, c.inputs))
	if err != nil {
		t.Fatalf("problem: %v", err)
	}
	res := search(p, testSpec())
	if !res.solved {
		t.Fatalf("no consistent program (level %d, %d evaluated, %d kept, timeout %v, mem %v); best %v passes %d of %d", res.level, res.evaluated, res.banked, res.timedOut, res.memFull, res.best, res.passed, len(p.Outs))
	}
	probes := examplesFor(t, c, c.probe)
	for _, ex := range probes {
		v, _ := task.Decode(ex.Input)
		env, err := p.B.Env(v)
		if err != nil {
			t.Fatal(err)
		}
		got := dsl.ToJSON(p.Rounded(dsl.EvalNode(res.best, env)))
		if !task.Equal(got, ex.Output, 1e-9) {
			t.Errorf("program %s on %s = %s, want %s", res.best, ex.Input, got, ex.Output)
		}
	}
	return p, dsl.Program{Root: res.best, Binding: p.B.Line, Vars: p.B.Names, Round: p.Round}
}

func TestFamilies(t *testing.T) {
	for _, c := range familyCases {
		t.Run(c.name, func(t *testing.T) {
			_, prog := solveCase(t, c)
			t.Logf("%s: %s", c.name, prog.Root)
		})
	}
}

// searchCases need a mined constant, a conditional lambda with two small
// branches, a reduction of a transformed sweep result, or a reduction of a
// lambda program the regular levels banked before the sweep.
var searchCases = []familyCase{
	{name: "clamp_0_10", kind: task.KindList, typ: "list of integers",
		inputs: []string{"[]", "[48,48,-3]", "[0]", "[-50,-47,-32,11,19,23]", "[18,4,18,-6,18]", "[2]", "[43,-18]", "[9,44,29,10,-17,6,-39]", "[1,7,-1,11]"},
		probe:  []string{"[5,-5,15,10,0]"},
		f: func(v any) any {
			out := []int64{}
			for _, x := range ints(v) {
				out = append(out, min(10, max(0, x)))
			}
			return out
		}},
	{name: "sum_even_squares", kind: task.KindList, typ: "list of integers",
		inputs: []string{"[]", "[1,2,3,4]", "[-6,5]", "[7]", "[8,8,1]", "[-3,-2,0,9,10]", "[11,13,14]"},
		probe:  []string{"[2,3,-4,5,6]"},
		f: func(v any) any {
			s := int64(0)
			for _, x := range ints(v) {
				if x%2 == 0 {
					s += x * x
				}
			}
			return s
		}},
	{name: "distinct_mod5", kind: task.KindList, typ: "list of integers",
		inputs: []string{"[]", "[1,6,11]", "[-1,4,2,7,3]", "[5,10,0,1]", "[13,-2,9,8,22]", "[3]", "[20,21,22,23,24]",
			"[-50,-45,7]", "[17,42,-8,33]", "[9,9,9,14]", "[30,-12,1,44,18,-3]", "[8,13]", "[-20,25]"},
		probe: []string{"[0,1,2,3,4,5,-9]", "[7,12]"},
		f: func(v any) any {
			seen := map[int64]bool{}
			for _, x := range ints(v) {
				seen[((x%5)+5)%5] = true
			}
			return len(seen)
		}},
	{name: "count_on_diagonals", kind: task.KindPoints, typ: "list of integer points [x, y]",
		inputs: []string{"[]", "[[1,1],[2,3]]", "[[-4,4],[0,0],[5,-6]]", "[[3,-3],[-2,-2],[7,1],[1,7]]", "[[9,8]]", "[[6,6],[6,-6],[0,1]]", "[[-5,2],[2,-5],[4,-4]]",
			"[[2,2],[4,0],[0,8],[-3,5],[-7,-7],[12,-12]]", "[[1,2],[16,16],[-9,3],[5,5],[3,-1]]", "[[11,-4],[-6,-10],[8,-8],[2,-2],[13,13],[0,4]]"},
		probe: []string{"[[10,-10],[3,4],[-8,-8]]"},
		f: func(v any) any {
			n := 0
			for _, p := range v.([]any) {
				xy := ints(p)
				if max(xy[0], -xy[0]) == max(xy[1], -xy[1]) {
					n++
				}
			}
			return n
		}},
	{name: "symmetric_about_y_axis", kind: task.KindPoints, typ: "list of integer points [x, y]",
		// The one symmetric set here has |x| <= 10: "-min(x, 10)" fits as
		// well as "-x", but "-x" is smaller, and the regular levels bank
		// map_first(-x) before the sweep reduces lambda results.
		inputs: []string{
			"[[-4,12],[4,-4],[2,11],[9,-3],[7,17],[-15,19],[9,9],[0,-14]]", "[[-16,-1],[1,-5],[-6,-9],[9,-10],[-5,-9],[-2,1],[-7,-10],[3,3]]", "[[-10,3],[-5,9]]", "[[-20,7]]",
			"[[4,8],[-5,0],[8,9],[1,-7],[19,3],[-2,-9],[7,8],[10,6]]", "[[7,-3],[-5,-10],[-7,6],[3,-5],[9,9],[-7,3],[-14,19]]", "[[10,-4],[18,11],[18,-11],[10,4],[10,4]]", "[[8,14]]",
			"[[3,-15],[3,15]]", "[[-5,-7],[-5,4],[14,19],[-2,-9]]", "[[-5,-8]]", "[[-11,-6],[-2,4],[-17,10],[-11,4],[4,-4]]",
			"[[4,-7],[10,10],[4,-9],[-10,10],[-4,-7],[-2,4],[2,4],[-4,-9],[-2,4]]", "[[-19,0]]", "[[-3,1],[4,-17]]", "[[14,-2],[17,20],[10,0],[-6,-1],[20,-17],[-7,1],[-9,19],[2,-6],[6,4]]",
			"[[-4,10],[9,-18],[-8,5]]", "[[5,9],[7,-2],[19,3],[-5,-8],[-10,-10],[-1,7],[-3,6]]", "[[17,1],[-18,-4],[3,-15],[4,0],[2,-18],[17,10]]", "[[-10,-2],[-9,-9],[8,9]]",
			"[[5,-5],[20,1],[14,-12],[4,3],[15,-2],[5,-2]]", "[[4,-3],[8,2],[-4,12],[-16,7]]", "[[10,19]]", "[[10,-9],[-5,18],[-18,-6],[-9,9],[-19,20],[-10,-6],[-4,-1]]",
			"[[9,0],[9,0],[2,-11],[-9,4],[2,11],[-9,-4]]", "[[-4,-7],[-4,3]]", "[[20,9]]", "[[10,-19],[-7,-2],[8,1],[9,-7],[-1,5],[-7,-4],[18,10],[14,12]]",
			"[[10,-9],[-18,-5],[2,6],[-14,-6],[-6,18],[4,-16],[-8,-6],[6,-4],[5,-5]]", "[[3,2],[-4,4],[-14,-5]]",
		},
		probe: []string{"[[15,3],[-15,3]]", "[[-12,0],[12,0],[0,5]]", "[]"},
		f: func(v any) any {
			set := map[[2]int64]bool{}
			for _, p := range v.([]any) {
				xy := ints(p)
				set[[2]int64{xy[0], xy[1]}] = true
			}
			for p := range set {
				if !set[[2]int64{-p[0], p[1]}] {
					return false
				}
			}
			return true
		}},
	{name: "factorial_trailing_zeros", kind: task.KindInt, typ: "integer",
		// sum(orbit(n, n // 5)): n // 5 + n // 25 + ...
		inputs: []string{"0", "4", "5", "24", "25", "99", "100", "124", "125", "626", "1000", "3125", "9999"},
		probe:  []string{"7", "130", "4000"},
		f: func(v any) any {
			n, _ := v.(json.Number).Int64()
			z := int64(0)
			for p := int64(5); p <= n; p *= 5 {
				z += n / p
			}
			return z
		}},
}

func TestSearchFindsCases(t *testing.T) {
	if testing.Short() {
		t.Skip("searches take seconds")
	}
	for _, c := range searchCases {
		t.Run(c.name, func(t *testing.T) {
			_, prog := solveCase(t, c)
			t.Logf("%s: %s", c.name, prog.Root)
		})
	}
}

// A search bounded by programs has no deadline; its sketches' holes are
// bounded by the programs left instead, and still run (they were given a
// deadline in the past before, and found nothing in such a search).
func TestSketchesRunUnderProgramBudget(t *testing.T) {
	tk := task.Task{Name: "rotation", Kind: task.KindTwoLists, InputType: "two lists of integers", FunctionName: "solve"}
	var exs []task.Example
	for _, e := range [][2]string{{`[[1,2,3],[2,3,1]]`, `1`}, {`[[1,2,3],[3,1,2]]`, `2`}, {`[[4,5],[4,5]]`, `0`}, {`[[4,5],[4,4]]`, `-1`},
		{`[[1,2,1,2],[2,1,2,1]]`, `1`}, {`[[3,0,1,2],[2,3,0,1]]`, `3`}, {`[[1,1,2],[2,1,1]]`, `2`}} {
		exs = append(exs, task.Example{Input: json.RawMessage(e[0]), Output: json.RawMessage(e[1])})
	}
	p, err := newProblem(tk, exs)
	if err != nil {
		t.Fatal(err)
	}
	lams, _ := lambdasFor(p.Mined, nil)
	en := newEnumerator(enumConfig{envs: p.Envs, vars: p.B.Types, consts: topConsts(p), ops: dsl.Catalog.Top,
		lams: lams, maxEval: 300_000, memLimit: DefaultMemoryBytes})
	var found *dsl.Node
	runSketches(en, testShared, false, func(r *sketch.Search) bool {
		return sketch.Shifts(r, p, func(n *dsl.Node, vals []any) bool {
			if p.AllMatch(vals) {
				found = n
				return true
			}
			return false
		})
	})
	if found == nil {
		t.Fatal("the shift sketch found nothing in a search bounded by programs")
	}
}
