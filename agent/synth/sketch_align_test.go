package synth

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// The alignment sketch finds the classic two-sequence tables: the edit
// distance of two strings, the longest common subsequence of two strings,
// the longest common run of two lists.
func TestAlignSketch(t *testing.T) {
	strs := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindOther, InputType: "[s, t]: two strings", InputConstraints: "each 0 to 7 characters from a-c", FunctionName: "solve"}
	}
	word := func(r *rand.Rand) string {
		b := make([]byte, r.Intn(8))
		for i := range b {
			b[i] = "abc"[r.Intn(3)]
		}
		return string(b)
	}
	table := func(a, b []int, cell func(i, j int, t [][]int) int, border bool) [][]int {
		t := make([][]int, len(a)+1)
		for i := range t {
			t[i] = make([]int, len(b)+1)
			for j := range t[i] {
				switch {
				case i == 0 && border:
					t[i][j] = j
				case j == 0 && border:
					t[i][j] = i
				case i > 0 && j > 0:
					t[i][j] = cell(i, j, t)
				}
			}
		}
		return t
	}
	runes := func(v any) []int {
		var out []int
		for _, r := range v.(string) {
			out = append(out, int(r))
		}
		return out
	}
	cases := []sketchCase{
		{name: "edit_distance_strings", task: strs("edit_distance"), n: 10,
			gen: func(r *rand.Rand) any { return []any{word(r), word(r)} },
			f: func(in any) any {
				a, b := runes(in.([]any)[0]), runes(in.([]any)[1])
				t := table(a, b, func(i, j int, t [][]int) int {
					if a[i-1] == b[j-1] {
						return t[i-1][j-1]
					}
					return 1 + min(t[i-1][j], t[i][j-1], t[i-1][j-1])
				}, true)
				return t[len(a)][len(b)]
			}},
		{name: "lcs_strings", task: strs("lcs"), n: 10,
			gen: func(r *rand.Rand) any { return []any{word(r), word(r)} },
			f: func(in any) any {
				a, b := runes(in.([]any)[0]), runes(in.([]any)[1])
				t := table(a, b, func(i, j int, t [][]int) int {
					if a[i-1] == b[j-1] {
						return t[i-1][j-1] + 1
					}
					return max(t[i-1][j], t[i][j-1])
				}, false)
				return t[len(a)][len(b)]
			}},
		{name: "longest_common_run_lists", task: task.Task{Name: "common_run", Kind: task.KindTwoLists, InputType: "two integer lists", FunctionName: "solve"}, n: 10,
			gen: func(r *rand.Rand) any { return []any{randInts(r, 0, 2, 0, 8), randInts(r, 0, 2, 0, 8)} },
			f: func(in any) any {
				a, b := asInts(in.([]any)[0]), asInts(in.([]any)[1])
				best := 0
				t := table(a, b, func(i, j int, t [][]int) int {
					if a[i-1] == b[j-1] {
						return t[i-1][j-1] + 1
					}
					return 0
				}, false)
				for _, row := range t {
					for _, v := range row {
						best = max(best, v)
					}
				}
				return best
			}},
	}
	wantOpPrefix(cases, "align", "an alignment table")
	runSketchCases(t, cases, sketch.Align)
}
