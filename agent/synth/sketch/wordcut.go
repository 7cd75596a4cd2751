package sketch

import (
	"slices"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Words cut before their first character of a class: the head (the
// letters before the first vowel, the letters before the first digit)
// and the rest, two more variables of a word's functions — Pig Latin
// moves a word's leading consonants to its end ("string" to "ingstray"),
// a code moves its leading letters behind its digits. The texts the
// output words add to the input words are constants of those functions:
// the suffix a word gains when it is kept whole ("way" after "apple"),
// and the ending every changed word shares ("ay").

// wordCut cuts a word before its first character of a class.
type wordCut struct {
	name string
	in   func(r rune) bool
	// py tests the character w[k] in Python.
	py string
}

// wordCuts are the cuts tried, in order.
var wordCuts = []*wordCut{
	{name: "vowel", in: func(r rune) bool { return strings.ContainsRune("aeiouAEIOU", r) }, py: `w[k] in "aeiouAEIOU"`},
	{name: "digit", in: func(r rune) bool { return r >= '0' && r <= '9' }, py: `"0" <= w[k] <= "9"`},
}

// wordCutAffixes bounds the constants mined from the output words.
const wordCutAffixes = 3

// split is the word's head (before its first character of the class)
// and rest.
func (c *wordCut) split(w string) (string, string) {
	for k, r := range w {
		if c.in(r) {
			return w[:k], w[k:]
		}
	}
	return w, ""
}

// helper registers the Python function cutting a word and returns its
// name.
func (c *wordCut) helper(e *dsl.Emitter) string {
	body := "    k = 0\n    while k < len(w) and not (" + c.py + "):\n        k += 1\n    return w[:k], w[k:]\n"
	return e.LoopHelper("cut_before_"+c.name, []string{"w"}, body)
}

// sub is the problem sub with the head and rest added to its variables.
func (c *wordCut) sub(sub *dsl.Problem) *dsl.Problem {
	out := *sub
	out.B = &dsl.Binding{Names: append(slices.Clone(sub.B.Names), "head", "rest"),
		Types: append(slices.Clone(sub.B.Types), dsl.Str, dsl.Str)}
	out.Envs = make([][]any, len(sub.Envs))
	for k, env := range sub.Envs {
		head, rest := c.split(env[0].(string))
		out.Envs[k] = append(slices.Clone(env), head, rest)
	}
	return &out
}

// searchWordCuts tries the table and the condition of two functions
// (searchWordTable) over the words cut by each cut in turn, each within
// half of the time left, with the affixes of the output words as
// constants.
func searchWordCuts(all, every *dsl.Problem, found wordProgram, until time.Time, en *Search) []wordProgram {
	if slices.Contains(all.B.Names, "head") || slices.Contains(all.B.Names, "rest") {
		return nil // the emitted loop's names would hide them
	}
	affixes := outputAffixes(every)
	for _, c := range wordCuts {
		if time.Now().After(until) || en.interrupted() {
			return nil
		}
		cutAll, cutEvery := c.sub(all), c.sub(every)
		cutAll.Consts = append(slices.Clone(all.Consts), affixes...)
		wp := found
		wp.cut = c
		share := time.Now().Add(time.Until(until) / 2)
		if out := searchWordTable(cutAll, cutEvery, wp, share, en, true); out != nil {
			return out
		}
	}
	return nil
}

// outputAffixes are the texts the output words add to the input words
// (each at most wordCutAffixes): the suffix after a word kept whole, seen
// twice, then the ending every changed word shares.
func outputAffixes(every *dsl.Problem) []any {
	var out []any
	add := func(s string) {
		if s != "" && !slices.Contains(out, any(s)) && len(out) < wordCutAffixes {
			out = append(out, s)
		}
	}
	seen := map[string]int{}
	var order []string
	common, have := "", false
	for k, o := range every.Outs {
		w, s := every.Envs[k][0].(string), o.(string)
		if s == w {
			continue
		}
		if strings.HasPrefix(s, w) {
			sfx := s[len(w):]
			if seen[sfx] == 0 {
				order = append(order, sfx)
			}
			seen[sfx]++
		}
		if !have {
			common, have = s, true
		} else {
			common = commonSuffix(common, s)
		}
	}
	for _, sfx := range order {
		if seen[sfx] >= 2 {
			add(sfx)
		}
	}
	add(common)
	return out
}

// commonSuffix is the longest suffix a and b share (whole characters).
func commonSuffix(a, b string) string {
	ra, rb := []rune(a), []rune(b)
	n := 0
	for n < len(ra) && n < len(rb) && ra[len(ra)-1-n] == rb[len(rb)-1-n] {
		n++
	}
	return string(ra[len(ra)-n:])
}
