package dsl

import (
	"math/bits"
	"slices"
)

// Operators over lists of numbers and truth values.

// listOps are the basic operators over lists of integers, floats and truth
// values: reductions, indexing, sorting, slicing, set operations, ranges,
// digits and bits, and the higher-order map, filter, count, zip_with,
// adjacent pairs, scan, fold, sort_by, any, all.
func listOps() []*Operator {
	I, F, B, S := Int, Float, Bool, Str
	return []*Operator{
		op1("len", FamList, func(xs []int64) (int64, bool) { return int64(len(xs)), true }, pyOnly(func(a []Code) Code { return Call("len", a[0]) })),
		op1("sum", FamList, sumInts, pyOnly(func(a []Code) Code { return Call("sum", a[0]) })),
		op1("max", FamList, largest[int64], pyOnly(func(a []Code) Code { return Call("max", a[0]) })),
		op1("min", FamList, smallest[int64], pyOnly(func(a []Code) Code { return Call("min", a[0]) })),
		op1("first", FamList, func(xs []int64) (int64, bool) { return at(xs, 0) }, pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[0]") })),
		op1("last", FamList, func(xs []int64) (int64, bool) { return at(xs, -1) }, pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[-1]") })),
		op2("at", FamList, at[int64], pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[" + a[1].S + "]") })),
		op1a("sorted", FamList, func(ar *Arena, xs []int64) ([]int64, bool) { return sortedCopy(ar, xs, false), true }, pyOnly(func(a []Code) Code { return Call("sorted", a[0]) })),
		op1a("sorted_desc", FamList, func(ar *Arena, xs []int64) ([]int64, bool) { return sortedCopy(ar, xs, true), true }, pyOnly(func(a []Code) Code { return Atom("sorted(" + a[0].S + ", reverse=True)") })),
		op1a("reversed", FamList, func(ar *Arena, xs []int64) ([]int64, bool) { return Reversed(ar, xs), true }, pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[::-1]") })),
		op1a("unique", FamList, func(ar *Arena, xs []int64) ([]int64, bool) { return uniqueOrdered(ar, xs), true }, pyOnly(func(a []Code) Code { return Atom("list(dict.fromkeys(" + a[0].S + "))") })),
		op1a("sorted_set", FamList, func(ar *Arena, xs []int64) ([]int64, bool) { return sortedCopy(ar, uniqueOrdered(ar, xs), false), true }, pyOnly(func(a []Code) Code { return Atom("sorted(set(" + a[0].S + "))") })),
		op2("take", FamList, func(xs []int64, k int64) ([]int64, bool) { return takeList(xs, k), true }, pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[:" + a[1].S + "]") })),
		op2("drop", FamList, func(xs []int64, k int64) ([]int64, bool) { return dropList(xs, k), true }, pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[" + a[1].S + ":]") })),
		op2a("concat", FamList, joined[int64], pyOnly(func(a []Code) Code { return binop(a[0], "+", a[1], pAdd) })),
		op2a("append", FamList, func(ar *Arena, xs []int64, x int64) ([]int64, bool) { return joined(ar, xs, []int64{x}) }, pyOnly(func(a []Code) Code { return binop(a[0], "+", listOf(a[1:]), pAdd) })),
		op2("count_of", FamList, func(xs []int64, v int64) (int64, bool) {
			n := int64(0)
			for _, x := range xs {
				if x == v {
					n++
				}
			}
			return n, true
		}, pyOnly(func(a []Code) Code { return method(a[0], "count", a[1]) })),
		op2("member", FamList, func(x int64, xs []int64) (bool, bool) { return slices.Contains(xs, x), true }, pyOnly(func(a []Code) Code { return cmpop(a[0], "in", a[1]) })),
		op2("index_of", FamList, func(xs []int64, x int64) (int64, bool) {
			i := slices.Index(xs, x)
			return int64(i), i >= 0
		}, pyOnly(func(a []Code) Code { return method(a[0], "index", a[1]) })),
		op1("argmax", FamList, func(xs []int64) (int64, bool) {
			m, good := largest(xs)
			return int64(slices.Index(xs, m)), good
		}, pyOnly(func(a []Code) Code { return method(a[0], "index", Call("max", a[0])) })),
		op1("argmin", FamList, func(xs []int64) (int64, bool) {
			m, good := smallest(xs)
			return int64(slices.Index(xs, m)), good
		}, pyOnly(func(a []Code) Code { return method(a[0], "index", Call("min", a[0])) })),
		op1("prod", FamList, func(xs []int64) (int64, bool) {
			p := int64(1)
			for _, x := range xs {
				var good bool
				if p, good = MulI(p, x); !good {
					return 0, false
				}
			}
			return p, true
		}, func(e *Emitter, a []Code) Code { e.use("math"); return Call("math.prod", a[0]) }),
		op1a("range", FamList, func(ar *Arena, n int64) ([]int64, bool) { return rangeOf(ar, 0, n) }, pyOnly(func(a []Code) Code { return Atom("list(range(" + a[0].S + "))") })),
		op2a("range2", FamList, rangeOf, pyOnly(func(a []Code) Code { return Atom("list(range(" + a[0].S + ", " + a[1].S + "))") })),
		op1a("singleton", FamList, func(ar *Arena, x int64) ([]int64, bool) {
			out := alloc[int64](ar, 1)
			out[0] = x
			return out, true
		}, pyOnly(listOf)),
		op2a("pair", FamList, func(ar *Arena, x, y int64) ([]int64, bool) {
			out := alloc[int64](ar, 2)
			out[0], out[1] = x, y
			return out, true
		}, pyOnly(func(a []Code) Code { return Atom("[" + a[0].S + ", " + a[1].S + "]") })),
		op2a("fpair", FamList, func(ar *Arena, x, y float64) ([]float64, bool) {
			out := alloc[float64](ar, 2)
			out[0], out[1] = x, y
			return out, true
		}, pyOnly(func(a []Code) Code { return Atom("[" + a[0].S + ", " + a[1].S + "]") })),
		op1a("digits", FamList, func(ar *Arena, n int64) ([]int64, bool) { return digitsOf(ar, n), true }, pyOnly(func(a []Code) Code { return Atom("[int(d) for d in str(abs(" + a[0].S + "))]") })),
		op1a("bits", FamList, func(ar *Arena, n int64) ([]int64, bool) {
			if n < 0 {
				return nil, false
			}
			// bin(0) is "0b0": one digit.
			out := alloc[int64](ar, max(bits.Len64(uint64(n)), 1))
			for i := range out {
				out[len(out)-1-i] = n >> i & 1
			}
			return out, true
		}, pyOnly(func(a []Code) Code { return Atom("[int(b) for b in bin(" + a[0].S + ")[2:]]") })),
		op1("from_digits", FamList, func(xs []int64) (int64, bool) { return joinedInt(xs, 10) }, pyOnly(func(a []Code) Code { return Atom(`int("".join(map(str, ` + a[0].S + `)))`) })),
		op1("from_bits", FamList, func(xs []int64) (int64, bool) { return joinedInt(xs, 2) }, pyOnly(func(a []Code) Code { return Atom(`int("".join(map(str, ` + a[0].S + `)), 2)`) })),
		op2a("intersect", FamList, func(ar *Arena, xs, ys []int64) ([]int64, bool) {
			both := allocCap[int64](ar, len(xs))
			for _, x := range xs {
				if slices.Contains(ys, x) {
					both = append(both, x)
				}
			}
			return sortedCopy(ar, uniqueOrdered(ar, both), false), true
		}, pyOnly(func(a []Code) Code { return Atom("sorted(set(" + a[0].S + ") & set(" + a[1].S + "))") })),
		op2a("union", FamList, func(ar *Arena, xs, ys []int64) ([]int64, bool) {
			all := append(append(allocCap[int64](ar, len(xs)+len(ys)), xs...), ys...)
			return sortedCopy(ar, uniqueOrdered(ar, all), false), true
		}, pyOnly(func(a []Code) Code { return Atom("sorted(set(" + a[0].S + ") | set(" + a[1].S + "))") })),
		op2a("without", FamList, func(ar *Arena, xs, ys []int64) ([]int64, bool) {
			out := allocCap[int64](ar, len(xs))
			for _, x := range xs {
				if !slices.Contains(ys, x) {
					out = append(out, x)
				}
			}
			return out, true
		}, pyOnly(func(a []Code) Code { return Atom("[x for x in " + a[0].S + " if x not in " + a[1].S + "]") })),
		comprehension(opL1("map", FamList, SigI, I, mapL[int64, int64],
			func(e *Emitter, l *Lambda, a []Code) Code { return comp(e.Lam(l, x0), "x", a[0].S) })),
		comprehension(opL1("map", FamList, SigI, F, mapL[int64, float64],
			func(e *Emitter, l *Lambda, a []Code) Code { return comp(e.Lam(l, x0), "x", a[0].S) })),
		comprehension(opL1("map", FamList, SigI, B, mapL[int64, bool],
			func(e *Emitter, l *Lambda, a []Code) Code { return comp(e.Lam(l, x0), "x", a[0].S) })),
		comprehension(opL1("map", FamList, SigI, S, mapL[int64, string],
			func(e *Emitter, l *Lambda, a []Code) Code { return comp(e.Lam(l, x0), "x", a[0].S) })),
		comprehension(opL1("filter", FamList, SigI, B, filterL[int64],
			func(e *Emitter, l *Lambda, a []Code) Code {
				return Atom("[x for x in " + a[0].S + " if " + e.Lam(l, x0).S + "]")
			})),
		comprehension(opL1("count", FamList, SigI, B, countL[int64],
			func(e *Emitter, l *Lambda, a []Code) Code {
				return Atom("sum(1 for x in " + a[0].S + " if " + e.Lam(l, x0).S + ")")
			})),
		opL2("map_with", FamList, SigII, I, mapWithL[int64, int64, int64],
			func(e *Emitter, l *Lambda, a []Code) Code { return comp(e.Lam(l, x0, a[1]), "x", a[0].S) }),
		opL2("filter_with", FamList, SigII, B, filterWithL[int64, int64], func(e *Emitter, l *Lambda, a []Code) Code {
			return Atom("[x for x in " + a[0].S + " if " + e.Lam(l, x0, a[1]).S + "]")
		}),
		opL2("zip_with", FamList, SigII, I, zipL[int64, int64],
			func(e *Emitter, l *Lambda, a []Code) Code {
				return comp(e.Lam(l, x0, y0), "x, y", "zip("+a[0].S+", "+a[1].S+")")
			}),
		opL1("adjacent", FamScan, SigII, I, func(ar *Arena, l *Lambda, xs []int64) ([]int64, bool) {
			return zipL[int64, int64](ar, l, xs, dropList(xs, 1))
		},
			func(e *Emitter, l *Lambda, a []Code) Code {
				return comp(e.Lam(l, x0, y0), "x, y", "zip("+a[0].S+", "+a[0].At(pAtom)+"[1:])")
			}),
		opL1("adjacent", FamScan, SigII, B, func(ar *Arena, l *Lambda, xs []int64) ([]bool, bool) {
			return zipL[int64, bool](ar, l, xs, dropList(xs, 1))
		},
			func(e *Emitter, l *Lambda, a []Code) Code {
				return comp(e.Lam(l, x0, y0), "x, y", "zip("+a[0].S+", "+a[0].At(pAtom)+"[1:])")
			}),
		opL1("enumerate_map", FamList, SigII, I, func(ar *Arena, l *Lambda, xs []int64) ([]int64, bool) {
			out := alloc[int64](ar, len(xs))
			for i, x := range xs {
				v, good := Lam2[int64, int64, int64](ar, l, int64(i), x)
				if !good {
					return nil, false
				}
				out[i] = v
			}
			return out, true
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			return comp(e.Lam(l, Atom("i"), x0), "i, x", "enumerate("+a[0].S+")")
		}),
		opL1("scan", FamScan, SigII, I, scanL[int64], func(e *Emitter, l *Lambda, a []Code) Code {
			e.use("accumulate")
			if l.Body != nil && l.Body.Op != nil && l.Body.Op == opAdd && l.Body.Kids[0].Var == 0 && l.Body.Kids[1].Var == 1 && l.Body.Kids[0].Op == nil && l.Body.Kids[1].Op == nil {
				return Atom("list(accumulate(" + a[0].S + "))")
			}
			return Atom("list(accumulate(" + a[0].S + ", " + e.fn(l, "acc", "x") + "))")
		}),
		opL2("fold", FamScan, SigII, I, func(ar *Arena, l *Lambda, xs []int64, acc int64) (int64, bool) {
			for _, x := range xs {
				var good bool
				if acc, good = Lam2[int64, int64, int64](ar, l, acc, x); !good {
					return 0, false
				}
			}
			return acc, true
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			e.use("reduce")
			return Atom("reduce(" + e.fn(l, "acc", "x") + ", " + a[0].S + ", " + a[1].S + ")")
		}),
		opL1("sort_by", FamList, SigI, I, sortByL[int64],
			func(e *Emitter, l *Lambda, a []Code) Code {
				return Atom("sorted(" + a[0].S + ", key=" + e.fn(l, "x") + ")")
			}),
		opL1("any", FamList, SigI, B, func(ar *Arena, l *Lambda, xs []int64) (bool, bool) {
			n, good := countL(ar, l, xs)
			return n > 0, good
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			return Atom("any(" + e.Lam(l, x0).S + " for x in " + a[0].S + ")")
		}),
		opL1("all", FamList, SigI, B, func(ar *Arena, l *Lambda, xs []int64) (bool, bool) {
			n, good := countL(ar, l, xs)
			return n == int64(len(xs)), good
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			return Atom("all(" + e.Lam(l, x0).S + " for x in " + a[0].S + ")")
		}),
		op1("len", FamList, func(xs []float64) (int64, bool) { return int64(len(xs)), true }, pyOnly(func(a []Code) Code { return Call("len", a[0]) })),
		op1("sum", FamList, sumFloats, pyOnly(func(a []Code) Code { return Call("sum", a[0]) })),
		op1("max", FamList, largest[float64], pyOnly(func(a []Code) Code { return Call("max", a[0]) })),
		op1("min", FamList, smallest[float64], pyOnly(func(a []Code) Code { return Call("min", a[0]) })),
		op1("first", FamList, func(xs []float64) (float64, bool) { return at(xs, 0) }, pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[0]") })),
		op1("last", FamList, func(xs []float64) (float64, bool) { return at(xs, -1) }, pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[-1]") })),
		op1a("sorted", FamList, func(ar *Arena, xs []float64) ([]float64, bool) { return sortedCopy(ar, xs, false), true }, pyOnly(func(a []Code) Code { return Call("sorted", a[0]) })),
		op1a("sorted_desc", FamList, func(ar *Arena, xs []float64) ([]float64, bool) { return sortedCopy(ar, xs, true), true }, pyOnly(func(a []Code) Code { return Atom("sorted(" + a[0].S + ", reverse=True)") })),
		op1a("reversed", FamList, func(ar *Arena, xs []float64) ([]float64, bool) { return Reversed(ar, xs), true }, pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[::-1]") })),
		op2("take", FamList, func(xs []float64, k int64) ([]float64, bool) { return takeList(xs, k), true }, pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[:" + a[1].S + "]") })),
		op2("drop", FamList, func(xs []float64, k int64) ([]float64, bool) { return dropList(xs, k), true }, pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[" + a[1].S + ":]") })),
		comprehension(opL1("map", FamList, SigF, F, mapL[float64, float64],
			func(e *Emitter, l *Lambda, a []Code) Code { return comp(e.Lam(l, x0), "x", a[0].S) })),
		comprehension(opL1("map", FamList, SigF, I, mapL[float64, int64],
			func(e *Emitter, l *Lambda, a []Code) Code { return comp(e.Lam(l, x0), "x", a[0].S) })),
		comprehension(opL1("map", FamList, SigF, B, mapL[float64, bool],
			func(e *Emitter, l *Lambda, a []Code) Code { return comp(e.Lam(l, x0), "x", a[0].S) })),
		comprehension(opL1("filter", FamList, SigF, B, filterL[float64],
			func(e *Emitter, l *Lambda, a []Code) Code {
				return Atom("[x for x in " + a[0].S + " if " + e.Lam(l, x0).S + "]")
			})),
		comprehension(opL1("count", FamList, SigF, B, countL[float64],
			func(e *Emitter, l *Lambda, a []Code) Code {
				return Atom("sum(1 for x in " + a[0].S + " if " + e.Lam(l, x0).S + ")")
			})),
		opL2("map_with", FamList, SigFF, F, mapWithL[float64, float64, float64],
			func(e *Emitter, l *Lambda, a []Code) Code { return comp(e.Lam(l, x0, a[1]), "x", a[0].S) }),
		opL2("filter_with", FamList, SigFF, B, filterWithL[float64, float64], func(e *Emitter, l *Lambda, a []Code) Code {
			return Atom("[x for x in " + a[0].S + " if " + e.Lam(l, x0, a[1]).S + "]")
		}),
		opL2("zip_with", FamList, SigFF, F, zipL[float64, float64], func(e *Emitter, l *Lambda, a []Code) Code {
			return comp(e.Lam(l, x0, y0), "x, y", "zip("+a[0].S+", "+a[1].S+")")
		}),
		opL1("adjacent", FamScan, SigFF, F, func(ar *Arena, l *Lambda, xs []float64) ([]float64, bool) {
			return zipL[float64, float64](ar, l, xs, dropList(xs, 1))
		},
			func(e *Emitter, l *Lambda, a []Code) Code {
				return comp(e.Lam(l, x0, y0), "x, y", "zip("+a[0].S+", "+a[0].At(pAtom)+"[1:])")
			}),
		opL1("scan", FamScan, SigFF, F, scanL[float64], func(e *Emitter, l *Lambda, a []Code) Code {
			e.use("accumulate")
			if l.Body != nil && l.Body.Op != nil && l.Body.Op == opFAdd && l.Body.Kids[0].Var == 0 && l.Body.Kids[1].Var == 1 && l.Body.Kids[0].Op == nil && l.Body.Kids[1].Op == nil {
				return Atom("list(accumulate(" + a[0].S + "))")
			}
			return Atom("list(accumulate(" + a[0].S + ", " + e.fn(l, "acc", "x") + "))")
		}),
		op1("any", FamList, func(xs []bool) (bool, bool) { return slices.Contains(xs, true), true }, pyOnly(func(a []Code) Code { return Call("any", a[0]) })),
		op1("all", FamList, func(xs []bool) (bool, bool) { return !slices.Contains(xs, false), true }, pyOnly(func(a []Code) Code { return Call("all", a[0]) })),
	}
}

// scanL is list(itertools.accumulate(xs, l)).
func scanL[A any](ar *Arena, l *Lambda, xs []A) ([]A, bool) {
	out := alloc[A](ar, len(xs))
	for i, x := range xs {
		if i == 0 {
			out[0] = x
			continue
		}
		v, good := Lam2[A, A, A](ar, l, out[i-1], x)
		if !good {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// listLibraryOps are Python builtins and idioms over integer lists that
// otherwise take many DSL nodes: divmod, neighbour differences, the most
// common element, dense ranks, sums of all slices, runs under a test,
// chunked reductions, sorting with a tie-break.
func listLibraryOps() []*Operator {
	return []*Operator{
		costs(2, op2("divmod", FamList, func(x, y int64) ([]int64, bool) {
			q, good := FloorDiv(x, y)
			if !good {
				return nil, false
			}
			r, _ := PyMod(x, y)
			return []int64{q, r}, true
		}, pyOnly(func(a []Code) Code { return Call("list", Call("divmod", a...)) }))),
		op1a("diffs", FamScan, func(ar *Arena, xs []int64) ([]int64, bool) {
			out := alloc[int64](ar, max(len(xs)-1, 0))
			for i := range out {
				d, good := SubI(xs[i+1], xs[i])
				if !good {
					return nil, false
				}
				out[i] = d
			}
			return out, true
		}, pyOnly(func(a []Code) Code {
			return comp(Atom("y - x"), "x, y", "zip("+a[0].S+", "+a[0].At(pAtom)+"[1:])")
		})),
		op1a("mode", FamList, func(ar *Arena, xs []int64) (int64, bool) {
			if len(xs) == 0 {
				return 0, false
			}
			return mostCommon(ar, xs), true
		}, pyOnly(func(a []Code) Code {
			return Atom("max(sorted(" + a[0].S + "), key=" + a[0].At(pAtom) + ".count)")
		})),
		costs(2, op1a("dense_rank", FamList, func(ar *Arena, xs []int64) ([]int64, bool) {
			distinct := sortedCopy(ar, uniqueOrdered(ar, xs), false)
			out := alloc[int64](ar, len(xs))
			for i, x := range xs {
				j, _ := slices.BinarySearch(distinct, x)
				out[i] = int64(j) + 1
			}
			return out, true
		}, pyOnly(func(a []Code) Code {
			return Atom("[sorted(set(" + a[0].S + ")).index(x) + 1 for x in " + a[0].S + "]")
		}))),
		costs(2, op1a("slice_sums", FamScan, func(ar *Arena, xs []int64) ([]int64, bool) {
			n := len(xs)
			if n*(n+1)/2 > MaxLen {
				return nil, false
			}
			out := allocCap[int64](ar, n*(n+1)/2)
			for i := range xs {
				s := int64(0)
				for j := i; j < n; j++ {
					var good bool
					if s, good = AddI(s, xs[j]); !good {
						return nil, false
					}
					out = append(out, s)
				}
			}
			return out, true
		}, pyOnly(func(a []Code) Code {
			v := a[0].S
			return Atom("[sum(" + a[0].At(pAtom) + "[i:j]) for i in range(len(" + v + ")) for j in range(i + 1, len(" + v + ") + 1)]")
		}))),
		opL1("run_lengths_by", FamScan, SigII, Bool, func(ar *Arena, l *Lambda, xs []int64) ([]int64, bool) {
			out := []int64{}
			for i, x := range xs {
				if i > 0 {
					joins, good := Lam2[int64, int64, bool](ar, l, xs[i-1], x)
					if !good {
						return nil, false
					}
					if joins {
						out[len(out)-1]++
						continue
					}
				}
				out = append(out, 1)
			}
			return out, true
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			e.helper("run_lengths_by", pyRunLengthsBy)
			return Atom("run_lengths_by(" + a[0].S + ", " + e.fn(l, "x", "y") + ")")
		}),
		opL2("chunk_reduce", FamScan, SigII, Int, func(ar *Arena, l *Lambda, xs []int64, k int64) ([]int64, bool) {
			switch {
			case k == 0:
				return nil, false
			case k < 0:
				return []int64{}, true
			}
			n := int64(len(xs))
			k = min(k, max(n, 1))
			out := []int64{}
			for i := int64(0); i < n; i += k {
				acc := xs[i]
				for _, x := range xs[i+1 : min(i+k, n)] {
					var good bool
					if acc, good = Lam2[int64, int64, int64](ar, l, acc, x); !good {
						return nil, false
					}
				}
				out = append(out, acc)
			}
			return out, true
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			e.use("reduce")
			v, k := a[0].At(pAtom), a[1]
			return Atom("[reduce(" + e.fn(l, "acc", "x") + ", " + v + "[i:i + " + k.At(pAdd+1) + "]) for i in range(0, len(" + a[0].S + "), " + k.S + ")]")
		}),
		opL1("sort_by_then", FamList, SigI, Int, func(ar *Arena, l *Lambda, xs []int64) ([]int64, bool) {
			return sortByL(ar, l, sortedCopy(ar, xs, false))
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			return Atom("sorted(" + a[0].S + ", key=lambda x: (" + e.Lam(l, x0).S + ", x))")
		}),
	}
}
