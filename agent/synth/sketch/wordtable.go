package sketch

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The word table: two functions of a word, the second taken by the words
// a table lists, perhaps only where a condition of the word's place holds
// — title case with minor words ("of", "the" stay lower case unless they
// come first or last), a style guide's exceptions, stop words left alone.
// No condition of the enumerator's sizes tells such words apart; the
// table is learned from the examples instead: the words that need the
// second function (keyed by their lower case when that keeps the
// examples apart, else as written). Where a word of the table needs the
// first function (the minor word that comes first), a condition is
// searched that holds at every word taking the second and fails at those,
// over the word, its index, the number of words, the index from the end
// and the other arguments. A word the examples never showed takes the
// first function: the table is never extended by invention, and the
// examples that show a new exception correct it.

// Bounds of the table: the functions tried (the smallest, up to
// wordTableFuncMax, each right on some words), the words it may list,
// and the conditions of the place searched (each a hole).
const (
	wordTableFuncMax = 3
	wordTableFuncs   = 24
	wordTableMaxKeys = 16
	wordTableConds   = 4
	wordTableRivals  = 4
	wordPairCondMax  = 4
	wordCutFuncMax   = 5
)

// wordTable gives alt to the words whose key it lists where when holds
// (nil: everywhere).
type wordTable struct {
	alt   *dsl.Node
	keys  []string
	set   map[string]bool
	lower bool
	when  *dsl.Node
}

// wordTableEndName is the name of the index from the end in the
// condition's environment (the Python expression it stands for).
const wordTableEndName = "(len(words) - 1 - i)"

// whenEnv is the condition's environment: the word's and the index from
// the end.
func whenEnv(wenv []any, i, n int) []any {
	return append(slices.Clone(wenv), int64(n-1-i))
}

func (t *wordTable) key(w string) string {
	if t.lower {
		return strings.ToLower(w)
	}
	return w
}

// takes reports whether the word w (at index i of n, in environment
// wenv) takes the second function.
func (t *wordTable) takes(w string, i, n int, wenv []any) bool {
	if t.set != nil && !t.set[t.key(w)] {
		return false
	}
	if t.when == nil {
		return true
	}
	b, isBool := dsl.EvalSafe(t.when, whenEnv(wenv, i, n)).(bool)
	return isBool && b
}

// String names the table in the program's name.
func (t *wordTable) String() string {
	k := "w"
	if t.lower {
		k = "lower(w)"
	}
	if t.set == nil {
		return fmt.Sprintf("%s if %s", t.alt, t.when)
	}
	s := fmt.Sprintf("%s if %s in {%s}", t.alt, k, strings.Join(t.keys, " "))
	if t.when != nil {
		s += " and " + t.when.String()
	}
	return s
}

// size is what the table adds to the program's size.
func (t *wordTable) size() int {
	n := 1 + t.alt.Size + len(t.keys)
	if t.set != nil {
		n++
	}
	if t.when != nil {
		n += 1 + t.when.Size
	}
	return n
}

// python is the table's choice: "alt if w.lower() in {...} and when
// else fn".
func (t *wordTable) python(e *dsl.Emitter, fn string, vars []dsl.Code) string {
	keys := make([]string, len(t.keys))
	for i, k := range t.keys {
		keys[i] = strconv.Quote(k)
	}
	k := "w"
	if t.lower {
		k = "w.lower()"
	}
	wvars := append(slices.Clone(vars), dsl.Atom(wordTableEndName))
	var test string
	switch {
	case t.set == nil:
		test = e.Node(t.when, wvars).At(dsl.POr)
	case t.when == nil:
		test = fmt.Sprintf("%s in {%s}", k, strings.Join(keys, ", "))
	default:
		test = fmt.Sprintf("%s in {%s} and %s", k, strings.Join(keys, ", "), e.Node(t.when, wvars).At(dsl.POr+2))
	}
	return fmt.Sprintf("%s if %s else %s", e.Node(t.alt, vars).At(dsl.POr), test, fn)
}

// wordFunc is a small function of a word and the points it is right on.
type wordFunc struct {
	fn    *dsl.Node
	right []bool
}

