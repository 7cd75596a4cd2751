package synth

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// lsbDigits writes n in base b, least significant digit first (0 is [0]).
func lsbDigits(n, b int) []int {
	out := []int{n % b}
	for n /= b; n > 0; n /= b {
		out = append(out, n%b)
	}
	return out
}

func valueOf(ds []int, b int) int {
	n := 0
	for i := len(ds) - 1; i >= 0; i-- {
		n = n*b + ds[i]
	}
	return n
}

func rev(xs []int) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[len(xs)-1-i] = x
	}
	return out
}

// The digit-loop sketch finds sums, differences, doublings and
// increments of numbers written as digit lists, in either order, with the
// final carry.
func TestDigitSketch(t *testing.T) {
	two := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindTwoLists, InputType: "two numbers as lists of digits", FunctionName: "solve"}
	}
	one := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindList, InputType: "a number as a list of digits", FunctionName: "solve"}
	}
	cases := []sketchCase{
		{name: "add_decimal_msb_first", task: two("add_decimal_digits"), n: 8,
			gen: func(r *rand.Rand) any {
				return []any{rev(lsbDigits(r.Intn(100000), 10)), rev(lsbDigits(r.Intn(1000000), 10))}
			},
			f: func(in any) any {
				l := in.([]any)
				return rev(lsbDigits(valueOf(rev(asInts(l[0])), 10)+valueOf(rev(asInts(l[1])), 10), 10))
			}},
		{name: "binary_add_lsb_first", task: two("binary_add"), n: 8,
			gen: func(r *rand.Rand) any {
				a := randInts(r, 0, 1, 1, 10)
				return []any{a, randInts(r, 0, 1, len(a), len(a))}
			},
			f: func(in any) any {
				l := in.([]any)
				a, b := asInts(l[0]), asInts(l[1])
				s := valueOf(a, 2) + valueOf(b, 2)
				out := lsbDigits(s, 2)
				for len(out) < len(a) {
					out = append(out, 0)
				}
				return out
			}},
		{name: "subtract_decimal_msb_first", task: two("subtract_decimal_digits"), n: 8,
			gen: func(r *rand.Rand) any {
				a := r.Intn(1000000)
				return []any{rev(lsbDigits(a, 10)), rev(lsbDigits(r.Intn(a+1), 10))}
			},
			f: func(in any) any {
				l := in.([]any)
				return rev(lsbDigits(valueOf(rev(asInts(l[0])), 10)-valueOf(rev(asInts(l[1])), 10), 10))
			}},
		{name: "double_octal_lsb_first", task: one("double_octal_digits"), n: 6,
			gen: func(r *rand.Rand) any { return randInts(r, 0, 7, 1, 9) },
			f: func(in any) any {
				a := asInts(in)
				out := lsbDigits(2*valueOf(a, 8), 8)
				for len(out) < len(a) {
					out = append(out, 0)
				}
				return out
			}},
	}
	runSketchCases(t, cases, sketch.Digits)
}
