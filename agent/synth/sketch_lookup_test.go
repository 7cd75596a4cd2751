package synth

import (
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// The lookup is the last resort on two examples: it returns each one's
// output, told apart by a variable, and nothing else; on three examples,
// two equal outputs or inputs it cannot tell apart, it offers nothing.
func TestLookupLastResort(t *testing.T) {
	ex := func(in, out string) task.Example {
		return task.Example{Input: json.RawMessage(in), Output: json.RawMessage(out)}
	}
	intT := task.Task{Name: "peak", Kind: task.KindInt, InputType: "integer n", FunctionName: "solve"}
	strT := task.Task{Name: "word", Kind: task.KindString, InputType: "a word", FunctionName: "solve"}
	pairT := otherTask("pair", "[a, b]: two integers")
	tests := []struct {
		name string
		task task.Task
		exs  []task.Example
		// want are the Python outputs on the examples' inputs; nil: no
		// program.
		want []string
	}{
		{"two integers", intT, []task.Example{ex("4032", "9232"), ex("4", "4")}, []string{"9232", "4"}},
		{"two texts, named by a computed value instead", strT, []task.Example{ex(`"tree"`, `"eetray"`), ex(`"apple"`, `"appleway"`)}, nil},
		{"two lists", pairT, []task.Example{ex("[1, 2]", "3.5"), ex("[1, 7]", "0.25")}, []string{"3.5", "0.25"}},
		{"lists of words", otherTask("wrap", "[text, width]: a text and a width"), []task.Example{ex(`["ab cd e", 1]`, `["ab", "cd", "e"]`), ex(`["a stop", 10]`, `["a stop"]`)}, []string{`["ab", "cd", "e"]`, `["a stop"]`}},
		{"three examples", intT, []task.Example{ex("1", "5"), ex("2", "9"), ex("3", "4")}, nil},
		{"equal outputs", intT, []task.Example{ex("1", "5"), ex("2", "5")}, nil},
	}
	py, _ := exec.LookPath("python3")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := newProblem(tt.task, tt.exs)
			if err != nil {
				t.Fatal(err)
			}
			res := strategyOnly(p, func(en *sketch.Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
				return sketch.Lookup(en, p, consider)
			})
			if tt.want == nil {
				if res.solved {
					t.Fatalf("found %v, want nothing", res.best)
				}
				return
			}
			if !res.solved {
				t.Fatal("no lookup")
			}
			if py == "" {
				t.Skip("python3 not found: the emitted lookup is not run")
			}
			prog := dsl.Program{Root: res.best, Binding: p.B.Line, BindingHelper: p.B.Helper, Vars: p.B.Names, Round: p.Round}
			src := prog.Python("solve", "")
			var ins []string
			for _, e := range tt.exs {
				ins = append(ins, string(e.Input))
			}
			for i, got := range runCandidate(t, py, src, ins) {
				if !task.Equal(got, json.RawMessage(tt.want[i]), 0) {
					t.Errorf("python: solve(%s) = %s, want %s\n%s", ins[i], got, tt.want[i], src)
				}
			}
		})
	}
}
