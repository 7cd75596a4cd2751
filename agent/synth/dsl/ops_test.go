package dsl

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/task"
)

// findOp returns the catalogue operator with a name and argument types.
func findOp(t *testing.T, name string, args ...Type) *Operator {
	t.Helper()
	for _, ops := range [][]*Operator{Catalog.Scalars, Catalog.Top, Catalog.Holes} {
		for _, o := range ops {
			if o.Name == name && len(o.Args) == len(args) {
				same := true
				for i := range args {
					same = same && o.Args[i] == args[i]
				}
				if same {
					return o
				}
			}
		}
	}
	t.Fatalf("no operator %s%v", name, args)
	return nil
}

func vr(i int) *Node  { return &Node{Var: i, Size: 1} }
func cst(v any) *Node { return &Node{Var: -1, Const: v, Size: 1} }
func app(o *Operator, kids ...*Node) *Node {
	return &Node{Op: o, Kids: kids, Var: -1, Size: 1 + len(kids)}
}
func lamApp(o *Operator, l *Lambda, kids ...*Node) *Node {
	n := app(o, kids...)
	n.Lam = l
	return n
}

// libCase is a program over named variables and the inputs to run it on.
type libCase struct {
	name   string
	vars   []string
	types  []Type
	prog   func(t *testing.T) *Node
	inputs []string
}

