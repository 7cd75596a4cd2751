package synth

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// The first-pair search finds two elements adding up to a target and the
// first slice summing to it (null when there is none).
func TestFirstPair(t *testing.T) {
	pairTask := task.Task{Name: "t", Kind: task.KindOther, FunctionName: "solve",
		InputType: "[nums, target]: an integer list and an integer"}
	gen := func(r *rand.Rand) any { return []any{randInts(r, -10, 10, 0, 10), r.Intn(31) - 15} }
	cases := []sketchCase{
		{name: "two_sum_indices", task: pairTask, n: 12, gen: gen,
			f: func(in any) any {
				q := in.([]any)
				xs, target := asInts(q[0]), int(num(q[1]))
				for j := range xs {
					for i := range j {
						if xs[i]+xs[j] == target {
							return []int{i, j}
						}
					}
				}
				return []int{}
			}},
		{name: "target_sum_slice", task: pairTask, n: 12, gen: gen,
			f: func(in any) any {
				q := in.([]any)
				xs, target := asInts(q[0]), int(num(q[1]))
				for i := range xs {
					total := 0
					for j := i + 1; j <= len(xs); j++ {
						total += xs[j-1]
						if total == target {
							return []int{i, j}
						}
					}
				}
				return nil
			}},
	}
	runSketchCases(t, cases, sketch.FirstPair)
}
