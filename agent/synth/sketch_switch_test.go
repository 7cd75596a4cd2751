package synth

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// switchRun runs a machine whose next state is step(state, x) from s0 and
// returns the states after each element.
func switchRun[S any](s0 S, step func(s S, x int) S) func(in any) any {
	return func(in any) any {
		out, s := []S{}, s0
		for _, x := range asInts(in) {
			s = step(s, x)
			out = append(out, s)
		}
		return out
	}
}

// Switch machines are learned from the examples: a heater with
// hysteresis (thresholds no constant of the DSL gives), a switch that
// every zero flips (a cut per state), a level named by strings and set in
// three bands.
func TestSwitchMachines(t *testing.T) {
	list := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"}
	}
	cases := []sketchCase{
		{name: "switch_heater_hysteresis", task: list("heater"), n: 12,
			gen: func(r *rand.Rand) any { return randInts(r, 10, 30, 4, 14) },
			f: switchRun(0, func(on, x int) int {
				switch {
				case x < 18:
					return 1
				case x > 22:
					return 0
				}
				return on
			})},
		{name: "switch_flipped_by_zero", task: list("toggle"), n: 8,
			gen: func(r *rand.Rand) any { return randInts(r, 0, 4, 4, 14) },
			f: switchRun(0, func(on, x int) int {
				if x == 0 {
					return 1 - on
				}
				return on
			})},
		{name: "switch_named_levels", task: list("levels"), n: 12,
			gen: func(r *rand.Rand) any { return randInts(r, -20, 20, 4, 14) },
			f: switchRun("normal", func(s string, x int) string {
				switch {
				case x <= -10:
					return "low"
				case x >= 10:
					return "high"
				case x > -3 && x < 3:
					return "normal"
				}
				return s
			})},
	}
	wantOpPrefix(cases, "switch_machine", "a switch machine")
	runSketchCases(t, cases, sketch.SwitchMachines)
}

// Outputs that are not a state switched by the element are not a switch
// machine's: a map of the element, a function of the element before it,
// a counter with many values.
func TestSwitchMachinesDecline(t *testing.T) {
	list := task.Task{Name: "t", Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"}
	cases := []struct {
		name string
		f    func(xs []int) []int
	}{
		{"a map", func(xs []int) []int {
			out := []int{}
			for _, x := range xs {
				out = append(out, b2i(x > 3))
			}
			return out
		}},
		{"rising edges", func(xs []int) []int {
			out := []int{}
			for i, x := range xs {
				out = append(out, b2i(x == 1 && (i == 0 || xs[i-1] == 0)))
			}
			return out
		}},
		{"a running count", func(xs []int) []int {
			out, n := []int{}, 0
			for _, x := range xs {
				n += x
				out = append(out, n)
			}
			return out
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(2))
			var exs []task.Example
			for range 8 {
				xs := randInts(r, 0, 1, 6, 12)
				if c.name == "a map" {
					xs = randInts(r, 0, 9, 6, 12)
				}
				exs = append(exs, task.Example{Input: jsonOf(t, xs), Output: jsonOf(t, c.f(xs))})
			}
			p, err := newProblem(list, exs)
			if err != nil {
				t.Fatalf("problem: %v", err)
			}
			if res := strategyOnly(p, sketch.SwitchMachines); res.solved {
				t.Errorf("found %v, want none", res.best)
			}
		})
	}
}
