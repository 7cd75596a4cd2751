package synth

import (
	"sort"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Conditionals at the top level: after each size, programs right on some
// examples are combined as "t if c else e" with a condition c that splits
// the examples where each is right.

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
// condition c holds and e wherever it does not, no bigger than MaxSize.
func splitConditional(p *dsl.Problem, en *enumerator, masks map[string]*dsl.Entry, order []string, maxSize int) (*dsl.Node, []any) {
	nObs := len(p.Outs)
	type cand struct {
		bits []uint64
		e    *dsl.Entry
	}
	cands := make([]cand, 0, len(order))
	for _, k := range order {
		cands = append(cands, cand{maskBits(k), masks[k]})
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].e.N.Size < cands[j].e.N.Size })
	var best *dsl.Node
	var bestVals []any
	for i, c := range en.all(dsl.Bool) {
		if c.N.Size+3 > maxSize || (i&255 == 255 && en.interrupted()) {
			break
		}
		tBits := make([]uint64, (nObs+63)/64)
		fBits := make([]uint64, (nObs+63)/64)
		nt := 0
		valid := true
		for i := 0; i < nObs; i++ {
			b, good := c.At(i).(bool)
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
		var t, e *dsl.Entry
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
		size := 1 + c.N.Size + t.N.Size + e.N.Size
		if size > maxSize || (best != nil && size >= best.Size) {
			continue
		}
		ret, _ := dsl.TypeOf(dsl.FirstValue(t.Values()))
		if !p.OkType(ret) {
			continue
		}
		// Both branches must have one type for Python and Go to agree.
		if rt, _ := dsl.TypeOf(dsl.FirstValue(e.Values())); rt != ret {
			continue
		}
		best = &dsl.Node{Op: dsl.Catalog.Conds[ret], Kids: []*dsl.Node{c.N, t.N, e.N}, Var: -1, Size: size}
		bestVals = make([]any, len(c.Values()))
		for i := range c.Values() {
			if b, good := c.Values()[i].(bool); good && b {
				bestVals[i] = t.Values()[i]
			} else if good {
				bestVals[i] = e.Values()[i]
			} else {
				bestVals[i] = dsl.ErrV
			}
		}
	}
	return best, bestVals
}
