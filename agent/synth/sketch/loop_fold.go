package sketch

import (
	"fmt"
	"math"
	"strings"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The accumulator loop over a range of integers:
//
//	x = init
//	for i in range(lo, n + off):
//	    x = rule(x, c, d)
//	return x
//
// n is an integer parameter (a count of years, of terms, of minutes),
// init a parameter or a constant, the rule one of loop_rules.go's shapes
// and c, d terms over the parameters and the index i (a rate's factor,
// the term 1 / i of a series). Compound interest, a cooling drink, a
// harmonic sum, a product of n factors. The terms come from the
// enumerator (loop_terms.go); every filling is checked by running the
// loop over the terms' values on the examples, the examples that run it
// the fewest times first, and an example that runs it no time at all
// says what init is.

// maxFoldSteps bounds the steps a loop takes.
const maxFoldSteps = 100000

// foldForms are the ranges: range(n), range(1, n + 1), then (one size
// more) range(1, n), range(n + 1).
var foldForms = [][2]int64{{0, 0}, {1, 1}, {1, 0}, {0, 1}}

// foldFormExtra is the extra size of each range.
var foldFormExtra = []int{0, 0, 1, 1}

// foldProg is one accumulator loop.
type foldProg struct {
	lp      *loopParams
	count   int
	lo, off int64
	// init is over the parameters, body over [x, i, params...].
	init, body *dsl.Node
	float      bool
}

func (f *foldProg) run(env []any) any {
	ps, good := f.lp.values(env)
	if !good {
		return dsl.ErrV
	}
	hi, good := dsl.AddI(ps[f.count].(int64), f.off)
	if !good || hi-f.lo > maxFoldSteps {
		return dsl.ErrV
	}
	x := initValue(f.init, ps, f.float)
	if dsl.IsErr(x) {
		return x
	}
	benv := append([]any{x, int64(0)}, ps...)
	for i := f.lo; i < hi; i++ {
		benv[0], benv[1] = x, i
		if x = dsl.EvalSafe(f.body, benv); dsl.IsErr(x) {
			return x
		}
	}
	return x
}

// initValue is a loop's start, as a float when its state is one.
func initValue(init *dsl.Node, ps []any, float bool) any {
	x := dsl.EvalSafe(init, ps)
	if v, isInt := x.(int64); isInt && float {
		return float64(v)
	}
	return x
}

// rangeCode is the Python of range(lo, n + off).
func rangeCode(n string, lo, off int64) string {
	hi := n
	if off != 0 {
		hi = fmt.Sprintf("%s + %d", n, off)
	}
	if lo == 0 {
		return "range(" + hi + ")"
	}
	return fmt.Sprintf("range(%d, %s)", lo, hi)
}

func (f *foldProg) python(e *dsl.Emitter) string {
	var sb strings.Builder
	sb.WriteString(f.lp.unpack())
	ps := f.lp.codes()
	fmt.Fprintf(&sb, "    x = %s\n", e.Node(f.init, ps).S)
	i := "_"
	if readsVar(f.body, 1) {
		i = "i"
	}
	fmt.Fprintf(&sb, "    for %s in %s:\n", i, rangeCode(f.lp.names[f.count], f.lo, f.off))
	fmt.Fprintf(&sb, "        x = %s\n", e.Node(f.body, append([]dsl.Code{dsl.Atom("x"), dsl.Atom("i")}, ps...)).S)
	sb.WriteString("    return x\n")
	return sb.String()
}

func (f *foldProg) node(p *dsl.Problem) *dsl.Node {
	ret := dsl.Int
	if f.float {
		ret = dsl.Float
	}
	op := &dsl.Operator{Name: fmt.Sprintf("fold[%s; range(%d, %s+%d): %s]", f.init, f.lo, f.lp.names[f.count], f.off, f.body),
		Args: p.B.Types, Ret: ret, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return f.run(a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("accumulate_loop", f.lp.progNames, f.python(e)), a...)
		}}
	return overVars(p, op, 4+f.init.Size+f.body.Size)
}

// foldCase is a choice of count, range and start, with the examples in
// the order they are checked.
type foldCase struct {
	count   int
	lo, off int64
	init    *term
	order   []int
	extra   int
}

