package synth

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// findLambda returns the smallest default lambda of a signature and result
// whose body is written as body.
func findLambda(t *testing.T, sig dsl.Sig, ret dsl.Type, body string) *dsl.Lambda {
	t.Helper()
	for _, ls := range defaultLambdas().By[sig][ret] {
		for _, l := range ls {
			if l.Body.String() == body {
				return l
			}
		}
	}
	t.Fatalf("no lambda %s", body)
	return nil
}

// A proposal's rivals gain the near misses of the smallest one: programs
// one change away that pass every example and part from every rival on a
// proposal candidate; a near miss an example rules out is not added.
func TestWithNeighbours(t *testing.T) {
	I, S := dsl.Int, dsl.Str
	pair := task.Task{Name: "pair", Kind: task.KindPair, InputType: "pair of integers", FunctionName: "solve"}
	str := task.Task{Name: "str", Kind: task.KindString, InputType: "string", FunctionName: "solve"}
	tests := []struct {
		name     string
		tk       task.Task
		examples [][2]string
		prog     func(t *testing.T) *dsl.Node
		extra    []string
		// want and dontWant are values on the first extra input of
		// programs that must and must not be among the rivals.
		want, dontWant []any
	}{
		{"an operator of the same signature", pair, [][2]string{{"[2, 2]", "4"}},
			func(t *testing.T) *dsl.Node { return app(findOp(t, "add", I, I), vr(0), vr(1)) },
			[]string{"[3, 5]", "[1, 0]"}, []any{int64(8), int64(15)}, nil},
		{"ruled out by an example", pair, [][2]string{{"[2, 2]", "4"}, {"[3, 4]", "7"}},
			func(t *testing.T) *dsl.Node { return app(findOp(t, "add", I, I), vr(0), vr(1)) },
			[]string{"[3, 5]"}, []any{int64(8)}, []any{int64(15)}},
		{"a constant", pair, [][2]string{{"[0, 7]", "1"}},
			func(t *testing.T) *dsl.Node { return app(findOp(t, "add", I, I), vr(0), cst(int64(1))) },
			[]string{"[5, 0]"}, []any{int64(6), int64(5)}, nil},
		{"a lambda", str, [][2]string{{`"ab"`, `"ab"`}},
			func(t *testing.T) *dsl.Node {
				return lamApp(findOp(t, "filter_chars", S), findLambda(t, dsl.SigS, dsl.Bool, "isalpha(v0)"), vr(0))
			},
			[]string{`"a1 b"`}, []any{"ab", "a1b"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var exs []task.Example
			for _, e := range tc.examples {
				exs = append(exs, task.Example{Input: json.RawMessage(e[0]), Output: json.RawMessage(e[1])})
			}
			p, err := newProblem(tc.tk, exs)
			if err != nil {
				t.Fatal(err)
			}
			var extra [][]any
			for _, in := range tc.extra {
				v, _ := dsl.DecodeRaw(json.RawMessage(in))
				env, err := p.B.Env(v)
				if err != nil {
					t.Fatalf("env %s: %v", in, err)
				}
				extra = append(extra, env)
			}
			n := tc.prog(t)
			vals, ok := consistentOn(p, n, append(append([][]any{}, p.Envs...), extra...))
			if !ok {
				t.Fatalf("%s fails the examples", n)
			}
			got := withNeighbours(p, []*dsl.Entry{{N: n, BoxedVals: vals}}, extra, neighbourBounds{lams: defaultLambdas(), consts: topConsts(p)})
			nObs := len(p.Envs)
			var first []any
			seen := map[string]string{}
			for _, e := range got {
				if !p.AllMatch(e.Values()) {
					t.Errorf("%s fails an example", e.N)
				}
				k := fmt.Sprint(e.Values()[nObs:])
				if other, dup := seen[k]; dup {
					t.Errorf("%s and %s agree on every candidate", e.N, other)
				}
				seen[k] = e.N.String()
				first = append(first, e.Values()[nObs])
			}
			for _, w := range tc.want {
				if !slices.ContainsFunc(first, func(v any) bool { return dsl.EqualTo(v, w, 0) }) {
					t.Errorf("no rival worth %v on %s among %v", w, tc.extra[0], first)
				}
			}
			for _, w := range tc.dontWant {
				if slices.ContainsFunc(first, func(v any) bool { return dsl.EqualTo(v, w, 0) }) {
					t.Errorf("a rival worth %v on %s, ruled out by the examples: %v", w, tc.extra[0], first)
				}
			}
		})
	}
}
