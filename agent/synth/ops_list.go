package synth

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Operators over lists of numbers and truth values.

// listOps are the basic operators over lists of integers, floats and truth
// values: reductions, indexing, sorting, slicing, set operations, ranges,
// digits and bits, and the higher-order map, filter, count, zip_with,
// adjacent pairs, scan, fold, sort_by, any, all.
func listOps() []*operator {
	I, F, B, S, LI, LF, LB, LS := tInt, tFloat, tBool, tStr, tListInt, tListFloat, tListBool, tListStr
	return []*operator{
		mk("len", famList, ts(LI), I, func(a []any) any { return int64(len(a[0].([]int64))) }, func(a []code) code { return call("len", a[0]) }),
		mk("sum", famList, ts(LI), I, func(a []any) any { return sumI(a[0].([]int64)) }, func(a []code) code { return call("sum", a[0]) }),
		mk("max", famList, ts(LI), I, func(a []any) any { return maxOf(a[0].([]int64)) }, func(a []code) code { return call("max", a[0]) }),
		mk("min", famList, ts(LI), I, func(a []any) any { return minOf(a[0].([]int64)) }, func(a []code) code { return call("min", a[0]) }),
		mk("first", famList, ts(LI), I, func(a []any) any { return index(a[0].([]int64), 0) }, func(a []code) code { return atom(a[0].at(pAtom) + "[0]") }),
		mk("last", famList, ts(LI), I, func(a []any) any { return index(a[0].([]int64), -1) }, func(a []code) code { return atom(a[0].at(pAtom) + "[-1]") }),
		mk("at", famList, ts(LI, I), I, func(a []any) any { return index(a[0].([]int64), a[1].(int64)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[" + a[1].s + "]") }),
		mk("sorted", famList, ts(LI), LI, func(a []any) any { return sortedCopy(a[0].([]int64), false) }, func(a []code) code { return call("sorted", a[0]) }),
		mk("sorted_desc", famList, ts(LI), LI, func(a []any) any { return sortedCopy(a[0].([]int64), true) }, func(a []code) code { return atom("sorted(" + a[0].s + ", reverse=True)") }),
		mk("reversed", famList, ts(LI), LI, func(a []any) any { return reversed(a[0].([]int64)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[::-1]") }),
		mk("unique", famList, ts(LI), LI, func(a []any) any { return uniqueOrdered(a[0].([]int64)) }, func(a []code) code { return atom("list(dict.fromkeys(" + a[0].s + "))") }),
		mk("sorted_set", famList, ts(LI), LI, func(a []any) any { return sortedCopy(uniqueOrdered(a[0].([]int64)), false) }, func(a []code) code { return atom("sorted(set(" + a[0].s + "))") }),
		mk("take", famList, ts(LI, I), LI, func(a []any) any { return takeList(a[0].([]int64), a[1].(int64)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[:" + a[1].s + "]") }),
		mk("drop", famList, ts(LI, I), LI, func(a []any) any { return dropList(a[0].([]int64), a[1].(int64)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[" + a[1].s + ":]") }),
		mk("concat", famList, ts(LI, LI), LI, func(a []any) any { return concat(a[0].([]int64), a[1].([]int64)) }, func(a []code) code { return binop(a[0], "+", a[1], pAdd) }),
		mk("append", famList, ts(LI, I), LI, func(a []any) any { return concat(a[0].([]int64), []int64{a[1].(int64)}) }, func(a []code) code { return binop(a[0], "+", listOf(a[1:]), pAdd) }),
		mk("count_of", famList, ts(LI, I), I, func(a []any) any {
			return int64(len(slices.DeleteFunc(slices.Clone(a[0].([]int64)), func(x int64) bool { return x != a[1].(int64) })))
		}, func(a []code) code { return method(a[0], "count", a[1]) }),
		mk("member", famList, ts(I, LI), B, func(a []any) any { return slices.Contains(a[1].([]int64), a[0].(int64)) }, func(a []code) code { return cmpop(a[0], "in", a[1]) }),
		mk("index_of", famList, ts(LI, I), I, func(a []any) any {
			i := slices.Index(a[0].([]int64), a[1].(int64))
			if i < 0 {
				return errV
			}
			return int64(i)
		}, func(a []code) code { return method(a[0], "index", a[1]) }),
		mk("argmax", famList, ts(LI), I, func(a []any) any {
			m := maxOf(a[0].([]int64))
			if isErr(m) {
				return errV
			}
			return int64(slices.Index(a[0].([]int64), m.(int64)))
		}, func(a []code) code { return method(a[0], "index", call("max", a[0])) }),
		mk("argmin", famList, ts(LI), I, func(a []any) any {
			m := minOf(a[0].([]int64))
			if isErr(m) {
				return errV
			}
			return int64(slices.Index(a[0].([]int64), m.(int64)))
		}, func(a []code) code { return method(a[0], "index", call("min", a[0])) }),
		mkE("prod", famList, ts(LI), I, func(a []any) any {
			p := int64(1)
			for _, x := range a[0].([]int64) {
				var good bool
				if p, good = mulI(p, x); !good {
					return errV
				}
			}
			return p
		}, func(e *emitter, a []code) code { e.use("math"); return call("math.prod", a[0]) }),
		mk("range", famList, ts(I), LI, func(a []any) any { return rangeList(0, a[0].(int64)) }, func(a []code) code { return atom("list(range(" + a[0].s + "))") }),
		mk("range2", famList, ts(I, I), LI, func(a []any) any { return rangeList(a[0].(int64), a[1].(int64)) }, func(a []code) code { return atom("list(range(" + a[0].s + ", " + a[1].s + "))") }),
		mk("singleton", famList, ts(I), LI, func(a []any) any { return []int64{a[0].(int64)} }, listOf),
		mk("pair", famList, ts(I, I), LI, func(a []any) any { return []int64{a[0].(int64), a[1].(int64)} }, func(a []code) code { return atom("[" + a[0].s + ", " + a[1].s + "]") }),
		mk("fpair", famList, ts(F, F), LF, func(a []any) any { return []float64{a[0].(float64), a[1].(float64)} }, func(a []code) code { return atom("[" + a[0].s + ", " + a[1].s + "]") }),
		mk("digits", famList, ts(I), LI, func(a []any) any { return digitsOf(a[0].(int64)) }, func(a []code) code { return atom("[int(d) for d in str(abs(" + a[0].s + "))]") }),
		mk("bits", famList, ts(I), LI, func(a []any) any {
			n := a[0].(int64)
			if n < 0 {
				return errV
			}
			s := strconv.FormatInt(n, 2)
			out := make([]int64, len(s))
			for i := range s {
				out[i] = int64(s[i] - '0')
			}
			return out
		}, func(a []code) code { return atom("[int(b) for b in bin(" + a[0].s + ")[2:]]") }),
		mk("from_digits", famList, ts(LI), I, func(a []any) any {
			n, ok := joinedInt(a[0].([]int64), 10)
			if !ok {
				return errV
			}
			return n
		}, func(a []code) code { return atom(`int("".join(map(str, ` + a[0].s + `)))`) }),
		mk("from_bits", famList, ts(LI), I, func(a []any) any {
			n, ok := joinedInt(a[0].([]int64), 2)
			if !ok {
				return errV
			}
			return n
		}, func(a []code) code { return atom(`int("".join(map(str, ` + a[0].s + `)), 2)`) }),
		mk("intersect", famList, ts(LI, LI), LI, func(a []any) any {
			b := a[1].([]int64)
			return sortedCopy(uniqueOrdered(slices.DeleteFunc(slices.Clone(a[0].([]int64)), func(x int64) bool { return !slices.Contains(b, x) })), false)
		}, func(a []code) code { return atom("sorted(set(" + a[0].s + ") & set(" + a[1].s + "))") }),
		mk("union", famList, ts(LI, LI), LI, func(a []any) any {
			return sortedCopy(uniqueOrdered(append(slices.Clone(a[0].([]int64)), a[1].([]int64)...)), false)
		}, func(a []code) code { return atom("sorted(set(" + a[0].s + ") | set(" + a[1].s + "))") }),
		mk("without", famList, ts(LI, LI), LI, func(a []any) any {
			b := a[1].([]int64)
			out := slices.DeleteFunc(slices.Clone(a[0].([]int64)), func(x int64) bool { return slices.Contains(b, x) })
			if out == nil {
				out = []int64{}
			}
			return out
		}, func(a []code) code { return atom("[x for x in " + a[0].s + " if x not in " + a[1].s + "]") }),
		comprehension(mkL("map", famList, sigI, I, ts(LI), LI, func(l *lambda, a []any) any { return mapList[int64, int64](a[0].([]int64), c1[int64](l)) },
			func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, x0), "x", a[0].s) })),
		comprehension(mkL("map", famList, sigI, F, ts(LI), LF, func(l *lambda, a []any) any { return mapList[int64, float64](a[0].([]int64), c1[int64](l)) },
			func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, x0), "x", a[0].s) })),
		comprehension(mkL("map", famList, sigI, B, ts(LI), LB, func(l *lambda, a []any) any { return mapList[int64, bool](a[0].([]int64), c1[int64](l)) },
			func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, x0), "x", a[0].s) })),
		comprehension(mkL("map", famList, sigI, S, ts(LI), LS, func(l *lambda, a []any) any { return mapList[int64, string](a[0].([]int64), c1[int64](l)) },
			func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, x0), "x", a[0].s) })),
		comprehension(mkL("filter", famList, sigI, B, ts(LI), LI, func(l *lambda, a []any) any { return filterList(a[0].([]int64), c1[int64](l)) },
			func(e *emitter, l *lambda, a []code) code {
				return atom("[x for x in " + a[0].s + " if " + e.lam(l, x0).s + "]")
			})),
		comprehension(mkL("count", famList, sigI, B, ts(LI), I, func(l *lambda, a []any) any { return countList(a[0].([]int64), c1[int64](l)) },
			func(e *emitter, l *lambda, a []code) code {
				return atom("sum(1 for x in " + a[0].s + " if " + e.lam(l, x0).s + ")")
			})),
		mkL("map_with", famList, sigII, I, ts(LI, I), LI, func(l *lambda, a []any) any {
			s := a[1]
			return mapList[int64, int64](a[0].([]int64), func(x int64) any { return l.call2(x, s) })
		}, func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, x0, a[1]), "x", a[0].s) }),
		mkL("filter_with", famList, sigII, B, ts(LI, I), LI, func(l *lambda, a []any) any {
			s := a[1]
			return filterList(a[0].([]int64), func(x int64) any { return l.call2(x, s) })
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("[x for x in " + a[0].s + " if " + e.lam(l, x0, a[1]).s + "]")
		}),
		mkL("zip_with", famList, sigII, I, ts(LI, LI), LI, func(l *lambda, a []any) any { return zipWith[int64, int64](a[0].([]int64), a[1].([]int64), l.call2) },
			func(e *emitter, l *lambda, a []code) code {
				return comp(e.lam(l, x0, y0), "x, y", "zip("+a[0].s+", "+a[1].s+")")
			}),
		mkL("adjacent", famScan, sigII, I, ts(LI), LI, func(l *lambda, a []any) any {
			xs := a[0].([]int64)
			return zipWith[int64, int64](xs, dropList(xs, 1), l.call2)
		}, func(e *emitter, l *lambda, a []code) code {
			return comp(e.lam(l, x0, y0), "x, y", "zip("+a[0].s+", "+a[0].at(pAtom)+"[1:])")
		}),
		mkL("adjacent", famScan, sigII, B, ts(LI), LB, func(l *lambda, a []any) any {
			xs := a[0].([]int64)
			return zipWith[int64, bool](xs, dropList(xs, 1), l.call2)
		}, func(e *emitter, l *lambda, a []code) code {
			return comp(e.lam(l, x0, y0), "x, y", "zip("+a[0].s+", "+a[0].at(pAtom)+"[1:])")
		}),
		mkL("enumerate_map", famList, sigII, I, ts(LI), LI, func(l *lambda, a []any) any {
			xs := a[0].([]int64)
			out := make([]int64, len(xs))
			for i, x := range xs {
				v, good := l.call2(int64(i), x).(int64)
				if !good {
					return errV
				}
				out[i] = v
			}
			return out
		}, func(e *emitter, l *lambda, a []code) code {
			return comp(e.lam(l, atom("i"), x0), "i, x", "enumerate("+a[0].s+")")
		}),
		mkL("scan", famScan, sigII, I, ts(LI), LI, func(l *lambda, a []any) any {
			xs := a[0].([]int64)
			out := make([]int64, len(xs))
			for i, x := range xs {
				if i == 0 {
					out[0] = x
					continue
				}
				v, good := l.call2(out[i-1], x).(int64)
				if !good {
					return errV
				}
				out[i] = v
			}
			return out
		}, func(e *emitter, l *lambda, a []code) code {
			e.use("accumulate")
			if l.Body != nil && l.Body.Op != nil && l.Body.Op == opAdd && l.Body.Kids[0].Var == 0 && l.Body.Kids[1].Var == 1 && l.Body.Kids[0].Op == nil && l.Body.Kids[1].Op == nil {
				return atom("list(accumulate(" + a[0].s + "))")
			}
			return atom("list(accumulate(" + a[0].s + ", " + e.fn(l, "acc", "x") + "))")
		}),
		mkL("fold", famScan, sigII, I, ts(LI, I), I, func(l *lambda, a []any) any {
			acc := a[1]
			for _, x := range a[0].([]int64) {
				acc = l.call2(acc, x)
				if _, good := acc.(int64); !good {
					return errV
				}
			}
			return acc
		}, func(e *emitter, l *lambda, a []code) code {
			e.use("reduce")
			return atom("reduce(" + e.fn(l, "acc", "x") + ", " + a[0].s + ", " + a[1].s + ")")
		}),
		mkL("sort_by", famList, sigI, I, ts(LI), LI, func(l *lambda, a []any) any {
			return sortByKey(a[0].([]int64), func(x int64) any { return l.call1(x) })
		},
			func(e *emitter, l *lambda, a []code) code {
				return atom("sorted(" + a[0].s + ", key=" + e.fn(l, "x") + ")")
			}),
		mkL("any", famList, sigI, B, ts(LI), B, func(l *lambda, a []any) any {
			n := countList(a[0].([]int64), c1[int64](l))
			if isErr(n) {
				return n
			}
			return n.(int64) > 0
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("any(" + e.lam(l, x0).s + " for x in " + a[0].s + ")")
		}),
		mkL("all", famList, sigI, B, ts(LI), B, func(l *lambda, a []any) any {
			n := countList(a[0].([]int64), c1[int64](l))
			if isErr(n) {
				return n
			}
			return n.(int64) == int64(len(a[0].([]int64)))
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("all(" + e.lam(l, x0).s + " for x in " + a[0].s + ")")
		}),
		mk("len", famList, ts(LF), I, func(a []any) any { return int64(len(a[0].([]float64))) }, func(a []code) code { return call("len", a[0]) }),
		mk("sum", famList, ts(LF), F, func(a []any) any { return sumF(a[0].([]float64)) }, func(a []code) code { return call("sum", a[0]) }),
		mk("max", famList, ts(LF), F, func(a []any) any { return maxOf(a[0].([]float64)) }, func(a []code) code { return call("max", a[0]) }),
		mk("min", famList, ts(LF), F, func(a []any) any { return minOf(a[0].([]float64)) }, func(a []code) code { return call("min", a[0]) }),
		mk("first", famList, ts(LF), F, func(a []any) any { return index(a[0].([]float64), 0) }, func(a []code) code { return atom(a[0].at(pAtom) + "[0]") }),
		mk("last", famList, ts(LF), F, func(a []any) any { return index(a[0].([]float64), -1) }, func(a []code) code { return atom(a[0].at(pAtom) + "[-1]") }),
		mk("sorted", famList, ts(LF), LF, func(a []any) any { return sortedCopy(a[0].([]float64), false) }, func(a []code) code { return call("sorted", a[0]) }),
		mk("sorted_desc", famList, ts(LF), LF, func(a []any) any { return sortedCopy(a[0].([]float64), true) }, func(a []code) code { return atom("sorted(" + a[0].s + ", reverse=True)") }),
		mk("reversed", famList, ts(LF), LF, func(a []any) any { return reversed(a[0].([]float64)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[::-1]") }),
		mk("take", famList, ts(LF, I), LF, func(a []any) any { return takeList(a[0].([]float64), a[1].(int64)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[:" + a[1].s + "]") }),
		mk("drop", famList, ts(LF, I), LF, func(a []any) any { return dropList(a[0].([]float64), a[1].(int64)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[" + a[1].s + ":]") }),
		comprehension(mkL("map", famList, sigF, F, ts(LF), LF, func(l *lambda, a []any) any { return mapList[float64, float64](a[0].([]float64), c1[float64](l)) },
			func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, x0), "x", a[0].s) })),
		comprehension(mkL("map", famList, sigF, I, ts(LF), LI, func(l *lambda, a []any) any { return mapList[float64, int64](a[0].([]float64), c1[float64](l)) },
			func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, x0), "x", a[0].s) })),
		comprehension(mkL("map", famList, sigF, B, ts(LF), LB, func(l *lambda, a []any) any { return mapList[float64, bool](a[0].([]float64), c1[float64](l)) },
			func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, x0), "x", a[0].s) })),
		comprehension(mkL("filter", famList, sigF, B, ts(LF), LF, func(l *lambda, a []any) any { return filterList(a[0].([]float64), c1[float64](l)) },
			func(e *emitter, l *lambda, a []code) code {
				return atom("[x for x in " + a[0].s + " if " + e.lam(l, x0).s + "]")
			})),
		comprehension(mkL("count", famList, sigF, B, ts(LF), I, func(l *lambda, a []any) any { return countList(a[0].([]float64), c1[float64](l)) },
			func(e *emitter, l *lambda, a []code) code {
				return atom("sum(1 for x in " + a[0].s + " if " + e.lam(l, x0).s + ")")
			})),
		mkL("map_with", famList, sigFF, F, ts(LF, F), LF, func(l *lambda, a []any) any {
			s := a[1]
			return mapList[float64, float64](a[0].([]float64), func(x float64) any { return l.call2(x, s) })
		}, func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, x0, a[1]), "x", a[0].s) }),
		mkL("filter_with", famList, sigFF, B, ts(LF, F), LF, func(l *lambda, a []any) any {
			s := a[1]
			return filterList(a[0].([]float64), func(x float64) any { return l.call2(x, s) })
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("[x for x in " + a[0].s + " if " + e.lam(l, x0, a[1]).s + "]")
		}),
		mkL("zip_with", famList, sigFF, F, ts(LF, LF), LF, func(l *lambda, a []any) any {
			return zipWith[float64, float64](a[0].([]float64), a[1].([]float64), l.call2)
		}, func(e *emitter, l *lambda, a []code) code {
			return comp(e.lam(l, x0, y0), "x, y", "zip("+a[0].s+", "+a[1].s+")")
		}),
		mkL("adjacent", famScan, sigFF, F, ts(LF), LF, func(l *lambda, a []any) any {
			xs := a[0].([]float64)
			return zipWith[float64, float64](xs, dropList(xs, 1), l.call2)
		}, func(e *emitter, l *lambda, a []code) code {
			return comp(e.lam(l, x0, y0), "x, y", "zip("+a[0].s+", "+a[0].at(pAtom)+"[1:])")
		}),
		mkL("scan", famScan, sigFF, F, ts(LF), LF, func(l *lambda, a []any) any {
			xs := a[0].([]float64)
			out := make([]float64, len(xs))
			for i, x := range xs {
				if i == 0 {
					out[0] = x
					continue
				}
				v, good := l.call2(out[i-1], x).(float64)
				if !good {
					return errV
				}
				out[i] = v
			}
			return out
		}, func(e *emitter, l *lambda, a []code) code {
			e.use("accumulate")
			if l.Body != nil && l.Body.Op != nil && l.Body.Op == opFAdd && l.Body.Kids[0].Var == 0 && l.Body.Kids[1].Var == 1 && l.Body.Kids[0].Op == nil && l.Body.Kids[1].Op == nil {
				return atom("list(accumulate(" + a[0].s + "))")
			}
			return atom("list(accumulate(" + a[0].s + ", " + e.fn(l, "acc", "x") + "))")
		}),
		mk("any", famList, ts(LB), B, func(a []any) any { return slices.Contains(a[0].([]bool), true) }, func(a []code) code { return call("any", a[0]) }),
		mk("all", famList, ts(LB), B, func(a []any) any { return !slices.Contains(a[0].([]bool), false) }, func(a []code) code { return call("all", a[0]) }),
	}
}

