package sketch

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Segments: a text cut into sentences (at every ., ! or ?), lines or
// words, the segments kept by a condition, and the output the number of
// segments kept or a value of each: how many sentences a text has, the
// number of words of each sentence, how many words are longer than a
// length given beside the text. The condition is one of the usual ones
// (every segment, a segment that is not blank, one that holds a letter)
// or, for a count, a truth value the enumerator searches over the segment,
// its words and the task's other arguments, checked by counting per
// example; the value of each segment is a hole searched on the segments
// kept.

// segmentCut is a way of cutting a text.
type segmentCut struct {
	name string
	cut  func(s string) []string
	py   string // Python expression of the segments of s (%s: the text)
}

var segmentCuts = []segmentCut{
	{name: "sentences", cut: func(s string) []string { return splitOn(s, ".!?") }, py: `re.split(r"[.!?]", %s)`},
	{name: "lines", cut: func(s string) []string { return strings.Split(s, "\n") }, py: `%s.split("\n")`},
	{name: "words", cut: strings.Fields, py: "%s.split()"},
}

// splitOn cuts s at every character of seps, keeping empty segments (as
// re.split does).
func splitOn(s, seps string) []string {
	out := []string{}
	start := 0
	for i, r := range s {
		if strings.ContainsRune(seps, r) {
			out = append(out, s[start:i])
			start = i + len(string(r))
		}
	}
	return append(out, s[start:])
}

// letterRuns are the runs of letters of s: its words when any character
// that is not a letter separates them ("a,b" is two).
func letterRuns(s string) []string {
	runs := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	if runs == nil {
		runs = []string{}
	}
	return runs
}

// pyLetterRuns is letterRuns in Python.
const pyLetterRuns = `def letter_runs(s):
    runs, run = [], ""
    for c in s:
        if c.isalpha():
            run += c
        elif run:
            runs.append(run)
            run = ""
    if run:
        runs.append(run)
    return runs
`

// segmentKeep is one of the usual conditions on a segment.
type segmentKeep struct {
	name string
	keep func(seg string) bool
	py   string // "" keeps every segment
}

var segmentKeeps = []segmentKeep{
	{name: "all", keep: func(string) bool { return true }},
	{name: "not blank", keep: func(seg string) bool { return strings.TrimSpace(seg) != "" }, py: "seg.strip()"},
	{name: "a letter", keep: func(seg string) bool { return strings.IndexFunc(seg, unicode.IsLetter) >= 0 },
		py: "any(c.isalpha() for c in seg)"},
}

// Bounds of the holes: the value of a segment, the condition of a count.
const (
	segmentFuncMax = 5
	segmentCondMax = 5
)

// segmentProgram is one filling: the cut, the condition (a usual one or a
// hole) and the value of each segment (nil: the output counts them).
type segmentProgram struct {
	text int
	out  dsl.Type
	cut  *segmentCut
	keep *segmentKeep
	cond *dsl.Node
	fn   *dsl.Node
}

// segEnv is the environment of a segment's holes: the segment, its words
// (split on white space, and as runs of letters) and the task's other
// variables.
func segEnv(seg string, env []any, text int) []any {
	words := strings.Fields(seg)
	if words == nil {
		words = []string{}
	}
	out := []any{seg, words, letterRuns(seg)}
	for j, v := range env {
		if j != text {
			out = append(out, v)
		}
	}
	return out
}

func (sp segmentProgram) run(env []any) any {
	var vals []any
	count := int64(0)
	for _, seg := range sp.cut.cut(env[sp.text].(string)) {
		senv := segEnv(seg, env, sp.text)
		if sp.cond != nil {
			b, isBool := dsl.EvalSafe(sp.cond, senv).(bool)
			if !isBool {
				return dsl.ErrV
			}
			if !b {
				continue
			}
		} else if !sp.keep.keep(seg) {
			continue
		}
		if sp.fn == nil {
			count++
			continue
		}
		v := dsl.EvalSafe(sp.fn, senv)
		if dsl.IsErr(v) {
			return v
		}
		vals = append(vals, v)
	}
	if sp.fn == nil {
		return count
	}
	if sp.out == dsl.ListStr {
		out := make([]string, len(vals))
		for i, v := range vals {
			out[i] = v.(string)
		}
		return out
	}
	out := make([]int64, len(vals))
	for i, v := range vals {
		out[i] = v.(int64)
	}
	return out
}

