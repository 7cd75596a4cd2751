package synth

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// The character fold learns a polynomial hash of the character codes
// (its multiplier among the usual ones, its modulus from the examples), a
// hash with a start of its own (djb2 modulo 2**32), and a sum of letters'
// places in the alphabet with a table for the other characters.
func TestCharFoldSketch(t *testing.T) {
	strTask := task.Task{Name: "t", Kind: task.KindString, InputType: "a text", FunctionName: "solve"}
	printable := func(r *rand.Rand) any {
		b := make([]byte, r.Intn(20))
		for i := range b {
			b[i] = byte(32 + r.Intn(95))
		}
		return string(b)
	}
	cases := []sketchCase{
		{name: "char_fold_hash31", task: strTask, n: 6, gen: printable,
			f: func(in any) any {
				h := 0
				for _, c := range in.(string) {
					h = (h*31 + int(c)) % 1000003
				}
				return h
			}},
		{name: "char_fold_djb2", task: strTask, n: 6, gen: printable,
			f: func(in any) any {
				h := 5381
				for _, c := range in.(string) {
					h = (h*33 + int(c)) % (1 << 32)
				}
				return h
			}},
		{name: "char_fold_places", task: strTask, n: 8,
			gen: func(r *rand.Rand) any { return randText(r, "abcdefghijklmnopqrstuvwxyzXYZ -", 16) },
			f: func(in any) any {
				total := 0
				for _, c := range strings.ToLower(in.(string)) {
					if c >= 'a' && c <= 'z' {
						total += int(c-'a') + 1
					} else if c == '-' {
						total += 2
					}
				}
				return total
			}},
	}
	wantOpPrefix(cases, "char_fold[", "the character fold")
	runSketchCases(t, cases, sketch.CharFold)
}

// A fold whose values no formula gives, or whose modulus only two
// examples show, is not the fold's.
func TestCharFoldDeclines(t *testing.T) {
	tk := task.Task{Kind: task.KindString, InputType: "a text", FunctionName: "solve"}
	checkDeclines(t, tk, sketch.CharFold, []declineCase{
		{name: "scores", exs: [][2]any{{"ab", 4}, {"ba", 4}, {"abc", 5}, {"c", 1}, {"ca", 2}}},
		{name: "two examples wrap", exs: [][2]any{{"hello world", 970516}, {"ab", 3105}, {"abcdefg", 754899}}},
		{name: "formula not checked", exs: [][2]any{{"a b", 12}, {"b c", 14}}},
	})
}

// The sum of a formula over a class leaves the other characters to the
// table: a character of neither raises.
func TestCharFoldRaisesOnUnseen(t *testing.T) {
	tk := task.Task{Kind: task.KindString, InputType: "a text", FunctionName: "solve"}
	exs := []task.Example{
		{Input: jsonOf(t, "ab c"), Output: jsonOf(t, 6)},
		{Input: jsonOf(t, "z"), Output: jsonOf(t, 26)},
		{Input: jsonOf(t, "  "), Output: jsonOf(t, 0)},
		{Input: jsonOf(t, "Yy "), Output: jsonOf(t, 50)},
	}
	p, err := newProblem(tk, exs)
	if err != nil {
		t.Fatalf("problem: %v", err)
	}
	res := strategyOnly(p, sketch.CharFold)
	if !res.solved {
		t.Fatal("no program")
	}
	for in, want := range map[string]any{"Hello": int64(52), "a-b": dsl.ErrV, "": int64(0)} {
		got := dsl.EvalNode(res.best, []any{in})
		if dsl.IsErr(want) != dsl.IsErr(got) || !dsl.IsErr(got) && got != want {
			t.Errorf("%v on %q = %v, want %v", res.best, in, got, want)
		}
	}
}