// listLibraryOps are Python builtins and idioms over integer lists that
// otherwise take many DSL nodes: divmod, neighbour differences, the most
// common element, dense ranks, sums of all slices, runs under a test,
// chunked reductions, sorting with a tie-break.
func listLibraryOps() []*operator {
	I, LI := tInt, tListInt
	return []*operator{
		costs(2, mk("divmod", famList, ts(I, I), LI, func(a []any) any {
			q, good := floorDiv(a[0].(int64), a[1].(int64))
			if !good {
				return errV
			}
			r, _ := pyMod(a[0].(int64), a[1].(int64))
			return []int64{q, r}
		}, func(a []code) code { return call("list", call("divmod", a...)) })),
		mk("diffs", famScan, ts(LI), LI, func(a []any) any {
			xs := a[0].([]int64)
			out := make([]int64, max(len(xs)-1, 0))
			for i := range out {
				d, good := subI(xs[i+1], xs[i])
				if !good {
					return errV
				}
				out[i] = d
			}
			return out
		}, func(a []code) code {
			return comp(atom("y - x"), "x, y", "zip("+a[0].s+", "+a[0].at(pAtom)+"[1:])")
		}),
		mk("mode", famList, ts(LI), I, func(a []any) any {
			xs := a[0].([]int64)
			if len(xs) == 0 {
				return errV
			}
			return mostCommon(xs)
		}, func(a []code) code {
			return atom("max(sorted(" + a[0].s + "), key=" + a[0].at(pAtom) + ".count)")
		}),
		costs(2, mk("dense_rank", famList, ts(LI), LI, func(a []any) any {
			xs := a[0].([]int64)
			distinct := sortedCopy(uniqueOrdered(xs), false)
			out := make([]int64, len(xs))
			for i, x := range xs {
				j, _ := slices.BinarySearch(distinct, x)
				out[i] = int64(j) + 1
			}
			return out
		}, func(a []code) code {
			return atom("[sorted(set(" + a[0].s + ")).index(x) + 1 for x in " + a[0].s + "]")
		})),
		costs(2, mk("slice_sums", famScan, ts(LI), LI, func(a []any) any {
			xs := a[0].([]int64)
			n := len(xs)
			if n*(n+1)/2 > maxLen {
				return errV
			}
			out := make([]int64, 0, n*(n+1)/2)
			for i := range xs {
				s := int64(0)
				for j := i; j < n; j++ {
					var good bool
					if s, good = addI(s, xs[j]); !good {
						return errV
					}
					out = append(out, s)
				}
			}
			return out
		}, func(a []code) code {
			v := a[0].s
			return atom("[sum(" + a[0].at(pAtom) + "[i:j]) for i in range(len(" + v + ")) for j in range(i + 1, len(" + v + ") + 1)]")
		})),
		mkL("run_lengths_by", famScan, sigII, tBool, ts(LI), LI, func(l *lambda, a []any) any {
			xs := a[0].([]int64)
			out := []int64{}
			for i, x := range xs {
				if i > 0 {
					joins, good := l.call2(xs[i-1], x).(bool)
					if !good {
						return errV
					}
					if joins {
						out[len(out)-1]++
						continue
					}
				}
				out = append(out, 1)
			}
			return out
		}, func(e *emitter, l *lambda, a []code) code {
			e.helper("run_lengths_by", pyRunLengthsBy)
			return atom("run_lengths_by(" + a[0].s + ", " + e.fn(l, "x", "y") + ")")
		}),
		mkL("chunk_reduce", famScan, sigII, I, ts(LI, I), LI, func(l *lambda, a []any) any {
			xs, k := a[0].([]int64), a[1].(int64)
			switch {
			case k == 0:
				return errV
			case k < 0:
				return []int64{}
			}
			n := int64(len(xs))
			k = min(k, max(n, 1))
			out := []int64{}
			for i := int64(0); i < n; i += k {
				acc := any(xs[i])
				for _, x := range xs[i+1 : min(i+k, n)] {
					if acc = l.call2(acc, x); !isInt(acc) {
						return errV
					}
				}
				out = append(out, acc.(int64))
			}
			return out
		}, func(e *emitter, l *lambda, a []code) code {
			e.use("reduce")
			v, k := a[0].at(pAtom), a[1]
			return atom("[reduce(" + e.fn(l, "acc", "x") + ", " + v + "[i:i + " + k.at(pAdd+1) + "]) for i in range(0, len(" + a[0].s + "), " + k.s + ")]")
		}),
		mkL("sort_by_then", famList, sigI, I, ts(LI), LI, func(l *lambda, a []any) any {
			xs := sortedCopy(a[0].([]int64), false)
			return sortByKey(xs, func(x int64) any { return l.call1(x) })
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("sorted(" + a[0].s + ", key=lambda x: (" + e.lam(l, x0).s + ", x))")
		}),
	}
}

