package synth

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// randUnits is a string of 0 to max units, each made by unit.
func randUnits(r *rand.Rand, max int, unit func(r *rand.Rand) string) string {
	var sb strings.Builder
	for range r.Intn(max + 1) {
		sb.WriteString(unit(r))
	}
	return sb.String()
}

// The chunk-wise decomposition finds a function of fixed-width units: a
// letter and its count expanded, pairs of characters swapped, and, as a
// list, each triple's first and last characters.
func TestChunkwise(t *testing.T) {
	str := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindString, InputType: "string", FunctionName: "solve"}
	}
	letter := func(r *rand.Rand) string { return string(rune('a' + r.Intn(4))) }
	cases := []sketchCase{
		{name: "chunks_run_length_decode", task: str("run_length_decode"), n: 4,
			gen: func(r *rand.Rand) any {
				return randUnits(r, 5, func(r *rand.Rand) string { return letter(r) + string(rune('1'+r.Intn(9))) })
			},
			f: func(in any) any {
				s, out := in.(string), ""
				for i := 0; i < len(s); i += 2 {
					out += strings.Repeat(s[i:i+1], int(s[i+1]-'0'))
				}
				return out
			}},
		{name: "chunks_swap_pairs", task: str("swap_pairs"), n: 4,
			gen: func(r *rand.Rand) any {
				return randUnits(r, 6, func(r *rand.Rand) string { return letter(r) + letter(r) })
			},
			f: func(in any) any {
				b := []byte(in.(string))
				for i := 0; i+1 < len(b); i += 2 {
					b[i], b[i+1] = b[i+1], b[i]
				}
				return string(b)
			}},
		{name: "chunks_triple_ends", task: str("triple_ends"), n: 4,
			gen: func(r *rand.Rand) any {
				return randUnits(r, 5, func(r *rand.Rand) string { return letter(r) + letter(r) + letter(r) })
			},
			f: func(in any) any {
				s, out := in.(string), []string{}
				for i := 0; i < len(s); i += 3 {
					out = append(out, s[i:i+1]+s[i+2:i+3])
				}
				return out
			}},
	}
	wantOpPrefix(cases, "chunkwise", "a chunk-wise program")
	runSketchCases(t, cases, sketch.Chunkwise)
}

// Inputs of odd lengths, or outputs no function of the units joins to,
// are not the decomposition's.
func TestChunkwiseDeclines(t *testing.T) {
	str := task.Task{Name: "t", Kind: task.KindString, InputType: "string", FunctionName: "solve"}
	cases := []declineCase{
		{"lengths of no common unit", [][2]any{{"abc", "cba"}, {"ab", "ba"}, {"abcde", "edcba"}}},
		{"the whole string reversed", [][2]any{{"abcd", "dcba"}, {"abcdef", "fedcba"}, {"bbaa", "aabb"}}},
		{"an integer output", [][2]any{{"ab", 2}, {"abcd", 4}}},
	}
	checkDeclines(t, str, sketch.Chunkwise, cases)
}
