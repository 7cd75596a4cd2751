package sketch

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Word-wise decomposition. When a string maps to a string with as many
// words (split on one separator, or on runs of white space), every word
// of every example is a data point of a string function of the word, its
// index, the number of words and the task's other arguments: "capitalise
// every word", "reverse the words of five letters or more", "blank out
// the words of a list given beside the text". The enumerator searches
// that function as a hole; when no one function gives every word, it
// searches one for the words that change and then a condition telling
// them from the words left as they are: a small truth value, a number of
// the word above or below a bound learned from the examples (threshold.go:
// "more than four letters" when no four is written anywhere), or a larger
// truth value. The characters the outputs hold and no input does ("*")
// are constants of the holes. The program splits, maps and joins again,
// with the separator or with nothing ("snake_case" to "camelCase"): then
// the output is cut into the words' lengths, so the function keeps a
// word's length.

// wordSeps are the separators tried; "" is a run of white space
// (str.split()), the words joined again by single spaces.
var wordSeps = []string{" ", "", "_", "-", ","}

// Bounds of the decomposition: the sizes of the word function and of the
// condition (a first search of small conditions before the thresholds),
// and the share of the time left it may take.
const (
	wordFuncMax      = 5
	wordCondSmallMax = 3
	wordCondMax      = 5
	wordsShare       = 0.6
	wordMaxConsts    = 3
)

// wordProgram is a filling: the text variable, the separator, the
// function and the optional condition (words where it is false stay as
// they are).
type wordProgram struct {
	text      int
	sep, join string
	fn        *dsl.Node
	cond      *dsl.Node
	// table, when set, gives the words it lists another function
	// (wordtable.go).
	table *wordTable
	// cut, when set, adds the word's head and rest to its environment.
	cut *wordCut
}

// env is a word's environment (wordEnv), with its head and rest when the
// program cuts words.
func (wp wordProgram) env(w string, i, n int, env []any) []any {
	out := wordEnv(w, i, n, env, wp.text)
	if wp.cut != nil {
		head, rest := wp.cut.split(w)
		out = append(out, head, rest)
	}
	return out
}

// split cuts the text into words: on sep, or on runs of white space.
func (wp wordProgram) split(s string) []string {
	if wp.sep == "" {
		return strings.Fields(s)
	}
	return strings.Split(s, wp.sep)
}

// wordEnv is the environment of a word's hole: the word, its index, the
// number of words and the other variables.
func wordEnv(w string, i, n int, env []any, text int) []any {
	out := []any{w, int64(i), int64(n)}
	for j, v := range env {
		if j != text {
			out = append(out, v)
		}
	}
	return out
}

func (wp wordProgram) run(env []any) any {
	words := wp.split(env[wp.text].(string))
	out := make([]string, len(words))
	for i, w := range words {
		wenv := wp.env(w, i, len(words), env)
		if wp.cond != nil {
			b, isBool := dsl.EvalSafe(wp.cond, wenv).(bool)
			if !isBool {
				return dsl.ErrV
			}
			if !b {
				out[i] = w
				continue
			}
		}
		fn := wp.fn
		if wp.table != nil && wp.table.takes(w, i, len(words), wenv) {
			fn = wp.table.alt
		}
		v, isStr := dsl.EvalSafe(fn, wenv).(string)
		if !isStr {
			return dsl.ErrV
		}
		out[i] = v
	}
	return strings.Join(out, wp.join)
}

// textVar is the index of the problem's one string variable, -1 when it
// has none or several.
func textVar(p *dsl.Problem) int {
	at := -1
	for i, t := range p.B.Types {
		if t == dsl.Str {
			if at >= 0 {
				return -1
			}
			at = i
		}
	}
	return at
}

// Wordwise tries every separator within its share of the time left; it
// reports whether consider accepted a program.
func Wordwise(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	text := textVar(p)
	if text < 0 || p.Out != dsl.Str || p.Nullable || len(p.Outs) < 2 || en.Stopped {
		return false
	}
	for j, name := range p.B.Names {
		if j != text && (name == "w" || name == "i" || name == "words") {
			return false // the emitted loop's own names would hide it
		}
	}
	until := time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * wordsShare))
	for _, sep := range wordSeps {
		joins := []string{sep, ""}
		if sep == "" {
			joins = []string{" "}
		}
		for _, join := range joins {
			if time.Now().After(until) {
				return false
			}
			for _, wp := range searchWordProgram(p, text, sep, join, until, en) {
				vals := make([]any, len(en.Envs))
				for i, env := range en.Envs {
					vals[i] = wp.run(env)
				}
				if consider(wordNode(p, wp), vals) {
					return true
				}
			}
		}
	}
	return false
}