// listNamedOps are common named combinations over lists: prepending,
// rotating, striding, running sums, maxima and minima, means, max and min
// with a default, windows of three, maps with the previous element, runs.
func listNamedOps() []*operator {
	I, F, LI, LF := tInt, tFloat, tListInt, tListFloat
	return []*operator{
		mk("cons", famList, ts(I, LI), LI, func(a []any) any { return concat([]int64{a[0].(int64)}, a[1].([]int64)) },
			func(a []code) code { return binop(atom("["+a[0].s+"]"), "+", a[1], pAdd) }),
		mk("rotate", famList, ts(LI, I), LI, func(a []any) any {
			xs, k := a[0].([]int64), a[1].(int64)
			return concat(dropList(xs, k), takeList(xs, k))
		}, func(a []code) code {
			v := a[0].at(pAtom)
			return binop(atom(v+"["+a[1].s+":]"), "+", atom(v+"[:"+a[1].s+"]"), pAdd)
		}),
		mk("stride", famList, ts(LI, I), LI, func(a []any) any {
			xs, k := a[0].([]int64), a[1].(int64)
			if k <= 0 {
				return errV
			}
			out := []int64{}
			for i := 0; i < len(xs); i += int(k) {
				out = append(out, xs[i])
			}
			return out
		}, func(a []code) code { return atom(a[0].at(pAtom) + "[::" + a[1].s + "]") }),
		scanNamedOp("cumsum", addI, ""),
		scanNamedOp("cummax", func(a, b int64) (int64, bool) { return max(a, b), true }, "max"),
		scanNamedOp("cummin", func(a, b int64) (int64, bool) { return min(a, b), true }, "min"),
		mkE("cumsum", famScan, ts(LF), LF, func(a []any) any {
			xs := a[0].([]float64)
			out := make([]float64, len(xs))
			s := 0.0
			for i, x := range xs {
				if i == 0 {
					s = x
				} else {
					s += x
				}
				out[i] = s
			}
			return out
		}, func(e *emitter, a []code) code { e.use("accumulate"); return atom("list(accumulate(" + a[0].s + "))") }),
		mk("mean", famList, ts(LI), F, func(a []any) any {
			xs := a[0].([]int64)
			if len(xs) == 0 {
				return errV
			}
			s := sumI(xs)
			if isErr(s) {
				return s
			}
			return float64(s.(int64)) / float64(len(xs))
		}, func(a []code) code { return binop(call("sum", a[0]), "/", call("len", a[0]), pMul) }),
		mk("mean", famList, ts(LF), F, func(a []any) any {
			xs := a[0].([]float64)
			if len(xs) == 0 {
				return errV
			}
			s := 0.0
			for _, x := range xs {
				s += x
			}
			return s / float64(len(xs))
		}, func(a []code) code { return binop(call("sum", a[0]), "/", call("len", a[0]), pMul) }),
		mk("max0", famList, ts(LI), I, func(a []any) any {
			if len(a[0].([]int64)) == 0 {
				return int64(0)
			}
			return maxOf(a[0].([]int64))
		}, func(a []code) code { return atom("max(" + a[0].s + ", default=0)") }),
		mk("min0", famList, ts(LI), I, func(a []any) any {
			if len(a[0].([]int64)) == 0 {
				return int64(0)
			}
			return minOf(a[0].([]int64))
		}, func(a []code) code { return atom("min(" + a[0].s + ", default=0)") }),
		mk("max0", famList, ts(LF), F, func(a []any) any {
			if len(a[0].([]float64)) == 0 {
				return 0.0
			}
			return maxOf(a[0].([]float64))
		}, func(a []code) code { return atom("max(" + a[0].s + ", default=0.0)") }),
		windowOp("window_sum3", func(x, y, z int64) (int64, bool) { return x + y + z, true }, "sum(W)"),
		windowOp("window_max3", func(x, y, z int64) (int64, bool) { return max(x, y, z), true }, "max(W)"),
		windowOp("window_min3", func(x, y, z int64) (int64, bool) { return min(x, y, z), true }, "min(W)"),
		windowOp("window_median3", func(x, y, z int64) (int64, bool) { return x + y + z - max(x, y, z) - min(x, y, z), true }, "sorted(W)[1]"),
		mkL("prev_map", famScan, sigII, I, ts(LI, I), LI, func(l *lambda, a []any) any {
			xs := a[0].([]int64)
			prev := concat([]int64{a[1].(int64)}, xs)
			if isErr(prev) {
				return prev
			}
			return zipWith[int64, int64](prev.([]int64), xs, l.call2)
		}, func(e *emitter, l *lambda, a []code) code {
			return comp(e.lam(l, atom("p"), x0), "p, x", "zip(["+a[1].s+"] + "+a[0].s+", "+a[0].s+")")
		}),
		mkE("runs", famScan, ts(LI), LI, func(a []any) any {
			xs := a[0].([]int64)
			out := []int64{}
			for i, x := range xs {
				if i == 0 || xs[i-1] != x {
					out = append(out, x)
				}
			}
			return out
		}, func(e *emitter, a []code) code {
			e.use("itertools")
			return atom("[k for k, _ in itertools.groupby(" + a[0].s + ")]")
		}),
		mkE("run_lengths", famScan, ts(LI), LI, func(a []any) any { return runLengths(a[0].([]int64)) },
			func(e *emitter, a []code) code {
				e.use("itertools")
				return atom("[len(list(g)) for _, g in itertools.groupby(" + a[0].s + ")]")
			}),
	}
}

