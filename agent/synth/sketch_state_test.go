package synth

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// The state-machine search finds transducers whose output is a small
// state updated by every element.
func TestStateMachine(t *testing.T) {
	list := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"}
	}
	scan := func(s0 int, h func(s, x int) int) func(in any) any {
		return func(in any) any {
			out, s := []int{}, s0
			for _, x := range asInts(in) {
				s = h(s, x)
				out = append(out, s)
			}
			return out
		}
	}
	cases := []sketchCase{
		{name: "running_sum_floor0", task: list("running_sum_floor0"), n: 6,
			gen: func(r *rand.Rand) any { return randInts(r, -10, 10, 3, 14) },
			f:   scan(0, func(s, x int) int { return max(0, s+x) })},
		{name: "seen_one", task: list("seen_one"), n: 6,
			gen: func(r *rand.Rand) any { return randInts(r, 0, 1, 3, 15) },
			f:   scan(0, func(s, x int) int { return max(s, x) })},
		{name: "odd_count_parity", task: list("odd_count_parity"), n: 6,
			gen: func(r *rand.Rand) any { return randInts(r, -40, 40, 3, 12) },
			f:   scan(0, func(s, x int) int { return (s + x%2 + 2) % 2 })},
	}
	wantOpPrefix(cases, "state_machine", "a state machine")
	runSketchCases(t, cases, func(en *sketch.Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
		return sketch.StateMachine(en, p, 1, consider)
	})
}

// With a hidden state the output is a function of the state and the
// element: a switch flipped by every zero masks the elements, a parity of
// the negatives so far picks each element's sign.
func TestHiddenStateMachine(t *testing.T) {
	list := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"}
	}
	cases := []sketchCase{
		{name: "mask_switch_flipped_by_zero", task: list("mask_switch"), n: 10,
			gen: func(r *rand.Rand) any { return randInts(r, 0, 5, 4, 14) },
			f: func(in any) any {
				out, on := []int{}, 1
				for _, x := range asInts(in) {
					if x == 0 {
						on = 1 - on
					}
					out = append(out, x*on)
				}
				return out
			}},
		{name: "sign_by_negatives_parity", task: list("sign_parity"), n: 10,
			gen: func(r *rand.Rand) any { return randInts(r, -6, 6, 4, 12) },
			f: func(in any) any {
				out, odd := []int{}, 0
				for _, x := range asInts(in) {
					if x < 0 {
						odd = 1 - odd
					}
					if odd == 1 {
						out = append(out, -x)
					} else {
						out = append(out, x)
					}
				}
				return out
			}},
	}
	for i := range cases {
		cases[i].check = func(t *testing.T, n *dsl.Node) {
			if n.Op == nil || !strings.Contains(n.Op.Name, "; out ") {
				t.Errorf("found %v, want a state machine with an output function", n)
			}
		}
	}
	runSketchCases(t, cases, func(en *sketch.Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
		return sketch.StateMachine(en, p, 1, consider)
	})
}