func libCases() []libCase {
	I, S := Int, Str
	LI, LP := ListInt, ListPair
	pairIn := []string{"[7, 2]", "[-7, 2]", "[7, -2]", "[-7, -2]", "[0, 5]", "[5, 0]", "[-100, 7]", "[9223372036854775807, 2]"}
	lists := []string{"[]", "[1]", "[3, 1, 2]", "[5, 5, 1, 1, 2]", "[-3, 7, -3, 7, 0, 0, 9]", "[1, 2, 3, 2, 3, 4, 5, 0]", "[-9, 9, -9, 8]", "[4, 4, 4, 4]"}
	points := []string{"[]", "[[1, 2]]", "[[3, 4], [0, 0], [-4, 3], [1, 1], [5, 0]]", "[[-2, -2], [2, 2], [0, 1], [1, 0], [2, -2]]", "[[0, 0], [4, 6], [-3, 9], [10, 10]]"}
	return []libCase{
		{name: "divmod", vars: []string{"a", "b"}, types: []Type{I, I}, inputs: pairIn,
			prog: func(t *testing.T) *Node { return app(findOp(t, "divmod", I, I), vr(0), vr(1)) }},
		{name: "powmod", vars: []string{"a", "b", "m"}, types: []Type{I, I, I},
			inputs: []string{"[2, 10, 1000]", "[3, 200, 97]", "[0, 0, 1]", "[5, 0, -3]", "[2, 3, -5]", "[-2, 3, 5]", "[3, -1, 7]", "[2, -1, 4]",
				"[2, -1, 1]", "[7, 5, 0]", "[123456789, 987654321, 1000000007]", "[9223372036854775807, 9223372036854775807, 9223372036854775807]"},
			prog: func(t *testing.T) *Node { return app(findOp(t, "powmod", I, I, I), vr(0), vr(1), vr(2)) }},
		{name: "to_base", vars: []string{"n", "b"}, types: []Type{I, I},
			inputs: []string{"[0, 2]", "[5, 2]", "[-5, 2]", "[-549, 3]", "[255, 16]", "[255, 8]", "[35, 36]", "[10, 1]", "[10, 37]", "[-9223372036854775808, 2]"},
			prog:   func(t *testing.T) *Node { return app(findOp(t, "to_base", I, I), vr(0), vr(1)) }},
		{name: "to_base_format", vars: []string{"n"}, types: []Type{I},
			inputs: []string{"0", "5", "-5", "1023", "-9223372036854775808"},
			prog: func(t *testing.T) *Node {
				o := findOp(t, "to_base", I, I)
				return app(findOp(t, "concat", S, S), app(o, vr(0), cst(int64(2))), app(o, vr(0), cst(int64(16))))
			}},
		{name: "iroot", vars: []string{"n", "k"}, types: []Type{I, I},
			inputs: []string{"[0, 1]", "[1, 3]", "[999999, 3]", "[1000000, 3]", "[1000000, 6]", "[624, 2]", "[625, 2]", "[48755, 1]",
				"[17, 5]", "[-1, 2]", "[5, 0]", "[9223372036854775807, 1]", "[9223372036854775807, 2]", "[9223372036854775806, 3]",
				"[9223372036854775807, 63]", "[8, 65]"},
			prog: func(t *testing.T) *Node { return app(findOp(t, "iroot", I, I), vr(0), vr(1)) }},
		{name: "alternates", vars: []string{"xs"}, types: []Type{LI},
			inputs: append([]string{"[1, 3, 2, 4]", "[2, 1, 2]", "[1, 2, 3]", "[1, 1]", "[3, 1]", "[0, 5, -5, 5, -5]"}, lists...),
			prog:   func(t *testing.T) *Node { return app(findOp(t, "alternates", LI), vr(0)) }},
		{name: "find", vars: []string{"s", "p"}, types: []Type{S, S},
			inputs: []string{`["", ""]`, `["abc", ""]`, `["", "a"]`, `["aaaa", "aa"]`, `["bdacb", "cb"]`, `["abc", "d"]`, `["héllo", "l"]`},
			prog:   func(t *testing.T) *Node { return app(findOp(t, "find", S, S), vr(0), vr(1)) }},
		{name: "find_list", vars: []string{"xs", "t"}, types: []Type{LI, I},
			inputs: []string{"[[], 3]", "[[3], 3]", "[[1, 2, 3, 2], 2]", "[[1, 2], 5]", "[[-4, -4], -4]"},
			prog:   func(t *testing.T) *Node { return app(findOp(t, "find", LI, I), vr(0), vr(1)) }},
		{name: "rotate_right", vars: []string{"xs", "k"}, types: []Type{LI, I},
			inputs: []string{"[[], 3]", "[[1], -4]", "[[1, 2, 3], 1]", "[[1, 2, 3], -1]", "[[1, 2, 3, 4], 6]", "[[1, 2, 3, 4], -9]", "[[5, 6], 0]"},
			prog:   func(t *testing.T) *Node { return app(findOp(t, "rotate_right", LI, I), vr(0), vr(1)) }},
		{name: "codes", vars: []string{"s"}, types: []Type{S},
			inputs: []string{`""`, `"a"`, `"Az 9~"`, `"héé"`},
			prog:   func(t *testing.T) *Node { return app(findOp(t, "codes", S), vr(0)) }},
		{name: "occurrences", vars: []string{"s", "p"}, types: []Type{S, S},
			inputs: []string{`["", ""]`, `["ab", ""]`, `["", "a"]`, `["aaaa", "aa"]`, `["abababa", "aba"]`, `["abc", "d"]`, `["héé", "é"]`},
			prog:   func(t *testing.T) *Node { return app(findOp(t, "occurrences", S, S), vr(0), vr(1)) }},
		{name: "translate", vars: []string{"s", "f", "t"}, types: []Type{S, S, S},
			inputs: []string{`["", "", ""]`, `["abc", "", ""]`, `["hello world", "lo", "01"]`, `["abcabc", "aa", "xy"]`,
				`["abc", "ab", "x"]`, `["héllo", "é", "e"]`, `["a b", " ", "_"]`},
			prog: func(t *testing.T) *Node { return app(findOp(t, "translate", S, S, S), vr(0), vr(1), vr(2)) }},
		{name: "delete_chars", vars: []string{"s", "d"}, types: []Type{S, S},
			inputs: []string{`["", ""]`, `["abc", ""]`, `["hello world", "lo"]`, `["héllo", "é"]`, `["a  b", " "]`},
			prog:   func(t *testing.T) *Node { return app(findOp(t, "delete_chars", S, S), vr(0), vr(1)) }},
		{name: "member_str", vars: []string{"w", "ws"}, types: []Type{S, ListStr},
			inputs: []string{`["", []]`, `["a", ["b", "a"]]`, `["A", ["a"]]`, `["", [""]]`, `["ab", ["a", "b"]]`},
			prog:   func(t *testing.T) *Node { return app(findOp(t, "member", S, ListStr), vr(0), vr(1)) }},
		{name: "sumsq", vars: []string{"a", "b"}, types: []Type{I, I}, inputs: pairIn[:len(pairIn)-1],
			prog: func(t *testing.T) *Node { return app(findOp(t, "sumsq", I, I), vr(0), vr(1)) }},
		{name: "mode_str", vars: []string{"s"}, types: []Type{S},
			inputs: []string{`""`, `"a"`, `"banana"`, `"abab"`, `"  x  y"`, `"ZzzZ"`, `"héé"`},
			prog:   func(t *testing.T) *Node { return app(findOp(t, "mode", S), vr(0)) }},
		{name: "run_length_encode", vars: []string{"s"}, types: []Type{S},
			inputs: []string{`""`, `"a"`, `"aaabccdddd"`, `"abab"`, `"  x  y"`, `"hééé"`},
			prog:   func(t *testing.T) *Node { return app(findOp(t, "run_length_encode", S), vr(0)) }},
		{name: "mode_list", vars: []string{"xs"}, types: []Type{LI}, inputs: lists,
			prog: func(t *testing.T) *Node { return app(findOp(t, "mode", LI), vr(0)) }},
		{name: "dense_rank", vars: []string{"xs"}, types: []Type{LI}, inputs: lists,
			prog: func(t *testing.T) *Node { return app(findOp(t, "dense_rank", LI), vr(0)) }},
		{name: "slice_sums", vars: []string{"xs"}, types: []Type{LI}, inputs: lists,
			prog: func(t *testing.T) *Node { return app(findOp(t, "slice_sums", LI), vr(0)) }},
		{name: "diffs", vars: []string{"xs"}, types: []Type{LI}, inputs: lists,
			prog: func(t *testing.T) *Node { return app(findOp(t, "diffs", LI), vr(0)) }},
		{name: "run_lengths_by", vars: []string{"xs"}, types: []Type{LI}, inputs: lists,
			prog: func(t *testing.T) *Node {
				l := NewLambda(SigII, Bool, app(findOp(t, "lt", I, I), vr(0), vr(1)))
				return lamApp(findOp(t, "run_lengths_by", LI), l, vr(0))
			}},
		{name: "chunk_reduce", vars: []string{"xs", "k"}, types: []Type{LI, I},
			inputs: []string{"[[], 3]", "[[1, 0, 1, 1], 3]", "[[1, 2, 3, 4, 5], 2]", "[[1, 2, 3], 1]", "[[1, 2, 3], 100]", "[[1, 2, 3], 0]", "[[1, 2, 3], -2]", "[[5, 6, 7, 8, 9, 10, 11], 3]"},
			prog: func(t *testing.T) *Node {
				l := NewLambda(SigII, I, app(findOp(t, "sub", I, I), vr(0), vr(1)))
				return lamApp(findOp(t, "chunk_reduce", LI, I), l, vr(0), vr(1))
			}},
		{name: "sort_by_then", vars: []string{"xs"}, types: []Type{LI}, inputs: lists,
			prog: func(t *testing.T) *Node {
				l := NewLambda(SigI, I, app(findOp(t, "abs", I), vr(0)))
				return lamApp(findOp(t, "sort_by_then", LI), l, vr(0))
			}},
		{name: "sort_points_by_then", vars: []string{"pts"}, types: []Type{LP}, inputs: points,
			prog: func(t *testing.T) *Node {
				l := NewLambda(SigII, I, app(findOp(t, "sumsq", I, I), vr(0), vr(1)))
				return lamApp(findOp(t, "sort_by_then", LP), l, vr(0))
			}},
		{name: "from_first", vars: []string{"pts"}, types: []Type{LP}, inputs: points,
			prog: func(t *testing.T) *Node { return app(findOp(t, "from_first", LP), vr(0)) }},
		{name: "triangle_areas2", vars: []string{"pts"}, types: []Type{LP}, inputs: points,
			prog: func(t *testing.T) *Node { return app(findOp(t, "triangle_areas2", LP), vr(0)) }},
		{name: "convex_hull", vars: []string{"pts"}, types: []Type{LP},
			inputs: append(points, "[[0, 0], [1, 1], [2, 2], [3, 3]]", "[[0, 0], [4, 0], [4, 4], [0, 4], [2, 2], [2, 0], [4, 4]]", "[[5, 5], [5, 5]]", "[[1, 0], [0, 1]]"),
			prog:   func(t *testing.T) *Node { return app(findOp(t, "convex_hull", LP), vr(0)) }},
		{name: "same_set", vars: []string{"a", "b"}, types: []Type{LP, LP},
			inputs: []string{"[[], []]", "[[[1, 2]], []]", "[[[1, 2], [1, 2], [3, 4]], [[3, 4], [1, 2]]]", "[[[1, 2]], [[2, 1]]]", "[[[0, 0], [5, 5]], [[5, 5], [0, 0], [0, 0]]]"},
			prog:   func(t *testing.T) *Node { return app(findOp(t, "same_set", LP, LP), vr(0), vr(1)) }},
		{name: "orbit", vars: []string{"n"}, types: []Type{I},
			inputs: []string{"0", "4", "5", "124", "10000", "-7", "9223372036854775807"},
			prog: func(t *testing.T) *Node {
				l := NewLambda(SigI, I, app(findOp(t, "floordiv", I, I), vr(0), cst(int64(5))))
				return lamApp(findOp(t, "orbit", I), l, vr(0))
			}},
		{name: "orbit_cycle", vars: []string{"n"}, types: []Type{I}, inputs: []string{"0", "3"},
			prog: func(t *testing.T) *Node {
				l := NewLambda(SigI, I, app(findOp(t, "neg", I), vr(0)))
				return lamApp(findOp(t, "orbit", I), l, vr(0))
			}},
		{name: "lattice_steps", vars: []string{"pts"}, types: []Type{LP}, inputs: points,
			prog: func(t *testing.T) *Node {
				var gcd *Lambda
				for _, l := range GeoLambdas(I) {
					if l.Geo.Name == "gcd" {
						gcd = l
					}
				}
				if gcd == nil {
					t.Fatal("no gcd geometry function")
				}
				return lamApp(findOp(t, "adjacent", LP), gcd, vr(0))
			}},
	}
}

