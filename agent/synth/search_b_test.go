package synth

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/task"
)

func TestNumbersIn(t *testing.T) {
	cases := []struct {
		text string
		want []int64
	}{
		{"pow_mod97", []int64{97}},
		{"sum_multiples_3_5", []int64{3, 5}},
		{"clamp_0_10", []int64{0, 10}},
		{"between -50 and 50", []int64{-50, 50}},
		{"x-3", []int64{3}},
		{"-7", []int64{-7}},
		{"list of integers", nil},
		{"99999999999999999999 and 4", []int64{4}},
	}
	for _, c := range cases {
		got := numbersIn(c.text)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("numbersIn(%q) (-want +got):\n%s", c.text, diff)
		}
	}
}

func TestMinedConsts(t *testing.T) {
	cases := []struct {
		name string
		t    task.Task
		want []int64
	}{
		{"modulus in the name", task.Task{Name: "algorithm_pow_mod97", InputType: "pair of integers [a, b]", InputConstraints: "two integers between 0 and 200"}, []int64{97}},
		{"two in the name, no repeat", task.Task{Name: "sum_multiples_3_5_3", InputType: "integer"}, []int64{3, 5}},
		{"input type counts", task.Task{Name: "triple_sum", InputType: "list of 3 integers"}, []int64{3}},
		{"constraints do not", task.Task{Name: "double", InputType: "integer", InputConstraints: "between -1000 and 1000"}, nil},
		{"an unnamed modulus from the constraints", task.Task{Name: "algorithm_fib_mod", InputType: "integer", InputConstraints: "one integer between 0 and 1000"}, []int64{1000}},
		{"a named modulus only", task.Task{Name: "pow_mod97", InputType: "integer", InputConstraints: "between 0 and 500"}, []int64{97}},
		{"mod inside a word is not the word", task.Task{Name: "modal_value", InputType: "list", InputConstraints: "between 0 and 9"}, nil},
		{"bounded", task.Task{Name: "a1_2_3_4_5_6_7_8_9_10"}, []int64{1, 2, 3, 4, 5, 6, 7, 8}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := minedConsts(c.t)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("minedConsts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWithConsts(t *testing.T) {
	got := withConsts([]any{int64(0), int64(10), ""}, []int64{10, 97, 97, -3})
	want := []any{int64(0), int64(10), "", int64(97), int64(-3)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("withConsts (-want +got):\n%s", diff)
	}
}

func TestLambdasFor(t *testing.T) {
	deadline := time.Now().Add(20 * time.Second)
	if got, want := lambdasFor(nil, deadline), defaultLambdas(); got != want {
		t.Errorf("lambdasFor(nil) is not the default banks")
	}
	b := lambdasFor([]int64{1000}, deadline)
	if again := lambdasFor([]int64{1000}, deadline); again != b {
		t.Errorf("lambdasFor did not cache the banks of one constant set")
	}
	// The anchored lambdas put the mined constant around small bodies.
	want := map[string]bool{"λx.min(1000, square(x))": false, "λxy.mod(add(x, y), 1000)": false}
	for _, sig := range []lamSig{sigI, sigII} {
		for _, ls := range b.by[sig][tInt] {
			for _, l := range ls {
				if _, have := want[l.String()]; have {
					want[l.String()] = true
				}
			}
		}
	}
	for l, found := range want {
		if !found {
			t.Errorf("banks for 1000 lack %s", l)
		}
	}
}

func TestKeyedLambdas(t *testing.T) {
	b := defaultLambdas()
	want := map[string]bool{"λxy.add(abs(x), abs(y))": false, "λxy.max(abs(x), abs(y))": false}
	for _, ls := range b.by[sigII][tInt] {
		for _, l := range ls {
			if _, have := want[l.String()]; have {
				want[l.String()] = true
			}
		}
	}
	for l, found := range want {
		if !found {
			t.Errorf("default banks lack %s", l)
		}
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
