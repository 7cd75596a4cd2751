package synth

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// refitShare is the share of a session's time (or programs) the families'
// sketches get before the whole search, when the last program was a
// sketch's.
const refitShare = 1.0 / 3

// refit returns a session whose program the families' sketches
// (sketch.Families) learned again on p's n examples, when the last
// consistent program was a sketch's and fails the new examples (a word no
// example showed before, one more exception in a learned table): the
// levels and sweeps before the sketches found nothing on fewer examples,
// and a program consistent with more examples is consistent with those,
// so the search would reach the sketches again at the cost of a whole
// session. The sketches get refitShare of the session; nil when they find
// nothing (the whole search follows) or the last program was not a
// sketch's.
func (a *Agent) refit(ctx context.Context, p *dsl.Problem, n int, skip map[string]bool) *session {
	a.mu.Lock()
	last := a.last
	a.mu.Unlock()
	if last == nil || !last.result.sketched || last.prog.Binding != p.B.Line || !slices.Equal(last.types, p.B.Types) ||
		last.prog.Nullable != p.Nullable || !a.runBudgetLeft() {
		return nil
	}
	limit := time.Duration(float64(a.sessionLimit()) * refitShare)
	spec := a.spec(ctx, limit, 3)
	spec.skip = skip
	start := time.Now()
	s := newSearcher(p, spec)
	if !s.en.stopped && s.sketches(func(r *sketch.Search) bool { return sketch.Families(r, p, s.consider) }) {
		s.res.sketched = s.res.solved
	}
	res := s.close()
	spent := time.Since(start)
	a.spend(spent, res.evaluated)
	if !res.solved || ctx.Err() != nil {
		return nil
	}
	res.skipped = skip
	out := &session{result: res, spent: spent, types: p.B.Types}
	out.prog = dsl.Program{Root: res.best, Binding: p.B.Line, BindingHelper: p.B.Helper, Vars: p.B.Names, Round: roundFor(p, res.best), Nullable: p.Nullable}
	out.notes = fmt.Sprintf("The previous program, a sketch's, fails the new examples: the sketches learned it again on all %d first, in %v (%d programs).\n",
		n, spent.Round(time.Millisecond), res.evaluated) +
		fmt.Sprintf("Found a program of size %d consistent with all %d examples: %s.\n", res.best.Size, n, res.best)
	return out
}
