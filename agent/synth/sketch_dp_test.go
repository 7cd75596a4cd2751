package synth

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// The recurrence sketch finds ways to climb stairs (modulo a usual bound)
// and the fewest coins.
func TestDPSketch(t *testing.T) {
	intTask := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindInt, InputType: "an integer", FunctionName: "solve"}
	}
	cases := []sketchCase{
		{name: "climb_stairs_1_2_3_mod_1000", task: intTask("climb_stairs_1_2_3"), n: 6,
			gen: func(r *rand.Rand) any { return r.Intn(500) },
			f: func(in any) any {
				w := []int{1, 1, 2}
				n := int(num(in))
				for i := 3; i <= n; i++ {
					w = append(w, (w[i-1]+w[i-2]+w[i-3])%1000)
				}
				return w[n]
			}},
		{name: "min_coins_1_3_4", task: intTask("min_coins_1_3_4"), n: 6,
			gen: func(r *rand.Rand) any { return r.Intn(500) },
			f: func(in any) any {
				n := int(num(in))
				best := make([]int, n+1)
				for a := 1; a <= n; a++ {
					best[a] = n + 1
					for _, c := range []int{1, 3, 4} {
						if c <= a {
							best[a] = min(best[a], 1+best[a-c])
						}
					}
				}
				return best[n]
			}},
	}
	runSketchCases(t, cases, sketch.DP)
}
