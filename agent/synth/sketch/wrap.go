package sketch

import (
	"fmt"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Greedy wrapping: the words of a text (split on white space) filled into
// lines, each line taking further words joined by single spaces while it
// stays within a width (or below it), a word longer than the width
// standing on a line of its own; the output lists the lines or joins them
// by newlines. The width is an integer argument or a constant: a constant
// is learned as the widths every example allows, an interval whose
// middle the program takes and whose ends make rivals, so that proposals
// probe it until it closes.

// wrapMaxWidth bounds the constant widths tried.
const wrapMaxWidth = 200

// wrapProgram is one filling: the text variable, the width (a variable,
// or a constant when widthVar is -1), whether a line must stay below the
// width rather than within it, and whether the lines are joined.
type wrapProgram struct {
	text, widthVar int
	width          int64
	below, joined  bool
}

func (wp wrapProgram) run(env []any) any {
	width := wp.width
	if wp.widthVar >= 0 {
		width = env[wp.widthVar].(int64)
	}
	if wp.below {
		width--
	}
	lines := wrapLines(env[wp.text].(string), width)
	if wp.joined {
		return strings.Join(lines, "\n")
	}
	return lines
}

// wrapLines fills the words of s into lines of at most width characters.
func wrapLines(s string, width int64) []string {
	lines := []string{}
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case int64(len([]rune(line))+1+len([]rune(w))) <= width:
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

// Wrap tries every integer variable as the width, then constant widths;
// it reports whether consider accepted a program.
func Wrap(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	text := textVar(p)
	if text < 0 || p.Nullable || len(p.Outs) < 2 || en.Stopped || p.Out != dsl.ListStr && p.Out != dsl.Str {
		return false
	}
	for _, name := range p.B.Names {
		if name == "lines" || name == "line" || name == "word" {
			return false // the emitted loop's own names would hide it
		}
	}
	// The examples must wrap: one puts words of the text on one line and
	// some (the same or another) breaks it into several lines.
	joins, breaks := false, false
	for i, o := range p.Outs {
		n := len(strings.Fields(p.Envs[i][text].(string)))
		lines := 0
		switch out := o.(type) {
		case []string:
			lines = len(out)
		case string:
			if out != "" {
				lines = strings.Count(out, "\n") + 1
			}
		}
		joins = joins || lines > 0 && lines < n
		breaks = breaks || lines > 1
	}
	if !joins || !breaks {
		return false
	}
	joined := p.Out == dsl.Str
	var fills []wrapProgram
	for v, t := range p.B.Types {
		if t == dsl.Int {
			for _, below := range []bool{false, true} {
				fills = append(fills, wrapProgram{text: text, widthVar: v, below: below, joined: joined})
			}
		}
	}
	if fillSketch(en, p, fills, func(wp wrapProgram, env []any) any { return wp.run(env) },
		func(wp wrapProgram) *dsl.Node { return wrapNode(p, wp) }, consider) {
		return true
	}
	// A constant width: the middle of the widths that fit, then its ends.
	lo, hi := int64(-1), int64(-1)
widths:
	for w := int64(1); w <= wrapMaxWidth; w++ {
		wp := wrapProgram{text: text, widthVar: -1, width: w, joined: joined}
		fits := true
		for i := range p.Outs {
			if !p.MatchesAt(i, wp.run(p.Envs[i])) {
				fits = false
				break
			}
		}
		switch {
		case fits && lo < 0:
			lo, hi = w, w
		case fits && hi == w-1:
			hi = w
		case !fits && lo >= 0:
			break widths
		}
	}
	if lo < 0 {
		return false
	}
	fills = []wrapProgram{{text: text, widthVar: -1, width: lo + (hi-lo)/2, joined: joined}}
	if en.Collect {
		for _, w := range []int64{lo, hi} {
			if w != fills[0].width {
				fills = append(fills, wrapProgram{text: text, widthVar: -1, width: w, joined: joined})
			}
		}
	}
	return fillSketch(en, p, fills, func(wp wrapProgram, env []any) any { return wp.run(env) },
		func(wp wrapProgram) *dsl.Node { return wrapNode(p, wp) }, consider)
}

func wrapNode(p *dsl.Problem, wp wrapProgram) *dsl.Node {
	width := fmt.Sprint(wp.width)
	if wp.widthVar >= 0 {
		width = p.B.Names[wp.widthVar]
	}
	cmp := "<="
	if wp.below {
		cmp = "<"
	}
	op := &dsl.Operator{Name: fmt.Sprintf("wrap[len %s %s joined=%v]", cmp, width, wp.joined), Args: p.B.Types, Ret: p.Out, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return wp.run(a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			var sb strings.Builder
			fmt.Fprintf(&sb, "    lines, line = [], \"\"\n    for word in %s.split():\n", p.B.Names[wp.text])
			sb.WriteString("        if not line:\n            line = word\n")
			fmt.Fprintf(&sb, "        elif len(line) + 1 + len(word) %s %s:\n            line += \" \" + word\n", cmp, width)
			sb.WriteString("        else:\n            lines.append(line)\n            line = word\n")
			sb.WriteString("    if line:\n        lines.append(line)\n")
			if wp.joined {
				sb.WriteString("    return \"\\n\".join(lines)\n")
			} else {
				sb.WriteString("    return lines\n")
			}
			return dsl.Call(e.LoopHelper("wrap", p.B.Names, sb.String()), a...)
		}}
	return overVars(p, op, 6)
}
