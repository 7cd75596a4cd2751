package synth

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// randProse is sentences of a few words ended by ., ! or ? (or nothing),
// with a comma now and then (a space after it or not) and a stray mark at
// times.
func randProse(r *rand.Rand) any {
	vocab := []string{"a", "cat", "sat", "on", "the", "mat", "Why", "not", "go", "home", "yes", "no"}
	var sb strings.Builder
	for range r.Intn(4) {
		for j := range 1 + r.Intn(4) {
			if j > 0 {
				sb.WriteString([]string{" ", " ", ", ", ","}[r.Intn(4)])
			}
			sb.WriteString(vocab[r.Intn(len(vocab))])
		}
		sb.WriteString([]string{".", "!", "?", "...", ""}[r.Intn(5)])
		sb.WriteString([]string{" ", "", " , "}[r.Intn(3)])
	}
	return sb.String()
}

// sentencesOf cuts a text at ., ! and ? and keeps the pieces that hold a
// letter.
func sentencesOf(s string) []string {
	var out []string
	for _, piece := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(".!?", r) }) {
		if strings.IndexFunc(piece, unicode.IsLetter) >= 0 {
			out = append(out, piece)
		}
	}
	return out
}

// The segments of a text: the number of sentences, the words of each
// sentence (runs of letters: "a,b" is two), and the words longer than a
// length given beside the text.
func TestSegmentsSketch(t *testing.T) {
	strTask := task.Task{Name: "t", Kind: task.KindString, InputType: "a text", FunctionName: "solve"}
	lenTask := task.Task{Name: "t", Kind: task.KindOther, InputType: "[text, n]: a string and an integer", FunctionName: "solve"}
	cases := []sketchCase{
		{name: "segments_sentence_count", task: strTask, n: 8, gen: randProse,
			f: func(in any) any { return len(sentencesOf(in.(string))) }},
		{name: "segments_words_per_sentence", task: strTask, n: 8, gen: randProse,
			f: func(in any) any {
				out := []int{}
				for _, s := range sentencesOf(in.(string)) {
					out = append(out, len(strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })))
				}
				return out
			}},
		{name: "segments_words_longer_than", task: lenTask, n: 8,
			gen: func(r *rand.Rand) any {
				return []any{strings.ReplaceAll(randProse(r).(string), ".", " "), r.Intn(5)}
			},
			f: func(in any) any {
				args := in.([]any)
				n := int(num(args[1]))
				count := 0
				for _, w := range strings.Fields(args[0].(string)) {
					if len(w) > n {
						count++
					}
				}
				return count
			}},
	}
	wantOpPrefix(cases, "segments[", "the segments")
	runSketchCases(t, cases, sketch.Segments)
}

// Counts that no cut and condition give are not the segments'.
func TestSegmentsDeclines(t *testing.T) {
	tk := task.Task{Kind: task.KindString, InputType: "a text", FunctionName: "solve"}
	checkDeclines(t, tk, sketch.Segments, []declineCase{
		{name: "letters", exs: [][2]any{{"ab. c", 3}, {"a b c d", 4}, {"x", 1}}},
		{name: "no cut", exs: [][2]any{{"ab", 1}, {"cd", 1}}},
	})
}

// randWords is a few words of the prose's vocabulary joined by single
// spaces.
func randWords(r *rand.Rand) string {
	vocab := []string{"a", "cat", "sat", "on", "the", "mat", "Why", "not", "go", "home", "yes", "no", "elephant", "xylophone"}
	words := make([]string, 1+r.Intn(7))
	for i := range words {
		words[i] = vocab[r.Intn(len(vocab))]
	}
	return strings.Join(words, " ")
}

// The words of a text in another order: the last word first, the words
// reversed, the words rotated left by an amount below their number given
// beside the text.
func TestWordOrderSketch(t *testing.T) {
	strTask := task.Task{Name: "t", Kind: task.KindString, InputType: "a text", FunctionName: "solve"}
	rotTask := task.Task{Name: "t", Kind: task.KindOther, InputType: "[text, k]: a string and an integer", FunctionName: "solve"}
	cases := []sketchCase{
		{name: "wordorder_last_first", task: strTask, n: 6, gen: func(r *rand.Rand) any { return randWords(r) },
			f: func(in any) any {
				w := strings.Fields(in.(string))
				return strings.Join(append([]string{w[len(w)-1]}, w[:len(w)-1]...), " ")
			}},
		{name: "wordorder_reversed", task: strTask, n: 6, gen: func(r *rand.Rand) any { return randWords(r) },
			f: func(in any) any {
				w := strings.Fields(in.(string))
				slices.Reverse(w)
				return strings.Join(w, " ")
			}},
		{name: "wordorder_rotated", task: rotTask, n: 8, gen: func(r *rand.Rand) any {
			w := randWords(r)
			return []any{w, r.Intn(len(strings.Fields(w)))}
		},
			f: func(in any) any {
				a := in.([]any)
				w := strings.Fields(a[0].(string))
				k := int(num(a[1]))
				return strings.Join(append(w[k:], w[:k]...), " ")
			}},
	}
	wantOpPrefix(cases, "word_order[", "the words reordered")
	runSketchCases(t, cases, sketch.WordOrder)
}

// Greedy wrapping: the lines of at most a width given beside the text, or
// of a width the examples show (a constant), listed or joined by newlines.
func TestWrapSketch(t *testing.T) {
	wrap := func(s string, width int) []string {
		var lines []string
		line := ""
		for _, w := range strings.Fields(s) {
			switch {
			case line == "":
				line = w
			case len(line)+1+len(w) <= width:
				line += " " + w
			default:
				lines = append(lines, line)
				line = w
			}
		}
		if line != "" {
			lines = append(lines, line)
		}
		return lines
	}
	widthTask := task.Task{Name: "t", Kind: task.KindOther, InputType: "[text, width]: a string and an integer", FunctionName: "solve"}
	strTask := task.Task{Name: "t", Kind: task.KindString, InputType: "a text", FunctionName: "solve"}
	long := func(r *rand.Rand) string { return randWords(r) + " " + randWords(r) + " " + randWords(r) }
	calls := 0
	cases := []sketchCase{
		{name: "wrap_lines_of_width", task: widthTask, n: 6, gen: func(r *rand.Rand) any { return []any{long(r), 5 + r.Intn(15)} },
			f: func(in any) any {
				a := in.([]any)
				return wrap(a[0].(string), int(num(a[1])))
			}},
		{name: "wrap_joined_fixed_width", task: strTask, n: 8, gen: func(r *rand.Rand) any { return long(r) },
			f: func(in any) any { return strings.Join(wrap(in.(string), 12), "\n") }},
		// No example both joins words and breaks lines: a width of 1
		// breaks at every word, a wide one keeps the text on one line.
		{name: "wrap_narrow_or_wide", task: widthTask, n: 6, gen: func(r *rand.Rand) any {
			if calls++; calls%2 == 0 {
				return []any{long(r), 1}
			}
			return []any{randWords(r) + " " + randWords(r), 200}
		},
			f: func(in any) any {
				a := in.([]any)
				return wrap(a[0].(string), int(num(a[1])))
			}},
	}
	wantOpPrefix(cases, "wrap[", "the lines wrapped")
	runSketchCases(t, cases, sketch.Wrap)
}