// Segments tries every cut and condition; it reports whether consider
// accepted a program.
func Segments(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	text := textVar(p)
	if text < 0 || p.Nullable || len(p.Outs) < 2 || en.Stopped {
		return false
	}
	var ft dsl.Type
	switch p.Out {
	case dsl.Int:
	case dsl.ListInt:
		ft = dsl.Int
	case dsl.ListStr:
		ft = dsl.Str
	default:
		return false
	}
	for _, name := range p.B.Names {
		if name == "seg" || name == "words" || name == "runs" || name == "c" || name == "out" || name == "count" {
			return false // the emitted loop's own names would hide it
		}
	}
	until := time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * wordsShare))
	offer := func(sp segmentProgram) bool {
		vals := make([]any, len(en.Envs))
		for i, env := range en.Envs {
			vals[i] = sp.run(env)
		}
		return consider(segmentNode(p, sp), vals)
	}
	for c := range segmentCuts {
		cut := &segmentCuts[c]
		segs := make([][]string, len(p.Outs))
		several := false
		for i := range p.Outs {
			segs[i] = cut.cut(p.Envs[i][text].(string))
			several = several || len(segs[i]) > 1
		}
		if !several {
			continue
		}
		for k := range segmentKeeps {
			sp := segmentProgram{text: text, out: p.Out, cut: cut, keep: &segmentKeeps[k]}
			if p.Out == dsl.Int {
				if countsFit(p, segs, sp.keep) && offer(sp) {
					return true
				}
				continue
			}
			if time.Now().After(until) {
				return false
			}
			if sp.fn = segmentValue(en, p, text, segs, sp.keep, ft, until); sp.fn != nil && offer(sp) {
				return true
			}
		}
		if p.Out == dsl.Int && !time.Now().After(until) {
			sp := segmentProgram{text: text, out: p.Out, cut: cut}
			if sp.cond = segmentCount(en, p, text, segs, until); sp.cond != nil && offer(sp) {
				return true
			}
		}
	}
	return false
}

// countsFit reports whether every output is the number of segments keep
// keeps.
func countsFit(p *dsl.Problem, segs [][]string, keep *segmentKeep) bool {
	for i, o := range p.Outs {
		n := int64(0)
		for _, seg := range segs[i] {
			if keep.keep(seg) {
				n++
			}
		}
		if n != o.(int64) {
			return false
		}
	}
	return true
}

// segSub is the problem of a segment's hole.
func segSub(p *dsl.Problem, text int, out dsl.Type) *dsl.Problem {
	b := &dsl.Binding{Names: []string{"seg", "words", "runs"}, Types: []dsl.Type{dsl.Str, dsl.ListStr, dsl.ListStr}}
	for j, name := range p.B.Names {
		if j != text {
			b.Names, b.Types = append(b.Names, name), append(b.Types, p.B.Types[j])
		}
	}
	return &dsl.Problem{B: b, Round: -1, Mined: p.Mined, Out: out, Ok: []dsl.Type{out}, Consts: p.Consts}
}

// segmentValue searches the value of each segment keep keeps, when the
// outputs list as many values as it keeps.
func segmentValue(en *Search, p *dsl.Problem, text int, segs [][]string, keep *segmentKeep, ft dsl.Type, until time.Time) *dsl.Node {
	sub := segSub(p, text, ft)
	for i, o := range p.Outs {
		outs := listParts(o)
		var kept []string
		for _, seg := range segs[i] {
			if keep.keep(seg) {
				kept = append(kept, seg)
			}
		}
		if len(kept) != len(outs) {
			return nil
		}
		for j, seg := range kept {
			if len(sub.Outs) < maxPointsSearched {
				sub.Envs, sub.Outs = append(sub.Envs, segEnv(seg, p.Envs[i], text)), append(sub.Outs, outs[j])
			}
		}
	}
	if len(sub.Outs) < 2 {
		return nil
	}
	return en.holeSearch(sub, until, en.Done, segmentFuncMax, en.MemLimit/4, false, false)
}