// wordSub is the problem of a word's hole: the word, its index, the
// number of words and the other variables, with the constants the outputs
// show.
func wordSub(p *dsl.Problem, text int, out dsl.Type, consts []any) *dsl.Problem {
	b := &dsl.Binding{Names: []string{"w", "i", "len(words)"}, Types: []dsl.Type{dsl.Str, dsl.Int, dsl.Int}}
	for j, name := range p.B.Names {
		if j != text {
			b.Names, b.Types = append(b.Names, name), append(b.Types, p.B.Types[j])
		}
	}
	return &dsl.Problem{B: b, Round: -1, Mined: p.Mined, Out: out, Ok: []dsl.Type{out}, Consts: consts}
}

// outputChars are the characters the outputs hold and no input does (at
// most wordMaxConsts, as strings): the "*" that blanks a word out.
func outputChars(p *dsl.Problem) []any {
	var ins strings.Builder
	for _, env := range p.Envs[:len(p.Outs)] {
		for _, v := range env {
			switch x := v.(type) {
			case string:
				ins.WriteString(x)
			case []string:
				ins.WriteString(strings.Join(x, ""))
			}
		}
	}
	var out []any
	for _, o := range p.Outs {
		for _, r := range o.(string) {
			c := string(r)
			if !strings.Contains(ins.String(), c) && !slices.Contains(out, any(c)) && len(out) < wordMaxConsts {
				out = append(out, c)
			}
		}
	}
	return append(slices.Clone(p.Consts), out...)
}

// searchWordProgram reads the examples as words split on sep (the
// outputs' words joined by join) and searches the function (and the
// condition) that gives every output word: the program, then (when the
// condition is a learned threshold) its rivals.
func searchWordProgram(p *dsl.Problem, text int, sep, join string, until time.Time, en *Search) []wordProgram {
	type point struct {
		env []any
		out string
	}
	var points []point
	every := wordSub(p, text, dsl.Str, nil)
	several, changed := false, 0
	for e, o := range p.Outs {
		wp := wordProgram{sep: sep}
		in := wp.split(p.Envs[e][text].(string))
		out, good := splitWords(o.(string), join, in)
		if !good {
			return nil
		}
		several = several || len(in) > 1
		for i, w := range in {
			env := wordEnv(w, i, len(in), p.Envs[e], text)
			if len(points) < maxPointsSearched {
				points = append(points, point{env, out[i]})
			}
			every.Envs, every.Outs = append(every.Envs, env), append(every.Outs, out[i])
			if out[i] != w {
				changed++
			}
		}
	}
	if !several || changed == 0 {
		return nil
	}
	all := wordSub(p, text, dsl.Str, outputChars(p))
	for _, pt := range points {
		all.Envs, all.Outs = append(all.Envs, pt.env), append(all.Outs, pt.out)
	}
	found := wordProgram{text: text, sep: sep, join: join}
	if out := searchWordRule(p, all, found, until, en); out != nil {
		return out
	}
	// Two functions, the words of a table learned from the examples
	// (all their words, not only the points searched) taking the second
	// (wordtable.go), or the words where a condition holds, then the same
	// with the words cut before their first vowel or digit.
	if out := searchWordTable(all, every, found, until, en, false); out != nil {
		return out
	}
	return searchWordCuts(all, every, found, until, en)
}

