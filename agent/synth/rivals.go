package synth

import (
	"context"
)

// rivalSteps is how many sizes past the smallest program consistent with
// the examples a proposal looks for its rivals: a program consistent with
// thirty examples that is wrong on held-out tests usually had a rival
// within two sizes, and proposals split such rivals until none is left.
const rivalSteps = 2

// maxRivals bounds the rivals kept: the smallest programs fill the first
// maxSurvivors places, the rivals two sizes further need more.
const maxRivals = 4 * maxSurvivors

// rivals returns the programs consistent with p's examples, from the
// smallest up to rivalSteps sizes past it (at most maxRivals), kept
// apart by their values on the proposal candidates extra (environments of
// p's binding): any two of them disagree on some candidate. The search
// gets a proposeShare-th of the session's time (at most maxProposeTime),
// or of Options.MaxPrograms, and stops with ctx.
func (a *Agent) rivals(ctx context.Context, p *problem, extra [][]any) []*entry {
	spec := a.spec(ctx, min(a.opts.TimeLimit/proposeShare, maxProposeTime), proposeShare)
	spec.extra, spec.collect, spec.beyond, spec.keep = extra, true, rivalSteps, maxRivals
	return search(p, spec).survivors
}
