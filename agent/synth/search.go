package synth

import (
	"time"
)

// Default search bounds.
const (
	// defaultMaxSize is the largest program size enumerated.
	defaultMaxSize = 14
	// maxSurvivors bounds the consistent programs kept for proposals.
	maxSurvivors = 48
)

// searchResult is what one search found.
type searchResult struct {
	best      *node
	passed    int
	solved    bool
	evaluated int64
	level     int
	timedOut  bool
	memFull   bool
	banked    int
	// survivors are consistent programs distinct on the extra inputs.
	survivors []*entry
	// skipped are programs excluded as solutions.
	skipped map[string]bool
}

// searchSpec bounds a search.
type searchSpec struct {
	deadline time.Time
	memLimit int64
	maxSize  int
	// extra are environments without outputs (proposal candidates): programs
	// are kept apart by their values on them too.
	extra [][]any
	// collect keeps consistent programs (up to maxSurvivors) instead of
	// stopping at the first.
	collect bool
	// skip holds programs (by String) that must not be returned as solutions.
	skip map[string]bool
	// beyond is how many sizes past the first solution a collecting search
	// continues.
	beyond int
}

// search enumerates programs for the problem level by level (enum.go)
// until one is consistent with every example (or the limits stop it). On
// the way it names categorical outputs by a table over computed values
// (strategy_table.go), and at size 4 it runs the loop sweep
// (strategy_loops.go), the staged sweep over the inputs
// (strategy_sweep_inputs.go) and the sweep over derived arguments
// (strategy_sweep_derived.go); after each size it tries conditionals that
// combine two partial programs (strategy_conditional.go).
func search(p *problem, spec searchSpec) searchResult {
	envs := p.envs
	if len(spec.extra) > 0 {
		envs = append(append([][]any{}, p.envs...), spec.extra...)
	}
	var res searchResult
	bestSize := 0
	masks := map[string]*entry{}
	var maskOrder []string
	consider := func(n *node, vals []any) bool {
		if p.allMatch(vals) {
			if spec.skip[n.String()] {
				return false
			}
			if !res.solved {
				res.best, res.passed, res.solved = n, len(p.outs), true
			}
			res.survivors = append(res.survivors, &entry{n: n, vals: vals})
			return !spec.collect || len(res.survivors) >= maxSurvivors
		}
		return false
	}
	en := newEnumerator(enumConfig{
		envs: envs, vars: p.b.types, consts: topConsts(p), ops: catalog.top,
		lams: lambdasFor(p.mined, spec.deadline), deadline: spec.deadline, memLimit: spec.memLimit,
	})
	en.onNew = func(t valType, e *entry) bool {
		if !p.okType(t) {
			if p.labels != nil {
				if n, vals := p.tabled(t, e); n != nil {
					return consider(n, vals)
				}
			}
			return false
		}
		if consider(e.n, e.vals) {
			return true
		}
		if res.solved {
			return false
		}
		bits, n := p.matches(e.vals)
		if n > res.passed || res.best == nil || (n == res.passed && e.n.Size < bestSize) {
			res.best, res.passed, bestSize = e.n, n, e.n.Size
		}
		if n > 0 && len(p.outs) >= 3 {
			k := maskKey(bits)
			if _, have := masks[k]; !have {
				masks[k] = e
				maskOrder = append(maskOrder, k)
			}
		}
		return false
	}
	// Variables and constants were added before onNew was set.
	for _, t := range p.ok {
		for _, es := range en.bank[t] {
			for _, e := range es {
				if en.onNew(t, e) {
					en.stopped = true
				}
			}
		}
	}
	if !en.stopped {
		en.grow(spec.maxSize, func(size int) bool {
			// Proposals look a little beyond the first consistent program.
			if spec.collect && res.solved && size >= res.best.Size+spec.beyond {
				return true
			}
			if size == 4 && !res.solved {
				if loopSweep(en, p, 0.1, consider) {
					return true
				}
				if familySketches(en, p, consider) {
					return true
				}
				sweepStaged(en, 0.5, p.ok)
				if en.stopped {
					return true
				}
				// Lambdas over derived lists (cumsum(xs), split(s)...).
				en.budgeted(0.3, func() { en.sweepArgs(2, 4) })
				if en.stopped {
					return true
				}
			}
			if res.solved || len(p.outs) < 3 || size < 3 {
				return false
			}
			if n, vals := splitConditional(p, en, masks, maskOrder, 2*size+1); n != nil {
				return consider(n, vals)
			}
			return false
		})
	}
	res.evaluated, res.level, res.timedOut = en.evaluated, en.level, en.timedOut
	res.memFull = en.memFull
	for _, c := range en.perType {
		res.banked += c
	}
	return res
}

// topConsts are the constants of whole programs.
func topConsts(p *problem) []any {
	cs := withConsts([]any{int64(0), int64(1), int64(2), int64(3), int64(-1), int64(10)}, p.mined)
	if p.b.floats || p.out == tFloat || p.out == tListFloat {
		cs = append(cs, 0.0, 1.0)
	}
	if p.out == tStr || p.out == tListStr {
		cs = append(cs, "", " ")
	}
	return cs
}