// searchWordTable learns a table over all's points (the words of every
// example): the smallest functions right on some words, then each pair
// of them that together give every word, the first as the rule and the
// second as the exception, the table the exceptions' keys. It returns the
// first program that fits, or, when the search collects a proposal's
// rivals, up to wordTableRivals of them: where the examples show no
// exception written otherwise than its image, "the word as it is" and
// "its lower case" fit alike, and a proposal asks which.
func searchWordTable(all, every *dsl.Problem, found wordProgram, until time.Time, en *Search, cut bool) []wordProgram {
	if time.Now().After(until) || en.Stopped {
		return nil
	}
	// Words cut into a head and a rest make larger functions (the rest,
	// then the head, then a suffix), each right on several words.
	maxSize, minRight := wordTableFuncMax, 1
	if cut {
		maxSize, minRight = wordCutFuncMax, 2
	}
	// A function right on no word beyond those a smaller one gives is
	// left out: it would pair no better.
	var funcs []wordFunc
	var sets [][]uint64
	accept := func(e *dsl.Entry) bool {
		if e.Type() != dsl.Str {
			return false
		}
		vals, right := e.Values(), 0
		set := make([]uint64, (len(all.Outs)+63)/64)
		for i, o := range all.Outs {
			if s, isStr := vals[i].(string); isStr && s == o.(string) {
				set[i/64] |= 1 << (i % 64)
				right++
			}
		}
		if right < minRight || slices.ContainsFunc(sets, func(have []uint64) bool { return isSubset(set, have) }) {
			return false
		}
		funcs, sets = append(funcs, wordFunc{fn: e.N.Clone()}), append(sets, set)
		return len(funcs) >= wordTableFuncs
	}
	share := time.Now().Add(time.Until(until) / 4)
	en.holeSearchBy(all, share, 0, en.Done, maxSize, en.MemLimit/4, false, false, accept)
	// Which words each function gives is read on every word of the
	// examples: a table learned on the points searched alone would miss
	// the exceptions of the later examples.
	for i := range funcs {
		funcs[i].right = make([]bool, len(every.Outs))
		for k, o := range every.Outs {
			v, isStr := dsl.EvalSafe(funcs[i].fn, every.Envs[k]).(string)
			funcs[i].right[k] = isStr && v == o.(string)
		}
	}
	conds, tests := 0, 0
	var out []wordProgram
	for _, f := range funcs {
		for _, g := range funcs {
			if f.fn == g.fn || time.Now().After(until) || en.interrupted() {
				continue
			}
			if t := pairCondition(every, f, g, until, en, &tests); t != nil {
				wp := found
				wp.fn, wp.table = f.fn, t
				out = append(out, wp)
				if !en.Collect || len(out) >= wordTableRivals {
					return out
				}
				continue
			}
			t, searched, good := learnWordTable(every, f, g, until, en, conds < wordTableConds)
			if searched {
				conds++
			}
			if good {
				wp := found
				wp.fn, wp.table = f.fn, t
				out = append(out, wp)
				if !en.Collect || len(out) >= wordTableRivals {
					return out
				}
			}
		}
	}
	return out
}

// learnWordTable reads the words that only g gives as the exceptions to
// f; every word must be given by one of them. The table lists the
// exceptions' keys, which must be few beside the keys of the words only
// f gives; where a listed word needs f, a condition of its place is
// searched when search is set. It reports whether it searched one and
// whether the table fits.
func learnWordTable(all *dsl.Problem, f, g wordFunc, until time.Time, en *Search, search bool) (*wordTable, bool, bool) {
	alt, rule, good := splitPair(all, f, g)
	if !good {
		return nil, false, false
	}
	word := func(k int) string { return all.Envs[k][0].(string) }
	searched := false
	for _, lower := range []bool{true, false} {
		t := &wordTable{alt: g.fn, lower: lower, set: map[string]bool{}}
		for _, k := range alt {
			t.set[t.key(word(k))] = true
		}
		others := map[string]bool{}
		var clash []int
		for _, k := range rule {
			if t.set[t.key(word(k))] {
				clash = append(clash, k)
			} else {
				others[t.key(word(k))] = true
			}
		}
		if len(t.set) > wordTableMaxKeys || len(others) < 2*len(t.set) {
			continue
		}
		for key := range t.set {
			t.keys = append(t.keys, key)
		}
		slices.Sort(t.keys)
		if len(clash) == 0 {
			return t, searched, true
		}
		if !search || searched {
			continue
		}
		searched = true
		if t.when = searchWordPlace(all, alt, clash, until, en, wordCondMax); t.when != nil {
			return t, searched, true
		}
	}
	return nil, searched, false
}

// searchWordPlace searches the condition that holds at the points alt
// and fails at the points clash: a truth value of the word, its index,
// the number of words, the other arguments and the index from the end.
func searchWordPlace(all *dsl.Problem, alt, clash []int, until time.Time, en *Search, maxSize int) *dsl.Node {
	b := &dsl.Binding{Names: append(slices.Clone(all.B.Names), wordTableEndName),
		Types: append(slices.Clone(all.B.Types), dsl.Int)}
	sub := &dsl.Problem{B: b, Round: -1, Mined: all.Mined, Out: dsl.Bool, Ok: []dsl.Type{dsl.Bool}}
	add := func(ks []int, out bool) {
		for _, k := range ks[:min(len(ks), maxPointsSearched/2)] {
			env := all.Envs[k]
			i, n := env[1].(int64), env[2].(int64)
			sub.Envs, sub.Outs = append(sub.Envs, append(slices.Clone(env), n-1-i)), append(sub.Outs, out)
		}
	}
	add(alt, true)
	add(clash, false)
	deadline := time.Now().Add(time.Until(until) / 2)
	return en.holeSearch(sub, deadline, en.Done, maxSize, en.MemLimit/4, false, false)
}

// splitPair reads the words only g gives (alt) and only f gives (rule);
// every word must be given by one of them, and each give some alone.
func splitPair(all *dsl.Problem, f, g wordFunc) (alt, rule []int, good bool) {
	for k := range all.Outs {
		switch {
		case g.right[k] && !f.right[k]:
			alt = append(alt, k)
		case f.right[k] && !g.right[k]:
			rule = append(rule, k)
		case !f.right[k]:
			return nil, nil, false
		}
	}
	return alt, rule, len(alt) > 0 && len(rule) > 0
}

// pairCondition searches a small condition of the word and its place that
// holds at the words only g gives and fails at those only f gives (at
// most wordTableConds searches, counted in tests): g where it holds, f
// elsewhere. Both sides need two words at least.
func pairCondition(all *dsl.Problem, f, g wordFunc, until time.Time, en *Search, tests *int) *wordTable {
	alt, rule, good := splitPair(all, f, g)
	if !good || len(alt) < 2 || len(rule) < 2 || *tests >= wordTableConds {
		return nil
	}
	*tests++
	if when := searchWordPlace(all, alt, rule, until, en, wordPairCondMax); when != nil {
		return &wordTable{alt: g.fn, when: when}
	}
	return nil
}
