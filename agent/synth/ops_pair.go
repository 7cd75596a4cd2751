package synth

import "slices"

// Operators over lists of pairs (and of points, which are pairs).

// pairListOps are the basic operators over lists of pairs: length,
// sorting, first and last, swapping, zip and flatten, and the higher-order
// map, filter, count, sort_by, max_by, min_by, map_first, map_second.
func pairListOps() []*operator {
	I, F, B := tInt, tFloat, tBool
	return []*operator{
		op1("len", famList, func(ps []pair) (int64, bool) { return int64(len(ps)), true },
			pyOnly(func(a []code) code { return call("len", a[0]) })),
		op1a("sorted", famList, func(ar *arena, ps []pair) ([]pair, bool) {
			out := alloc[pair](ar, len(ps))
			copy(out, ps)
			slices.SortStableFunc(out, cmpPair)
			return out, true
		}, pyOnly(func(a []code) code { return call("sorted", a[0]) })),
		op1a("reversed", famList, func(ar *arena, ps []pair) ([]pair, bool) { return reversed(ar, ps), true },
			pyOnly(func(a []code) code { return atom(a[0].at(pAtom) + "[::-1]") })),
		op1("first", famList, func(ps []pair) ([]int64, bool) { return pairAt(ps, 0) },
			pyOnly(func(a []code) code { return atom("list(" + a[0].at(pAtom) + "[0])") })),
		op1("last", famList, func(ps []pair) ([]int64, bool) { return pairAt(ps, -1) },
			pyOnly(func(a []code) code { return atom("list(" + a[0].at(pAtom) + "[-1])") })),
		op1("swap", famList, func(ps []pair) ([]pair, bool) {
			out := make([]pair, len(ps))
			for i, p := range ps {
				out[i] = pair{p[1], p[0]}
			}
			return out, true
		}, pyOnly(func(a []code) code { return atom("[[y, x] for x, y in " + a[0].s + "]") })),
		op2("zip", famList, func(x, y []int64) ([]pair, bool) {
			n := min(len(x), len(y))
			out := make([]pair, n)
			for i := 0; i < n; i++ {
				out[i] = pair{x[i], y[i]}
			}
			return out, true
		}, pyOnly(func(a []code) code { return atom("[[x, y] for x, y in zip(" + a[0].s + ", " + a[1].s + ")]") })),
		op1("flatten", famList, func(ps []pair) ([]int64, bool) {
			out := make([]int64, 0, 2*len(ps))
			for _, p := range ps {
				out = append(out, p[0], p[1])
			}
			return out, true
		}, pyOnly(func(a []code) code { return atom("[v for p in " + a[0].s + " for v in p]") })),
		comprehension(opL1("map", famList, sigII, I, mapPairsL[int64],
			func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, x0, y0), "x, y", a[0].s) })),
		comprehension(opL1("map", famList, sigII, F, mapPairsL[float64],
			func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, x0, y0), "x, y", a[0].s) })),
		comprehension(opL1("map", famList, sigII, B, mapPairsL[bool],
			func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, x0, y0), "x, y", a[0].s) })),
		comprehension(opL1("filter", famList, sigII, B, func(ar *arena, l *lambda, ps []pair) ([]pair, bool) {
			return filterF(ar, ps, func(p pair) (bool, bool) { return pairL[bool](ar, l, p) })
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("[[x, y] for x, y in " + a[0].s + " if " + e.lam(l, x0, y0).s + "]")
		})),
		comprehension(opL1("count", famList, sigII, B, func(ar *arena, l *lambda, ps []pair) (int64, bool) {
			return countF(ps, func(p pair) (bool, bool) { return pairL[bool](ar, l, p) })
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("sum(1 for x, y in " + a[0].s + " if " + e.lam(l, x0, y0).s + ")")
		})),
		opL1("sort_by", famList, sigII, I, func(ar *arena, l *lambda, ps []pair) ([]pair, bool) {
			return sortByF(ar, ps, func(p pair) (int64, bool) { return pairL[int64](ar, l, p) })
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("sorted(" + a[0].s + ", key=lambda p: " + e.lam(l, atom("p[0]"), atom("p[1]")).s + ")")
		}),
		opL1("max_by", famList, sigII, I, func(ar *arena, l *lambda, ps []pair) ([]int64, bool) { return extremePairBy(ar, l, ps, true) },
			func(e *emitter, l *lambda, a []code) code {
				return atom("list(max(" + a[0].s + ", key=lambda p: " + e.lam(l, atom("p[0]"), atom("p[1]")).s + "))")
			}),
		opL1("min_by", famList, sigII, I, func(ar *arena, l *lambda, ps []pair) ([]int64, bool) { return extremePairBy(ar, l, ps, false) },
			func(e *emitter, l *lambda, a []code) code {
				return atom("list(min(" + a[0].s + ", key=lambda p: " + e.lam(l, atom("p[0]"), atom("p[1]")).s + "))")
			}),
		opL1("map_first", famList, sigII, I, func(ar *arena, l *lambda, ps []pair) ([]pair, bool) {
			return mapF(ar, ps, func(p pair) (pair, bool) {
				v, good := pairL[int64](ar, l, p)
				return pair{v, p[1]}, good
			})
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("[[" + e.lam(l, x0, y0).s + ", y] for x, y in " + a[0].s + "]")
		}),
		opL1("map_second", famList, sigII, I, func(ar *arena, l *lambda, ps []pair) ([]pair, bool) {
			return mapF(ar, ps, func(p pair) (pair, bool) {
				v, good := pairL[int64](ar, l, p)
				return pair{p[0], v}, good
			})
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("[[x, " + e.lam(l, x0, y0).s + "] for x, y in " + a[0].s + "]")
		}),
	}
}

