package synth

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// The index-set decomposition finds the indices where two lists differ by
// more than a limit, and where an element is above a threshold input.
func TestIndexDecomposition(t *testing.T) {
	absInt := func(x int) int {
		if x < 0 {
			return -x
		}
		return x
	}
	cases := []sketchCase{
		{name: "positions_differ_by_more",
			task: task.Task{Name: "t", Kind: task.KindOther, FunctionName: "solve",
				InputType: "[a, b, limit]: two integer lists of equal length and a non-negative limit"},
			n: 6,
			gen: func(r *rand.Rand) any {
				n := r.Intn(10)
				return []any{randInts(r, -20, 20, n, n), randInts(r, -20, 20, n, n), r.Intn(21)}
			},
			f: func(in any) any {
				q := in.([]any)
				a, b, limit := asInts(q[0]), asInts(q[1]), int(num(q[2]))
				out := []int{}
				for i := range a {
					if absInt(a[i]-b[i]) > limit {
						out = append(out, i)
					}
				}
				return out
			}},
		{name: "indices_above_threshold",
			task: task.Task{Name: "t", Kind: task.KindOther, FunctionName: "solve",
				InputType: "[xs, t]: a list of integers and an integer"},
			n:   6,
			gen: func(r *rand.Rand) any { return []any{randInts(r, -9, 9, 0, 10), r.Intn(19) - 9} },
			f: func(in any) any {
				q := in.([]any)
				xs, th := asInts(q[0]), int(num(q[1]))
				out := []int{}
				for i, x := range xs {
					if x > th {
						out = append(out, i)
					}
				}
				return out
			}},
	}
	runSketchCases(t, cases, sketch.Indices)
}
