package synth

import (
	"slices"
	"sort"
	"time"
)

// Default search bounds.
const (
	// DefaultMaxSize is the largest program size enumerated.
	DefaultMaxSize = 14
	// maxSurvivors bounds the consistent programs kept for proposals.
	maxSurvivors = 48
)

// searchResult is what one search found.
type searchResult struct {
	best      *Node
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

// search enumerates programs for the problem until one is consistent with
// every example (or the limits stop it), trying conditionals that combine
// two partial programs after each size.
func search(p *problem, spec searchSpec) searchResult {
	envs := p.envs
	if len(spec.extra) > 0 {
		envs = append(append([][]any{}, p.envs...), spec.extra...)
	}
	var res searchResult
	bestSize := 0
	masks := map[string]*entry{}
	var maskOrder []string
	consider := func(n *Node, vals []any) bool {
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
	en.onNew = func(t Type, e *entry) bool {
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

func maskKey(bits []uint64) string {
	b := make([]byte, 8*len(bits))
	for i, w := range bits {
		for j := 0; j < 8; j++ {
			b[8*i+j] = byte(w >> (8 * j))
		}
	}
	return string(b)
}

func maskBits(k string) []uint64 {
	out := make([]uint64, len(k)/8)
	for i := range out {
		for j := 0; j < 8; j++ {
			out[i] |= uint64(k[8*i+j]) << (8 * j)
		}
	}
	return out
}

func covers(mask, need []uint64) bool {
	for i := range need {
		if need[i]&^mask[i] != 0 {
			return false
		}
	}
	return true
}

// splitConditional looks for "t if c else e" where t is right wherever the
// condition c holds and e wherever it does not, no bigger than maxSize.
func splitConditional(p *problem, en *enumerator, masks map[string]*entry, order []string, maxSize int) (*Node, []any) {
	nObs := len(p.outs)
	type cand struct {
		bits []uint64
		e    *entry
	}
	cands := make([]cand, 0, len(order))
	for _, k := range order {
		cands = append(cands, cand{maskBits(k), masks[k]})
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].e.n.Size < cands[j].e.n.Size })
	var best *Node
	var bestVals []any
	for _, c := range en.all(TBool) {
		if c.n.Size+3 > maxSize {
			break
		}
		tBits := make([]uint64, (nObs+63)/64)
		fBits := make([]uint64, (nObs+63)/64)
		nt := 0
		valid := true
		for i := 0; i < nObs; i++ {
			b, good := c.vals[i].(bool)
			if !good {
				valid = false
				break
			}
			if b {
				tBits[i/64] |= 1 << (i % 64)
				nt++
			} else {
				fBits[i/64] |= 1 << (i % 64)
			}
		}
		if !valid || nt == 0 || nt == nObs {
			continue
		}
		var t, e *entry
		for _, cd := range cands {
			if t == nil && covers(cd.bits, tBits) {
				t = cd.e
			}
			if e == nil && covers(cd.bits, fBits) {
				e = cd.e
			}
			if t != nil && e != nil {
				break
			}
		}
		if t == nil || e == nil {
			continue
		}
		size := 1 + c.n.Size + t.n.Size + e.n.Size
		if size > maxSize || (best != nil && size >= best.Size) {
			continue
		}
		ret, _ := typeOf(firstValue(t.vals))
		if !p.okType(ret) {
			continue
		}
		// Both branches must have one type for Python and Go to agree.
		if rt, _ := typeOf(firstValue(e.vals)); rt != ret {
			continue
		}
		best = &Node{Op: catalog.conds[ret], Kids: []*Node{c.n, t.n, e.n}, Var: -1, Size: size}
		bestVals = make([]any, len(c.vals))
		for i := range c.vals {
			if b, good := c.vals[i].(bool); good && b {
				bestVals[i] = t.vals[i]
			} else if good {
				bestVals[i] = e.vals[i]
			} else {
				bestVals[i] = errV
			}
		}
	}
	return best, bestVals
}

func firstValue(vals []any) any {
	for _, v := range vals {
		if !isErr(v) {
			return v
		}
	}
	return errV
}

// topConsts are the constants of whole programs.
func topConsts(p *problem) []any {
	cs := withConsts([]any{int64(0), int64(1), int64(2), int64(3), int64(-1), int64(10)}, p.mined)
	if p.b.floats || p.out == TFloat || p.out == TListFloat {
		cs = append(cs, 0.0, 1.0)
	}
	if p.out == TStr || p.out == TListStr {
		cs = append(cs, "", " ")
	}
	return cs
}

// sweepStaged is the enumerator's sweep (every one-lambda operator, with
// every lambda, over the size-1 programs) run one lambda size at a time
// within seven tenths of share of the time left. When a number is wanted,
// what each lambda size produced is reduced right away by the one-argument
// operators whose result has a wanted type (sum, len, max...), so that a
// budget cutting the large lambdas still leaves "the sum of a map with a
// small lambda" tried. The rest of the share goes to one more transform of
// the small lambdas' results (then reduced), and, when the sweep was not
// cut, to the enumerator's own reductions of every sweep result.
func sweepStaged(en *enumerator, share float64, want []Type) {
	if en.stopped {
		return
	}
	total := time.Duration(float64(time.Until(en.deadline)) * share)
	end := time.Now().Add(total)
	en.sweepUntil = time.Now().Add(total * 7 / 10)
	defer func() {
		en.sweepUntil, en.recording, en.recent = time.Time{}, false, nil
		if en.sweepCut {
			en.stopped, en.sweepCut = false, false
		}
	}()
	// delay is how many stages later an operator takes each lambda size:
	// comprehensions (map, filter, count of one list) go first.
	jobs := en.sweepJobs(1)
	delays := make([]int, len(jobs))
	maxLam := 0
	for i, j := range jobs {
		delays[i] = 1
		if j.op.Comprehension {
			delays[i] = 0
		}
		maxLam = max(maxLam, len(en.lams.by[j.op.Sig][j.op.LamRet])+delays[i])
	}
	var reducers, transforms []*Op
	for _, op := range en.ops {
		if op.Sig != sigNone || len(op.Args) != 1 || op.Args[0] < TStr {
			continue
		}
		if slices.Contains(want, op.Ret) {
			reducers = append(reducers, op)
		} else if op.Ret >= TStr {
			transforms = append(transforms, op)
		}
	}
	// Lists wanted: the larger lambdas' results are transformed (sorted,
	// reversed...) once the sweep is over, as any other sweep result.
	scalarWanted := !slices.ContainsFunc(want, func(t Type) bool { return t >= TStr })
	// Lambda programs the regular levels banked before the sweep are the
	// sweep's duplicates: they are reduced with its results, smallest first.
	var all, small []*entry
	for t := TStr; t < numTypes; t++ {
		for _, es := range en.bank[t] {
			for _, e := range es {
				if e.n.Lam != nil {
					all = append(all, e)
					if e.n.Lam.Size <= maxTransformedLam {
						small = append(small, e)
					}
				}
			}
		}
	}
	applyUnary(en, small, reducers)
	for size := 1; size < maxLam && !en.stopped; size++ {
		en.recording, en.recent = true, nil
		for i, j := range jobs {
			picked := make([]*entry, len(j.lists))
			for _, l := range en.lams.get(j.op.Sig, j.op.LamRet, size-delays[i]) {
				if en.stopped {
					break
				}
				en.product(j.op, l, j.lists, picked, 0, j.op.Cost+j.args+l.Size)
			}
		}
		recent := en.recent
		en.recording, en.recent = false, nil
		all = append(all, recent...)
		if size <= maxTransformedLam {
			small = append(small, recent...)
		}
		if size <= maxTransformedLam || scalarWanted {
			applyUnary(en, recent, reducers)
		}
	}
	complete := !en.stopped
	if en.stopped && !en.sweepCut {
		// A solution, the deadline or the memory bound.
		return
	}
	en.stopped, en.sweepCut = false, false
	// The rest of the share transforms the smallest lambdas' results once
	// more and reduces those: the length of the set of a map, the maximum
	// of the sorted filter...
	en.sweepUntil = end
	en.recording, en.recent = true, nil
	applyUnary(en, small, transforms)
	transformed := en.recent
	en.recording, en.recent = false, nil
	applyUnary(en, transformed, reducers)
	if complete && !en.stopped {
		en.recent = all
		en.reduceRecent()
	}
}

// maxTransformedLam is the largest lambda whose sweep results sweepStaged
// transforms once more before reducing them.
const maxTransformedLam = 3

// applyUnary applies each one-argument operator to the programs of its
// argument type.
func applyUnary(en *enumerator, es []*entry, ops []*Op) {
	for _, e := range es {
		t, good := typeOf(firstValue(e.vals))
		if !good {
			continue
		}
		for _, op := range ops {
			if en.stopped {
				return
			}
			if op.Args[0] == t {
				en.try(op, nil, []*entry{e}, op.Cost+e.n.Size)
			}
		}
	}
}