// pairLibraryOps are Python idioms over lists of pairs: sorting by a key
// with the pair as tie-break, set equality.
func pairLibraryOps() []*operator {
	return []*operator{
		opL1("sort_by_then", famList, sigII, tInt, func(ar *arena, l *lambda, ps []pair) ([]pair, bool) {
			ps = append(allocCap[pair](ar, len(ps)), ps...)
			slices.SortStableFunc(ps, cmpPair)
			return sortByF(ar, ps, func(p pair) (int64, bool) { return pairL[int64](ar, l, p) })
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("sorted(" + a[0].s + ", key=lambda p: (" + e.lam(l, atom("p[0]"), atom("p[1]")).s + ", p))")
		}),
		op2("same_set", famList, func(x, y []pair) (bool, bool) { return slices.Equal(pointSet(x), pointSet(y)), true },
			pyOnly(func(a []code) code {
				return cmpop(call("set", call("map", atom("tuple"), a[0])), "==", call("set", call("map", atom("tuple"), a[1])))
			})),
	}
}

// pairAt is list(ps[i]) with Python's negative indices.
func pairAt(ps []pair, i int64) ([]int64, bool) {
	p, good := at(ps, i)
	if !good {
		return nil, false
	}
	return []int64{p[0], p[1]}, true
}

// mapPairsL is [l(x, y) for x, y in ps].
func mapPairsL[B any](ar *arena, l *lambda, ps []pair) ([]B, bool) {
	return mapF(ar, ps, func(p pair) (B, bool) { return pairL[B](ar, l, p) })
}

// extremePairBy is list(max/min(ps, key=lambda p: l(p[0], p[1]))).
func extremePairBy(ar *arena, l *lambda, ps []pair, max bool) ([]int64, bool) {
	p, good := extremeByF(ps, func(p pair) (int64, bool) { return pairL[int64](ar, l, p) }, max)
	if !good {
		return nil, false
	}
	return []int64{p[0], p[1]}, true
}

func cmpPair(p, q pair) int {
	if p[0] != q[0] {
		return cmpI(p[0], q[0])
	}
	return cmpI(p[1], q[1])
}

// pointSet returns the distinct points in order.
func pointSet(ps []pair) []pair {
	out := slices.Clone(ps)
	slices.SortFunc(out, cmpPair)
	return slices.Compact(out)
}
