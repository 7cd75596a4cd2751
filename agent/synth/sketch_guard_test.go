package synth

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// A value where a condition holds and None elsewhere: the majority
// element (the most common one, where it fills more than half of the
// list), the largest element where it is even.
func TestGuard(t *testing.T) {
	listTask := task.Task{Name: "t", Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"}
	lists := func(r *rand.Rand) any {
		xs := randInts(r, -3, 3, 1, 8)
		if r.Intn(2) == 0 {
			v := r.Intn(7) - 3
			for i := range xs {
				if r.Intn(3) > 0 {
					xs[i] = v
				}
			}
		}
		return xs
	}
	cases := []sketchCase{
		{name: "majority_or_none", task: listTask, n: 40, gen: lists,
			f: func(in any) any {
				xs := asInts(in)
				for _, x := range xs {
					k := 0
					for _, y := range xs {
						if y == x {
							k++
						}
					}
					if 2*k > len(xs) {
						return x
					}
				}
				return nil
			}},
		{name: "largest_if_even", task: listTask, n: 12,
			gen: func(r *rand.Rand) any { return randInts(r, -9, 9, 1, 6) },
			f: func(in any) any {
				xs := asInts(in)
				m := xs[0]
				for _, x := range xs {
					m = max(m, x)
				}
				if m%2 == 0 {
					return m
				}
				return nil
			}},
	}
	wantOpPrefix(cases, "guard[", "a guarded value")
	runSketchCases(t, cases, sketch.Guard)
}

// Outputs that are never null are not the guard's.
func TestGuardDeclines(t *testing.T) {
	tk := task.Task{Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"}
	exs := []task.Example{
		{Input: jsonOf(t, []int{1, 2}), Output: jsonOf(t, 2)},
		{Input: jsonOf(t, []int{5}), Output: jsonOf(t, 5)},
		{Input: jsonOf(t, []int{3, 1}), Output: jsonOf(t, 3)},
	}
	p, err := newProblem(tk, exs)
	if err != nil {
		t.Fatalf("problem: %v", err)
	}
	if res := strategyOnly(p, sketch.Guard); res.solved {
		t.Errorf("found %v, want none", res.best)
	}
}
