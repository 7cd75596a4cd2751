package synth

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/task"
)

// The character table learns letter scores (either case) and Roman
// numerals (the subtractive rule) from examples.
func TestCharTableSketch(t *testing.T) {
	strTask := task.Task{Name: "t", Kind: task.KindString, InputType: "a string", FunctionName: "solve"}
	scores := map[rune]int{}
	for letters, v := range map[string]int{"aeilnorstu": 1, "dg": 2, "bcmp": 3, "fhvwy": 4, "k": 5, "jx": 8, "qz": 10} {
		for _, r := range letters {
			scores[r] = v
		}
	}
	romanOf := func(n int) string {
		var sb strings.Builder
		for _, p := range []struct {
			v int
			s string
		}{{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"}, {50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}} {
			for ; n >= p.v; n -= p.v {
				sb.WriteString(p.s)
			}
		}
		return sb.String()
	}
	romanValue := map[string]int{}
	for n := 1; n < 4000; n++ {
		romanValue[romanOf(n)] = n
	}
	cases := []sketchCase{
		{name: "scrabble_score", task: strTask, n: 40,
			gen: func(r *rand.Rand) any {
				b := make([]byte, r.Intn(12))
				for i := range b {
					b[i] = byte('a' + r.Intn(26))
					if r.Intn(3) == 0 {
						b[i] -= 'a' - 'A'
					}
				}
				return string(b)
			},
			f: func(in any) any {
				total := 0
				for _, c := range strings.ToLower(in.(string)) {
					total += scores[c]
				}
				return total
			}},
		{name: "roman_to_int", task: strTask, n: 30,
			gen: func(r *rand.Rand) any { return romanOf(1 + r.Intn(3999)) },
			f:   func(in any) any { return romanValue[in.(string)] }},
	}
	runSketchCases(t, cases, charTableSketch)
}

// solveIntegerSystem tells a unique solution from free unknowns, and has
// no answer for an inconsistent or fractional system.
func TestSolveIntegerSystem(t *testing.T) {
	cases := []struct {
		name   string
		rows   [][]int64
		ys     []int64
		want   []int64
		unique bool
		good   bool
		// biasFirst pivots the last unknown first.
		biasFirst bool
	}{
		{"unique", [][]int64{{1, 1}, {1, -1}}, []int64{5, 1}, []int64{3, 2}, true, true, false},
		{"free unknown is 0", [][]int64{{1, 1}}, []int64{4}, []int64{4, 0}, false, true, false},
		{"inconsistent", [][]int64{{1, 1}, {2, 2}}, []int64{1, 3}, nil, false, false, false},
		{"fractional", [][]int64{{2}}, []int64{3}, nil, false, false, false},
		{"overdetermined", [][]int64{{1, 0}, {0, 1}, {1, 1}}, []int64{2, 3, 5}, []int64{2, 3}, true, true, false},
		{"a pivot of 1 preferred", [][]int64{{3, 1}}, []int64{10}, []int64{0, 10}, false, true, false},
		{"fractional with free unknowns as 0", [][]int64{{2, 3}}, []int64{3}, nil, false, false, false},
		{"bias first", [][]int64{{2, 3}}, []int64{3}, []int64{0, 1}, false, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			solve := solveIntegerSystem
			if c.biasFirst {
				solve = solveBiasFirst
			}
			got, unique, good := solve(c.rows, c.ys)
			if good != c.good || unique != c.unique || (good && !slicesEqual(got, c.want)) {
				t.Errorf("got %v unique %v good %v, want %v %v %v", got, unique, good, c.want, c.unique, c.good)
			}
		})
	}
}

func slicesEqual(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