// listNamedLateOps are further named combinations (the catalogue puts
// them after the string run lengths): interleaving, counting pairs i < j,
// enumerating floats, mapping integers with a float, list equality,
// divisors.
func listNamedLateOps() []*operator {
	I, F, B, LI, LF := tInt, tFloat, tBool, tListInt, tListFloat
	return []*operator{
		mk("interleave", famList, ts(LI, LI), LI, func(a []any) any {
			x, y := a[0].([]int64), a[1].([]int64)
			out := make([]int64, 0, len(x)+len(y))
			for i := 0; i < max(len(x), len(y)); i++ {
				if i < len(x) {
					out = append(out, x[i])
				}
				if i < len(y) {
					out = append(out, y[i])
				}
			}
			return out
		}, func(a []code) code {
			return atom("[v for i in range(max(len(" + a[0].s + "), len(" + a[1].s + "))) for v in (" + a[0].s + "[i:i + 1] + " + a[1].s + "[i:i + 1])]")
		}),
		mkL("count_pairs", famScan, sigII, B, ts(LI), I, func(l *lambda, a []any) any {
			xs := a[0].([]int64)
			if len(xs) > 300 {
				return errV
			}
			n := int64(0)
			for i := range xs {
				for j := i + 1; j < len(xs); j++ {
					b, good := l.call2(xs[i], xs[j]).(bool)
					if !good {
						return errV
					}
					if b {
						n++
					}
				}
			}
			return n
		}, func(e *emitter, l *lambda, a []code) code {
			v := a[0].s
			return atom("sum(1 for i in range(len(" + v + ")) for j in range(i + 1, len(" + v + ")) if " + e.lam(l, atom(v+"[i]"), atom(v+"["+"j]")).s + ")")
		}),
		mkL("enumerate_map", famList, sigFF, F, ts(LF), LF, func(l *lambda, a []any) any {
			xs := a[0].([]float64)
			out := make([]float64, len(xs))
			for i, x := range xs {
				v, good := l.call2(float64(i+1), x).(float64)
				if !good {
					return errV
				}
				out[i] = v
			}
			return out
		}, func(e *emitter, l *lambda, a []code) code {
			return comp(e.lam(l, atom("i"), x0), "i, x", "enumerate("+a[0].s+", 1)")
		}),
		mkL("map_with", famList, sigFF, I, ts(LI, F), LI, func(l *lambda, a []any) any {
			s := a[1]
			return mapList[int64, int64](a[0].([]int64), func(x int64) any { return l.call2(float64(x), s) })
		}, func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, x0, a[1]), "x", a[0].s) }),
		mk("equal", famList, ts(LI, LI), B, func(a []any) any { return slices.Equal(a[0].([]int64), a[1].([]int64)) },
			func(a []code) code { return cmpop(a[0], "==", a[1]) }),
		mk("divisors", famList, ts(I), LI, func(a []any) any {
			n := a[0].(int64)
			if n > 100_000 {
				return errV
			}
			// Pairs d, n/d up to the square root, in increasing order.
			var lo, hi []int64
			for d := int64(1); d*d <= n; d++ {
				if n%d == 0 {
					lo = append(lo, d)
					if d*d != n {
						hi = append(hi, n/d)
					}
				}
			}
			out := make([]int64, 0, len(lo)+len(hi))
			out = append(out, lo...)
			for i := len(hi) - 1; i >= 0; i-- {
				out = append(out, hi[i])
			}
			return out
		}, func(a []code) code {
			return atom("[d for d in range(1, " + a[0].s + " + 1) if " + a[0].at(pMul+1) + " % d == 0]")
		}),
	}
}

