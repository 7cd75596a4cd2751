package synth

import (
	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// sweepArgs applies every one-lambda operator, with every lambda of the
// bank of sizes lamMin..lamMax, to programs of sizes 1..argMax (at least
// one argument of size argMax): map, filter, scan... of derived lists such
// as cumsum(xs) or s.split(). Such programs are structurally simple even
// when their lambda is large, and trying them all costs little next to a
// whole level of the enumeration. Small lambdas go first, across all
// operators. What the sweep produced is reduced (sum, len...) at its end,
// or, when eager, after each operator's turn, so that a budget cutting a
// sweep of many large lambdas still leaves the turns it finished reduced;
// a caller sweeps the small lambdas in one call and the larger ones in
// another, whose budget may cut it without losing the first's reductions.
// (The sweep over the inputs themselves is sweepStaged.)
func (en *enumerator) sweepArgs(argMax, lamMin, lamMax int, eager bool) {
	jobs := en.sweepJobs(argMax)
	maxLam := 0
	for _, j := range jobs {
		maxLam = max(maxLam, len(en.lams.By[j.op.Sig][j.op.LamRet]))
	}
	maxLam = min(maxLam, lamMax+1)
	en.recording, en.recent, en.recordFull = true, nil, eager
	defer func() { en.recordFull = false }()
	for size := max(lamMin, 1); size < maxLam; size++ {
		for _, j := range jobs {
			picked := make([]*dsl.Entry, len(j.lists))
			for _, l := range en.lams.Get(j.op.Sig, j.op.LamRet, size) {
				if en.stopped {
					en.recording = false
					return
				}
				en.product(j.op, l, j.lists, picked, 0, j.op.Cost+l.Size+j.args)
			}
			if eager {
				en.recording = false
				en.reduceRecent()
				en.recording, en.recent = !en.stopped, nil
			}
		}
	}
	en.recording = false
	en.reduceRecent()
}
