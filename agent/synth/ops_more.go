package synth

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Further operators: common named combinations that keep programs small
// (sign, squares, digit sums, windows of three, runs, interleaving...).
func init() {
	I, F, B, S := TInt, TFloat, TBool, TStr
	LI, LF, LS, LP := TListInt, TListFloat, TListStr, TListPair
	_ = LS
	scalarOps = append(scalarOps,
		mk("sign", FamScalar, ts(I), I, func(a []any) any {
			x := a[0].(int64)
			return int64(cmpI(x, 0))
		}, func(a []code) code { return binop(cmpop(a[0], ">", atom("0")), "-", cmpop(a[0], "<", atom("0")), pAdd) }),
		mk("square", FamScalar, ts(I), I, func(a []any) any { return ok(mulI(a[0].(int64), a[0].(int64))) },
			func(a []code) code { return code{a[0].at(pPow+1) + " ** 2", pPow} }),
		mk("fsquare", FamScalar, ts(F), F, func(a []any) any { x := a[0].(float64); return finite(x * x) },
			func(a []code) code { return code{a[0].at(pPow+1) + " ** 2", pPow} }),
		mk("digit_sum", FamScalar, ts(I), I, func(a []any) any { return sumI(digitsOf(a[0].(int64))) },
			func(a []code) code { return atom("sum(int(d) for d in str(abs(" + a[0].s + ")))") }),
		mk("popcount", FamScalar, ts(I), I, func(a []any) any {
			x := a[0].(int64)
			if x == math.MinInt64 {
				return errV
			}
			return int64(strings.Count(strconv.FormatInt(absI(x), 2), "1"))
		}, func(a []code) code { return atom("bin(" + a[0].s + `).count("1")`) }),
		mk("divides", FamScalar, ts(I, I), B, func(a []any) any {
			m, good := pyMod(a[0].(int64), a[1].(int64))
			if !good {
				return errV
			}
			return m == 0
		}, func(a []code) code { return cmpop(binop(a[0], "%", a[1], pMul), "==", atom("0")) }),
		mkE("lcm", FamScalar, ts(I, I), I, func(a []any) any {
			x, y := a[0].(int64), a[1].(int64)
			if x == 0 || y == 0 {
				return int64(0)
			}
			q, _ := floorDiv(absI(x), gcdI(x, y))
			return ok(mulI(q, absI(y)))
		}, func(e *emitter, a []code) code { e.use("math"); return call("math.lcm", a...) }),
		mkE("comb", FamScalar, ts(I, I), I, func(a []any) any {
			n, k := a[0].(int64), a[1].(int64)
			if n < 0 || k < 0 {
				return errV
			}
			if k > n {
				return int64(0)
			}
			k = min(k, n-k)
			r := int64(1)
			for i := int64(1); i <= k; i++ {
				var good bool
				if r, good = mulI(r, n-k+i); !good {
					return errV
				}
				r /= i
			}
			return r
		}, func(e *emitter, a []code) code { e.use("math"); return call("math.comb", a...) }),
		mk("isalnum", FamScalar, ts(S), B, func(a []any) any {
			return allRunes(a[0].(string), func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
		}, func(a []code) code { return method(a[0], "isalnum") }),
		mk("is_palindrome", FamScalar, ts(S), B, func(a []any) any { s := a[0].(string); return s == reverseString(s) },
			func(a []code) code { return cmpop(a[0], "==", atom(a[0].at(pAtom)+"[::-1]")) }),
	)

	window := func(name string, f func(x, y, z int64) (int64, bool), py string) *Op {
		return mk(name, FamScan, ts(LI), LI, func(a []any) any {
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
	scanNamed := func(name string, f func(acc, x int64) (int64, bool), py string) *Op {
		return mkE(name, FamScan, ts(LI), LI, func(a []any) any {
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
	listOps = append(listOps,
		// orbit is the sequence step(x), step(step(x)), ... up to the
		// first zero: the quotients n // 5, n // 25... of a count of
		// factors, the shrinking remainders of a digit loop. Orbits longer
		// than maxOrbit, or stuck at a fixed point, are errors.
		mkL("orbit", FamList, sigI, I, ts(I), LI, func(l *Lambda, a []any) any {
			x, out := a[0], []int64{}
			for range maxOrbit {
				v, good := l.call1(x).(int64)
				switch {
				case !good:
					return errV
				case v == 0:
					return out
				case v == x:
					return errV
				}
				out, x = append(out, v), v
			}
			return errV
		}, func(e *emitter, l *Lambda, a []code) code {
			e.helper("orbit", pyOrbit)
			return atom("orbit(" + a[0].s + ", " + e.fn(l, "x") + ")")
		}),
		mk("cons", FamList, ts(I, LI), LI, func(a []any) any { return concat([]int64{a[0].(int64)}, a[1].([]int64)) },
			func(a []code) code { return binop(atom("["+a[0].s+"]"), "+", a[1], pAdd) }),
		mk("rotate", FamList, ts(LI, I), LI, func(a []any) any {
			xs, k := a[0].([]int64), a[1].(int64)
			return concat(dropList(xs, k), takeList(xs, k))
		}, func(a []code) code {
			v := a[0].at(pAtom)
			return binop(atom(v+"["+a[1].s+":]"), "+", atom(v+"[:"+a[1].s+"]"), pAdd)
		}),
		mk("stride", FamList, ts(LI, I), LI, func(a []any) any {
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
		scanNamed("cumsum", addI, ""),
		scanNamed("cummax", func(a, b int64) (int64, bool) { return max(a, b), true }, "max"),
		scanNamed("cummin", func(a, b int64) (int64, bool) { return min(a, b), true }, "min"),
		mkE("cumsum", FamScan, ts(LF), LF, func(a []any) any {
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
		mk("mean", FamList, ts(LI), F, func(a []any) any {
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
		mk("mean", FamList, ts(LF), F, func(a []any) any {
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
		mk("max0", FamList, ts(LI), I, func(a []any) any {
			if len(a[0].([]int64)) == 0 {
				return int64(0)
			}
			return maxOf(a[0].([]int64))
		}, func(a []code) code { return atom("max(" + a[0].s + ", default=0)") }),
		mk("min0", FamList, ts(LI), I, func(a []any) any {
			if len(a[0].([]int64)) == 0 {
				return int64(0)
			}
			return minOf(a[0].([]int64))
		}, func(a []code) code { return atom("min(" + a[0].s + ", default=0)") }),
		mk("max0", FamList, ts(LF), F, func(a []any) any {
			if len(a[0].([]float64)) == 0 {
				return 0.0
			}
			return maxOf(a[0].([]float64))
		}, func(a []code) code { return atom("max(" + a[0].s + ", default=0.0)") }),
		window("window_sum3", func(x, y, z int64) (int64, bool) { return x + y + z, true }, "sum(W)"),
		window("window_max3", func(x, y, z int64) (int64, bool) { return max(x, y, z), true }, "max(W)"),
		window("window_min3", func(x, y, z int64) (int64, bool) { return min(x, y, z), true }, "min(W)"),
		window("window_median3", func(x, y, z int64) (int64, bool) { return x + y + z - max(x, y, z) - min(x, y, z), true }, "sorted(W)[1]"),
		mkL("prev_map", FamScan, sigII, I, ts(LI, I), LI, func(l *Lambda, a []any) any {
			xs := a[0].([]int64)
			prev := concat([]int64{a[1].(int64)}, xs)
			if isErr(prev) {
				return prev
			}
			return zipWith[int64, int64](prev.([]int64), xs, l.call2)
		}, func(e *emitter, l *Lambda, a []code) code {
			return comp(e.lam(l, atom("p"), x0), "p, x", "zip(["+a[1].s+"] + "+a[0].s+", "+a[0].s+")")
		}),
		mkE("runs", FamScan, ts(LI), LI, func(a []any) any {
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
		mkE("run_lengths", FamScan, ts(LI), LI, func(a []any) any { return runLengths(a[0].([]int64)) },
			func(e *emitter, a []code) code {
				e.use("itertools")
				return atom("[len(list(g)) for _, g in itertools.groupby(" + a[0].s + ")]")
			}),
		mkE("run_lengths", FamScan, ts(S), LI, func(a []any) any { return runLengths([]rune(a[0].(string))) },
			func(e *emitter, a []code) code {
				e.use("itertools")
				return atom("[len(list(g)) for _, g in itertools.groupby(" + a[0].s + ")]")
			}),
		mk("interleave", FamList, ts(LI, LI), LI, func(a []any) any {
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
		mkL("count_pairs", FamScan, sigII, B, ts(LI), I, func(l *Lambda, a []any) any {
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
		}, func(e *emitter, l *Lambda, a []code) code {
			v := a[0].s
			return atom("sum(1 for i in range(len(" + v + ")) for j in range(i + 1, len(" + v + ")) if " + e.lam(l, atom(v+"[i]"), atom(v+"["+"j]")).s + ")")
		}),
		mkL("enumerate_map", FamList, sigFF, F, ts(LF), LF, func(l *Lambda, a []any) any {
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
		}, func(e *emitter, l *Lambda, a []code) code {
			return comp(e.lam(l, atom("i"), x0), "i, x", "enumerate("+a[0].s+", 1)")
		}),
		mkL("map_with", FamList, sigFF, I, ts(LI, F), LI, func(l *Lambda, a []any) any {
			s := a[1]
			return mapList[int64, int64](a[0].([]int64), func(x int64) any { return l.call2(float64(x), s) })
		}, func(e *emitter, l *Lambda, a []code) code { return comp(e.lam(l, x0, a[1]), "x", a[0].s) }),
		mk("equal", FamList, ts(LI, LI), B, func(a []any) any { return slices.Equal(a[0].([]int64), a[1].([]int64)) },
			func(a []code) code { return cmpop(a[0], "==", a[1]) }),
		mk("divisors", FamList, ts(I), LI, func(a []any) any {
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
		mk("split_on_space", FamList, ts(S), LS, func(a []any) any { return strings.Split(a[0].(string), " ") },
			func(a []code) code { return method(a[0], "split", atom(`" "`)) }),
		mk("bounding_box", FamList, ts(LP), LI, func(a []any) any {
			ps := a[0].([]pair)
			if len(ps) == 0 {
				return errV
			}
			b := []int64{ps[0][0], ps[0][1], ps[0][0], ps[0][1]}
			for _, p := range ps {
				b[0], b[1], b[2], b[3] = min(b[0], p[0]), min(b[1], p[1]), max(b[2], p[0]), max(b[3], p[1])
			}
			return b
		}, func(a []code) code {
			v := a[0].s
			return atom("[min(x for x, _ in " + v + "), min(y for _, y in " + v + "), max(x for x, _ in " + v + "), max(y for _, y in " + v + ")]")
		}),
		mk("centroid", FamList, ts(LP), LF, func(a []any) any {
			ps := a[0].([]pair)
			if len(ps) == 0 {
				return errV
			}
			var sx, sy int64
			for _, p := range ps {
				sx += p[0]
				sy += p[1]
			}
			return []float64{float64(sx) / float64(len(ps)), float64(sy) / float64(len(ps))}
		}, func(a []code) code {
			v := a[0].s
			return atom("[sum(x for x, _ in " + v + ") / len(" + v + "), sum(y for _, y in " + v + ") / len(" + v + ")]")
		}),
	)

}

func runLengths[A comparable](xs []A) []int64 {
	out := []int64{}
	for i, x := range xs {
		if i == 0 || xs[i-1] != x {
			out = append(out, 1)
		} else {
			out[len(out)-1]++
		}
	}
	return out
}

// maxOrbit bounds the length of an orbit.
const maxOrbit = 64

const pyOrbit = `
def orbit(x, step):
    out = []
    for _ in range(64):
        y = step(x)
        if y == 0:
            return out
        if y == x:
            raise ValueError("orbit stuck at %d" % x)
        out.append(y)
        x = y
    raise ValueError("orbit longer than 64")
`
