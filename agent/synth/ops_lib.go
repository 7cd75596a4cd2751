package synth

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// Library operators: Python builtins and standard idioms that otherwise
// take many DSL nodes (divmod, three-argument pow, base conversion, the
// most common element, run-length encoding, dense ranks, slice sums, runs
// under a predicate, chunked reductions, tie-broken sorts, points relative
// to the first, triangle areas over all triples, the convex hull).
func init() {
	I, S := TInt, TStr
	LI, LP := TListInt, TListPair
	lib := []*Op{
		mk("sumsq", FamScalar, ts(I, I), I, func(a []any) any { return sumSquares(a[0].(int64), a[1].(int64)) },
			func(a []code) code { return binop(squareCode(a[0]), "+", squareCode(a[1]), pAdd) }),
		mk("powmod", FamScalar, ts(I, I, I), I, func(a []any) any { return powMod(a[0].(int64), a[1].(int64), a[2].(int64)) },
			func(a []code) code { return call("pow", a...) }),
		mkE("to_base", FamScalar, ts(I, I), S, func(a []any) any { return toBase(a[0].(int64), a[1].(int64)) },
			func(e *emitter, a []code) code {
				// Python's format spells the common bases without a helper.
				switch a[1].s {
				case "2":
					return call("format", a[0], atom(`"b"`))
				case "8":
					return call("format", a[0], atom(`"o"`))
				case "16":
					return call("format", a[0], atom(`"x"`))
				}
				e.helper("to_base", pyToBase)
				return call("to_base", a...)
			}),
		mkE("run_length_encode", FamScalar, ts(S), S, func(a []any) any {
			r := []rune(a[0].(string))
			var sb strings.Builder
			for _, n := range runLengths(r) {
				sb.WriteRune(r[0])
				sb.WriteString(strconv.FormatInt(n, 10))
				r = r[n:]
			}
			return sb.String()
		}, func(e *emitter, a []code) code {
			e.use("itertools")
			return atom(`"".join(k + str(len(list(g))) for k, g in itertools.groupby(` + a[0].s + "))")
		}),
		mk("mode", FamScalar, ts(S), S, func(a []any) any {
			r := []rune(a[0].(string))
			if len(r) == 0 {
				return ""
			}
			return string(mostCommon(r))
		}, func(a []code) code {
			return atom("max(sorted(" + a[0].s + "), key=" + a[0].at(pAtom) + `.count, default="")`)
		}),
	}
	// These go last within a size, so that the lambda banks' caps cut them
	// first.
	for _, o := range lib {
		rareScalar[o.Name] = true
	}
	scalarOps = append(scalarOps, lib...)

	listOps = append(listOps,
		mk("divmod", FamList, ts(I, I), LI, func(a []any) any {
			q, good := floorDiv(a[0].(int64), a[1].(int64))
			if !good {
				return errV
			}
			r, _ := pyMod(a[0].(int64), a[1].(int64))
			return []int64{q, r}
		}, func(a []code) code { return call("list", call("divmod", a...)) }),
		mk("diffs", FamScan, ts(LI), LI, func(a []any) any {
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
		mk("mode", FamList, ts(LI), I, func(a []any) any {
			xs := a[0].([]int64)
			if len(xs) == 0 {
				return errV
			}
			return mostCommon(xs)
		}, func(a []code) code {
			return atom("max(sorted(" + a[0].s + "), key=" + a[0].at(pAtom) + ".count)")
		}),
		mk("dense_rank", FamList, ts(LI), LI, func(a []any) any {
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
		}),
		mk("slice_sums", FamScan, ts(LI), LI, func(a []any) any {
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
		}),
		mkL("run_lengths_by", FamScan, sigII, TBool, ts(LI), LI, func(l *Lambda, a []any) any {
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
		}, func(e *emitter, l *Lambda, a []code) code {
			e.helper("run_lengths_by", pyRunLengthsBy)
			return atom("run_lengths_by(" + a[0].s + ", " + e.fn(l, "x", "y") + ")")
		}),
		mkL("chunk_reduce", FamScan, sigII, I, ts(LI, I), LI, func(l *Lambda, a []any) any {
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
		}, func(e *emitter, l *Lambda, a []code) code {
			e.use("reduce")
			v, k := a[0].at(pAtom), a[1]
			return atom("[reduce(" + e.fn(l, "acc", "x") + ", " + v + "[i:i + " + k.at(pAdd+1) + "]) for i in range(0, len(" + a[0].s + "), " + k.s + ")]")
		}),
		mkL("sort_by_then", FamList, sigI, I, ts(LI), LI, func(l *Lambda, a []any) any {
			xs := sortedCopy(a[0].([]int64), false)
			return sortByKey(xs, func(x int64) any { return l.call1(x) })
		}, func(e *emitter, l *Lambda, a []code) code {
			return atom("sorted(" + a[0].s + ", key=lambda x: (" + e.lam(l, x0).s + ", x))")
		}),
		mkL("sort_by_then", FamList, sigII, I, ts(LP), LP, func(l *Lambda, a []any) any {
			ps := slices.Clone(a[0].([]pair))
			if ps == nil {
				ps = []pair{}
			}
			slices.SortStableFunc(ps, cmpPair)
			return sortByKey(ps, func(p pair) any { return l.call2(p[0], p[1]) })
		}, func(e *emitter, l *Lambda, a []code) code {
			return atom("sorted(" + a[0].s + ", key=lambda p: (" + e.lam(l, atom("p[0]"), atom("p[1]")).s + ", p))")
		}),
		mkE("triangle_areas2", FamScan, ts(LP), LI, func(a []any) any {
			ps := a[0].([]pair)
			n := int64(len(ps))
			if n*(n-1)*(n-2)/6 > maxLen {
				return errV
			}
			out := []int64{}
			for i := range ps {
				for j := i + 1; j < len(ps); j++ {
					for k := j + 1; k < len(ps); k++ {
						c, good := cross3(ps[i], ps[j], ps[k])
						if !good || c == math.MinInt64 {
							return errV
						}
						out = append(out, absI(c))
					}
				}
			}
			return out
		}, func(e *emitter, a []code) code {
			e.use("itertools")
			return atom("[abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) for a, b, c in itertools.combinations(" + a[0].s + ", 3)]")
		}),
		mkE("convex_hull", FamScan, ts(LP), LP, func(a []any) any { return convexHull(a[0].([]pair)) },
			func(e *emitter, a []code) code {
				e.helper("convex_hull", pyConvexHull)
				return call("convex_hull", a[0])
			}),
		mk("same_set", FamList, ts(LP, LP), TBool, func(a []any) any {
			x, y := pointSet(a[0].([]pair)), pointSet(a[1].([]pair))
			return slices.Equal(x, y)
		}, func(a []code) code {
			return cmpop(call("set", call("map", atom("tuple"), a[0])), "==", call("set", call("map", atom("tuple"), a[1])))
		}),
		mk("from_first", FamList, ts(LP), LP, func(a []any) any {
			ps := a[0].([]pair)
			out := make([]pair, len(ps))
			for i, p := range ps {
				dx, good := subI(p[0], ps[0][0])
				dy, good2 := subI(p[1], ps[0][1])
				if !good || !good2 {
					return errV
				}
				out[i] = pair{dx, dy}
			}
			return out
		}, func(a []code) code {
			v := a[0].at(pAtom)
			return atom("[[x - " + v + "[0][0], y - " + v + "[0][1]] for x, y in " + a[0].s + "]")
		}),
	)
	// Operators that are seldom a step towards something else cost an extra
	// node: they stay in reach as whole programs while adding fewer
	// intermediate values to every level of the bank.
	for _, o := range append(lib, listOps...) {
		if libCost[o.Name] > 0 {
			o.Cost = libCost[o.Name]
		}
	}
}

var libCost = map[string]int{"powmod": 2, "to_base": 2, "run_length_encode": 2, "slice_sums": 2, "divmod": 2, "dense_rank": 2}

// cross3 is the z component of (b - a) x (c - a), positive for a left
// turn a -> b -> c; it fails on overflow.
func cross3(a, b, c pair) (int64, bool) {
	var d [4]int64
	var good [4]bool
	d[0], good[0] = subI(b[0], a[0])
	d[1], good[1] = subI(c[1], a[1])
	d[2], good[2] = subI(b[1], a[1])
	d[3], good[3] = subI(c[0], a[0])
	if !good[0] || !good[1] || !good[2] || !good[3] {
		return 0, false
	}
	x, g1 := mulI(d[0], d[1])
	y, g2 := mulI(d[2], d[3])
	if !g1 || !g2 {
		return 0, false
	}
	return subI(x, y)
}

// pointSet returns the distinct points in order.
func pointSet(ps []pair) []pair {
	out := slices.Clone(ps)
	slices.SortFunc(out, cmpPair)
	return slices.Compact(out)
}

// convexHull is Andrew's monotone chain: the hull of the distinct points
// counter-clockwise from the smallest, without collinear points; fewer
// than three distinct points come back sorted.
func convexHull(pts []pair) any {
	ps := pointSet(pts)
	if len(ps) < 3 {
		if ps == nil {
			ps = []pair{}
		}
		return ps
	}
	half := func(order []pair) ([]pair, bool) {
		var chain []pair
		for _, p := range order {
			for len(chain) >= 2 {
				c, good := cross3(chain[len(chain)-2], chain[len(chain)-1], p)
				if !good {
					return nil, false
				}
				if c > 0 {
					break
				}
				chain = chain[:len(chain)-1]
			}
			chain = append(chain, p)
		}
		return chain, true
	}
	lower, good := half(ps)
	if !good {
		return errV
	}
	upper, good := half(reversed(ps))
	if !good {
		return errV
	}
	return append(lower[:len(lower)-1:len(lower)-1], upper[:len(upper)-1]...)
}

func cmpPair(p, q pair) int {
	if p[0] != q[0] {
		return cmpI(p[0], q[0])
	}
	return cmpI(p[1], q[1])
}

// squareCode renders c ** 2, folding an integer literal.
func squareCode(c code) code {
	if n, err := strconv.ParseInt(c.s, 10, 64); err == nil && n > -3_000_000_000 && n < 3_000_000_000 {
		return atom(strconv.FormatInt(n*n, 10))
	}
	return code{c.at(pPow+1) + " ** 2", pPow}
}

// sumSquares is x ** 2 + y ** 2, failing on overflow.
func sumSquares(x, y int64) any {
	a, good := mulI(x, x)
	if !good {
		return errV
	}
	b, good := mulI(y, y)
	if !good {
		return errV
	}
	return ok(addI(a, b))
}

// powMod is Python's pow(a, b, m): the result takes the sign of m, and a
// negative exponent raises a to the modular inverse (ValueError when a is
// not invertible, as for m == 0).
func powMod(a, b, m int64) any {
	if m == 0 || m == math.MinInt64 {
		return errV
	}
	mod := uint64(absI(m))
	base, good := pyMod(a, int64(mod))
	if !good {
		return errV
	}
	if b < 0 {
		inv, good := modInverse(base, int64(mod))
		if !good {
			return errV
		}
		base, b = inv, -b
		if b < 0 {
			return errV
		}
	}
	r := uint64(1) % mod
	x := uint64(base)
	for e := uint64(b); e > 0; e >>= 1 {
		if e&1 == 1 {
			r = mulMod(r, x, mod)
		}
		x = mulMod(x, x, mod)
	}
	return ok(pyMod(int64(r), m))
}

func mulMod(a, b, m uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	_, rem := bits.Div64(hi%m, lo, m)
	return rem
}

// modInverse returns the inverse of a (0 <= a < m) modulo m when gcd(a, m)
// is 1; with m == 1 every number is invertible (to 0).
func modInverse(a, m int64) (int64, bool) {
	if m == 1 {
		return 0, true
	}
	old, r := a, m
	oldS, s := int64(1), int64(0)
	for r != 0 {
		q := old / r
		old, r = r, old-q*r
		oldS, s = s, oldS-q*s
	}
	if old != 1 {
		return 0, false
	}
	v, _ := pyMod(oldS, m)
	return v, true
}

const baseDigits = "0123456789abcdefghijklmnopqrstuvwxyz"

// toBase writes n in a base from 2 to 36 with lowercase digits and a
// leading '-' when negative, like format(n, "b") for base 2.
func toBase(n, base int64) any {
	if base < 2 || base > 36 {
		return errV
	}
	if n == 0 {
		return "0"
	}
	u := uint64(n)
	neg := n < 0
	if neg {
		u = -u
	}
	var buf [65]byte
	i := len(buf)
	for u > 0 {
		i--
		buf[i] = baseDigits[u%uint64(base)]
		u /= uint64(base)
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return string(buf[i:])
}

// mostCommon is max(sorted(xs), key=xs.count): the most frequent element,
// the smallest on ties. xs must not be empty.
func mostCommon[A int64 | rune](xs []A) A {
	s := slices.Clone(xs)
	slices.Sort(s)
	best, bestN := s[0], 0
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] == s[i] {
			j++
		}
		if j-i > bestN {
			best, bestN = s[i], j-i
		}
		i = j
	}
	return best
}

const pyToBase = `
def to_base(n, base):
    if not 2 <= base <= 36:
        raise ValueError("base must be between 2 and 36")
    if n == 0:
        return "0"
    digits = ""
    m = abs(n)
    while m:
        m, d = divmod(m, base)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[d] + digits
    return "-" + digits if n < 0 else digits
`

const pyConvexHull = `
def convex_hull(pts):
    ps = sorted(set(map(tuple, pts)))
    if len(ps) < 3:
        return [list(p) for p in ps]

    def chain(points):
        out = []
        for p in points:
            while len(out) >= 2 and (out[-1][0] - out[-2][0]) * (p[1] - out[-2][1]) - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0]) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = chain(ps), chain(reversed(ps))
    return [list(p) for p in lower[:-1] + upper[:-1]]
`

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

func isInt(v any) bool { _, good := v.(int64); return good }
