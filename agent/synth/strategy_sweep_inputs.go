package synth

import (
	"slices"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// sweepStaged is the enumerator's sweep (every one-lambda operator, with
// every lambda, over the size-1 programs) run one lambda size at a time
// within seven tenths of share of the time left. When a number is wanted,
// what each lambda size produced is reduced right away by the one-argument
// operators whose result has a wanted type (sum, len, max...), so that a
// budget cutting the large lambdas still leaves "the sum of a map with a
// small lambda" tried. Once the lambdas of size 3 are swept, the small
// lambdas' results are transformed once more (then reduced), before the
// larger lambdas; the rest of the share goes, when the sweep was not cut,
// to the enumerator's own reductions of every sweep result.
func sweepStaged(en *enumerator, share float64, want []dsl.Type) {
	if en.stopped {
		return
	}
	end := en.Mark(share)
	en.sweepUntil = en.Mark(share * 7 / 10)
	defer func() {
		en.sweepUntil, en.recording, en.recent = 0, false, nil
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
		maxLam = max(maxLam, len(en.lams.By[j.op.Sig][j.op.LamRet])+delays[i])
	}
	var reducers, transforms []*dsl.Operator
	for _, op := range en.ops {
		if op.Sig != dsl.SigNone || len(op.Args) != 1 || op.Args[0] < dsl.Str {
			continue
		}
		if slices.Contains(want, op.Ret) {
			reducers = append(reducers, op)
		} else if op.Ret >= dsl.Str {
			transforms = append(transforms, op)
		}
	}
	// Lists wanted: the larger lambdas' results are transformed (sorted,
	// reversed...) once the sweep is over, as any other sweep result.
	scalarWanted := !slices.ContainsFunc(want, func(t dsl.Type) bool { return t >= dsl.Str })
	// Lambda programs the regular levels banked before the sweep are the
	// sweep's duplicates: they are reduced with its results, smallest first.
	var all, small []*dsl.Entry
	for t := dsl.Str; t < dsl.NumTypes; t++ {
		for _, es := range en.bank[t] {
			for _, e := range es {
				if e.N.Lam != nil {
					all = append(all, e)
					if e.N.Lam.Size <= maxTransformedLam {
						small = append(small, e)
					}
				}
			}
		}
	}
	applyUnary(en, small, reducers)
	transformed := false
	for size := 1; size < maxLam && !en.stopped; size++ {
		en.recording, en.recent = true, nil
		for i, j := range jobs {
			picked := make([]*dsl.Entry, len(j.lists))
			for _, l := range en.lams.Get(j.op.Sig, j.op.LamRet, size-delays[i]) {
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
		if size == maxTransformedLam && !en.stopped {
			// The small lambdas' results transformed and reduced before
			// the larger lambdas: is_palindrome(upper(filter(...))) with
			// a lambda of 2 before a map with a lambda of 5.
			transformSmall(en, small, transforms, reducers)
			transformed = !en.stopped
		}
	}
	complete := !en.stopped
	if en.stopped && !en.sweepCut {
		// A solution, the deadline, a cancellation or the memory bound.
		return
	}
	en.stopped, en.sweepCut = false, false
	// The rest of the share transforms the smallest lambdas' results once
	// more (when the sweep stopped before) and reduces the sweep's results.
	en.sweepUntil = end
	if !transformed {
		transformSmall(en, small, transforms, reducers)
	}
	if complete && !en.stopped {
		en.recent = all
		en.reduceRecent()
	}
}

// transformSmall transforms the small lambdas' results once more and
// reduces those: the length of the set of a map, the maximum of the
// sorted filter...
func transformSmall(en *enumerator, small []*dsl.Entry, transforms, reducers []*dsl.Operator) {
	en.recording, en.recent = true, nil
	applyUnary(en, small, transforms)
	transformed := en.recent
	en.recording, en.recent = false, nil
	applyUnary(en, transformed, reducers)
}

// maxTransformedLam is the largest lambda whose sweep results sweepStaged
// transforms once more before reducing them.
const maxTransformedLam = 3

// applyUnary applies each one-argument operator to the programs of its
// argument type.
func applyUnary(en *enumerator, es []*dsl.Entry, ops []*dsl.Operator) {
	for _, e := range es {
		t := e.Type()
		for _, op := range ops {
			if en.stopped {
				return
			}
			if op.Args[0] == t {
				en.try(op, nil, []*dsl.Entry{e}, op.Cost+e.N.Size)
			}
		}
	}
}
