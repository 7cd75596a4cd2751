package synth

import (
	"math/rand"
	"slices"
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
	censorTask := task.Task{Name: "t", Kind: task.KindOther, InputType: "[text, stop]: a string and a list of words", FunctionName: "solve"}
	vocab := []string{"red", "Blue", "green", "sun", "MOON", "star", "sky", "tree", "leaf", "rock"}
	cases = append(cases,
		// The bound 6 is written nowhere: a learned threshold.
		sketchCase{name: "upper_words_longer_than_six", task: strTask, n: 8, gen: sentence,
			f: func(in any) any {
				words := strings.Split(in.(string), " ")
				for i, w := range words {
					if len(w) > 6 {
						words[i] = strings.ToUpper(w)
					}
				}
				return strings.Join(words, " ")
			}},
		// A list given beside the text, compared case-insensitively, and
		// a character only the outputs show.
		sketchCase{name: "mask_listed_words", task: censorTask, n: 8,
			gen: func(r *rand.Rand) any {
				words := make([]string, 1+r.Intn(6))
				for i := range words {
					words[i] = vocab[r.Intn(len(vocab))]
				}
				stop := []string{}
				for _, w := range vocab {
					if r.Intn(3) == 0 {
						stop = append(stop, strings.ToLower(w))
					}
				}
				return []any{strings.Join(words, " "), stop}
			},
			f: func(in any) any {
				args := in.([]any)
				var stop []string
				for _, w := range args[1].([]any) {
					stop = append(stop, w.(string))
				}
				words := strings.Split(args[0].(string), " ")
				for i, w := range words {
					if slices.Contains(stop, strings.ToLower(w)) {
						words[i] = strings.Repeat("#", len(w))
					}
				}
				return strings.Join(words, " ")
			}},
		// Words separated by runs of spaces, joined again by one.
		sketchCase{name: "swapcase_words_spaced", task: strTask, n: 6,
			gen: func(r *rand.Rand) any {
				return strings.ReplaceAll(sentence(r).(string), " ", strings.Repeat(" ", 1+r.Intn(3)))
			},
			f: func(in any) any {
				words := strings.Fields(in.(string))
				for i, w := range words {
					words[i] = strings.ToUpper(w[:1]) + w[1:]
				}
				return strings.Join(words, " ")
			}},
	)
	runSketchCases(t, cases, sketch.Wordwise)
}

// Two functions of a word, the second taken by the words of a table the
// examples show, with a condition of the word's place where a listed
// word takes the first (title case with minor words), or without one.
func TestWordwiseTable(t *testing.T) {
	strTask := task.Task{Name: "t", Kind: task.KindString, InputType: "a title", FunctionName: "solve"}
	minor := []string{"a", "of", "the", "and"}
	vocab := append([]string{"cat", "sky", "river", "stone", "quiet", "brown", "owl", "night", "road", "lamp"}, minor...)
	title := func(r *rand.Rand) any {
		words := make([]string, 2+r.Intn(5))
		for i := range words {
			w := vocab[r.Intn(len(vocab))]
			if r.Intn(3) == 0 {
				w = strings.ToUpper(w)
			}
			words[i] = w
		}
		return strings.Join(words, " ")
	}
	capitalize := func(w string) string { return strings.ToUpper(w[:1]) + strings.ToLower(w[1:]) }
	cases := []sketchCase{
		{name: "title_case_minor_words", task: strTask, n: 24, gen: title,
			f: func(in any) any {
				words := strings.Split(in.(string), " ")
				for i, w := range words {
					if slices.Contains(minor, strings.ToLower(w)) && i > 0 && i < len(words)-1 {
						words[i] = strings.ToLower(w)
					} else {
						words[i] = capitalize(w)
					}
				}
				return strings.Join(words, " ")
			}},
		{name: "upper_but_listed_words", task: strTask, n: 16, gen: title,
			f: func(in any) any {
				words := strings.Split(in.(string), " ")
				for i, w := range words {
					if slices.Contains(minor, strings.ToLower(w)) {
						words[i] = strings.ToLower(w)
					} else {
						words[i] = strings.ToUpper(w)
					}
				}
				return strings.Join(words, " ")
			}},
	}
	pig := func(w string) string {
		if strings.ContainsRune("aeiou", rune(w[0])) {
			return w + "way"
		}
		k := strings.IndexAny(w, "aeiou")
		if k < 0 {
			k = len(w)
		}
		return w[k:] + w[:k] + "ay"
	}
	lower := []string{"cat", "sky", "river", "stone", "quiet", "owl", "apple", "string", "rhythm", "eagle", "under", "three"}
	cases = append(cases,
		// Two functions chosen by a condition, over the word cut before
		// its first vowel, with the affixes the outputs add.
		sketchCase{name: "pig_latin_words", task: strTask, n: 10,
			gen: func(r *rand.Rand) any {
				words := make([]string, 1+r.Intn(4))
				for i := range words {
					words[i] = lower[r.Intn(len(lower))]
				}
				return strings.Join(words, " ")
			},
			f: func(in any) any {
				words := strings.Split(in.(string), " ")
				for i, w := range words {
					words[i] = pig(w)
				}
				return strings.Join(words, " ")
			}})
	wantOpPrefix(cases, "wordwise[", "a word-wise program")
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