// searchWordRule searches one function of every word of all's points,
// then one of the words that change and the condition that picks them
// (a small truth value, a threshold, a larger truth value in half of
// what is left, the other half left to the table).
func searchWordRule(p *dsl.Problem, all *dsl.Problem, found wordProgram, until time.Time, en *Search) []wordProgram {
	type point struct {
		env []any
		out string
	}
	points := make([]point, len(all.Outs))
	for k := range all.Outs {
		points[k] = point{all.Envs[k], all.Outs[k].(string)}
	}
	text, consts := found.text, all.Consts
	share := func(part float64) time.Time {
		return time.Now().Add(time.Duration(float64(time.Until(until)) * part))
	}
	if found.fn = en.holeSearch(all, share(0.4), en.Done, wordFuncMax, en.MemLimit/4, false, false); found.fn != nil {
		return []wordProgram{found}
	}
	// The words that change, then the condition that tells them apart.
	moved := wordSub(p, text, dsl.Str, consts)
	for _, pt := range points {
		if pt.out != pt.env[0].(string) {
			moved.Envs, moved.Outs = append(moved.Envs, pt.env), append(moved.Outs, pt.out)
		}
	}
	if len(moved.Outs) < 2 || len(moved.Outs) == len(points) {
		return nil
	}
	if found.fn = en.holeSearch(moved, share(0.5), en.Done, wordFuncMax, en.MemLimit/4, false, false); found.fn == nil {
		return nil
	}
	cond := wordSub(p, text, dsl.Bool, consts)
	for _, pt := range points {
		v, isStr := dsl.EvalSafe(found.fn, pt.env).(string)
		if isStr && v == pt.env[0].(string) {
			continue // f leaves the word as it is: either branch fits
		}
		cond.Envs, cond.Outs = append(cond.Envs, pt.env), append(cond.Outs, pt.out != pt.env[0].(string))
	}
	if len(cond.Outs) < 2 {
		return nil
	}
	if found.cond = en.holeSearch(cond, share(0.3), en.Done, wordCondSmallMax, en.MemLimit/4, false, false); found.cond != nil {
		return []wordProgram{found}
	}
	if ts := en.thresholdHole(cond, share(0.3)); len(ts) > 0 {
		var out []wordProgram
		for _, t := range ts {
			wp := found
			wp.cond = t.node()
			out = append(out, wp)
		}
		return out
	}
	if found.cond = en.holeSearch(cond, share(0.5), en.Done, wordCondMax, en.MemLimit/4, false, false); found.cond != nil {
		return []wordProgram{found}
	}
	return nil
}

// splitWords cuts an output into the words of the input in: on join, or
// into the input words' lengths when join is empty.
func splitWords(out, join string, in []string) ([]string, bool) {
	if join != "" {
		if out == "" && len(in) == 0 {
			return nil, true
		}
		words := strings.Split(out, join)
		return words, len(words) == len(in)
	}
	rs := []rune(out)
	words := make([]string, len(in))
	at := 0
	for i, w := range in {
		n := len([]rune(w))
		if at+n > len(rs) {
			return nil, false
		}
		words[i], at = string(rs[at:at+n]), at+n
	}
	return words, at == len(rs)
}

func wordNode(p *dsl.Problem, wp wordProgram) *dsl.Node {
	sep := strconv.Quote(wp.sep)
	if wp.sep == "" {
		sep = "None"
	}
	name := fmt.Sprintf("wordwise[%s to %q: %s", sep, wp.join, wp.fn)
	if wp.cut != nil {
		name = fmt.Sprintf("wordwise[%s to %q, cut %s: %s", sep, wp.join, wp.cut.name, wp.fn)
	}
	size := 3 + wp.fn.Size
	if wp.cond != nil {
		name += " if " + wp.cond.String()
		size += 1 + wp.cond.Size
	}
	if wp.table != nil {
		name += " else " + wp.table.String()
		size += wp.table.size()
	}
	op := &dsl.Operator{Name: name + "]", Args: p.B.Types, Ret: dsl.Str, Fam: dsl.FamList, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return wp.run(a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			sub := wordSub(p, wp.text, dsl.Str, nil)
			if wp.cut != nil {
				sub = wp.cut.sub(sub)
			}
			vars := make([]dsl.Code, len(sub.B.Names))
			for i, n := range sub.B.Names {
				vars[i] = dsl.Atom(n)
			}
			expr := e.Node(wp.fn, vars).S
			if wp.table != nil {
				expr = wp.table.python(e, e.Node(wp.fn, vars).At(dsl.PTern), vars)
			}
			if wp.cond != nil {
				expr = fmt.Sprintf("%s if %s else w", expr, e.Node(wp.cond, vars).S)
			}
			split := fmt.Sprintf("%s.split(%s)", p.B.Names[wp.text], strconv.Quote(wp.sep))
			if wp.sep == "" {
				split = p.B.Names[wp.text] + ".split()"
			}
			loop := "for i, w in enumerate(words)"
			if wp.cut != nil {
				loop += fmt.Sprintf(" for head, rest in [%s(w)]", wp.cut.helper(e))
			}
			body := fmt.Sprintf("    words = %s\n    return %s.join([%s %s])\n",
				split, strconv.Quote(wp.join), expr, loop)
			return dsl.Call(e.LoopHelper("wordwise", p.B.Names, body), a...)
		}}
	return overVars(p, op, size)
}
