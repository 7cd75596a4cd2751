package sketch

import (
	"fmt"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Shift comparisons. Two sequences (two integer lists, or two strings)
// compared with one of them moved by every amount k: rotated left
// (s[k:] + s[:k]), rotated right, or shifted (s[k:]). A test or a score of
// the moved sequence and the other one is a hole the enumerator fills,
// and the answer reads its values over k: the first k where the test holds
// (or a default, learned from the examples where none does), how many k
// pass it, whether any or all do; the k of the best or the worst score
// (the first on ties), or that score. "By how much is ys xs rotated" is
// the first k with xs[k:] + xs[:k] == ys; "the rotation that matches most
// positions" the first k of the largest count of equal pairs.
//
// One search of the hole serves every reading: its environments are those
// of every way of moving a sequence, one segment each, and a program is
// accepted when one segment's values, read by one of the answers, give
// every output.

// shiftDir is how a sequence is moved by k.
type shiftDir int

const (
	rotLeft shiftDir = iota
	rotRight
	dropFront
	numShiftDirs
)

// shiftAgg is how the values over k make the answer.
type shiftAgg int

const (
	aggFirst shiftAgg = iota
	aggCount
	aggAny
	aggAll
	aggArgmax
	aggArgmin
	aggMax
	aggMin
)

var shiftAggNames = [...]string{"first", "count", "any", "all", "argmax", "argmin", "max", "min"}

// shiftProgram is a filling: which variable moves and how, whether an
// empty moved sequence still has the amount 0, the answer, its default
// (first: no k passes) and the hole over (moved, other).
type shiftProgram struct {
	moved int
	dir   shiftDir
	empty bool
	agg   shiftAgg
	dflt  int64
	fn    *dsl.Node
}

// Bounds of the sketch: the size of the hole, the share of the time left,
// the examples with a sequence of two or more it needs.
const (
	shiftMaxSize  = 6
	shiftShare    = 0.3
	shiftExamples = 3
)

// seqLen is a sequence's length (runes of a string).
func seqLen(v any) int {
	switch s := v.(type) {
	case []int64:
		return len(s)
	case string:
		return len([]rune(s))
	}
	return 0
}

// moveSeq moves a sequence by k (0 <= k <= its length).
func moveSeq(v any, dir shiftDir, k int) any {
	switch s := v.(type) {
	case []int64:
		return moveSlice(s, dir, k)
	case string:
		return string(moveSlice([]rune(s), dir, k))
	}
	return dsl.ErrV
}

func moveSlice[T any](s []T, dir shiftDir, k int) []T {
	n := len(s)
	switch dir {
	case rotLeft:
		return append(append(make([]T, 0, n), s[k:]...), s[:k]...)
	case rotRight:
		return append(append(make([]T, 0, n), s[n-k:]...), s[:n-k]...)
	}
	return s[k:]
}

// amounts is how many amounts k a moved sequence of n has: n, or 1 for
// an empty one when empty is set (k = 0 only).
func amounts(n int, empty bool) int {
	if n == 0 && empty {
		return 1
	}
	return n
}

// env is the hole's environment at amount k: the moved sequence, the
// other.
func (sp shiftProgram) env(sq seqPair, in []any, k int) []any {
	a, b := sq.get(in)
	if sp.moved == 1 {
		a, b = b, a
	}
	return []any{moveSeq(a, sp.dir, k), b}
}

// read makes the answer from the hole's values over k; it fails where a
// value is not of the hole's kind, and for argmax, argmin, max and min of
// no values.
func read(agg shiftAgg, dflt int64, vals []any) any {
	switch agg {
	case aggFirst, aggCount, aggAny, aggAll:
		count, first := int64(0), int64(-1)
		for k, v := range vals {
			b, isBool := v.(bool)
			if !isBool {
				return dsl.ErrV
			}
			if b {
				if count == 0 {
					first = int64(k)
				}
				count++
			}
		}
		switch agg {
		case aggFirst:
			if count == 0 {
				return dflt
			}
			return first
		case aggCount:
			return count
		case aggAny:
			return count > 0
		}
		return count == int64(len(vals))
	}
	if len(vals) == 0 {
		return dsl.ErrV
	}
	best, at := int64(0), 0
	for k, v := range vals {
		x, isInt := v.(int64)
		if !isInt {
			return dsl.ErrV
		}
		if k == 0 || (agg == aggArgmax || agg == aggMax) && x > best || (agg == aggArgmin || agg == aggMin) && x < best {
			best, at = x, k
		}
	}
	if agg == aggMax || agg == aggMin {
		return best
	}
	return int64(at)
}

func (sp shiftProgram) run(sq seqPair, in []any) any {
	if !sq.holds(in) {
		return dsl.ErrV
	}
	env := sp.env(sq, in, 0)
	vals := make([]any, amounts(seqLen(env[0]), sp.empty))
	for k := range vals {
		vals[k] = dsl.EvalSafe(sp.fn, sp.env(sq, in, k))
	}
	return read(sp.agg, sp.dflt, vals)
}

// shiftable reads a problem as two sequences with an integer or
// truth-valued output, enough examples with a sequence of two or more and
// outputs that differ.
func shiftable(p *dsl.Problem) (seqPair, bool) {
	sq, good := newSeqPair(p)
	if !good || (p.Out != dsl.Int && p.Out != dsl.Bool) || p.Nullable {
		return sq, false
	}
	long, differ := 0, false
	for e, o := range p.Outs {
		a, b := sq.get(p.Envs[e])
		if seqLen(a) >= 2 || seqLen(b) >= 2 {
			long++
		}
		differ = differ || !dsl.EqualTo(o, p.Outs[0], 0)
	}
	return sq, long >= shiftExamples && differ
}

// Shifts searches the hole within its share of the time left; it reports
// whether consider accepted a program.
func Shifts(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	sq, good := shiftable(p)
	if !good || en.Stopped {
		return false
	}
	sub := &dsl.Problem{B: &dsl.Binding{Names: []string{"r", "o"}, Types: []dsl.Type{sq.typ, sq.typ}}, Round: -1, Mined: p.Mined,
		Out: dsl.Int, Ok: []dsl.Type{dsl.Bool, dsl.Int}}
	// starts[seg][e] is where example e's amounts begin in segment seg
	// (moved variable, direction); every example has at least k = 0.
	type segment struct {
		moved        int
		dir          shiftDir
		starts, lens []int
	}
	var segs []segment
	for moved := range 2 {
		for dir := range numShiftDirs {
			sg := segment{moved: moved, dir: dir, starts: make([]int, len(p.Outs)+1), lens: make([]int, len(p.Outs))}
			sp := shiftProgram{moved: moved, dir: dir}
			sg.starts[0] = len(sub.Envs)
			for e := range p.Outs {
				sg.lens[e] = seqLen(sp.env(sq, p.Envs[e], 0)[0])
				for k := range amounts(sg.lens[e], true) {
					sub.Envs = append(sub.Envs, sp.env(sq, p.Envs[e], k))
				}
				sg.starts[e+1] = len(sub.Envs)
			}
			segs = append(segs, sg)
		}
	}
	// Every reading of the first hole accepted is offered: those that
	// part on inputs the examples lack (an empty sequence) are rivals a
	// proposal tells apart.
	var found []shiftProgram
	accept := func(cand *dsl.Entry) bool {
		vals := cand.Values()
		aggs := []shiftAgg{aggArgmax, aggArgmin, aggMax, aggMin}
		if cand.Type() == dsl.Bool {
			aggs = []shiftAgg{aggFirst, aggCount}
		}
		if p.Out == dsl.Bool {
			aggs = nil
			if cand.Type() == dsl.Bool {
				aggs = []shiftAgg{aggAny, aggAll}
			}
		}
		for _, sg := range segs {
			if !variesWithK(vals, sg.starts) {
				continue
			}
			for _, agg := range aggs {
				for _, empty := range []bool{false, true} {
					if dflt, fits := shiftFits(p, vals, sg.starts, sg.lens, agg, empty); fits {
						found = append(found, shiftProgram{moved: sg.moved, dir: sg.dir, empty: empty, agg: agg, dflt: dflt})
					}
				}
			}
		}
		return len(found) > 0
	}
	until := time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * shiftShare))
	fn := en.holeSearchBy(sub, until, 0, en.Done, shiftMaxSize, en.MemLimit/4, false, false, accept)
	if fn == nil {
		return false
	}
	for _, sp := range found {
		sp.fn = fn
		if offer(en, shiftNode(p, sq, sp), consider) {
			return true
		}
	}
	return false
}

