package sketch

import (
	"unicode"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// A validator of fixed-width text: whether a text is a time "HH:MM", a
// date "YYYY-MM-DD", a code "AB-1234". The texts it accepts share one
// length and, at each position, a class of character: one literal
// character (the separator), a digit or a letter; the runs of digits are
// numeric fields, each within a range. The pattern is read off the
// accepted examples: their length, each position's class, each field's
// smallest and largest value. The test is the conjunction, in that order,
// of the length, the literals, the classes of the runs and the fields'
// bounds, each evaluated only when the ones before it hold (the length
// guards the positions, a run of digits its value); a bound the rejected
// examples never need is left out (a field's 00 is no lower bound).
// Beside the enumeration, which reaches a conjunction of two tests, a
// validator has five or more.

var (
	opLenStr  = dsl.Catalog.Find("len", dsl.Str)
	opEqInt   = dsl.Catalog.Find("eq", dsl.Int, dsl.Int)
	opLeInt   = dsl.Catalog.Find("le", dsl.Int, dsl.Int)
	opCharAt  = dsl.Catalog.Find("char_at", dsl.Str, dsl.Int)
	opSeq     = dsl.Catalog.Find("seq", dsl.Str, dsl.Str)
	opPrefix  = dsl.Catalog.Find("prefix", dsl.Str, dsl.Int)
	opSuffix  = dsl.Catalog.Find("suffix", dsl.Str, dsl.Int)
	opIsDigit = dsl.Catalog.Find("isdigit", dsl.Str)
	opIsAlpha = dsl.Catalog.Find("isalpha", dsl.Str)
	opIntOf   = dsl.Catalog.Find("int_of", dsl.Str)
)

// minPatternAccepted is the fewest accepted and rejected examples a
// pattern is read from: with fewer, a position's class is chance.
const minPatternAccepted = 4

// position classes of a pattern.
const (
	classAny = iota
	classLiteral
	classDigit
	classAlpha
)

// patternRun is a run of positions of one class: [lo, hi) of the text.
type patternRun struct {
	lo, hi int
	class  int
	lit    rune
	// min and max bound a run of digits' value over the accepted texts.
	min, max int64
}

// Pattern looks for the validator of a fixed-width text (see above): a
// problem of one text whose result is a truth value. It reports whether
// consider accepted a program.
func Pattern(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if p.Out != dsl.Bool || len(p.B.Types) != 1 || p.B.Types[0] != dsl.Str || en.Stopped || opLenStr == nil || opEqInt == nil ||
		opLeInt == nil || opCharAt == nil || opSeq == nil || opPrefix == nil || opSuffix == nil || opIsDigit == nil ||
		opIsAlpha == nil || opIntOf == nil {
		return false
	}
	var yes [][]rune
	no := 0
	for i, out := range p.Outs {
		b, ok := out.(bool)
		if !ok {
			return false
		}
		if !b {
			no++
			continue
		}
		yes = append(yes, []rune(p.Envs[i][0].(string)))
	}
	if len(yes) < minPatternAccepted || no < minPatternAccepted {
		return false
	}
	runs, ok := patternRuns(yes)
	if !ok {
		return false
	}
	tests := patternTests(len(yes[0]), runs)
	fits := func(tests []*dsl.Node) bool {
		n := patternNode(tests)
		for i := range p.Outs {
			if !p.MatchesAt(i, dsl.EvalSafe(n, p.Envs[i])) {
				return false
			}
		}
		return true
	}
	if !fits(tests) {
		return false
	}
	// Bounds the rejected examples do not need are left out, the last
	// first.
	for k := len(tests) - 1; k >= 0; k-- {
		if tests[k].Op != opLeInt {
			continue
		}
		fewer := append(append([]*dsl.Node(nil), tests[:k]...), tests[k+1:]...)
		if fits(fewer) {
			tests = fewer
		}
	}
	return offer(en, patternNode(tests), consider)
}

// patternRuns reads the classes of the positions off the accepted texts,
// all of one length, and joins them into runs; a run of digits gets the
// range of its values. It reports false when the texts differ in length
// or no position has a class.
func patternRuns(yes [][]rune) ([]patternRun, bool) {
	width := len(yes[0])
	if width == 0 {
		return nil, false
	}
	classes := make([]int, width)
	lits := make([]rune, width)
	for k := range width {
		c := yes[0][k]
		lit, digit, alpha := true, true, true
		for _, s := range yes {
			if len(s) != width {
				return nil, false
			}
			lit = lit && s[k] == c
			digit = digit && s[k] >= '0' && s[k] <= '9'
			alpha = alpha && unicode.IsLetter(s[k])
		}
		switch {
		case digit:
			classes[k] = classDigit
		case lit:
			classes[k], lits[k] = classLiteral, c
		case alpha:
			classes[k] = classAlpha
		}
	}
	var runs []patternRun
	some := false
	for k := 0; k < width; {
		r := patternRun{lo: k, hi: k + 1, class: classes[k], lit: lits[k]}
		if r.class == classDigit || r.class == classAlpha {
			for r.hi < width && classes[r.hi] == r.class {
				r.hi++
			}
		}
		some = some || r.class != classAny
		if r.class == classDigit {
			r.min, r.max = -1, -1
			for _, s := range yes {
				v := int64(0)
				for _, c := range s[r.lo:r.hi] {
					v = v*10 + int64(c-'0')
				}
				if r.min < 0 || v < r.min {
					r.min = v
				}
				r.max = max(r.max, v)
			}
		}
		runs = append(runs, r)
		k = r.hi
	}
	return runs, some
}

// patternTests are a pattern's tests, in the order they are evaluated:
// the length, the literals, the runs' classes, then each field's upper
// and lower bounds.
func patternTests(width int, runs []patternRun) []*dsl.Node {
	v := &dsl.Node{Var: 0, Size: 1}
	tests := []*dsl.Node{call(opEqInt, call(opLenStr, v), konst(int64(width)))}
	for _, r := range runs {
		if r.class == classLiteral {
			tests = append(tests, call(opSeq, call(opCharAt, v, konst(int64(r.lo))), konst(string(r.lit))))
		}
	}
	field := func(r patternRun) *dsl.Node {
		var n *dsl.Node = v
		if r.hi < width {
			n = call(opPrefix, n, konst(int64(r.hi)))
		}
		if r.lo > 0 {
			n = call(opSuffix, n, konst(int64(r.lo)))
		}
		return n
	}
	for _, r := range runs {
		switch r.class {
		case classDigit:
			tests = append(tests, call(opIsDigit, field(r)))
		case classAlpha:
			tests = append(tests, call(opIsAlpha, field(r)))
		}
	}
	for _, r := range runs {
		if r.class == classDigit {
			val := call(opIntOf, field(r))
			tests = append(tests, call(opLeInt, val, konst(r.max)), call(opLeInt, konst(r.min), val))
		}
	}
	return tests
}

// patternNode is the conjunction of tests, each evaluated only when the
// ones before it hold: "b if a else False".
func patternNode(tests []*dsl.Node) *dsl.Node {
	ite := dsl.Catalog.Conds[dsl.Bool]
	n := tests[len(tests)-1]
	for k := len(tests) - 2; k >= 0; k-- {
		n = call(ite, tests[k], n, konst(false))
	}
	return n
}

// call is op applied to kids.
func call(op *dsl.Operator, kids ...*dsl.Node) *dsl.Node {
	n := &dsl.Node{Op: op, Kids: kids, Var: -1, Size: op.Cost}
	for _, k := range kids {
		n.Size += k.Size
	}
	return n
}

// konst is a constant.
func konst(c any) *dsl.Node { return &dsl.Node{Var: -1, Const: c, Size: 1} }
