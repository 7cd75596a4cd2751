package synth

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// A component that follows from a solved one by one operator — alone,
// beside an input, or beside another solved component — is made without
// a search; one that does not is left to its search.
func TestComposeParts(t *testing.T) {
	word := task.Task{Name: "word", Kind: task.KindString, InputType: "a word", FunctionName: "solve"}
	listK := task.Task{Name: "list_k", Kind: task.KindOther, InputType: "[xs, k]: a list of integers and an integer", FunctionName: "solve"}
	upper := func(t *testing.T) *dsl.Node { return app1(t, "upper", dsl.Str, &dsl.Node{Var: 0, Size: 1}) }
	sortedXs := func(t *testing.T) *dsl.Node { return app1(t, "sorted", dsl.ListInt, &dsl.Node{Var: 0, Size: 1}) }
	tests := []struct {
		name string
		task task.Task
		gen  func(r *rand.Rand) any
		f    func(in any) any
		// solved are the programs of the parts already solved (nil for
		// none); part is the one composed.
		solved func(t *testing.T) []*dsl.Node
		part   int
		want   string // "" when nothing is composed
	}{
		{name: "a word and its length", task: word,
			gen:    func(r *rand.Rand) any { return randWord(r, 0, 9) },
			f:      func(in any) any { s := strings.ToUpper(in.(string)); return []any{s, len(s)} },
			solved: func(t *testing.T) []*dsl.Node { return []*dsl.Node{upper(t), nil} }, part: 1, want: "len(upper(v0))"},
		{name: "a sorted list and its k-th element", task: listK,
			gen: func(r *rand.Rand) any {
				xs := randInts(r, -9, 9, 3, 7)
				return []any{xs, r.Intn(3)}
			},
			f: func(in any) any {
				xs := slices.Clone(ints(in.([]any)[0]))
				slices.Sort(xs)
				return []any{xs, xs[int(num(in.([]any)[1]))]}
			},
			solved: func(t *testing.T) []*dsl.Node { return []*dsl.Node{sortedXs(t), nil} }, part: 1, want: "at(sorted(v0), v1)"},
		{name: "a count unrelated to the word", task: word,
			gen: func(r *rand.Rand) any { return randWord(r, 0, 9) },
			f: func(in any) any {
				s := in.(string)
				return []any{strings.ToUpper(s), strings.Count(s, "a") * 3}
			},
			solved: func(t *testing.T) []*dsl.Node { return []*dsl.Node{upper(t), nil} }, part: 1},
		{name: "nothing solved yet", task: word,
			gen:    func(r *rand.Rand) any { return randWord(r, 0, 9) },
			f:      func(in any) any { s := strings.ToUpper(in.(string)); return []any{s, len(s)} },
			solved: func(t *testing.T) []*dsl.Node { return []*dsl.Node{nil, nil} }, part: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(3))
			exs, _ := examplesOf(t, r, tc.gen, tc.f, 12)
			p, err := newProblem(tc.task, exs)
			if err != nil {
				t.Fatal(err)
			}
			parts := p.Components()
			if parts == nil {
				t.Fatalf("the outputs have no components")
			}
			got := composeParts(p, parts, tc.part, tc.solved(t))
			switch {
			case tc.want == "" && got != nil:
				t.Fatalf("composed %v, want nothing", got)
			case tc.want == "":
				return
			case got == nil:
				t.Fatalf("nothing composed, want %s", tc.want)
			case got.String() != tc.want:
				t.Errorf("composed %v, want %s", got, tc.want)
			}
			for k, env := range parts[tc.part].Envs {
				if !parts[tc.part].MatchesAt(k, dsl.EvalNode(got, env)) {
					t.Errorf("example %d: %v does not give its output", k, got)
				}
			}
		})
	}
}

// app1 applies the catalogue's operator name on one argument of type arg.
func app1(t *testing.T, name string, arg dsl.Type, kid *dsl.Node) *dsl.Node {
	t.Helper()
	op := dsl.Catalog.Find(name, arg)
	if op == nil {
		t.Fatalf("no operator %s(%v)", name, arg)
	}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{kid}, Var: -1, Size: kid.Size + op.Cost}
}
