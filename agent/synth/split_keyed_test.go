package synth

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// keyedProblem is a hole's problem over a pair of integers (a, b), with
// the outputs given.
func keyedProblem(t *testing.T, envs [][]any, outs []any, types ...dsl.Type) *dsl.Problem {
	t.Helper()
	names := []string{"a", "b", "c"}[:len(types)]
	p := &dsl.Problem{B: &dsl.Binding{Names: names, Types: types}, Round: -1, Envs: envs}
	if err := p.SetOutputs(outs); err != nil {
		t.Fatal(err)
	}
	return p
}

// A hole reads as categories when its texts are a few words, each seen
// nowhere in its example's input.
func TestCategoryHole(t *testing.T) {
	I, S := dsl.Int, dsl.Str
	str := dsl.Format{Kind: dsl.FmtStr}
	cases := []struct {
		name  string
		envs  [][]any
		outs  []any
		types []dsl.Type
		f     dsl.Format
		want  bool
	}{
		{"words beside numbers", [][]any{{int64(1)}, {int64(9)}, {int64(4)}}, []any{"low", "high", "low"}, []dsl.Type{I}, str, true},
		{"two words, once each", [][]any{{int64(1)}, {int64(9)}}, []any{"low", "high"}, []dsl.Type{I}, str, true},
		{"one word", [][]any{{int64(1)}, {int64(9)}}, []any{"low", "low"}, []dsl.Type{I}, str, false},
		{"a word of the input", [][]any{{"apple"}, {"Pear"}}, []any{"apple", "pear"}, []dsl.Type{S}, str, false},
		{"a word in a list of the input", [][]any{{[]string{"x", "cat"}}, {[]string{"dog"}}}, []any{"cat", "ox"}, []dsl.Type{dsl.ListStr}, str, false},
		{"an empty text", [][]any{{int64(1)}, {int64(9)}}, []any{"", "high"}, []dsl.Type{I}, str, false},
		{"too many words", [][]any{{int64(1)}, {int64(2)}, {int64(3)}, {int64(4)}, {int64(5)}, {int64(6)}, {int64(7)}, {int64(8)}, {int64(9)}},
			[]any{"a", "b", "c", "d", "e", "f", "g", "h", "i"}, []dsl.Type{I}, str, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := keyedProblem(t, c.envs, c.outs, c.types...)
			if got := categoryHole(p, c.f); got != c.want {
				t.Errorf("categoryHole = %v, want %v", got, c.want)
			}
		})
	}
	// A number hole is no category.
	p := keyedProblem(t, [][]any{{int64(1)}, {int64(9)}}, []any{json.Number("1"), json.Number("9")}, I)
	if categoryHole(p, dsl.Format{Kind: dsl.FmtPad, N: 2}) {
		t.Error("a number hole read as categories")
	}
}

// A category hole is named by intervals of the first number program whose
// values give each word one run, the thresholds the roundest numbers of
// the gaps, compared with the unrounded value.
func TestKeyedCategory(t *testing.T) {
	I := dsl.Int
	// ratio a / b: 0.2 low, 0.45 low, 0.75 high, 1.5 high, 3.0 huge.
	envs := [][]any{{int64(1), int64(5)}, {int64(9), int64(20)}, {int64(3), int64(4)}, {int64(3), int64(2)}, {int64(6), int64(2)}}
	outs := []any{"low", "low", "high", "high", "huge"}
	sub := keyedProblem(t, envs, outs, I, I)
	ratio := app(findOp(t, "div", I, I), vr(0), vr(1))
	// a + b orders them otherwise: 6, 29 low, 7, 5 high, 8 huge.
	diff := app(findOp(t, "add", I, I), vr(0), vr(1))
	cases := []struct {
		name string
		keys []*dsl.Node
		want string
	}{
		{"the ratio", []*dsl.Node{nil, ratio}, `intervals{"low" < 0.5 "high" < 2 "huge"}(div(v0, v1))`},
		{"a key that does not order them", []*dsl.Node{diff}, ""},
		{"the first that fits", []*dsl.Node{diff, ratio, vr(0)}, `intervals{"low" < 0.5 "high" < 2 "huge"}(div(v0, v1))`},
		{"a variable", []*dsl.Node{vr(1)}, ""},
		{"no key", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := keyedCategory(sub, c.keys)
			got := ""
			if n != nil {
				got = n.String()
			}
			if got != c.want {
				t.Errorf("keyedCategory = %s, want %s", got, c.want)
			}
		})
	}
	// A variable that orders the words is a key as it is.
	byA := keyedProblem(t, [][]any{{int64(1)}, {int64(30)}, {int64(8)}}, []any{"small", "big", "small"}, I)
	if n := keyedCategory(byA, []*dsl.Node{vr(0)}); n == nil || n.String() != `intervals{"small" < 20 "big"}(v0)` {
		t.Errorf("keyed by a variable: %v", n)
	}
	// A string program is no key.
	if n := keyedCategory(byA, []*dsl.Node{cst("x")}); n != nil {
		t.Errorf("keyed by a string: %v", n)
	}
}

