package sketch

import (
	"slices"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Loops runs the loop sketches over scalar parameters (loop_params.go)
// within share of the search's time or programs left: when the output is
// a number, the accumulator loop over a range (loop_fold.go), the loop
// counting steps until a condition fails (loop_until.go), for an integer
// the count or the sum of a filtered range (loop_count.go) and, for a
// float, a probability counted over equally likely outcomes
// (loop_outcomes.go); when it is a list of integers, a range with a step
// (loop_range.go). It reports whether consider accepted a program.
func Loops(en *Search, p *dsl.Problem, share float64, consider func(*dsl.Node, []any) bool) bool {
	if en.Stopped || p.Nullable || len(p.Outs) == 0 {
		return false
	}
	lp := newLoopParams(p)
	if lp == nil {
		return false
	}
	lk := newLoopKit(en, p, lp, share)
	switch p.Out {
	case dsl.Int, dsl.Float:
		if len(lk.counts) == 0 && p.Out == dsl.Float {
			return false
		}
		lk.phase(loopTermsShare)
		lk.terms(en, p)
		if p.Out == dsl.Float {
			lk.phase(outcomeShare)
			if outcomeSketch(en, p, lk, consider) {
				return true
			}
			return foldSketch(en, p, lk, [2]float64{0.5, 1}, consider)
		}
		if len(lk.counts) > 0 && foldSketch(en, p, lk, [2]float64{0.25, 1.0 / 3}, consider) {
			return true
		}
		lk.phase(0.5)
		if countSketch(en, p, lk, consider) {
			return true
		}
		lk.phase(1)
		return untilSketch(en, p, lk, consider)
	case dsl.ListInt:
		lk.phase(loopTermsShare)
		lk.terms(en, p)
		lk.phase(0.2)
		if rangeSketch(en, p, lk, consider) {
			return true
		}
		lk.phase(1)
		return filterSketch(en, p, lk, consider)
	}
	return false
}

// loopKit is what the loop sketches of one problem share: its
// parameters and their values on the examples, the terms over them, and
// the budget.
type loopKit struct {
	en *Search
	p  *dsl.Problem
	lp *loopParams
	// ps are the parameters' values on each example.
	ps [][]any
	// counts are the integer parameters that can count a loop's steps
	// (whole numbers from 0 to maxFoldSteps on every example).
	counts []int
	// bySize are the terms of the parameters alone, by size; inits those
	// of size 1 (a parameter or a constant).
	bySize [][]*term
	inits  []*term
	budget loopBudget
}

// loopBudget is the sketches' budget: programs when the search counts
// programs (a check of a filling counts as one), time otherwise, given
// out in phases (the terms, then each sketch) so that one sketch does
// not leave another nothing.
type loopBudget struct {
	until            time.Time
	maxEval, spent   int64
	phaseUntil       time.Time
	phaseEval        int64
	phaseOut, allOut bool
}

// Bounds of the terms.
const (
	termMaxSize    = 5
	maxTerms       = 12000
	ruleTermsSize  = 6
	traceMaxSize   = 6
	maxTraceEnvs   = 4096
	maxTraceTerms  = 4000
	loopTermsShare = 0.3
	outcomeShare   = 0.1
)

func newLoopKit(en *Search, p *dsl.Problem, lp *loopParams, share float64) *loopKit {
	lk := &loopKit{en: en, p: p, lp: lp, budget: budgetOf(en, share)}
	for _, env := range p.Envs {
		ps, good := lp.values(env)
		if !good {
			lk.budget.allOut = true
			return lk
		}
		lk.ps = append(lk.ps, ps)
	}
	for _, k := range lp.ints() {
		good := true
		for _, ps := range lk.ps {
			if v := ps[k].(int64); v < 0 || v > maxFoldSteps {
				good = false
			}
		}
		if good {
			lk.counts = append(lk.counts, k)
		}
	}
	return lk
}

// budgetOf is share of what is left of the search's time or programs.
func budgetOf(en *Search, share float64) loopBudget {
	var b loopBudget
	if !en.Deadline.IsZero() {
		b.until = time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * share))
	}
	if en.MaxEval > 0 {
		b.maxEval = max(int64(float64(en.MaxEval)*share), 1)
	}
	return b
}

