package synth

import (
	"encoding/json"
	"os/exec"
	"strconv"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// pairRecurrence returns x_n for x_0 = a, x_1 = b, x_{k+2} = (x_k + x_{k+1}) % m.
func pairRecurrence(n, a, b, m int64) int64 {
	for range n {
		a, b = b, (a+b)%m
	}
	return a
}

// Whole programs that are one loop over the input are found by the loop
// sweep from few examples: beyond the sizes an integer task reaches
// level by level, but checked one example at a time.
func TestLoopSweep(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: cannot run the emitted program")
	}
	tests := []struct {
		name   string
		task   task.Task
		inputs []int64
		probe  []int64
		f      func(n int64) int64
	}{
		{"Fibonacci modulo a bound of the constraints",
			task.Task{Name: "fib_mod", Kind: task.KindInt, InputType: "integer", InputConstraints: "one integer between 0 and 1000", FunctionName: "solve"},
			[]int64{13, 403}, []int64{0, 1, 2, 999, 1000, 500},
			func(n int64) int64 { return pairRecurrence(n, 0, 1, 1000) }},
		{"Lucas numbers",
			task.Task{Name: "lucas", Kind: task.KindInt, InputType: "integer", FunctionName: "solve"},
			[]int64{5, 9, 0, 14, 1, 20}, []int64{2, 3, 30, 40},
			func(n int64) int64 { return pairRecurrence(n, 2, 1, 1<<62) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var exs []task.Example
			for _, n := range tc.inputs {
				exs = append(exs, task.Example{Input: json.RawMessage(strconv.FormatInt(n, 10)), Output: json.RawMessage(strconv.FormatInt(tc.f(n), 10))})
			}
			p, err := newProblem(tc.task, exs)
			if err != nil {
				t.Fatalf("problem: %v", err)
			}
			res := search(p, testSpec())
			if !res.solved {
				t.Fatalf("no consistent program; best %v passes %d of %d", res.best, res.passed, len(p.Outs))
			}
			if res.best.Op == nil || res.best.Op.Fam != dsl.FamLoop {
				t.Errorf("found %v, want a loop", res.best)
			}
			src := dsl.Program{Root: res.best, Binding: p.B.Line, Vars: p.B.Names, Round: p.Round}.Python("solve", "")
			var ins []string
			for _, n := range append(append([]int64{}, tc.inputs...), tc.probe...) {
				ins = append(ins, strconv.FormatInt(n, 10))
			}
			got := runCandidate(t, py, src, ins)
			for i, in := range ins {
				n, _ := strconv.ParseInt(in, 10, 64)
				if want := strconv.FormatInt(tc.f(n), 10); string(got[i]) != want {
					t.Errorf("solve(%s) = %s, want %s\n%s", in, got[i], want, src)
				}
			}
		})
	}
}
