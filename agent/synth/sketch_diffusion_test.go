package synth

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// diffuse thresholds each element plus the carried error at t, the high
// level standing for k.
func diffuse(t, k, high int) func(in any) any {
	return func(in any) any {
		carry, out := 0, []int{}
		for _, x := range asInts(in) {
			v := x + carry
			level := 0
			if v >= t {
				level, v = high, v-k
			}
			carry = v
			out = append(out, level)
		}
		return out
	}
}

// Error diffusion finds its threshold and the weight of the high level:
// digits dithered at 5 with a carry of tens, pixels dithered to 0 or 255.
func TestDiffusionSketch(t *testing.T) {
	list := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"}
	}
	cases := []sketchCase{
		{name: "diffusion_digits_at_5", task: list("dither"), n: 6,
			gen: func(r *rand.Rand) any { return randInts(r, 0, 9, 3, 14) },
			f:   diffuse(5, 10, 1)},
		{name: "diffusion_pixels_0_255", task: list("dither_pixels"), n: 6,
			gen: func(r *rand.Rand) any { return randInts(r, 0, 255, 3, 12) },
			f:   diffuse(128, 255, 255)},
	}
	wantOpPrefix(cases, "error_diffusion", "an error diffusion")
	runSketchCases(t, cases, sketch.Diffusion)
}

// Three levels, or levels no carried error explains, are not the
// sketch's.
func TestDiffusionSketchDeclines(t *testing.T) {
	list := task.Task{Name: "t", Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"}
	cases := []declineCase{
		{"three levels", [][2]any{{[]int{1, 2, 3}, []int{0, 1, 2}}, {[]int{3, 2, 1}, []int{2, 1, 0}}}},
		{"the parity of each element", [][2]any{{[]int{1, 2, 3, 4, 5, 6}, []int{1, 0, 1, 0, 1, 0}},
			{[]int{7, 7, 8, 8, 1, 9}, []int{1, 1, 0, 0, 1, 1}}, {[]int{2, 2, 2, 3, 3, 3}, []int{0, 0, 0, 1, 1, 1}}}},
	}
	checkDeclines(t, list, sketch.Diffusion, cases)
}
