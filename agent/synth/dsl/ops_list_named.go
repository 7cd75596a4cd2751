package dsl

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// listNamedOps are common named combinations over lists: prepending,
// rotating, striding, running sums, maxima and minima, means, max and min
// with a default, windows of three, maps with the previous element, runs.
func listNamedOps() []*Operator {
	return []*Operator{
		op2a("cons", FamList, func(ar *Arena, x int64, xs []int64) ([]int64, bool) { return joined(ar, []int64{x}, xs) },
			pyOnly(func(a []Code) Code { return binop(Atom("["+a[0].S+"]"), "+", a[1], pAdd) })),
		op2a("rotate", FamList, func(ar *Arena, xs []int64, k int64) ([]int64, bool) {
			return joined(ar, dropList(xs, k), takeList(xs, k))
		}, pyOnly(func(a []Code) Code {
			v := a[0].At(pAtom)
			return binop(Atom(v+"["+a[1].S+":]"), "+", Atom(v+"[:"+a[1].S+"]"), pAdd)
		})),
		op2("stride", FamList, func(xs []int64, k int64) ([]int64, bool) {
			if k <= 0 {
				return nil, false
			}
			out := make([]int64, 0, (len(xs)+int(min(k, MaxLen))-1)/int(min(k, MaxLen)))
			for i := 0; i < len(xs); i += int(k) {
				out = append(out, xs[i])
			}
			return out, true
		}, pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[::" + a[1].S + "]") })),
		scanNamedOp("cumsum", AddI, ""),
		scanNamedOp("cummax", func(a, b int64) (int64, bool) { return max(a, b), true }, "max"),
		scanNamedOp("cummin", func(a, b int64) (int64, bool) { return min(a, b), true }, "min"),
		op1("cumsum", FamScan, func(xs []float64) ([]float64, bool) {
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
			return out, true
		}, func(e *Emitter, a []Code) Code { e.use("accumulate"); return Atom("list(accumulate(" + a[0].S + "))") }),
		op1("mean", FamList, func(xs []int64) (float64, bool) {
			if len(xs) == 0 {
				return 0, false
			}
			s, good := sumInts(xs)
			return float64(s) / float64(len(xs)), good
		}, pyOnly(func(a []Code) Code { return binop(Call("sum", a[0]), "/", Call("len", a[0]), pMul) })),
		op1("mean", FamList, func(xs []float64) (float64, bool) {
			if len(xs) == 0 {
				return 0, false
			}
			s := 0.0
			for _, x := range xs {
				s += x
			}
			return s / float64(len(xs)), true
		}, pyOnly(func(a []Code) Code { return binop(Call("sum", a[0]), "/", Call("len", a[0]), pMul) })),
		op1("max0", FamList, func(xs []int64) (int64, bool) {
			if len(xs) == 0 {
				return 0, true
			}
			return largest(xs)
		}, pyOnly(func(a []Code) Code { return Atom("max(" + a[0].S + ", default=0)") })),
		op1("min0", FamList, func(xs []int64) (int64, bool) {
			if len(xs) == 0 {
				return 0, true
			}
			return smallest(xs)
		}, pyOnly(func(a []Code) Code { return Atom("min(" + a[0].S + ", default=0)") })),
		op1("max0", FamList, func(xs []float64) (float64, bool) {
			if len(xs) == 0 {
				return 0, true
			}
			return largest(xs)
		}, pyOnly(func(a []Code) Code { return Atom("max(" + a[0].S + ", default=0.0)") })),
		windowOp("window_sum3", func(x, y, z int64) (int64, bool) { return x + y + z, true }, "sum(W)"),
		windowOp("window_max3", func(x, y, z int64) (int64, bool) { return max(x, y, z), true }, "max(W)"),
		windowOp("window_min3", func(x, y, z int64) (int64, bool) { return min(x, y, z), true }, "min(W)"),
		windowOp("window_median3", func(x, y, z int64) (int64, bool) { return x + y + z - max(x, y, z) - min(x, y, z), true }, "sorted(W)[1]"),
		opL2("prev_map", FamScan, SigII, Int, func(ar *Arena, l *Lambda, xs []int64, init int64) ([]int64, bool) {
			prev, good := joined(ar, []int64{init}, xs)
			if !good {
				return nil, false
			}
			return zipL[int64, int64](ar, l, prev, xs)
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			return comp(e.Lam(l, Atom("p"), x0), "p, x", "zip(["+a[1].S+"] + "+a[0].S+", "+a[0].S+")")
		}),
		op1a("runs", FamScan, func(ar *Arena, xs []int64) ([]int64, bool) {
			n := 0
			for i, x := range xs {
				if i == 0 || xs[i-1] != x {
					n++
				}
			}
			out := allocCap[int64](ar, n)
			for i, x := range xs {
				if i == 0 || xs[i-1] != x {
					out = append(out, x)
				}
			}
			return out, true
		}, func(e *Emitter, a []Code) Code {
			e.use("itertools")
			return Atom("[k for k, _ in itertools.groupby(" + a[0].S + ")]")
		}),
		op1a("run_lengths", FamScan, func(ar *Arena, xs []int64) ([]int64, bool) { return runLengths(ar, xs), true },
			func(e *Emitter, a []Code) Code {
				e.use("itertools")
				return Atom("[len(list(g)) for _, g in itertools.groupby(" + a[0].S + ")]")
			}),
	}
}

// listNamedLateOps are further named combinations (the catalogue puts
// them after the string run lengths): interleaving, counting pairs i < j,
// enumerating floats, mapping integers with a float, list equality,
// divisors.
func listNamedLateOps() []*Operator {
	return []*Operator{
		op2a("interleave", FamList, func(ar *Arena, x, y []int64) ([]int64, bool) {
			out := allocCap[int64](ar, len(x)+len(y))
			for i := 0; i < max(len(x), len(y)); i++ {
				if i < len(x) {
					out = append(out, x[i])
				}
				if i < len(y) {
					out = append(out, y[i])
				}
			}
			return out, true
		}, pyOnly(func(a []Code) Code {
			return Atom("[v for i in range(max(len(" + a[0].S + "), len(" + a[1].S + "))) for v in (" + a[0].S + "[i:i + 1] + " + a[1].S + "[i:i + 1])]")
		})),
		opL1("count_pairs", FamScan, SigII, Bool, func(ar *Arena, l *Lambda, xs []int64) (int64, bool) {
			if len(xs) > 300 {
				return 0, false
			}
			n := int64(0)
			for i := range xs {
				for j := i + 1; j < len(xs); j++ {
					b, good := Lam2[int64, int64, bool](ar, l, xs[i], xs[j])
					if !good {
						return 0, false
					}
					if b {
						n++
					}
				}
			}
			return n, true
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			v := a[0].S
			return Atom("sum(1 for i in range(len(" + v + ")) for j in range(i + 1, len(" + v + ")) if " + e.Lam(l, Atom(v+"[i]"), Atom(v+"["+"j]")).S + ")")
		}),
		opL1("enumerate_map", FamList, SigFF, Float, func(ar *Arena, l *Lambda, xs []float64) ([]float64, bool) {
			out := make([]float64, len(xs))
			for i, x := range xs {
				v, good := Lam2[float64, float64, float64](ar, l, float64(i+1), x)
				if !good {
					return nil, false
				}
				out[i] = v
			}
			return out, true
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			return comp(e.Lam(l, Atom("i"), x0), "i, x", "enumerate("+a[0].S+", 1)")
		}),
		opL2("map_with", FamList, SigFF, Int, func(ar *Arena, l *Lambda, xs []int64, s float64) ([]int64, bool) {
			out := alloc[int64](ar, len(xs))
			for i, x := range xs {
				v, good := Lam2[float64, float64, int64](ar, l, float64(x), s)
				if !good {
					return nil, false
				}
				out[i] = v
			}
			return out, true
		}, func(e *Emitter, l *Lambda, a []Code) Code { return comp(e.Lam(l, x0, a[1]), "x", a[0].S) }),
		op2("equal", FamList, func(x, y []int64) (bool, bool) { return slices.Equal(x, y), true },
			pyOnly(func(a []Code) Code { return cmpop(a[0], "==", a[1]) })),
		op1a("divisors", FamList, func(ar *Arena, n int64) ([]int64, bool) {
			if n > 100_000 {
				return nil, false
			}
			// Pairs d, n/d up to the square root, in increasing order,
			// collected on the stack (up to 100,000 no number has more
			// than 64 such pairs) and copied to the arena.
			var loBuf, hiBuf [64]int64
			lo, hi := loBuf[:0], hiBuf[:0]
			for d := int64(1); d*d <= n; d++ {
				if n%d == 0 {
					lo = append(lo, d)
					if d*d != n {
						hi = append(hi, n/d)
					}
				}
			}
			out := append(allocCap[int64](ar, len(lo)+len(hi)), lo...)
			for i := len(hi) - 1; i >= 0; i-- {
				out = append(out, hi[i])
			}
			return out, true
		}, pyOnly(func(a []Code) Code {
			return Atom("[d for d in range(1, " + a[0].S + " + 1) if " + a[0].At(pMul+1) + " % d == 0]")
		})),
	}
}

// windowOp applies f to every window of three consecutive elements; py
// renders f with W standing for the window.
func windowOp(name string, f func(x, y, z int64) (int64, bool), py string) *Operator {
	return op1a(name, FamScan, func(ar *Arena, xs []int64) ([]int64, bool) {
		n := max(len(xs)-2, 0)
		out := alloc[int64](ar, n)
		for i := 0; i < n; i++ {
			v, good := f(xs[i], xs[i+1], xs[i+2])
			if !good {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	}, pyOnly(func(a []Code) Code {
		v := a[0].At(pAtom)
		return Atom("[" + strings.ReplaceAll(py, "W", v+"[i:i + 3]") + " for i in range(len(" + a[0].S + ") - 2)]")
	}))
}

// scanNamedOp is a running value of a list (itertools.accumulate with
// the Python function py, or addition when py is empty).
func scanNamedOp(name string, f func(acc, x int64) (int64, bool), py string) *Operator {
	return op1a(name, FamScan, func(ar *Arena, xs []int64) ([]int64, bool) {
		out := alloc[int64](ar, len(xs))
		for i, x := range xs {
			if i == 0 {
				out[0] = x
				continue
			}
			v, good := f(out[i-1], x)
			if !good {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	}, func(e *Emitter, a []Code) Code {
		e.use("accumulate")
		if py == "" {
			return Atom("list(accumulate(" + a[0].S + "))")
		}
		return Atom("list(accumulate(" + a[0].S + ", " + py + "))")
	})
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
func listProgramOps() []*Operator {
	return []*Operator{
		op2("find", FamList, func(xs []int64, t int64) (int64, bool) { return int64(slices.Index(xs, t)), true },
			pyOnly(func(a []Code) Code {
				return Atom("(" + a[0].At(pAtom) + ".index(" + a[1].S + ") if " + a[1].At(pCmp+1) + " in " + a[0].At(pCmp+1) + " else -1)")
			})),
		op2a("rotate_right", FamList, func(ar *Arena, xs []int64, k int64) ([]int64, bool) {
			if len(xs) == 0 {
				return alloc[int64](ar, 0), true
			}
			m, _ := PyMod(k, int64(len(xs)))
			cut := int64(len(xs)) - m
			return joined(ar, dropList(xs, cut), takeList(xs, cut))
		}, func(e *Emitter, a []Code) Code {
			e.helper("rotate_right", pyRotateRight)
			return Call("rotate_right", a...)
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
func listHoleOps() []*Operator {
	return []*Operator{
		op1("alternates", FamScan, func(xs []int64) (bool, bool) {
			for i := 1; i < len(xs); i++ {
				if xs[i] == xs[i-1] || (i >= 2 && (xs[i] > xs[i-1]) == (xs[i-1] > xs[i-2])) {
					return false, true
				}
			}
			return true, true
		}, func(e *Emitter, a []Code) Code {
			e.helper("alternates", pyAlternates)
			return Call("alternates", a[0])
		}),
	}
}

// listNormOps are the largest absolute value of a list of numbers (0.0
// for an empty one): the scale a list is divided by to bring it within
// [-1, 1].
func listNormOps() []*Operator {
	return []*Operator{
		op1("max_abs", FamList, func(xs []float64) (float64, bool) {
			m := 0.0
			for _, x := range xs {
				m = max(m, math.Abs(x))
			}
			return m, true
		}, pyOnly(func(a []Code) Code { return Atom("max((abs(x) for x in " + a[0].S + "), default=0.0)") })),
	}
}