// TestLibPythonMatchesGo runs every library operator's Python translation
// in python3 and compares it with the Go evaluation, input by input: the
// same value, or an error on both sides.
func TestLibPythonMatchesGo(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: cannot compare emitted Python with the Go evaluator")
	}
	for _, c := range libCases() {
		t.Run(c.name, func(t *testing.T) { checkLibCase(t, py, c) })
	}
}

// checkLibCase runs a case's program in python3 and in Go on every input
// and compares them: the same value, or an error on both sides.
func checkLibCase(t *testing.T, py string, c libCase) {
	t.Helper()
	root := c.prog(t)
	line := strings.Join(c.vars, ", ") + " = input_data"
	src := Program{Root: root, Binding: line, Vars: c.vars, Round: -1}.Python("solve", "")
	t.Log(src)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "candidate.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	script := "import json, sys\nsys.path.insert(0, sys.argv[1])\nfrom candidate import solve\nout = []\n" +
		"for x in json.loads(sys.argv[2]):\n    try:\n        out.append([True, solve(x)])\n    except Exception:\n        out.append([False, None])\n" +
		"print(json.dumps(out))\n"
	out, err := exec.Command(py, "-c", script, dir, "["+strings.Join(c.inputs, ",")+"]").CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s\n%s", err, out, src)
	}
	var got [][2]json.RawMessage
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("decode python output %q: %v", out, err)
	}
	for i, in := range c.inputs {
		v, err := task.Decode(json.RawMessage(in))
		if err != nil {
			t.Fatal(err)
		}
		parts := []any{v}
		if len(c.vars) > 1 {
			parts = v.([]any)
		}
		env := make([]any, len(parts))
		for j, p := range parts {
			val, good := FromJSON(p, false)
			if !good {
				t.Fatalf("input %s: cannot convert %v", in, p)
			}
			env[j] = coerce(val, c.types[j])
		}
		goVal := EvalNode(root, env)
		pyOK := string(got[i][0]) == "true"
		switch {
		case IsErr(goVal) && pyOK:
			t.Errorf("input %s: python %s, go raises\n%s", in, got[i][1], src)
		case !IsErr(goVal) && !pyOK:
			t.Errorf("input %s: python raises, go %s\n%s", in, ToJSON(goVal), src)
		case !IsErr(goVal) && !task.Equal(got[i][1], ToJSON(goVal), 1e-9):
			t.Errorf("input %s: python %s, go %s\n%s", in, got[i][1], ToJSON(goVal), src)
		}
	}
}

