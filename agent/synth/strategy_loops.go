package synth

import (
	"slices"
)

// loopSeeds are the constants a top-level loop starts from.
var loopSeeds = []int64{0, 1, 2}

// loopSweep tries whole programs that are one loop over an integer
// variable n, with every lambda of the bank as the step:
// recurrence(n, a, b, step) (a Fibonacci-like pair recurrence) and
// apply_times(a, n, step), for seeds a, b among loopSeeds. With the seeds
// and the step's constants such a program is already of size 7 to 9,
// beyond the levels an integer task reaches, but it is checked against the
// examples one at a time and dropped at the first mismatch, so the whole
// bank of steps costs about one loop per lambda. It stops at the first
// program consider accepts, after share of the time left, or when the
// search is cancelled.
func loopSweep(en *enumerator, p *problem, share float64, consider func(*node, []any) bool) bool {
	if p.out != tInt || en.stopped || len(p.outs) == 0 {
		return false
	}
	until := en.mark(share)
	var vars, seeds []*entry
	for _, e := range en.bank[tInt][1] {
		switch {
		case e.n.Var >= 0:
			vars = append(vars, e)
		case e.n.Op == nil && isSeed(e.n.Const):
			seeds = append(seeds, e)
		}
	}
	if len(vars) == 0 {
		return false
	}
	type loopJob struct {
		op   *operator
		kids []*entry
	}
	var jobs []loopJob
	for _, op := range catalog.loops {
		for _, n := range vars {
			for _, a := range seeds {
				switch op {
				case opRecurrence:
					for _, b := range seeds {
						jobs = append(jobs, loopJob{op, []*entry{n, a, b}})
					}
				case opApplyTimes:
					jobs = append(jobs, loopJob{op, []*entry{a, n}})
				}
			}
		}
	}
	args := make([]any, 3)
	for size := 1; size < len(en.lams.by[sigII][tInt]) || size < len(en.lams.by[sigI][tInt]); size++ {
		for _, j := range jobs {
			op, kids := j.op, j.kids
			for _, l := range en.lams.get(op.Sig, op.LamRet, size) {
				// Each loop is one program evaluated (example by example).
				if en.evaluated++; en.evaluated&255 == 0 && (en.interrupted() || en.clock() >= until) {
					return false
				}
				if !loopFits(p, op, l, kids, args) {
					continue
				}
				vals := make([]any, len(en.envs))
				for i := range vals {
					vals[i] = evalAt(op, l, kids, args, i)
				}
				n := &node{Op: op, Lam: l, Var: -1, Size: op.Cost + l.Size}
				for _, k := range kids {
					n.Kids = append(n.Kids, k.n)
					n.Size += k.n.Size
				}
				if consider(n, vals) {
					return true
				}
			}
		}
	}
	return false
}

func isSeed(c any) bool {
	v, isInt := c.(int64)
	return isInt && slices.Contains(loopSeeds, v)
}

// loopFits checks op(l, kids) against the examples one at a time, stopping
// at the first mismatch.
func loopFits(p *problem, op *operator, l *lambda, kids []*entry, args []any) bool {
	for i := range p.outs {
		if !p.matchesAt(i, evalAt(op, l, kids, args, i)) {
			return false
		}
	}
	return true
}

// evalAt evaluates op(l, kids) on environment i; an operator panicking on
// an extreme value fails there.
func evalAt(op *operator, l *lambda, kids []*entry, args []any, i int) (v any) {
	defer func() {
		if recover() != nil {
			v = errV
		}
	}()
	for k, e := range kids {
		if isErr(e.at(i)) {
			return errV
		}
		args[k] = e.at(i)
	}
	return op.Eval(l, args[:len(kids)])
}