// phase starts a phase with share f of what is left.
func (lk *loopKit) phase(f float64) {
	b := &lk.budget
	b.phaseOut = b.allOut
	if !b.until.IsZero() {
		b.phaseUntil = time.Now().Add(time.Duration(float64(time.Until(b.until)) * f))
	}
	if b.maxEval > 0 {
		b.phaseEval = b.spent + max(int64(float64(b.maxEval-b.spent)*f), 1)
	}
}

// spend counts n programs; it reports false once the phase is over.
func (lk *loopKit) spend(n int64) bool {
	b := &lk.budget
	if b.phaseOut {
		return false
	}
	b.spent += n
	lk.en.Evaluated += n
	if b.maxEval > 0 {
		b.allOut = b.spent >= b.maxEval
		b.phaseOut = b.allOut || b.spent >= b.phaseEval
	}
	if b.spent&4095 < n && !b.phaseOut {
		now := time.Now()
		b.allOut = !b.until.IsZero() && now.After(b.until) || lk.en.interrupted()
		b.phaseOut = b.allOut || !b.phaseUntil.IsZero() && now.After(b.phaseUntil)
	}
	return !b.phaseOut
}

// spent reports whether the phase is over.
func (lk *loopKit) spent() bool { return lk.budget.phaseOut }

// share is what is left of the phase times f, as a deadline and a
// count of programs for a hole.
func (lk *loopKit) share(f float64) (time.Time, int64) {
	b := &lk.budget
	var deadline time.Time
	if !b.phaseUntil.IsZero() {
		deadline = time.Now().Add(time.Duration(float64(time.Until(b.phaseUntil)) * f))
	}
	var n int64
	if b.maxEval > 0 {
		n = max(int64(float64(b.phaseEval-b.spent)*f), 1)
	}
	return deadline, n
}

// terms collects the terms of the parameters alone, over the examples.
func (lk *loopKit) terms(en *Search, p *dsl.Problem) {
	if lk.spent() {
		return
	}
	deadline, n := lk.share(1)
	ts := collectTerms(en, p, termHole{names: lk.lp.names, types: lk.lp.types, envs: lk.ps, out: dsl.Float, maxSize: termMaxSize, maxTerms: maxTerms,
		shift: 2, deadline: deadline, maxEval: n})
	lk.spend(int64(len(ts)))
	for _, t := range ts {
		for len(lk.bySize) <= t.n.Size {
			lk.bySize = append(lk.bySize, nil)
		}
		lk.bySize[t.n.Size] = append(lk.bySize[t.n.Size], t)
		if t.n.Size == 1 {
			lk.inits = append(lk.inits, t)
		}
	}
}

// byRuns orders the examples by the steps a loop takes on them, fewest
// first: a filling that is wrong is most often wrong at once.
func (lk *loopKit) byRuns(steps func(e int) int64) []int {
	order := make([]int, len(lk.ps))
	for e := range order {
		order[e] = e
	}
	slices.SortStableFunc(order, func(a, b int) int {
		sa, sb := steps(a), steps(b)
		switch {
		case sa < sb:
			return -1
		case sa > sb:
			return 1
		}
		return 0
	})
	return order
}

// searchRules tries every rule with terms of the parameters alone (the
// third of a rule with three a term of size 1), in
// the order of their total size — the rule's cost, its terms' sizes and
// the extra size of the loop's other choices (a range other than n steps,
// a bound larger than a parameter), from 0 to maxExtra — until try
// accepts one.
func (lk *loopKit) searchRules(try func(r *rule, c, d, e *term, extra int) bool, maxExtra int) bool {
	at := func(s int) []*term {
		if s >= 1 && s < len(lk.bySize) {
			return lk.bySize[s]
		}
		return nil
	}
	for total := 2; total <= ruleTermsSize+4+maxExtra; total++ {
		for extra := 0; extra <= maxExtra; extra++ {
			for _, r := range rules {
				terms := total - r.cost - extra
				if terms > ruleTermsSize || terms < r.holes {
					continue
				}
				switch r.holes {
				case 1:
					for _, c := range at(terms) {
						if try(r, c, nil, nil, extra) {
							return true
						}
					}
				case 2:
					for a := 1; a < terms; a++ {
						for _, c := range at(a) {
							for _, d := range at(terms - a) {
								if try(r, c, d, nil, extra) {
									return true
								}
							}
						}
					}
				default:
					// The third term is a parameter or a constant.
					for a := 1; a < terms-1; a++ {
						for _, c := range at(a) {
							for _, d := range at(terms - a - 1) {
								for _, e := range at(1) {
									if try(r, c, d, e, extra) {
										return true
									}
								}
							}
						}
					}
				}
				if lk.spent() {
					return false
				}
			}
		}
	}
	return false
}

