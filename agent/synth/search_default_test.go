package synth

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// A partial program right wherever it does not raise, the examples where
// it raises sharing one output, is the last resort's program with that
// output for its default (the smallest of no numbers 99, the index of the
// largest -1); raising examples of different outputs give none.
func TestOrDefault(t *testing.T) {
	list := task.Task{Name: "xs", Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"}
	tests := []struct {
		name string
		exs  [][2]any
		want string // "" for none
		py   string // a line of the emitted program
	}{
		{name: "the smallest or 99", exs: [][2]any{{[]int{3, 1}, 1}, {[]int{}, 99}, {[]int{-2, -5, -1}, -5}, {[]int{4}, 4}},
			want: "or_default(min(v0), 99)", py: "return or_default(lambda: min(xs), 99)"},
		{name: "the index of the largest or -1", exs: [][2]any{{[]int{3, 1, 7}, 2}, {[]int{}, -1}, {[]int{9, 5}, 0}, {[]int{4, 8}, 1}},
			want: "or_default(argmax(v0), -1)", py: "return or_default(lambda: xs.index(max(xs)), -1)"},
		{name: "raising examples of different outputs", exs: [][2]any{{[]int{3, 1, 7}, 7}, {[]int{}, 0}, {[]int{9}, 1}, {[]int{4, 8, 2}, 2}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, exs := pairsProblem(t, list, tc.exs)
			spec := testSpec()
			spec.maxSize = 2 // no conditional: the partial programs alone
			s := newSearcher(p, spec)
			defer s.close()
			s.en.grow(2, func(int) bool { return false })
			s.orDefault()
			res := s.res
			switch {
			case tc.want == "" && res.solved:
				t.Fatalf("found %v, want none", res.best)
			case tc.want == "":
				return
			case !res.solved:
				t.Fatalf("nothing found, want %s", tc.want)
			case res.best.String() != tc.want:
				t.Fatalf("found %v, want %s", res.best, tc.want)
			}
			prog := dsl.Program{Root: res.best, Binding: p.B.Line, BindingHelper: p.B.Helper, Vars: p.B.Names, Round: p.Round}
			src := prog.Python("solve", "")
			if !strings.Contains(src, "    "+tc.py+"\n") {
				t.Errorf("the program lacks %q:\n%s", tc.py, src)
			}
			if py, _ := exec.LookPath("python3"); py != "" {
				var ins []string
				for _, e := range tc.exs {
					ins = append(ins, string(jsonOf(t, e[0])))
				}
				checkPython(t, py, src, ins, exs)
			}
		})
	}
}
