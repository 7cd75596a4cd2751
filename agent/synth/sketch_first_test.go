package synth

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// The first-index decomposition finds the first position at which a
// function of the element, the prefix and the rest holds: the first
// element equal to the sum of those before it, and a split point where
// the prefix first weighs at least as much as the rest.
func TestFirstIndex(t *testing.T) {
	list := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"}
	}
	sum := func(xs []int) int {
		s := 0
		for _, x := range xs {
			s += x
		}
		return s
	}
	cases := []sketchCase{
		{name: "first_equal_to_sum_before", task: list("sum_before"), n: 14,
			gen: func(r *rand.Rand) any {
				xs := randInts(r, 0, 6, 1, 8)
				if r.Intn(2) == 0 {
					k := r.Intn(len(xs))
					xs[k] = sum(xs[:k])
				}
				return xs
			},
			f: func(in any) any {
				xs := asInts(in)
				for i := range xs {
					if xs[i] == sum(xs[:i]) {
						return i
					}
				}
				return -1
			}},
		{name: "split_prefix_outweighs_rest", task: list("split"), n: 12,
			gen: func(r *rand.Rand) any {
				xs := randInts(r, 0, 9, 0, 5)
				if r.Intn(2) == 0 {
					// A tie: the same elements again, in another order.
					ys := append([]int{}, xs...)
					r.Shuffle(len(ys), func(i, j int) { ys[i], ys[j] = ys[j], ys[i] })
					xs = append(xs, ys...)
				}
				return xs
			},
			f: func(in any) any {
				xs := asInts(in)
				for i := 0; i <= len(xs); i++ {
					if sum(xs[:i]) >= sum(xs[i:]) {
						return i
					}
				}
				return -1
			}},
	}
	wantOpPrefix(cases, "first_index", "a first index")
	runSketchCases(t, cases, sketch.FirstIndex)
}