// ignoresState reports whether a rule with its terms gives one value
// whatever the state on every example the terms are defined at (x * 0 +
// d, x + 1 * (d - x)): a loop of it is no loop but an expression that
// the levels write plainly, and it fits the examples whose loop runs
// once or more only by accident. at gives the values' index of an
// example's terms (-1: none); with no example to tell, it does not.
func ignoresState(r *rule, c, d, t *term, at func(e int) int, examples int) bool {
	decided := false
	for e := range examples {
		k := at(e)
		if k < 0 || !c.good(k) || d != nil && !d.good(k) || t != nil && !t.good(k) {
			continue
		}
		a, goodA := r.float(1.5, c.f[k], termF(d, k), termF(t, k))
		b, goodB := r.float(2.5, c.f[k], termF(d, k), termF(t, k))
		if !goodA || !goodB || a != b {
			return false
		}
		decided = true
	}
	return decided
}

// ruleProg is a rule's program over [x, i, params...] with its terms
// (over [i, params...]) in place.
func (lk *loopKit) ruleProg(r *rule, c, d, t *term, float bool) *dsl.Node {
	state := dsl.Int
	if float {
		state = dsl.Float
	}
	b := &ruleBuilder{float: float, vars: append([]dsl.Type{state, dsl.Int}, lk.lp.types...)}
	x := &dsl.Node{Var: 0, Size: 1}
	var dn, tn *dsl.Node
	if d != nil {
		dn = shiftVars(d.n, d.shift)
	}
	if t != nil {
		tn = shiftVars(t.n, t.shift)
	}
	return r.prog(b, x, shiftVars(c.n, c.shift), dn, tn)
}

// termTrace is a pool of terms that read the index, over each example's
// parameters with every index from 0 to its count (those of the examples
// that fit in maxTraceEnvs).
type termTrace struct {
	count int
	start []int // where an example's indices begin; -1 when not covered
	terms []*term
}

func (tt *termTrace) covers(e int) bool { return tt.start[e] >= 0 }

func (tt *termTrace) at(e int, i int64) int { return tt.start[e] + int(i) }

// traceTerms collects the terms over the index that the loops counted by
// parameter k run through.
func (lk *loopKit) traceTerms(en *Search, p *dsl.Problem, k int) *termTrace {
	if lk.spent() {
		return nil
	}
	tt := &termTrace{count: k, start: make([]int, len(lk.ps))}
	var envs [][]any
	order := lk.byRuns(func(e int) int64 { return lk.ps[e][k].(int64) })
	for e := range tt.start {
		tt.start[e] = -1
	}
	for _, e := range order {
		n := int(lk.ps[e][k].(int64))
		if len(envs)+n+1 > maxTraceEnvs {
			break
		}
		tt.start[e] = len(envs)
		for i := 0; i <= n; i++ {
			envs = append(envs, append([]any{int64(i)}, lk.ps[e]...))
		}
	}
	names, types := append([]string{"i"}, lk.lp.names...), append([]dsl.Type{dsl.Int}, lk.lp.types...)
	deadline, n := lk.share(loopTermsShare)
	tt.terms = collectTerms(en, p, termHole{names: names, types: types, envs: envs, out: dsl.Float, maxSize: traceMaxSize, maxTerms: maxTraceTerms,
		shift: 1, keep: func(n *dsl.Node) bool { return readsVar(n, 0) }, deadline: deadline, maxEval: n})
	lk.spend(int64(len(tt.terms)))
	if len(tt.terms) == 0 {
		return nil
	}
	return tt
}