// An intervals program's near misses move one threshold to an end of its
// gap among the observed values, wherever the intervals sit in the
// program.
func TestCutNeighbours(t *testing.T) {
	var envs [][]any
	for _, v := range []int64{3, 31, 12, -4, 27, 22, 8} {
		envs = append(envs, []any{v})
	}
	labels := []any{"cold", "mild", "hot"}
	iv := &dsl.Node{Op: dsl.IntervalsOp(dsl.Int, []float64{10, 25}, []bool{false, false}, labels), Kids: []*dsl.Node{vr(0)}, Var: -1, Size: 2}
	n := concatNode([]string{"It is ", "."}, []*dsl.Node{iv})
	var got []string
	for _, m := range cutNeighbours(n, envs) {
		got = append(got, m.String())
	}
	want := []string{
		`template{"It is "_"."}(intervals{"cold" <= 8 "mild" < 25 "hot"}(v0))`,
		`template{"It is "_"."}(intervals{"cold" < 12 "mild" < 25 "hot"}(v0))`,
		`template{"It is "_"."}(intervals{"cold" < 10 "mild" <= 22 "hot"}(v0))`,
		`template{"It is "_"."}(intervals{"cold" < 10 "mild" < 27 "hot"}(v0))`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("cut neighbours:\n%q\nwant\n%q", got, want)
	}
	// Each passes every example's label.
	for _, m := range cutNeighbours(n, envs) {
		for i, env := range envs {
			if a, b := dsl.EvalSafe(m, env), dsl.EvalSafe(n, env); a != b {
				t.Errorf("%v on example %d: %v, want %v", m, i, a, b)
			}
		}
	}
	// A threshold already at an end of its gap moves only to the other.
	at := &dsl.Node{Op: dsl.IntervalsOp(dsl.Int, []float64{8}, []bool{true}, labels[:2]), Kids: []*dsl.Node{vr(0)}, Var: -1, Size: 2}
	if ms := cutNeighbours(at, envs); len(ms) != 1 || ms[0].String() != `intervals{"cold" < 12 "mild"}(v0)` {
		t.Errorf("from a gap's end: %v", ms)
	}
	// No intervals, no near misses; nor without examples.
	if ms := cutNeighbours(concatNode([]string{"n=", ""}, []*dsl.Node{vr(0)}), envs); len(ms) != 0 {
		t.Errorf("no intervals: %v", ms)
	}
	if ms := cutNeighbours(n, nil); len(ms) != 0 {
		t.Errorf("no examples: %v", ms)
	}
}

// In a template split, the category hole comes after the number hole,
// and is made from its program without a search of its own; a word the
// number's values do not order is searched as before.
func TestKeyedSplit(t *testing.T) {
	pair := task.Task{Name: "keyed", Kind: task.KindPair, InputType: "pair of integers", FunctionName: "solve"}
	cases := []struct {
		name string
		f    func(a, b int64) string
		// derived says the word hole needs no search; want is the word
		// hole's program.
		derived bool
		want    string
	}{
		{"the word after the number", func(a, b int64) string {
			r := float64(a) / float64(b)
			w := "high"
			if r < 1 {
				w = "low"
			}
			return fmt.Sprintf("Ratio %.2f: %s", r, w)
		}, true, `intervals{"low" < 1 "high"}(div(v0, v1))`},
		{"the word before the number", func(a, b int64) string {
			r := float64(a) / float64(b)
			w := "high"
			if r < 1 {
				w = "low"
			}
			return fmt.Sprintf("%s (%.2f)", w, r)
		}, true, `intervals{"low" < 1 "high"}(div(v0, v1))`},
		{"a word of its own", func(a, b int64) string {
			w := "odd"
			if b%2 == 0 {
				w = "even"
			}
			return fmt.Sprintf("Ratio %.2f: %s", float64(a)/float64(b), w)
		}, false, ""},
	}
	ins := [][2]int64{{1, 5}, {9, 20}, {3, 4}, {3, 2}, {6, 2}, {7, 8}, {20, 3}, {5, 11}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var exs []task.Example
			for _, in := range ins {
				out, _ := json.Marshal(c.f(in[0], in[1]))
				exs = append(exs, task.Example{Input: json.RawMessage(fmt.Sprintf("[%d, %d]", in[0], in[1])), Output: out})
			}
			p, err := newProblem(pair, exs)
			if err != nil {
				t.Fatal(err)
			}
			spec := testSpec()
			spec.maxPrograms = splitPrograms
			s := templateSplit(p, spec, 0)
			if s == nil {
				t.Fatal("no template split")
			}
			res := s.solve(budgetOf(spec))
			if !res.solved {
				t.Fatalf("not solved: %s", res.note)
			}
			word := -1
			for i, sub := range s.parts {
				if sub.Render == nil {
					word = i
				}
			}
			r := s.results[word]
			if c.derived != (r.evaluated == 0) {
				t.Errorf("word hole %v evaluated %d programs; derived %v", r.best, r.evaluated, c.derived)
			}
			if c.want != "" && r.best.String() != c.want {
				t.Errorf("word hole %v, want %s", r.best, c.want)
			}
		})
	}
}