// windowOp applies f to every window of three consecutive elements; py
// renders f with W standing for the window.
func windowOp(name string, f func(x, y, z int64) (int64, bool), py string) *operator {
	return mk(name, famScan, ts(tListInt), tListInt, func(a []any) any {
		xs := a[0].([]int64)
		n := max(len(xs)-2, 0)
		out := make([]int64, n)
		for i := 0; i < n; i++ {
			v, good := f(xs[i], xs[i+1], xs[i+2])
			if !good {
				return errV
			}
			out[i] = v
		}
		return out
	}, func(a []code) code {
		v := a[0].at(pAtom)
		return atom("[" + strings.ReplaceAll(py, "W", v+"[i:i + 3]") + " for i in range(len(" + a[0].s + ") - 2)]")
	})
}

// scanNamedOp is a running value of a list (itertools.accumulate with
// the Python function py, or addition when py is empty).
func scanNamedOp(name string, f func(acc, x int64) (int64, bool), py string) *operator {
	return mkE(name, famScan, ts(tListInt), tListInt, func(a []any) any {
		xs := a[0].([]int64)
		out := make([]int64, len(xs))
		for i, x := range xs {
			if i == 0 {
				out[0] = x
				continue
			}
			v, good := f(out[i-1], x)
			if !good {
				return errV
			}
			out[i] = v
		}
		return out
	}, func(e *emitter, a []code) code {
		e.use("accumulate")
		if py == "" {
			return atom("list(accumulate(" + a[0].s + "))")
		}
		return atom("list(accumulate(" + a[0].s + ", " + py + "))")
	})
}

