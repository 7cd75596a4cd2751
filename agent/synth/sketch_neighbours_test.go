package synth

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// The neighbour scan lists the positions where a test of the element and
// its neighbours holds, the ends (which lack a neighbour) never listed:
// the valleys of a list, and where an element rises above the one before
// by more than a given step.
func TestNeighbourIndices(t *testing.T) {
	cases := []sketchCase{
		{name: "neighbours_valleys", n: 10,
			task: task.Task{Name: "valleys", Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"},
			gen:  func(r *rand.Rand) any { return randInts(r, -5, 5, 0, 9) },
			f: func(in any) any {
				xs := asInts(in)
				out := []int{}
				for i := 1; i+1 < len(xs); i++ {
					if xs[i] < xs[i-1] && xs[i] < xs[i+1] {
						out = append(out, i)
					}
				}
				return out
			}},
		{name: "neighbours_jumps", n: 10,
			task: task.Task{Name: "jumps", Kind: task.KindOther, InputType: "[xs, step]: a list of integers and an integer", FunctionName: "solve"},
			gen:  func(r *rand.Rand) any { return []any{randInts(r, 0, 20, 0, 9), r.Intn(6)} },
			f: func(in any) any {
				xs, step := asInts(in.([]any)[0]), int(num(in.([]any)[1]))
				out := []int{}
				for i := 1; i < len(xs); i++ {
					if xs[i]-xs[i-1] > step {
						out = append(out, i)
					}
				}
				return out
			}},
	}
	wantOpPrefix(cases, "neighbour_indices", "a neighbour scan")
	runSketchCases(t, cases, sketch.NeighbourIndices)
}

// The neighbour scan declines outputs that list both ends (no span has
// them), and outputs that list every inner position (nothing to learn).
func TestNeighbourIndicesDeclines(t *testing.T) {
	list := task.Task{Name: "ends", Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"}
	cases := []declineCase{
		{name: "both ends", exs: [][2]any{{[]int{1, 2, 3}, []int{0, 2}}, {[]int{5, 1, 4, 2}, []int{0, 3}}, {[]int{7, 7, 7, 7, 7}, []int{0, 4}}}},
		{name: "every inner position", exs: [][2]any{{[]int{1, 2, 3}, []int{1}}, {[]int{5, 1, 4, 2}, []int{1, 2}}, {[]int{7, 7, 7, 7, 7}, []int{1, 2, 3}}}},
	}
	checkDeclines(t, list, sketch.NeighbourIndices, cases)
}
