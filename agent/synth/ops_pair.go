package synth

import "slices"

// Operators over lists of pairs (and of points, which are pairs).

// pairListOps are the basic operators over lists of pairs: length,
// sorting, first and last, swapping, zip and flatten, and the higher-order
// map, filter, count, sort_by, max_by, min_by, map_first, map_second.
func pairListOps() []*operator {
	I, F, B, LI, LF, LB, LP := tInt, tFloat, tBool, tListInt, tListFloat, tListBool, tListPair
	return []*operator{
		mk("len", famList, ts(LP), I, func(a []any) any { return int64(len(a[0].([]pair))) }, func(a []code) code { return call("len", a[0]) }),
		mk("sorted", famList, ts(LP), LP, func(a []any) any {
			out := slices.Clone(a[0].([]pair))
			if out == nil {
				out = []pair{}
			}
			slices.SortStableFunc(out, func(p, q pair) int {
				if p[0] != q[0] {
					return cmpI(p[0], q[0])
				}
				return cmpI(p[1], q[1])
			})
			return out
		}, func(a []code) code { return call("sorted", a[0]) }),
		mk("reversed", famList, ts(LP), LP, func(a []any) any { return reversed(a[0].([]pair)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[::-1]") }),
		mk("first", famList, ts(LP), LI, func(a []any) any { return pairAt(a[0].([]pair), 0) }, func(a []code) code { return atom("list(" + a[0].at(pAtom) + "[0])") }),
		mk("last", famList, ts(LP), LI, func(a []any) any { return pairAt(a[0].([]pair), -1) }, func(a []code) code { return atom("list(" + a[0].at(pAtom) + "[-1])") }),
		mk("swap", famList, ts(LP), LP, func(a []any) any {
			ps := a[0].([]pair)
			out := make([]pair, len(ps))
			for i, p := range ps {
				out[i] = pair{p[1], p[0]}
			}
			return out
		}, func(a []code) code { return atom("[[y, x] for x, y in " + a[0].s + "]") }),
		mk("zip", famList, ts(LI, LI), LP, func(a []any) any {
			x, y := a[0].([]int64), a[1].([]int64)
			n := min(len(x), len(y))
			out := make([]pair, n)
			for i := 0; i < n; i++ {
				out[i] = pair{x[i], y[i]}
			}
			return out
		}, func(a []code) code { return atom("[[x, y] for x, y in zip(" + a[0].s + ", " + a[1].s + ")]") }),
		mk("flatten", famList, ts(LP), LI, func(a []any) any {
			ps := a[0].([]pair)
			out := make([]int64, 0, 2*len(ps))
			for _, p := range ps {
				out = append(out, p[0], p[1])
			}
			return out
		}, func(a []code) code { return atom("[v for p in " + a[0].s + " for v in p]") }),
		comprehension(mkL("map", famList, sigII, I, ts(LP), LI, func(l *lambda, a []any) any {
			return mapList[pair, int64](a[0].([]pair), func(p pair) any { return l.call2(p[0], p[1]) })
		}, func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, x0, y0), "x, y", a[0].s) })),
		comprehension(mkL("map", famList, sigII, F, ts(LP), LF, func(l *lambda, a []any) any {
			return mapList[pair, float64](a[0].([]pair), func(p pair) any { return l.call2(p[0], p[1]) })
		}, func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, x0, y0), "x, y", a[0].s) })),
		comprehension(mkL("map", famList, sigII, B, ts(LP), LB, func(l *lambda, a []any) any {
			return mapList[pair, bool](a[0].([]pair), func(p pair) any { return l.call2(p[0], p[1]) })
		}, func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, x0, y0), "x, y", a[0].s) })),
		comprehension(mkL("filter", famList, sigII, B, ts(LP), LP, func(l *lambda, a []any) any {
			return filterList(a[0].([]pair), func(p pair) any { return l.call2(p[0], p[1]) })
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("[[x, y] for x, y in " + a[0].s + " if " + e.lam(l, x0, y0).s + "]")
		})),
		comprehension(mkL("count", famList, sigII, B, ts(LP), I, func(l *lambda, a []any) any {
			return countList(a[0].([]pair), func(p pair) any { return l.call2(p[0], p[1]) })
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("sum(1 for x, y in " + a[0].s + " if " + e.lam(l, x0, y0).s + ")")
		})),
		mkL("sort_by", famList, sigII, I, ts(LP), LP, func(l *lambda, a []any) any {
			return sortByKey(a[0].([]pair), func(p pair) any { return l.call2(p[0], p[1]) })
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("sorted(" + a[0].s + ", key=lambda p: " + e.lam(l, atom("p[0]"), atom("p[1]")).s + ")")
		}),
		mkL("max_by", famList, sigII, I, ts(LP), LI, func(l *lambda, a []any) any {
			v := extremeByKey(a[0].([]pair), func(p pair) any { return l.call2(p[0], p[1]) }, true)
			if p, good := v.(pair); good {
				return []int64{p[0], p[1]}
			}
			return errV
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("list(max(" + a[0].s + ", key=lambda p: " + e.lam(l, atom("p[0]"), atom("p[1]")).s + "))")
		}),
		mkL("min_by", famList, sigII, I, ts(LP), LI, func(l *lambda, a []any) any {
			v := extremeByKey(a[0].([]pair), func(p pair) any { return l.call2(p[0], p[1]) }, false)
			if p, good := v.(pair); good {
				return []int64{p[0], p[1]}
			}
			return errV
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("list(min(" + a[0].s + ", key=lambda p: " + e.lam(l, atom("p[0]"), atom("p[1]")).s + "))")
		}),
		mkL("map_first", famList, sigII, I, ts(LP), LP, func(l *lambda, a []any) any {
			return mapPairs(a[0].([]pair), func(p pair) (pair, bool) {
				v, good := l.call2(p[0], p[1]).(int64)
				return pair{v, p[1]}, good
			})
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("[[" + e.lam(l, x0, y0).s + ", y] for x, y in " + a[0].s + "]")
		}),
		mkL("map_second", famList, sigII, I, ts(LP), LP, func(l *lambda, a []any) any {
			return mapPairs(a[0].([]pair), func(p pair) (pair, bool) {
				v, good := l.call2(p[0], p[1]).(int64)
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
	I, LP := tInt, tListPair
	return []*operator{
		mkL("sort_by_then", famList, sigII, I, ts(LP), LP, func(l *lambda, a []any) any {
			ps := slices.Clone(a[0].([]pair))
			if ps == nil {
				ps = []pair{}
			}
			slices.SortStableFunc(ps, cmpPair)
			return sortByKey(ps, func(p pair) any { return l.call2(p[0], p[1]) })
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("sorted(" + a[0].s + ", key=lambda p: (" + e.lam(l, atom("p[0]"), atom("p[1]")).s + ", p))")
		}),
		mk("same_set", famList, ts(LP, LP), tBool, func(a []any) any {
			x, y := pointSet(a[0].([]pair)), pointSet(a[1].([]pair))
			return slices.Equal(x, y)
		}, func(a []code) code {
			return cmpop(call("set", call("map", atom("tuple"), a[0])), "==", call("set", call("map", atom("tuple"), a[1])))
		}),
	}
}

func pairAt(ps []pair, i int64) any {
	v := index(ps, i)
	if p, good := v.(pair); good {
		return []int64{p[0], p[1]}
	}
	return errV
}

func mapPairs(ps []pair, f func(pair) (pair, bool)) any {
	out := make([]pair, len(ps))
	for i, p := range ps {
		q, good := f(p)
		if !good {
			return errV
		}
		out[i] = q
	}
	return out
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