func rangeList(lo, hi int64) any {
	if hi-lo > maxLen {
		return errV
	}
	if hi <= lo {
		return []int64{}
	}
	out := make([]int64, 0, hi-lo)
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}

// joinedInt is Python's int("".join(map(str, xs)), base) for base 2 or
// 10, computed without building the string: false where Python raises
// (an empty list, a minus sign after the first element, a digit too large
// for the base) or where the result leaves int64.
func joinedInt(xs []int64, base int64) (int64, bool) {
	if len(xs) == 0 {
		return 0, false
	}
	neg := false
	var n int64
	var buf [20]byte
	for i, x := range xs {
		if x < 0 {
			if i > 0 || x == math.MinInt64 {
				return 0, false
			}
			neg, x = true, -x
		}
		for _, c := range strconv.AppendInt(buf[:0], x, 10) {
			d := int64(c - '0')
			if d >= base || n > (math.MaxInt64-d)/base {
				return 0, false
			}
			n = n*base + d
		}
	}
	if neg {
		n = -n
	}
	return n, true
}

func isInt(v any) bool { _, good := v.(int64); return good }

const pyRunLengthsBy = `
def run_lengths_by(xs, joins):
    runs = []
    for i, x in enumerate(xs):
        if i and joins(xs[i - 1], x):
            runs[-1] += 1
        else:
            runs.append(1)
    return runs
`

