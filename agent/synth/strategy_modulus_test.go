package synth

import (
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// A sum of character codes modulo 256 is found from two examples.
func TestModulusSketch(t *testing.T) {
	strTask := task.Task{Name: "t", Kind: task.KindString, InputType: "a string", FunctionName: "solve"}
	checksum := func(s string) int {
		total := 0
		for _, r := range s {
			total += int(r)
		}
		return total % 256
	}
	cases := []struct {
		name string
		ins  []string
		f    func(s string) int
		want string
	}{
		{"checksum mod 256", []string{"6qlpzwvccvwzplq6", " O?chn3FM!W8Y4aa4y8W'sj3nhc?o "}, checksum, "mod(sum(codes(v0)), 256)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var exs []task.Example
			for _, in := range c.ins {
				exs = append(exs, task.Example{Input: jsonOf(t, in), Output: jsonOf(t, c.f(in))})
			}
			p, err := newProblem(strTask, exs)
			if err != nil {
				t.Fatalf("problem: %v", err)
			}
			res := search(p, testSpec())
			if !res.solved || res.best.String() != c.want {
				t.Errorf("found %v (solved %v), want %s", res.best, res.solved, c.want)
			}
		})
	}
}

// congruent needs every value congruent and one reduced.
func TestCongruent(t *testing.T) {
	cases := []struct {
		name string
		vals []any
		outs []int64
		m    int64
		want bool
	}{
		{"reduced", []any{int64(300), int64(5)}, []int64{44, 5}, 256, true},
		{"nothing reduced", []any{int64(44), int64(5)}, []int64{44, 5}, 256, false},
		{"one differs", []any{int64(300), int64(6)}, []int64{44, 5}, 256, false},
		{"an error", []any{dsl.ErrV, int64(300)}, []int64{5, 44}, 256, false},
		{"negative value", []any{int64(-212), int64(5)}, []int64{44, 5}, 256, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := congruent(dsl.ColumnOf(dsl.Int, c.vals), c.outs, c.m); got != c.want {
				t.Errorf("congruent(%v, %v, %d) = %v, want %v", c.vals, c.outs, c.m, got, c.want)
			}
		})
	}
}