// foldSketch searches the accumulator loops of p within the budget, in
// two phases of the shares given of what is left: the rules over terms
// of the parameters alone, then those over terms that read the index (a
// series' term), so that the first, which has many more fillings, does
// not leave the second nothing.
func foldSketch(en *Search, p *dsl.Problem, lk *loopKit, phases [2]float64, consider func(*dsl.Node, []any) bool) bool {
	float := p.Out == dsl.Float
	var cases []foldCase
	for _, k := range lk.counts {
		for fi, form := range foldForms {
			for _, init := range lk.inits {
				if !float && init.typ != dsl.Int {
					continue
				}
				fc := foldCase{count: k, lo: form[0], off: form[1], init: init, extra: foldFormExtra[fi]}
				if lk.foldStarts(fc) {
					fc.order = lk.byRuns(func(e int) int64 { return fc.steps(lk, e) })
					cases = append(cases, fc)
				}
			}
		}
	}
	if len(cases) == 0 {
		return false
	}
	try := func(r *rule, c, d, t *term, trace *termTrace, extra int) bool {
		if !float && (r.ints == nil || c.typ != dsl.Int || d != nil && d.typ != dsl.Int || t != nil && t.typ != dsl.Int) {
			return false
		}
		at := func(e int) int { return e }
		if trace != nil {
			at = func(e int) int {
				if !trace.covers(e) || lk.ps[e][trace.count].(int64) < 1 {
					return -1
				}
				return trace.at(e, 1)
			}
		}
		if ignoresState(r, c, d, t, at, len(lk.ps)) {
			return false
		}
		for _, fc := range cases {
			if trace != nil && trace.count != fc.count || extra >= 0 && fc.extra != extra {
				continue
			}
			if !lk.spend(1) {
				return false
			}
			if !lk.foldFits(p, fc, r, c, d, t, trace, float) {
				continue
			}
			f := &foldProg{lp: lk.lp, count: fc.count, lo: fc.lo, off: fc.off, init: fc.init.n, float: float}
			f.body = lk.ruleProg(r, c, d, t, float)
			if offer(en, f.node(p), consider) {
				return true
			}
			// The loop ran its steps on every example (and as many to
			// fit them): a search collecting rivals offers every loop
			// that fits, and its budget must see what they cost.
			if !lk.spend(max(fc.allSteps(lk), 1)) {
				return false
			}
		}
		return false
	}
	lk.phase(phases[0])
	if lk.searchRules(func(r *rule, c, d, t *term, extra int) bool { return try(r, c, d, t, nil, extra) }, 1) {
		return true
	}
	lk.phase(phases[1])
	// Terms that read the index: a series' term, a factor that changes
	// with the step.
	for _, k := range lk.counts {
		trace := lk.traceTerms(en, p, k)
		if trace == nil {
			continue
		}
		for _, c := range trace.terms {
			for _, r := range rules[:5] {
				if try(r, c, nil, nil, trace, -1) {
					return true
				}
			}
			if lk.spent() {
				return false
			}
		}
	}
	return false
}

// steps is the times the loop runs on example e.
func (fc foldCase) steps(lk *loopKit, e int) int64 {
	return max(lk.ps[e][fc.count].(int64)+fc.off-fc.lo, 0)
}

// allSteps is the steps of the loop over every example.
func (fc foldCase) allSteps(lk *loopKit) int64 {
	var n int64
	for e := range lk.ps {
		n += min(fc.steps(lk, e), maxFoldSteps)
	}
	return n
}

// foldStarts reports whether the start fits the examples that run the
// loop no time.
func (lk *loopKit) foldStarts(fc foldCase) bool {
	for e := range lk.ps {
		if fc.steps(lk, e) == 0 && (!fc.init.good(e) || !matchNum(lk.p, e, fc.init.f[e])) {
			return false
		}
	}
	return true
}

// foldFits runs the loop over the terms' values on every example the
// terms cover.
func (lk *loopKit) foldFits(p *dsl.Problem, fc foldCase, r *rule, c, d, t *term, trace *termTrace, float bool) bool {
	for _, e := range fc.order {
		if !fc.init.good(e) {
			return false
		}
		n := fc.steps(lk, e)
		if trace != nil && !trace.covers(e) {
			continue
		}
		x, xi := fc.init.f[e], int64(0)
		if !float {
			xi = fc.init.i[e]
		}
		good := true
		for j := int64(0); j < n && good; j++ {
			ce, de := e, e
			if trace != nil {
				ce = trace.at(e, fc.lo+j)
			}
			if !c.good(ce) || d != nil && !d.good(de) || t != nil && !t.good(de) {
				return false
			}
			if float {
				x, good = r.float(x, c.f[ce], termF(d, de), termF(t, de))
			} else {
				xi, good = r.ints(xi, c.i[ce], termI(d, de), termI(t, de))
			}
		}
		if !good {
			return false
		}
		if !float {
			if want, isInt := p.Outs[e].(int64); !isInt || want != xi {
				return false
			}
			continue
		}
		if !matchNum(p, e, x) {
			return false
		}
	}
	return true
}

func termF(t *term, e int) float64 {
	if t == nil {
		return 0
	}
	return t.f[e]
}

func termI(t *term, e int) int64 {
	if t == nil {
		return 0
	}
	return t.i[e]
}

// matchNum reports whether a number is example e's output, rounded as
// the problem says (the kernels' fast rounding).
func matchNum(p *dsl.Problem, e int, v float64) bool {
	if p.Round >= 0 {
		scale := math.Pow(10, float64(p.Round))
		v = math.RoundToEven(v*scale) / scale
	}
	switch w := p.Outs[e].(type) {
	case int64:
		return math.Abs(v-float64(w)) <= task.DefaultAtol
	case float64:
		return math.Abs(v-w) <= task.DefaultAtol
	}
	return false
}
