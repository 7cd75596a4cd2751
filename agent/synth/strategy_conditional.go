package synth

import "sort"

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
// condition c holds and e wherever it does not, no bigger than maxSize.
func splitConditional(p *problem, en *enumerator, masks map[string]*entry, order []string, maxSize int) (*node, []any) {
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
	var best *node
	var bestVals []any
	for i, c := range en.all(tBool) {
		if c.n.Size+3 > maxSize || (i&255 == 255 && en.interrupted()) {
			break
		}
		tBits := make([]uint64, (nObs+63)/64)
		fBits := make([]uint64, (nObs+63)/64)
		nt := 0
		valid := true
		for i := 0; i < nObs; i++ {
			b, good := c.at(i).(bool)
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
		ret, _ := typeOf(firstValue(t.values()))
		if !p.okType(ret) {
			continue
		}
		// Both branches must have one type for Python and Go to agree.
		if rt, _ := typeOf(firstValue(e.values())); rt != ret {
			continue
		}
		best = &node{Op: catalog.conds[ret], Kids: []*node{c.n, t.n, e.n}, Var: -1, Size: size}
		bestVals = make([]any, len(c.values()))
		for i := range c.values() {
			if b, good := c.values()[i].(bool); good && b {
				bestVals[i] = t.values()[i]
			} else if good {
				bestVals[i] = e.values()[i]
			} else {
				bestVals[i] = errV
			}
		}
	}
	return best, bestVals
}