// variesWithK reports whether the values differ over k in some example of
// a segment: a hole blind to the amount answers by the sequences' lengths
// alone, which the levels find in plainer words.
func variesWithK(vals []any, starts []int) bool {
	for e := range len(starts) - 1 {
		for i := starts[e] + 1; i < starts[e+1]; i++ {
			if !dsl.EqualTo(vals[i], vals[starts[e]], 0) {
				return true
			}
		}
	}
	return false
}

// shiftFits reports whether an answer read from a segment's values gives
// every output, and the default it needs (first: the output of every
// example where no amount passes, -1 when there is none). lens are the
// moved sequences' lengths: an empty one has no amount unless empty is
// set.
func shiftFits(p *dsl.Problem, vals []any, starts, lens []int, agg shiftAgg, empty bool) (int64, bool) {
	dflt, haveDflt := int64(-1), false
	atZero := true
	for e, o := range p.Outs {
		vs := vals[starts[e]:starts[e+1]]
		if !empty && lens[e] == 0 {
			vs = nil
		}
		if agg == aggFirst {
			want := o.(int64)
			if v, isInt := read(agg, -1, vs).(int64); isInt && v == -1 && !(want >= 0 && want < int64(len(vs))) {
				// No amount passes: the output is the default.
				if haveDflt && want != dflt {
					return 0, false
				}
				dflt, haveDflt = want, true
				continue
			}
		}
		got := read(agg, dflt, vs)
		if !p.MatchesAt(e, got) {
			return 0, false
		}
		atZero = atZero && len(vs) > 0 && dsl.EqualTo(got, vs[0], 0)
	}
	// The best score that is always the unmoved sequences' own is a
	// program without amounts, which the levels write plainly.
	return dflt, !(atZero && (agg == aggMax || agg == aggMin))
}

