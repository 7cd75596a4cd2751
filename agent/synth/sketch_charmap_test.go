package synth

import (
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// randText is a string of up to n characters drawn from alphabet.
func randText(r *rand.Rand, alphabet string, n int) string {
	rs := []rune(alphabet)
	b := make([]rune, r.Intn(n+1))
	for i := range b {
		b[i] = rs[r.Intn(len(rs))]
	}
	return string(b)
}

// The character map reads each character's image off the examples: a
// default formula with a table of exceptions keyed by the lower case
// (leet speak), a table alone with images joined by a space (Morse code)
// or by nothing (a phone keypad's digits), numbers listed (letters'
// places, a space 0), and images of several lengths joined by nothing.
func TestCharMapSketch(t *testing.T) {
	strTask := task.Task{Name: "t", Kind: task.KindString, InputType: "a text", FunctionName: "solve"}
	leet := map[rune]string{'a': "4", 'e': "3", 'o': "0"}
	codes := map[rune]string{'a': ".-", 'b': "-...", 'c': "-.-.", 'd': "-..", 'e': ".", ' ': "/"}
	keys := map[rune]string{'a': "2", 'b': "2", 'c': "2", 'd': "3", 'e': "3", 'f': "3", 'g': "4", ' ': "0"}
	cases := []sketchCase{
		{name: "char_map_leet", task: strTask, n: 8,
			gen: func(r *rand.Rand) any { return randText(r, "abcdefghijklmnopqrstuvwxyzAEO ", 14) },
			f: func(in any) any {
				return strings.Map(func(c rune) rune {
					if v, have := leet[[]rune(strings.ToLower(string(c)))[0]]; have {
						return rune(v[0])
					}
					return c
				}, in.(string))
			}},
		{name: "char_map_codes", task: strTask, n: 12,
			gen: func(r *rand.Rand) any { return randText(r, "abcde ", 8) },
			f: func(in any) any {
				var parts []string
				for _, c := range in.(string) {
					parts = append(parts, codes[c])
				}
				return strings.Join(parts, " ")
			}},
		{name: "char_map_keypad", task: strTask, n: 12,
			gen: func(r *rand.Rand) any { return randText(r, "abcdefg ", 8) },
			f: func(in any) any {
				var sb strings.Builder
				for _, c := range in.(string) {
					sb.WriteString(keys[c])
				}
				return sb.String()
			}},
		{name: "char_map_places", task: strTask, n: 6,
			gen: func(r *rand.Rand) any { return randText(r, "abcdefghijklmnopqrstuvwxyzABC ", 10) },
			f: func(in any) any {
				out := []int{}
				for _, c := range strings.ToLower(in.(string)) {
					if c == ' ' {
						out = append(out, 0)
					} else {
						out = append(out, int(c-'a')+1)
					}
				}
				return out
			}},
		{name: "char_map_doubled_vowels", task: strTask, n: 10,
			gen: func(r *rand.Rand) any { return randText(r, "abcdeiou", 8) },
			f: func(in any) any {
				var sb strings.Builder
				for _, c := range in.(string) {
					sb.WriteRune(c)
					if strings.ContainsRune("aeiou", c) {
						sb.WriteString(strconv.Itoa(int(c - 'a')))
					}
				}
				return sb.String()
			}},
	}
	wantOpPrefix(cases, "char_map[", "the character map")
	runSketchCases(t, cases, sketch.CharMap)
}

// A character the examples never showed has no image unless the rule's
// formula gives it one: the program raises instead of inventing it.
func TestCharMapRaisesOnUnseen(t *testing.T) {
	tk := task.Task{Kind: task.KindString, InputType: "a text", FunctionName: "solve"}
	exs := []task.Example{
		{Input: jsonOf(t, "ab a"), Output: jsonOf(t, ".- -... / .-")},
		{Input: jsonOf(t, "ba"), Output: jsonOf(t, "-... .-")},
	}
	p, err := newProblem(tk, exs)
	if err != nil {
		t.Fatalf("problem: %v", err)
	}
	res := strategyOnly(p, sketch.CharMap)
	if !res.solved {
		t.Fatal("no program")
	}
	for in, want := range map[string]any{"abba": ".- -... -... .-", "abc": dsl.ErrV, " ": "/"} {
		got := dsl.EvalNode(res.best, []any{in})
		if dsl.IsErr(want) != dsl.IsErr(got) || !dsl.IsErr(got) && got != want {
			t.Errorf("%v on %q = %v, want %v", res.best, in, got, want)
		}
	}
}

// Outputs that do not line up with the characters, or need two images
// for one character, are not a character map.
func TestCharMapDeclines(t *testing.T) {
	tk := task.Task{Kind: task.KindString, InputType: "a text", FunctionName: "solve"}
	checkDeclines(t, tk, sketch.CharMap, []declineCase{
		{name: "reversed", exs: [][2]any{{"abc", "cba"}, {"cab", "bac"}, {"ab", "ba"}}},
		{name: "sorted", exs: [][2]any{{"cab", "abc"}, {"bca", "abc"}}},
		{name: "counts", exs: [][2]any{{"aab", "2a1b"}, {"ab", "1a1b"}}},
	})
}

// strategyRivals returns every program the strategy offers that fits the
// examples when the search collects a proposal's rivals.
func strategyRivals(p *dsl.Problem, run sketchStrategy) []*dsl.Node {
	lams, _ := lambdasFor(p.Mined, nil)
	en := newEnumerator(enumConfig{envs: p.Envs, vars: p.B.Types, consts: topConsts(p), ops: dsl.Catalog.Top,
		lams: lams, deadline: time.Now().Add(strategyBudget), memLimit: DefaultMemoryBytes})
	var out []*dsl.Node
	runSketches(en, testShared, true, func(r *sketch.Search) bool {
		return run(r, p, func(n *dsl.Node, vals []any) bool {
			if p.AllMatch(vals) {
				out = append(out, n)
			}
			return false
		})
	})
	return out
}

// When a search collects a proposal's rivals, the character sketches
// whose programs raise on a character no example showed also offer a
// program that gives it a value: the two part on an input holding it,
// which the proposal then asks about.
func TestCharSketchesUnseenRivals(t *testing.T) {
	tk := task.Task{Kind: task.KindString, InputType: "a text", FunctionName: "solve"}
	tests := []struct {
		name   string
		run    sketchStrategy
		exs    [][2]any
		unseen string
	}{
		{name: "map", run: sketch.CharMap, exs: [][2]any{{"ab a", ".- -... / .-"}, {"ba", "-... .-"}}, unseen: "ax"},
		{name: "fold", run: sketch.CharFold, exs: [][2]any{{"ab c", 6}, {"z", 26}, {"  ", 0}, {"Yy ", 50}}, unseen: "a-"},
		{name: "table", run: sketch.CharTable, exs: [][2]any{{"ab", 5}, {"b", 3}, {"aab", 7}}, unseen: "c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := pairsProblem(t, tk, tt.exs)
			progs := strategyRivals(p, tt.run)
			if len(progs) < 2 {
				t.Fatalf("offered %v, want a program and a rival", progs)
			}
			first := dsl.EvalNode(progs[0], []any{tt.unseen})
			if !dsl.IsErr(first) {
				t.Errorf("%v on %q = %v, want it to raise", progs[0], tt.unseen, first)
			}
			if !slices.ContainsFunc(progs[1:], func(n *dsl.Node) bool { return !dsl.IsErr(dsl.EvalNode(n, []any{tt.unseen})) }) {
				t.Errorf("no rival of %v gives %q a value: %v", progs[0], tt.unseen, progs[1:])
			}
		})
	}
}
