package synth

import (
	"encoding/json"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// Two sequences compared by a key: phrases that are anagrams of each
// other ignoring spaces and case.
func TestSameKeySketch(t *testing.T) {
	letters := "abcdefgh ABC"
	phrase := func(r *rand.Rand) string {
		b := make([]byte, r.Intn(9))
		for i := range b {
			b[i] = letters[r.Intn(len(letters))]
		}
		return string(b)
	}
	// shuffle rearranges a phrase, changing the case and the spaces
	// around its letters.
	shuffle := func(r *rand.Rand, s string) string {
		b := []byte(strings.ReplaceAll(s, " ", ""))
		r.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
		out := ""
		for _, c := range b {
			if r.Intn(3) == 0 {
				out += " "
			}
			if r.Intn(2) == 0 {
				c = strings.ToUpper(string(c))[0]
			}
			out += string(c)
		}
		return out
	}
	key := func(s string) string {
		b := []byte(strings.ToLower(strings.ReplaceAll(s, " ", "")))
		sort.Slice(b, func(i, j int) bool { return b[i] < b[j] })
		return string(b)
	}
	cases := []sketchCase{
		{name: "same_key_anagram_phrases", task: otherTask("anagrams", "[s, t]: two phrases"), n: 40,
			gen: func(r *rand.Rand) any {
				s := phrase(r)
				switch r.Intn(3) {
				case 0:
					return []any{s, shuffle(r, s)}
				case 1:
					// One letter changed: not an anagram, of the same length.
					return []any{s + "a", shuffle(r, s+"b")}
				}
				return []any{s, phrase(r)}
			},
			f: func(in any) any {
				a := args(in)
				return key(a[0].(string)) == key(a[1].(string))
			}},
	}
	wantOpPrefix(cases, "same_key[", "a comparison by a key")
	runSketchCases(t, cases, func(en *sketch.Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
		return sketch.SameKey(en, p, consider)
	})
}

// The sketch needs two sequences, a truth value, and each answer on two
// examples or more: with every pair an anagram, any key would do.
func TestSameKeyNeeds(t *testing.T) {
	ex := func(in, out string) task.Example {
		return task.Example{Input: json.RawMessage(in), Output: json.RawMessage(out)}
	}
	pair := otherTask("anagrams", "[s, t]: two phrases")
	tests := []struct {
		name string
		task task.Task
		exs  []task.Example
	}{
		{"every answer true", pair, []task.Example{ex(`["ab", "ba"]`, "true"), ex(`["c", "c"]`, "true"), ex(`["abc", "cab"]`, "true"), ex(`["", ""]`, "true")}},
		{"one answer false", pair, []task.Example{ex(`["ab", "ba"]`, "true"), ex(`["c", "c"]`, "true"), ex(`["abc", "cbb"]`, "false")}},
		{"a number, not a truth value", pair, []task.Example{ex(`["ab", "ba"]`, "1"), ex(`["c", "d"]`, "0"), ex(`["abc", "cab"]`, "1"), ex(`["x", "y"]`, "0")}},
		{"one sequence", task.Task{Name: "w", Kind: task.KindString, InputType: "a word", FunctionName: "solve"},
			[]task.Example{ex(`"ab"`, "true"), ex(`"c"`, "false"), ex(`"abc"`, "true"), ex(`"x"`, "false")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := newProblem(tt.task, tt.exs)
			if err != nil {
				t.Fatal(err)
			}
			res := strategyOnly(p, func(en *sketch.Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
				return sketch.SameKey(en, p, consider)
			})
			if res.solved {
				t.Errorf("found %v, want nothing", res.best)
			}
		})
	}
}
