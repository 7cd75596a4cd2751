package synth

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// digitsOfBase writes v in base with at least width digits, least
// significant first.
func digitsOfBase(v, base, width int) []int {
	var out []int
	for v > 0 || len(out) < max(width, 1) {
		out = append(out, v%base)
		v /= base
	}
	return out
}

// The digit-value lift reads digit lists as numbers, finds the function
// of the numbers and writes a list result back with the examples' length
// rule: a sum always one digit longer than the inputs, a sum in a base
// given as an input, comparisons in either digit order.
func TestDigitValueSketch(t *testing.T) {
	two := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindTwoLists, InputType: "two numbers as digit lists", FunctionName: "solve"}
	}
	sameLen := func(r *rand.Rand, base, lo, hi int) []any {
		n := lo + r.Intn(hi-lo+1)
		return []any{randInts(r, 0, base-1, n, n), randInts(r, 0, base-1, n, n)}
	}
	pairOf := func(in any) ([]int, []int) {
		xs := in.([]any)
		return asInts(xs[0]), asInts(xs[1])
	}
	cases := []sketchCase{
		{name: "binary_sum_one_bit_longer", task: two("binary_sum"), n: 8,
			gen: func(r *rand.Rand) any { return sameLen(r, 2, 1, 9) },
			f: func(in any) any {
				a, b := pairOf(in)
				return digitsOfBase(valueOf(a, 2)+valueOf(b, 2), 2, len(a)+1)
			}},
		{name: "sum_in_given_base", task: task.Task{Name: "sum_in_base", Kind: task.KindOther, FunctionName: "solve",
			InputType: "a list [base, p, q]: the base (2 to 10) and two digit lists of the same length, least significant digit first", InputConstraints: "each digit list has 1 to 7 digits, every digit below the base"}, n: 10,
			gen: func(r *rand.Rand) any {
				base := 2 + r.Intn(9)
				return append([]any{base}, sameLen(r, base, 1, 7)...)
			},
			f: func(in any) any {
				xs := in.([]any)
				base := int(num(xs[0]))
				a, b := asInts(xs[1]), asInts(xs[2])
				return digitsOfBase(valueOf(a, base)+valueOf(b, base), base, len(a))
			}},
		{name: "binary_greater_lsb_first", task: two("binary_greater"), n: 12,
			gen: func(r *rand.Rand) any { return sameLen(r, 2, 1, 10) },
			f: func(in any) any {
				a, b := pairOf(in)
				return valueOf(a, 2) > valueOf(b, 2)
			}},
		{name: "compare_decimal_msb_first", task: two("compare_decimal"), n: 12,
			gen: func(r *rand.Rand) any { return sameLen(r, 10, 1, 8) },
			f: func(in any) any {
				a, b := pairOf(in)
				x, y := valueOf(rev(a), 10), valueOf(rev(b), 10)
				switch {
				case x < y:
					return -1
				case x > y:
					return 1
				}
				return 0
			}},
	}
	runSketchCases(t, cases, func(en *sketch.Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
		return sketch.DigitValue(en, p, 1, consider)
	})
}
