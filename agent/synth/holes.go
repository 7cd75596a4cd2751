package synth

import (
	"sync"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

var scalarOpsOnce = sync.OnceValue(func() []*dsl.Operator {
	var out []*dsl.Operator
	for _, op := range dsl.Catalog.Top {
		if op.Ret <= dsl.Str {
			out = append(out, op)
		}
	}
	return append(out, dsl.Catalog.Holes...)
})

// scalarOps are the operators of a sketch's holes: those returning a
// number, a truth value or a string (a hole is one value; the lists it
// reads are its variables, reduced by sum, max, count...).
func scalarOps() []*dsl.Operator { return scalarOpsOnce() }

// enumHoles fills the holes of sketches with the enumerator: its fill is
// holeSearchBy, bounded by the hole's memory (Hole.Mem) and by what is
// left of the session's budget mem, whatever the sketch asks. maxEval,
// when set, bounds every hole the sketch does not bound itself by
// programs (a search bounded by programs).
type enumHoles struct {
	shared  *Shared
	mem     *memBudget
	maxEval int64
}

var _ sketch.Holes = enumHoles{}

// Fill fills a hole (see sketch.Holes).
func (e enumHoles) Fill(sub *dsl.Problem, h sketch.Hole) *dsl.Node {
	maxEval := h.MaxEval
	if maxEval <= 0 || e.maxEval > 0 && e.maxEval < maxEval {
		maxEval = e.maxEval
	}
	return holeSearchBy(e.shared, e.mem, sub, h.Deadline, maxEval, h.Done, h.MaxSize, h.Mem, h.Sweep, h.Conds, h.Accept)
}

// holeSearchBy fills a hole (see sketch.Holes): its enumerator takes a
// part of budget (the session's; nil: one of its own) of at most mem
// bytes, and gives it back when it returns. The program it returns is
// copied out of its bank.
func holeSearchBy(shared *Shared, budget *memBudget, p *dsl.Problem, deadline time.Time, maxEval int64, done <-chan struct{}, maxSize int, mem int64, sweep, conds bool,
	accept func(e *dsl.Entry) bool) (filled *dsl.Node) {
	var found *dsl.Node
	lams, ok := shared.lambdasFor(p.Mined, done)
	if !ok {
		return nil
	}
	en := newEnumerator(enumConfig{envs: p.Envs, vars: p.B.Types, consts: topConsts(p), ops: scalarOps(),
		lams: lams, deadline: deadline, maxEval: maxEval, done: done, mem: budget, memLimit: mem})
	defer func() {
		filled = filled.Clone()
		en.release()
	}()
	masks := map[string]*dsl.Entry{}
	var order []string
	en.onNew = func(t dsl.Type, e *dsl.Entry) bool {
		if !p.OkType(t) {
			return false
		}
		if accept == nil && p.AllMatchCol(e.Col) || accept != nil && accept(e) {
			found = e.N
			if en.transient {
				found = found.Clone()
			}
			return true
		}
		// The branches of a conditional are small programs right on part
		// of the points, the smallest of each set of points kept (of
		// those the bank keeps).
		if conds && !en.transient && len(p.Outs) >= 3 && e.N.Size <= maxBranchSize && len(order) < maxHoleMasks {
			if bits, n := p.MatchesCol(e.Col); n > 0 {
				if k := maskKey(bits); masks[k] == nil {
					masks[k] = e
					order = append(order, k)
				}
			}
		}
		return false
	}
	for _, t := range p.Ok {
		for _, es := range en.bank[t] {
			for _, e := range es {
				if en.onNew(t, e) {
					return found
				}
			}
		}
	}
	// A conditional is kept until the sizes below its own are
	// enumerated: a plain program found there is preferred.
	var cond *dsl.Node
	en.grow(maxSize, func(size int) bool {
		if size == 4 && sweep {
			sweepStaged(en, 0.3, p.Ok)
		}
		if conds && found == nil && size >= 3 && len(order) > 1 {
			if n, _ := splitConditional(p, en, masks, order, 2*size+1); n != nil && (cond == nil || n.Size < cond.Size) {
				cond = n
			}
		}
		return found != nil || (cond != nil && size+1 >= cond.Size)
	})
	if found == nil && !en.cancelled {
		found = cond
	}
	return found
}

// Bounds of a hole's conditionals: the size of a branch, and how many
// sets of points the branches are drawn from.
const (
	maxBranchSize = 5
	maxHoleMasks  = 512
)
