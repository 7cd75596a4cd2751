package dsl

// Operators over lists read as multisets (collections.Counter): what is
// left of the first list once every element of the second has taken one
// equal element out of it, and what the two have in common, counted with
// multiplicity. Both keep the first list's order (the first occurrences
// are the ones taken out), which a Counter's elements() would not: the
// sorted forms are sorted() of these.

// multisetOps are the multiset difference and intersection of two
// integer lists.
func multisetOps() []*Operator {
	return []*Operator{
		op2a("multiset_minus", FamList, func(ar *Arena, xs, ys []int64) ([]int64, bool) { return multisetKeep(ar, xs, ys, false), true },
			func(e *Emitter, a []Code) Code {
				e.use("Counter")
				e.helper("multiset_minus", pyMultisetMinus)
				return Call("multiset_minus", a...)
			}),
		op2a("multiset_common", FamList, func(ar *Arena, xs, ys []int64) ([]int64, bool) { return multisetKeep(ar, xs, ys, true), true },
			func(e *Emitter, a []Code) Code {
				e.use("Counter")
				e.helper("multiset_common", pyMultisetCommon)
				return Call("multiset_common", a...)
			}),
	}
}

// multisetKeep walks xs in order, each element taking one of its equals
// in ys while any is left: it keeps the elements that found one (common)
// or those that did not (the difference).
func multisetKeep(ar *Arena, xs, ys []int64, common bool) []int64 {
	out := allocCap[int64](ar, len(xs))
	// used marks the elements of ys already taken; lists are short.
	var small [64]bool
	used := small[:0]
	if len(ys) > len(small) {
		used = make([]bool, len(ys))
	} else {
		used = small[:len(ys)]
	}
	for _, x := range xs {
		found := false
		for j, y := range ys {
			if !used[j] && y == x {
				used[j], found = true, true
				break
			}
		}
		if found == common {
			out = append(out, x)
		}
	}
	return out
}

const pyMultisetMinus = `
def multiset_minus(xs, ys):
    # xs without one equal element for each element of ys, in xs's order.
    left = Counter(ys)
    out = []
    for x in xs:
        if left[x] > 0:
            left[x] -= 1
        else:
            out.append(x)
    return out
`

const pyMultisetCommon = `
def multiset_common(xs, ys):
    # The elements of xs that ys also holds, counted with multiplicity.
    left = Counter(ys)
    out = []
    for x in xs:
        if left[x] > 0:
            left[x] -= 1
            out.append(x)
    return out
`
