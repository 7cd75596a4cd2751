package synth

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// The word-wise decomposition finds a function of every word, and a
// function of the words that change with the condition that picks them.
func TestWordwise(t *testing.T) {
	strTask := task.Task{Name: "t", Kind: task.KindString, InputType: "a sentence", FunctionName: "solve"}
	sentence := func(r *rand.Rand) any {
		words := make([]string, 1+r.Intn(5))
		for i := range words {
			b := make([]byte, 1+r.Intn(7))
			for j := range b {
				b[j] = byte('a' + r.Intn(26))
			}
			words[i] = string(b)
		}
		return strings.Join(words, " ")
	}
	reverse := func(s string) string {
		b := []byte(s)
		for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
			b[i], b[j] = b[j], b[i]
		}
		return string(b)
	}
	cases := []sketchCase{
		{name: "reverse_long_words", task: strTask, n: 6, gen: sentence,
			f: func(in any) any {
				words := strings.Split(in.(string), " ")
				for i, w := range words {
					if len(w) >= 5 {
						words[i] = reverse(w)
					}
				}
				return strings.Join(words, " ")
			}},
		{name: "snake_to_camel", task: strTask, n: 6,
			gen: func(r *rand.Rand) any { return strings.ReplaceAll(sentence(r).(string), " ", "_") },
			f: func(in any) any {
				parts := strings.Split(in.(string), "_")
				for i, w := range parts[1:] {
					parts[i+1] = strings.ToUpper(w[:1]) + w[1:]
				}
				return strings.Join(parts, "")
			}},
		{name: "each_word_doubled", task: strTask, n: 4, gen: sentence,
			f: func(in any) any {
				words := strings.Split(in.(string), " ")
				for i, w := range words {
					words[i] = w + w
				}
				return strings.Join(words, " ")
			}},
	}
	runSketchCases(t, cases, sketch.Wordwise)
}

// A string whose words do not line up with the output's is not the
// decomposition's.
func TestWordwiseDeclines(t *testing.T) {
	tk := task.Task{Kind: task.KindString, InputType: "a sentence", FunctionName: "solve"}
	exs := []task.Example{
		{Input: jsonOf(t, "ab cd"), Output: jsonOf(t, "AC")},
		{Input: jsonOf(t, "x y z"), Output: jsonOf(t, "XYZ")},
	}
	p, err := newProblem(tk, exs)
	if err != nil {
		t.Fatalf("problem: %v", err)
	}
	if res := strategyOnly(p, sketch.Wordwise); res.solved {
		t.Errorf("found %v, want none", res.best)
	}
}
