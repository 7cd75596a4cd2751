package synth

import (
	"math/rand"
	"slices"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// The shift sketch compares two sequences at every amount one of them is
// moved by: the rotation that turns one list into the other (-1 when
// none does), the right rotation that lines up the most equal positions,
// the most equal positions any rotation lines up, and whether one string
// is a rotation of another.
func TestShifts(t *testing.T) {
	two := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindTwoLists, InputType: "two lists of integers", FunctionName: "solve"}
	}
	rotL := func(xs []int, k int) []int { return append(append([]int{}, xs[k:]...), xs[:k]...) }
	rotR := func(xs []int, k int) []int { return rotL(xs, (len(xs)-k)%max(len(xs), 1)) }
	matches := func(a, b []int) int {
		n := 0
		for i := range min(len(a), len(b)) {
			if a[i] == b[i] {
				n++
			}
		}
		return n
	}
	pair := func(r *rand.Rand) any {
		xs := randInts(r, 0, 3, 1, 7)
		if r.Intn(6) == 0 {
			xs = []int{}
		}
		ys := randInts(r, 0, 3, len(xs), len(xs))
		if r.Intn(2) == 0 && len(xs) > 0 {
			ys = rotL(xs, r.Intn(len(xs)))
		}
		return []any{xs, ys}
	}
	cases := []sketchCase{
		{name: "shift_rotation_amount", task: two("rotation_amount"), n: 14, gen: pair,
			f: func(in any) any {
				xs, ys := asInts(in.([]any)[0]), asInts(in.([]any)[1])
				for k := range len(xs) {
					if slices.Equal(rotL(xs, k), ys) {
						return k
					}
				}
				return -1
			}},
		{name: "shift_best_right_rotation", task: two("best_right_rotation"), n: 14, gen: pair,
			f: func(in any) any {
				xs, ys := asInts(in.([]any)[0]), asInts(in.([]any)[1])
				best, at := -1, 0
				for k := range len(xs) {
					if m := matches(rotR(xs, k), ys); m > best {
						best, at = m, k
					}
				}
				return at
			}},
		{name: "shift_most_matches", task: two("most_matches"), n: 14, gen: pair,
			f: func(in any) any {
				xs, ys := asInts(in.([]any)[0]), asInts(in.([]any)[1])
				best := 0
				for k := range max(len(xs), 1) {
					if len(xs) > 0 {
						best = max(best, matches(rotL(xs, k), ys))
					}
				}
				return best
			}},
		{name: "shift_string_rotation", n: 16,
			task: task.Task{Name: "is_rotation", Kind: task.KindOther, InputType: "[s, t]: two strings", FunctionName: "solve"},
			gen: func(r *rand.Rand) any {
				s := []rune("abcab")[:1+r.Intn(5)]
				k := r.Intn(len(s))
				t := string(s[k:]) + string(s[:k])
				if r.Intn(2) == 0 {
					b := []rune(t)
					b[r.Intn(len(b))] = 'c'
					t = string(b)
				}
				return []any{string(s), t}
			},
			f: func(in any) any {
				s, t := in.([]any)[0].(string), in.([]any)[1].(string)
				for k := range len(s) {
					if s[k:]+s[:k] == t {
						return true
					}
				}
				return false
			}},
	}
	wantOpPrefix(cases, "shifts", "a shift comparison")
	runSketchCases(t, cases, sketch.Shifts)
}

// The shift sketch declines outputs that never differ, too few examples
// with a sequence to move, and an answer no amount explains (the sum of
// both lists).
func TestShiftsDeclines(t *testing.T) {
	two := task.Task{Name: "two", Kind: task.KindTwoLists, InputType: "two lists of integers", FunctionName: "solve"}
	cases := []declineCase{
		{name: "outputs all equal", exs: [][2]any{{[]any{[]int{1, 2}, []int{2, 1}}, 0}, {[]any{[]int{3, 4, 5}, []int{5, 3, 4}}, 0}, {[]any{[]int{7, 8}, []int{1, 1}}, 0}}},
		{name: "too few sequences to move", exs: [][2]any{{[]any{[]int{1, 2}, []int{2, 1}}, 1}, {[]any{[]int{3}, []int{3}}, 0}, {[]any{[]int{}, []int{}}, 0}}},
		{name: "no amount explains it", exs: [][2]any{{[]any{[]int{1, 2}, []int{2, 1}}, 6}, {[]any{[]int{3, 4, 5}, []int{5, 3, 4}}, 24},
			{[]any{[]int{7, 8}, []int{1, 1}}, 17}, {[]any{[]int{0, 0, 9}, []int{2, 2, 2}}, 15}}},
	}
	checkDeclines(t, two, sketch.Shifts, cases)
}
