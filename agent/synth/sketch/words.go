package sketch

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Word-wise decomposition. When a string maps to a string with as many
// words (split on one separator), every word of every example is a data
// point of a string function of the word, its index and the number of
// words: "capitalise every word", "reverse the words of five letters or
// more". The enumerator searches that function as a hole; when no one
// function gives every word, it searches one for the words that change
// and then a condition telling them from the words left as they are. The
// program splits, maps and joins again, with the separator or with
// nothing ("snake_case" to "camelCase"): then the output is cut into the
// words' lengths, so the function keeps a word's length.

// wordSeps are the separators tried.
var wordSeps = []string{" ", "_", "-", ","}

// Bounds of the decomposition: the sizes of the word function and of the
// condition, and the share of the time left it may take.
const (
	wordFuncMax = 5
	wordCondMax = 5
	wordsShare  = 0.6
)

// wordNames are the Python names of the hole's variables.
var wordNames = []string{"w", "i", "len(words)"}

// wordProgram is a filling: the separator, the function and the optional
// condition (words where it is false stay as they are).
type wordProgram struct {
	sep, join string
	fn        *dsl.Node
	cond      *dsl.Node
}

func (wp wordProgram) run(s string) any {
	words := strings.Split(s, wp.sep)
	out := make([]string, len(words))
	n := int64(len(words))
	for i, w := range words {
		env := []any{w, int64(i), n}
		if wp.cond != nil {
			b, isBool := dsl.EvalSafe(wp.cond, env).(bool)
			if !isBool {
				return dsl.ErrV
			}
			if !b {
				out[i] = w
				continue
			}
		}
		v, isStr := dsl.EvalSafe(wp.fn, env).(string)
		if !isStr {
			return dsl.ErrV
		}
		out[i] = v
	}
	return strings.Join(out, wp.join)
}

// Wordwise tries every separator within its share of the time left; it
// reports whether consider accepted a program.
func Wordwise(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if len(p.B.Types) != 1 || p.B.Types[0] != dsl.Str || p.Out != dsl.Str || p.Nullable || len(p.Outs) < 2 || en.Stopped {
		return false
	}
	until := time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * wordsShare))
	for _, sep := range wordSeps {
		for _, join := range []string{sep, ""} {
			if time.Now().After(until) {
				return false
			}
			wp, good := searchWordProgram(p, sep, join, until, en)
			if !good {
				continue
			}
			vals := make([]any, len(en.Envs))
			for i, env := range en.Envs {
				vals[i] = wp.run(env[0].(string))
			}
			if consider(wordNode(p, wp), vals) {
				return true
			}
		}
	}
	return false
}

// searchWordProgram reads the examples as words split on sep (the
// outputs' words joined by join) and searches the function (and the
// condition) that gives every output word.
func searchWordProgram(p *dsl.Problem, sep, join string, until time.Time, en *Search) (wordProgram, bool) {
	type point struct {
		env []any
		out string
	}
	var points []point
	several, changed := false, 0
	for e, o := range p.Outs {
		in := strings.Split(p.Envs[e][0].(string), sep)
		out, good := splitWords(o.(string), join, in)
		if !good {
			return wordProgram{}, false
		}
		several = several || len(in) > 1
		for i, w := range in {
			if len(points) < maxPointsSearched {
				points = append(points, point{[]any{w, int64(i), int64(len(in))}, out[i]})
			}
			if out[i] != w {
				changed++
			}
		}
	}
	if !several || changed == 0 {
		return wordProgram{}, false
	}
	sub := func(out dsl.Type) *dsl.Problem {
		return &dsl.Problem{B: &dsl.Binding{Names: wordNames, Types: []dsl.Type{dsl.Str, dsl.Int, dsl.Int}}, Round: -1, Mined: p.Mined,
			Out: out, Ok: []dsl.Type{out}}
	}
	share := func(part float64) time.Time {
		return time.Now().Add(time.Duration(float64(time.Until(until)) * part))
	}
	all := sub(dsl.Str)
	for _, pt := range points {
		all.Envs, all.Outs = append(all.Envs, pt.env), append(all.Outs, pt.out)
	}
	if fn := en.holeSearch(all, share(0.4), en.Done, wordFuncMax, en.MemLimit/4, false, false); fn != nil {
		return wordProgram{sep: sep, join: join, fn: fn}, true
	}
	// The words that change, then the condition that tells them apart.
	moved := sub(dsl.Str)
	for _, pt := range points {
		if pt.out != pt.env[0].(string) {
			moved.Envs, moved.Outs = append(moved.Envs, pt.env), append(moved.Outs, pt.out)
		}
	}
	if len(moved.Outs) < 2 || len(moved.Outs) == len(points) {
		return wordProgram{}, false
	}
	fn := en.holeSearch(moved, share(0.5), en.Done, wordFuncMax, en.MemLimit/4, false, false)
	if fn == nil {
		return wordProgram{}, false
	}
	cond := sub(dsl.Bool)
	for _, pt := range points {
		v, isStr := dsl.EvalSafe(fn, pt.env).(string)
		if isStr && v == pt.env[0].(string) {
			continue // f leaves the word as it is: either branch fits
		}
		cond.Envs, cond.Outs = append(cond.Envs, pt.env), append(cond.Outs, pt.out != pt.env[0].(string))
	}
	if len(cond.Outs) < 2 {
		return wordProgram{}, false
	}
	c := en.holeSearch(cond, until, en.Done, wordCondMax, en.MemLimit/4, false, false)
	if c == nil {
		return wordProgram{}, false
	}
	return wordProgram{sep: sep, join: join, fn: fn, cond: c}, true
}

// splitWords cuts an output into the words of the input in: on join, or
// into the input words' lengths when join is empty.
func splitWords(out, join string, in []string) ([]string, bool) {
	if join != "" {
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
	name := fmt.Sprintf("wordwise[%q to %q: %s", wp.sep, wp.join, wp.fn)
	size := 3 + wp.fn.Size
	if wp.cond != nil {
		name += " if " + wp.cond.String()
		size += 1 + wp.cond.Size
	}
	op := &dsl.Operator{Name: name + "]", Args: p.B.Types, Ret: dsl.Str, Fam: dsl.FamList, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return wp.run(a[0].(string)) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			vars := make([]dsl.Code, len(wordNames))
			for i, n := range wordNames {
				vars[i] = dsl.Atom(n)
			}
			expr := e.Node(wp.fn, vars).S
			if wp.cond != nil {
				expr = fmt.Sprintf("%s if %s else w", expr, e.Node(wp.cond, vars).S)
			}
			body := fmt.Sprintf("    words = %s.split(%s)\n    return %s.join([%s for i, w in enumerate(words)])\n",
				p.B.Names[0], strconv.Quote(wp.sep), strconv.Quote(wp.join), expr)
			return dsl.Call(e.LoopHelper("wordwise", p.B.Names, body), a...)
		}}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{{Var: 0, Size: 1}}, Var: -1, Size: size}
}
