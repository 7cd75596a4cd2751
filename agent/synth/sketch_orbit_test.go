package synth

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// The orbit sketch finds iterations of a map chosen by parity until 1:
// the steps of the n + 1 map, the peak of the 3n + 1 map, and over a
// range the start whose 3n + 1 orbit is longest; from two examples too.
func TestOrbitSketch(t *testing.T) {
	orbit := func(n, a, b int) (steps, peak int) {
		peak = n
		for n != 1 {
			if n%2 == 0 {
				n /= 2
			} else {
				n = a*n + b
			}
			steps++
			peak = max(peak, n)
		}
		return steps, peak
	}
	one := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindInt, InputType: "a positive integer", FunctionName: "solve"}
	}
	cases := []sketchCase{
		{name: "steps_n_plus_1", task: one("steps"), n: 8,
			gen: func(r *rand.Rand) any { return 1 + r.Intn(500) },
			f: func(in any) any {
				s, _ := orbit(int(num(in)), 1, 1)
				return s
			}},
		{name: "peak_3n_plus_1", task: one("peak"), n: 8,
			gen: func(r *rand.Rand) any { return 1 + r.Intn(500) },
			f: func(in any) any {
				_, p := orbit(int(num(in)), 3, 1)
				return p
			}},
		// Two examples are enough to try it: a run whose first candidate
		// fails them gets no third one.
		{name: "peak_3n_plus_1_two_examples", task: one("peak"), n: 2,
			gen: func(r *rand.Rand) any { return 1 + r.Intn(500) },
			f: func(in any) any {
				_, p := orbit(int(num(in)), 3, 1)
				return p
			}},
		{name: "longest_orbit_in_range", task: task.Task{Name: "record", Kind: task.KindPair, InputType: "pair of integers [a, b]", FunctionName: "solve"}, n: 8,
			gen: func(r *rand.Rand) any { return []any{1 + r.Intn(80), 1 + r.Intn(80)} },
			f: func(in any) any {
				a, b := int(num(in.([]any)[0])), int(num(in.([]any)[1]))
				best, bestSteps := 0, -1
				for n := min(a, b); n <= max(a, b); n++ {
					if s, _ := orbit(n, 3, 1); s > bestSteps {
						best, bestSteps = n, s
					}
				}
				return best
			}},
	}
	wantOpPrefix(cases, "orbit[", "an orbit")
	runSketchCases(t, cases, sketch.Orbit)
}
