package synth

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
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
	runSketchCases(t, cases, sketch.CharTable)
}