func TestUniqueOrdered(t *testing.T) {
	tests := []struct {
		name string
		in   []int64
		want []int64
	}{
		{"empty", []int64{}, []int64{}},
		{"repeats keep the first", []int64{3, 1, 3, 2, 1}, []int64{3, 1, 2}},
		{"long list in a narrow span", append(slices.Repeat([]int64{5, 4}, 20), 9), []int64{5, 4, 9}},
		{"long list at the span's ends", append(slices.Repeat([]int64{-2000, 2095}, 20), 0), []int64{-2000, 2095, 0}},
		{"long list too wide for the bit set", append(slices.Repeat([]int64{7, 4103}, 20), 7), []int64{7, 4103}},
		{"span past int64", append(slices.Repeat([]int64{math.MinInt64, math.MaxInt64}, 20), 1), []int64{math.MinInt64, math.MaxInt64, 1}},
		{"long increasing list, wide span", steps(40, -5000, 997), steps(40, -5000, 997)},
		{"long decreasing list, wide span", steps(40, 9000, -500), steps(40, 9000, -500)},
		{"long list increasing but for its end", append(steps(40, 0, 1000), 0), steps(40, 0, 1000)},
	}
	for _, tc := range tests {
		for _, ar := range []*Arena{nil, {}} {
			t.Run(tc.name, func(t *testing.T) {
				got := uniqueOrdered(ar, tc.in)
				if got == nil || !slices.Equal(got, tc.want) {
					t.Errorf("uniqueOrdered(%v) = %v, want %v", tc.in, got, tc.want)
				}
			})
		}
	}
}

// steps is n integers from start, step apart.
func steps(n int, start, step int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = start + int64(i)*step
	}
	return out
}
