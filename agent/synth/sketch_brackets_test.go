package synth

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/inputs"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// randBrackets draws a string of brackets nested at random, letters
// between them, with one bracket changed one time in three.
func randBrackets(r *rand.Rand, pairs string, max int) string {
	g := &inputs.Generator{Rand: r, Limits: inputs.Limits{Alphabet: []rune(pairs + "ab ")}}
	var ps []string
	for i := 0; i+1 < len(pairs); i += 2 {
		ps = append(ps, pairs[i:i+2])
	}
	s := []byte(g.Nested(r.Intn(max+1), ps))
	if len(s) > 0 && r.Intn(3) == 0 {
		s[r.Intn(len(s))] = pairs[r.Intn(len(pairs))]
	}
	return string(s)
}

// refScan is an independent reading of a string's brackets: the deepest
// nesting and whether they balance, a closing bracket matching the last
// open one's kind when typed.
func refScan(s, pairs string, typed bool) (deepest int, balanced bool) {
	var stack []byte
	balanced = true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if k := strings.IndexByte(pairs, c); k >= 0 && k%2 == 0 {
			stack = append(stack, c)
			deepest = max(deepest, len(stack))
		} else if k >= 0 {
			if len(stack) == 0 || typed && stack[len(stack)-1] != pairs[k-1] {
				balanced = false
			}
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	return deepest, balanced && len(stack) == 0
}

// The bracket scan learns what a string's brackets are read for: the
// deepest nesting or -1 when they do not balance (every kind matched),
// whether round brackets alone balance.
func TestBracketSketch(t *testing.T) {
	str := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindString, InputType: "string", FunctionName: "solve"}
	}
	cases := []sketchCase{
		{name: "brackets_depth_or_minus_one", task: str("bracket_depth"), n: 16,
			gen: func(r *rand.Rand) any { return randBrackets(r, "()[]{}", 14) },
			f: func(in any) any {
				d, ok := refScan(in.(string), "()[]{}", true)
				if !ok {
					return -1
				}
				return d
			}},
		{name: "brackets_round_balanced", task: str("parens_balanced"), n: 16,
			gen: func(r *rand.Rand) any { return randBrackets(r, "()", 12) },
			f: func(in any) any {
				_, ok := refScan(in.(string), "()", true)
				return ok
			}},
	}
	wantOpPrefix(cases, "brackets[", "a bracket scan")
	runSketchCases(t, cases, sketch.Brackets)
}

// Strings without brackets, few examples, or outputs no reading of the
// brackets gives are not the scan's.
func TestBracketSketchDeclines(t *testing.T) {
	str := task.Task{Name: "t", Kind: task.KindString, InputType: "string", FunctionName: "solve"}
	six := func(outs ...any) [][2]any {
		ins := []string{"(a)", "((b))", "()()", ")(", "", "(()"}
		var out [][2]any
		for i, o := range outs {
			out = append(out, [2]any{ins[i], o})
		}
		return out
	}
	cases := []declineCase{
		{"no brackets", [][2]any{{"ab", 1}, {"abc", 2}, {"a", 0}, {"bb", 1}, {"", 0}, {"aaa", 2}}},
		{"few examples", [][2]any{{"(a)", 1}, {"((b))", 2}}},
		{"the string's length", six(3, 5, 4, 2, 0, 3)},
	}
	checkDeclines(t, str, sketch.Brackets, cases)
}