// shiftNode is the program: a helper looping over the amounts.
func shiftNode(p *dsl.Problem, sq seqPair, sp shiftProgram) *dsl.Node {
	op := &dsl.Operator{Name: fmt.Sprintf("shifts[%d %d %v %s %d: %s]", sp.moved, sp.dir, sp.empty, shiftAggNames[sp.agg], sp.dflt, sp.fn),
		Args: p.B.Types, Ret: p.Out, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return sp.run(sq, a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("shifts", p.B.Names, sp.python(e, sq)), a...)
		}}
	return overVars(p, op, 3+sp.fn.Size)
}

// python renders the helper's body.
func (sp shiftProgram) python(e *dsl.Emitter, sq seqPair) string {
	s, o := sq.names[sp.moved], sq.names[1-sp.moved]
	var sb strings.Builder
	sb.WriteString(sq.check)
	fmt.Fprintf(&sb, "    n = len(%s)\n", s)
	if sp.empty {
		sb.WriteString("    amounts = range(n) if n else [0]\n")
	} else {
		sb.WriteString("    amounts = range(n)\n")
	}
	sb.WriteString("    values = []\n    for k in amounts:\n")
	switch sp.dir {
	case rotLeft:
		fmt.Fprintf(&sb, "        r = %s[k:] + %s[:k]\n", s, s)
	case rotRight:
		fmt.Fprintf(&sb, "        r = %s[n - k:] + %s[:n - k]\n", s, s)
	default:
		fmt.Fprintf(&sb, "        r = %s[k:]\n", s)
	}
	fmt.Fprintf(&sb, "        values.append(%s)\n", e.Node(sp.fn, []dsl.Code{dsl.Atom("r"), dsl.Atom(o)}).S)
	switch sp.agg {
	case aggFirst:
		fmt.Fprintf(&sb, "    return values.index(True) if True in values else %d\n", sp.dflt)
	case aggCount:
		sb.WriteString("    return values.count(True)\n")
	case aggAny:
		sb.WriteString("    return any(values)\n")
	case aggAll:
		sb.WriteString("    return all(values)\n")
	case aggArgmax:
		sb.WriteString("    return values.index(max(values))\n")
	case aggArgmin:
		sb.WriteString("    return values.index(min(values))\n")
	case aggMax:
		sb.WriteString("    return max(values)\n")
	case aggMin:
		sb.WriteString("    return min(values)\n")
	}
	return sb.String()
}
