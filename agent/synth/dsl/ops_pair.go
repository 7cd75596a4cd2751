package dsl

import "slices"

// Operators over lists of pairs (and of points, which are pairs).

// pairListOps are the basic operators over lists of pairs: length,
// sorting, first and last, swapping, zip and flatten, and the higher-order
// map, filter, count, sort_by, max_by, min_by, map_first, map_second.
func pairListOps() []*Operator {
	I, F, B := Int, Float, Bool
	return []*Operator{
		op1("len", FamList, func(ps []Pair) (int64, bool) { return int64(len(ps)), true },
			pyOnly(func(a []Code) Code { return Call("len", a[0]) })),
		op1a("sorted", FamList, func(ar *Arena, ps []Pair) ([]Pair, bool) {
			out := alloc[Pair](ar, len(ps))
			copy(out, ps)
			slices.SortStableFunc(out, cmpPair)
			return out, true
		}, pyOnly(func(a []Code) Code { return Call("sorted", a[0]) })),
		op1a("reversed", FamList, func(ar *Arena, ps []Pair) ([]Pair, bool) { return Reversed(ar, ps), true },
			pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[::-1]") })),
		op1("first", FamList, func(ps []Pair) ([]int64, bool) { return pairAt(ps, 0) },
			pyOnly(func(a []Code) Code { return Atom("list(" + a[0].At(pAtom) + "[0])") })),
		op1("last", FamList, func(ps []Pair) ([]int64, bool) { return pairAt(ps, -1) },
			pyOnly(func(a []Code) Code { return Atom("list(" + a[0].At(pAtom) + "[-1])") })),
		op1("swap", FamList, func(ps []Pair) ([]Pair, bool) {
			out := make([]Pair, len(ps))
			for i, p := range ps {
				out[i] = Pair{p[1], p[0]}
			}
			return out, true
		}, pyOnly(func(a []Code) Code { return Atom("[[y, x] for x, y in " + a[0].S + "]") })),
		op2("zip", FamList, func(x, y []int64) ([]Pair, bool) {
			n := min(len(x), len(y))
			out := make([]Pair, n)
			for i := 0; i < n; i++ {
				out[i] = Pair{x[i], y[i]}
			}
			return out, true
		}, pyOnly(func(a []Code) Code { return Atom("[[x, y] for x, y in zip(" + a[0].S + ", " + a[1].S + ")]") })),
		op1("flatten", FamList, func(ps []Pair) ([]int64, bool) {
			out := make([]int64, 0, 2*len(ps))
			for _, p := range ps {
				out = append(out, p[0], p[1])
			}
			return out, true
		}, pyOnly(func(a []Code) Code { return Atom("[v for p in " + a[0].S + " for v in p]") })),
		comprehension(opL1("map", FamList, SigII, I, mapPairsL[int64],
			func(e *Emitter, l *Lambda, a []Code) Code { return comp(e.Lam(l, x0, y0), "x, y", a[0].S) })),
		comprehension(opL1("map", FamList, SigII, F, mapPairsL[float64],
			func(e *Emitter, l *Lambda, a []Code) Code { return comp(e.Lam(l, x0, y0), "x, y", a[0].S) })),
		comprehension(opL1("map", FamList, SigII, B, mapPairsL[bool],
			func(e *Emitter, l *Lambda, a []Code) Code { return comp(e.Lam(l, x0, y0), "x, y", a[0].S) })),
		comprehension(opL1("filter", FamList, SigII, B, func(ar *Arena, l *Lambda, ps []Pair) ([]Pair, bool) {
			return filterF(ar, ps, func(p Pair) (bool, bool) { return pairL[bool](ar, l, p) })
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			return Atom("[[x, y] for x, y in " + a[0].S + " if " + e.Lam(l, x0, y0).S + "]")
		})),
		comprehension(opL1("count", FamList, SigII, B, func(ar *Arena, l *Lambda, ps []Pair) (int64, bool) {
			return countF(ps, func(p Pair) (bool, bool) { return pairL[bool](ar, l, p) })
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			return Atom("sum(1 for x, y in " + a[0].S + " if " + e.Lam(l, x0, y0).S + ")")
		})),
		opL1("sort_by", FamList, SigII, I, func(ar *Arena, l *Lambda, ps []Pair) ([]Pair, bool) {
			return sortByF(ar, ps, func(p Pair) (int64, bool) { return pairL[int64](ar, l, p) })
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			return Atom("sorted(" + a[0].S + ", key=lambda p: " + e.Lam(l, Atom("p[0]"), Atom("p[1]")).S + ")")
		}),
		opL1("max_by", FamList, SigII, I, func(ar *Arena, l *Lambda, ps []Pair) ([]int64, bool) { return extremePairBy(ar, l, ps, true) },
			func(e *Emitter, l *Lambda, a []Code) Code {
				return Atom("list(max(" + a[0].S + ", key=lambda p: " + e.Lam(l, Atom("p[0]"), Atom("p[1]")).S + "))")
			}),
		opL1("min_by", FamList, SigII, I, func(ar *Arena, l *Lambda, ps []Pair) ([]int64, bool) { return extremePairBy(ar, l, ps, false) },
			func(e *Emitter, l *Lambda, a []Code) Code {
				return Atom("list(min(" + a[0].S + ", key=lambda p: " + e.Lam(l, Atom("p[0]"), Atom("p[1]")).S + "))")
			}),
		opL1("map_first", FamList, SigII, I, func(ar *Arena, l *Lambda, ps []Pair) ([]Pair, bool) {
			return mapF(ar, ps, func(p Pair) (Pair, bool) {
				v, good := pairL[int64](ar, l, p)
				return Pair{v, p[1]}, good
			})
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			return Atom("[[" + e.Lam(l, x0, y0).S + ", y] for x, y in " + a[0].S + "]")
		}),
		opL1("map_second", FamList, SigII, I, func(ar *Arena, l *Lambda, ps []Pair) ([]Pair, bool) {
			return mapF(ar, ps, func(p Pair) (Pair, bool) {
				v, good := pairL[int64](ar, l, p)
				return Pair{p[0], v}, good
			})
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			return Atom("[[x, " + e.Lam(l, x0, y0).S + "] for x, y in " + a[0].S + "]")
		}),
	}
}

// pairLibraryOps are Python idioms over lists of pairs: sorting by a key
// with the pair as tie-break, set equality.
func pairLibraryOps() []*Operator {
	return []*Operator{
		opL1("sort_by_then", FamList, SigII, Int, func(ar *Arena, l *Lambda, ps []Pair) ([]Pair, bool) {
			ps = append(allocCap[Pair](ar, len(ps)), ps...)
			slices.SortStableFunc(ps, cmpPair)
			return sortByF(ar, ps, func(p Pair) (int64, bool) { return pairL[int64](ar, l, p) })
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			return Atom("sorted(" + a[0].S + ", key=lambda p: (" + e.Lam(l, Atom("p[0]"), Atom("p[1]")).S + ", p))")
		}),
		op2("same_set", FamList, func(x, y []Pair) (bool, bool) { return slices.Equal(pointSet(x), pointSet(y)), true },
			pyOnly(func(a []Code) Code {
				return cmpop(Call("set", Call("map", Atom("tuple"), a[0])), "==", Call("set", Call("map", Atom("tuple"), a[1])))
			})),
	}
}

// pairAt is list(ps[i]) with Python's negative indices.
func pairAt(ps []Pair, i int64) ([]int64, bool) {
	p, good := at(ps, i)
	if !good {
		return nil, false
	}
	return []int64{p[0], p[1]}, true
}

// mapPairsL is [l(x, y) for x, y in ps].
func mapPairsL[B any](ar *Arena, l *Lambda, ps []Pair) ([]B, bool) {
	return mapF(ar, ps, func(p Pair) (B, bool) { return pairL[B](ar, l, p) })
}

// extremePairBy is list(max/min(ps, key=lambda p: l(p[0], p[1]))).
func extremePairBy(ar *Arena, l *Lambda, ps []Pair, max bool) ([]int64, bool) {
	p, good := extremeByF(ps, func(p Pair) (int64, bool) { return pairL[int64](ar, l, p) }, max)
	if !good {
		return nil, false
	}
	return []int64{p[0], p[1]}, true
}

func cmpPair(p, q Pair) int {
	if p[0] != q[0] {
		return cmpI(p[0], q[0])
	}
	return cmpI(p[1], q[1])
}

// pointSet returns the distinct points in order.
func pointSet(ps []Pair) []Pair {
	out := slices.Clone(ps)
	slices.SortFunc(out, cmpPair)
	return slices.Compact(out)
}
