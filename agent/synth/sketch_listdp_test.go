package synth

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// The recurrences over a list's elements find the best sum with no two
// adjacent elements and the longest monotone subsequences.
func TestListDPSketch(t *testing.T) {
	listTask := task.Task{Name: "t", Kind: task.KindList, InputType: "a list of integers", FunctionName: "solve"}
	longest := func(rel func(a, b int) bool) func(in any) any {
		return func(in any) any {
			xs := asInts(in)
			best := make([]int, len(xs))
			top := 0
			for i, x := range xs {
				best[i] = 1
				for j := range i {
					if rel(xs[j], x) {
						best[i] = max(best[i], best[j]+1)
					}
				}
				top = max(top, best[i])
			}
			return top
		}
	}
	cases := []sketchCase{
		{name: "max_non_adjacent_sum", task: listTask, n: 8,
			gen: func(r *rand.Rand) any { return randInts(r, -10, 40, 0, 12) },
			f: func(in any) any {
				take, skip := 0, 0
				for _, x := range asInts(in) {
					take, skip = skip+x, max(take, skip)
				}
				return max(take, skip)
			}},
		{name: "longest_nondecreasing_subsequence", task: listTask, n: 10,
			gen: func(r *rand.Rand) any { return randInts(r, 0, 9, 0, 12) },
			f:   longest(func(a, b int) bool { return a <= b })},
		{name: "longest_increasing_subsequence", task: listTask, n: 10,
			gen: func(r *rand.Rand) any { return randInts(r, 0, 9, 0, 12) },
			f:   longest(func(a, b int) bool { return a < b })},
	}
	runSketchCases(t, cases, sketch.ListDP)
}

// A list of other elements, another output or too few examples is not
// the sketch's.
func TestListDPSketchDeclines(t *testing.T) {
	cases := []struct {
		name string
		task task.Task
		exs  []task.Example
	}{
		{"string input", task.Task{Kind: task.KindString, InputType: "a string", FunctionName: "solve"},
			[]task.Example{{Input: jsonOf(t, "ab"), Output: jsonOf(t, 1)}, {Input: jsonOf(t, "abc"), Output: jsonOf(t, 2)}}},
		{"list output", task.Task{Kind: task.KindList, InputType: "a list of integers", FunctionName: "solve"},
			[]task.Example{{Input: jsonOf(t, []int{1}), Output: jsonOf(t, []int{1})}, {Input: jsonOf(t, []int{2}), Output: jsonOf(t, []int{2})}}},
		{"one example", task.Task{Kind: task.KindList, InputType: "a list of integers", FunctionName: "solve"},
			[]task.Example{{Input: jsonOf(t, []int{1, 2}), Output: jsonOf(t, 2)}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := newProblem(c.task, c.exs)
			if err != nil {
				t.Fatalf("problem: %v", err)
			}
			if res := strategyOnly(p, sketch.ListDP); res.solved {
				t.Errorf("found %v, want none", res.best)
			}
		})
	}
}