// listProgramOps are list operators of whole programs only: the cyclic
// rotation to the right (collections.deque.rotate), k taken modulo the
// length, and the first index of a value or -1 (str.find's analogue).
func listProgramOps() []*operator {
	I, LI := tInt, tListInt
	return []*operator{
		mk("find", famList, ts(LI, I), I, func(a []any) any {
			xs, t := a[0].([]int64), a[1].(int64)
			return int64(slices.Index(xs, t))
		}, func(a []code) code {
			return atom("(" + a[0].at(pAtom) + ".index(" + a[1].s + ") if " + a[1].at(pCmp+1) + " in " + a[0].at(pCmp+1) + " else -1)")
		}),
		mkE("rotate_right", famList, ts(LI, I), LI, func(a []any) any {
			xs, k := a[0].([]int64), a[1].(int64)
			if len(xs) == 0 {
				return []int64{}
			}
			m, _ := pyMod(k, int64(len(xs)))
			cut := int64(len(xs)) - m
			return concat(dropList(xs, cut), takeList(xs, cut))
		}, func(e *emitter, a []code) code {
			e.helper("rotate_right", pyRotateRight)
			return call("rotate_right", a...)
		}),
	}
}

const pyRotateRight = `
def rotate_right(xs, k):
    if not xs:
        return []
    k %= len(xs)
    return xs[len(xs) - k:] + xs[:len(xs) - k]
`

const pyAlternates = `
def alternates(xs):
    """Every step changes direction and none is flat."""
    steps = [y - x for x, y in zip(xs, xs[1:])]
    return all(steps) and all(a * b < 0 for a, b in zip(steps, steps[1:]))
`

// listHoleOps are operators of sketches' holes only (the function of a
// window): in whole programs they are a shortcut to a wrong program on
// few examples. alternates: every step changes direction and none is flat
// (a zigzag); lists of fewer than two elements do.
func listHoleOps() []*operator {
	B, LI := tBool, tListInt
	return []*operator{
		mkE("alternates", famScan, ts(LI), B, func(a []any) any {
			xs := a[0].([]int64)
			for i := 1; i < len(xs); i++ {
				if xs[i] == xs[i-1] || (i >= 2 && (xs[i] > xs[i-1]) == (xs[i-1] > xs[i-2])) {
					return false
				}
			}
			return true
		}, func(e *emitter, a []code) code {
			e.helper("alternates", pyAlternates)
			return call("alternates", a[0])
		}),
	}
}