// segmentCount searches a condition on the segments whose count is every
// output: each program's truth values on all the segments are counted
// per example.
func segmentCount(en *Search, p *dsl.Problem, text int, segs [][]string, until time.Time) *dsl.Node {
	sub := segSub(p, text, dsl.Bool)
	var of []int
	for i := range p.Outs {
		for _, seg := range segs[i] {
			sub.Envs, sub.Outs = append(sub.Envs, segEnv(seg, p.Envs[i], text)), append(sub.Outs, false)
			of = append(of, i)
		}
	}
	if len(sub.Envs) < 2 || len(sub.Envs) > 4*maxPointsSearched {
		return nil
	}
	accept := func(e *dsl.Entry) bool {
		if e.Type() != dsl.Bool {
			return false
		}
		counts := make([]int64, len(p.Outs))
		for j := range sub.Envs {
			b, isBool := e.At(j).(bool)
			if !isBool {
				return false
			}
			if b {
				counts[of[j]]++
			}
		}
		for i, o := range p.Outs {
			if counts[i] != o.(int64) {
				return false
			}
		}
		return true
	}
	return en.holeSearchBy(sub, until, 0, en.Done, segmentCondMax, en.MemLimit/4, false, false, accept)
}

func segmentNode(p *dsl.Problem, sp segmentProgram) *dsl.Node {
	name := "segments[" + sp.cut.name
	size := 3
	switch {
	case sp.cond != nil:
		name += " if " + sp.cond.String()
		size += sp.cond.Size
	default:
		name += " keep " + sp.keep.name
		size++
	}
	if sp.fn != nil {
		name += ": " + sp.fn.String()
		size += sp.fn.Size
	}
	op := &dsl.Operator{Name: name + "]", Args: p.B.Types, Ret: p.Out, Fam: dsl.FamList, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return sp.run(a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			sub := segSub(p, sp.text, dsl.Int)
			vars := make([]dsl.Code, len(sub.B.Names))
			for i, n := range sub.B.Names {
				vars[i] = dsl.Atom(n)
			}
			if strings.HasPrefix(sp.cut.py, "re.") {
				e.Imports["re"] = true
			}
			var sb strings.Builder
			acc := "out = []"
			if sp.fn == nil {
				acc = "count = 0"
			}
			fmt.Fprintf(&sb, "    %s\n    for seg in %s:\n", acc, fmt.Sprintf(sp.cut.py, p.B.Names[sp.text]))
			if usesVar(sp.cond, 1) || usesVar(sp.fn, 1) {
				sb.WriteString("        words = seg.split()\n")
			}
			if usesVar(sp.cond, 2) || usesVar(sp.fn, 2) {
				e.Helpers["letter_runs"] = pyLetterRuns
				sb.WriteString("        runs = letter_runs(seg)\n")
			}
			ind := "        "
			switch {
			case sp.cond != nil:
				fmt.Fprintf(&sb, "        if %s:\n", e.Node(sp.cond, vars).S)
				ind += "    "
			case sp.keep.py != "":
				fmt.Fprintf(&sb, "        if %s:\n", sp.keep.py)
				ind += "    "
			}
			if sp.fn == nil {
				fmt.Fprintf(&sb, "%scount += 1\n    return count\n", ind)
			} else {
				fmt.Fprintf(&sb, "%sout.append(%s)\n    return out\n", ind, e.Node(sp.fn, vars).S)
			}
			return dsl.Call(e.LoopHelper("segments", p.B.Names, sb.String()), a...)
		}}
	return overVars(p, op, size)
}

// usesVar reports whether a program (nil: none) reads variable i.
func usesVar(n *dsl.Node, i int) bool {
	if n == nil {
		return false
	}
	if n.Op == nil {
		return n.Var == i
	}
	for _, k := range n.Kids {
		if usesVar(k, i) {
			return true
		}
	}
	return false
}
