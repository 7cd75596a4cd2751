package synth

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// postfix draws a well-formed postfix expression of digits and the given
// operator codes, with up to ops operators.
func postfix(r *rand.Rand, codes []int, ops int) []int {
	var out []int
	depth := 0
	n := 1 + r.Intn(ops+1)
	for operands := 0; operands < n || depth > 1; {
		if depth >= 2 && (operands >= n || r.Intn(2) == 0) {
			out = append(out, codes[r.Intn(len(codes))])
			depth--
			continue
		}
		out = append(out, r.Intn(10))
		operands++
		depth++
	}
	return out
}

// evalPostfix evaluates tokens with 10 +, 11 -, 12 *.
func evalPostfix(xs []int) int {
	var st []int
	for _, x := range xs {
		if x < 10 {
			st = append(st, x)
			continue
		}
		a, b := st[len(st)-2], st[len(st)-1]
		st = st[:len(st)-2]
		switch x {
		case 10:
			st = append(st, a+b)
		case 11:
			st = append(st, a-b)
		default:
			st = append(st, a*b)
		}
	}
	return st[len(st)-1]
}

// The stack sketch finds postfix evaluation with the operators' meanings
// learned from the examples, and the stack's depth, pops and validity.
func TestStackSketch(t *testing.T) {
	list := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindList, InputType: "list of integer tokens", FunctionName: "solve"}
	}
	cases := []sketchCase{
		{name: "postfix_codes", task: list("postfix_codes"), n: 10,
			gen: func(r *rand.Rand) any { return postfix(r, []int{10, 11, 12}, 6) },
			f:   func(in any) any { return evalPostfix(asInts(in)) }},
		{name: "postfix_max_depth", task: list("postfix_max_depth"), n: 8,
			gen: func(r *rand.Rand) any { return postfix(r, []int{10, 11, 12}, 6) },
			f: func(in any) any {
				d, best := 0, 0
				for _, x := range asInts(in) {
					if x >= 10 {
						d--
					} else {
						d++
					}
					best = max(best, d)
				}
				return best
			}},
		{name: "stack_depth_after_each", task: list("stack_depth"), n: 6,
			gen: func(r *rand.Rand) any { return randInts(r, 0, 9, 3, 14) },
			f: func(in any) any {
				d, out := 0, []int{}
				for _, x := range asInts(in) {
					if x == 0 {
						d = max(0, d-1)
					} else {
						d++
					}
					out = append(out, d)
				}
				return out
			}},
		{name: "popped_values", task: list("popped_values"), n: 8,
			gen: func(r *rand.Rand) any { return randInts(r, 0, 4, 3, 14) },
			f: func(in any) any {
				var st []int
				out := []int{}
				for _, x := range asInts(in) {
					if x == 0 {
						if len(st) > 0 {
							out = append(out, st[len(st)-1])
							st = st[:len(st)-1]
						}
					} else {
						st = append(st, x)
					}
				}
				return out
			}},
		{name: "postfix_is_valid", task: list("postfix_is_valid"), n: 12,
			gen: func(r *rand.Rand) any {
				if r.Intn(2) == 0 {
					return postfix(r, []int{10, 11}, 5)
				}
				return randInts(r, 8, 11, 0, 8)
			},
			f: func(in any) any {
				d := 0
				for _, x := range asInts(in) {
					if x >= 10 {
						if d < 2 {
							return false
						}
						d--
					} else {
						d++
					}
				}
				return d == 1
			}},
	}
	runSketchCases(t, cases, sketch.Stack)
}
