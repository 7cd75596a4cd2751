package synth

import (
	"slices"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
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
func loopSweep(en *enumerator, p *dsl.Problem, share float64, consider func(*dsl.Node, []any) bool) bool {
	if p.Out != dsl.Int || en.stopped || len(p.Outs) == 0 {
		return false
	}
	until := en.Mark(share)
	var vars, seeds []*dsl.Entry
	for _, e := range en.bank[dsl.Int][1] {
		switch {
		case e.N.Var >= 0:
			vars = append(vars, e)
		case e.N.Op == nil && isSeed(e.N.Const):
			seeds = append(seeds, e)
		}
	}
	if len(vars) == 0 {
		return false
	}
	type loopJob struct {
		op   *dsl.Operator
		kids []*dsl.Entry
	}
	var jobs []loopJob
	for _, op := range dsl.Catalog.Loops {
		for _, n := range vars {
			for _, a := range seeds {
				switch op {
				case dsl.OpRecurrence:
					for _, b := range seeds {
						jobs = append(jobs, loopJob{op, []*dsl.Entry{n, a, b}})
					}
				case dsl.OpApplyTimes:
					jobs = append(jobs, loopJob{op, []*dsl.Entry{a, n}})
				}
			}
		}
	}
	args := make([]any, 3)
	for size := 1; size < len(en.lams.By[dsl.SigII][dsl.Int]) || size < len(en.lams.By[dsl.SigI][dsl.Int]); size++ {
		for _, j := range jobs {
			op, kids := j.op, j.kids
			for _, l := range en.lams.Get(op.Sig, op.LamRet, size) {
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
				n := &dsl.Node{Op: op, Lam: l, Var: -1, Size: op.Cost + l.Size}
				for _, k := range kids {
					n.Kids = append(n.Kids, k.N)
					n.Size += k.N.Size
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
func loopFits(p *dsl.Problem, op *dsl.Operator, l *dsl.Lambda, kids []*dsl.Entry, args []any) bool {
	for i := range p.Outs {
		if !p.MatchesAt(i, evalAt(op, l, kids, args, i)) {
			return false
		}
	}
	return true
}

// evalAt evaluates op(l, kids) on environment i; an operator panicking on
// an extreme value fails there.
func evalAt(op *dsl.Operator, l *dsl.Lambda, kids []*dsl.Entry, args []any, i int) (v any) {
	defer func() {
		if recover() != nil {
			v = dsl.ErrV
		}
	}()
	for k, e := range kids {
		if dsl.IsErr(e.At(i)) {
			return dsl.ErrV
		}
		args[k] = e.At(i)
	}
	return op.Eval(l, args[:len(kids)])
}
