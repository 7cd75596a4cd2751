package synth

import (
	"math"
	"math/bits"
	"strconv"
)

// Integer and truth-value operators.

// opAdd is integer addition (itertools.accumulate's default).
var opAdd = iBin("add", "+", pAdd, addI)

// opMod is Python's integer %, the learned modulus's operator
// (strategy_modulus.go).
var opMod = iBin("mod", "%", pMul, pyMod)

// intOps are the basic operators of integers and truth values: arithmetic,
// comparisons, predicates, logic.
func intOps() []*operator {
	return []*operator{
		opAdd,
		iBin("sub", "-", pAdd, subI),
		iBin("mul", "*", pMul, mulI),
		iBin("floordiv", "//", pMul, floorDiv),
		opMod,
		op1("neg", famScalar, func(x int64) (int64, bool) { return -x, x != math.MinInt64 },
			pyOnly(func(a []code) code { return code{"-" + a[0].at(pUnary), pUnary} })),
		op1("abs", famScalar, func(x int64) (int64, bool) { return absI(x), x != math.MinInt64 },
			pyOnly(func(a []code) code { return call("abs", a[0]) })),
		builtin("min", op2("min", famScalar, func(x, y int64) (int64, bool) { return min(x, y), true },
			pyOnly(func(a []code) code { return call("min", a...) }))),
		builtin("max", op2("max", famScalar, func(x, y int64) (int64, bool) { return max(x, y), true },
			pyOnly(func(a []code) code { return call("max", a...) }))),
		rare(op2("pow", famScalar, powI,
			pyOnly(func(a []code) code { return code{a[0].at(pPow+1) + " ** " + a[1].at(pPow), pPow} }))),
		rare(iBin("xor", "^", pXor, func(a, b int64) (int64, bool) { return a ^ b, true })),
		rare(iBin("band", "&", pBand, func(a, b int64) (int64, bool) { return a & b, true })),
		rare(iBin("bor", "|", pBor, func(a, b int64) (int64, bool) { return a | b, true })),
		iCmp("lt", "<", func(a, b int64) bool { return a < b }),
		iCmp("le", "<=", func(a, b int64) bool { return a <= b }),
		iCmp("eq", "==", func(a, b int64) bool { return a == b }),
		iCmp("ne", "!=", func(a, b int64) bool { return a != b }),
		iPred("even", func(x int64) bool { return x%2 == 0 }, func(a code) code { return cmpop(binop(a, "%", atom("2"), pMul), "==", atom("0")) }),
		iPred("odd", func(x int64) bool { return x%2 != 0 }, func(a code) code { return cmpop(binop(a, "%", atom("2"), pMul), "==", atom("1")) }),
		iPred("positive", func(x int64) bool { return x > 0 }, func(a code) code { return cmpop(a, ">", atom("0")) }),
		iPred("negative", func(x int64) bool { return x < 0 }, func(a code) code { return cmpop(a, "<", atom("0")) }),
		rare(op1("is_prime", famScalar, func(n int64) (bool, bool) {
			if n > maxPrime {
				return false, false
			}
			return isPrime(n), true
		}, func(e *emitter, a []code) code {
			e.helper("is_prime", pyIsPrime)
			return call("is_prime", a[0])
		})),
		op2("and", famScalar, func(x, y bool) (bool, bool) { return x && y, true },
			pyOnly(func(a []code) code { return binop(a[0], "and", a[1], pAnd) })),
		op2("or", famScalar, func(x, y bool) (bool, bool) { return x || y, true },
			pyOnly(func(a []code) code { return binop(a[0], "or", a[1], pOr) })),
		op1("not", famScalar, func(x bool) (bool, bool) { return !x, true },
			pyOnly(func(a []code) code { return code{"not " + a[0].at(pNot), pNot} })),
		rare(op1("int", famScalar, func(x bool) (int64, bool) { return int64(boolRank(x)), true },
			pyOnly(func(a []code) code { return call("int", a[0]) }))),
		rare(op2("gcd", famScalar, func(x, y int64) (int64, bool) { return gcdI(x, y), true },
			func(e *emitter, a []code) code { e.use("math"); return call("math.gcd", a...) })),
	}
}

// intLibraryOps are Python builtins and idioms over integers that
// otherwise take many DSL nodes: a sum of squares, three-argument pow,
// base conversion.
func intLibraryOps() []*operator {
	return []*operator{
		rare(op2("sumsq", famScalar, sumSquares,
			pyOnly(func(a []code) code { return binop(squareCode(a[0]), "+", squareCode(a[1]), pAdd) }))),
		rare(costs(2, op3("powmod", famScalar, powMod,
			pyOnly(func(a []code) code { return call("pow", a...) })))),
		rare(costs(2, op2("to_base", famScalar, toBase,
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
			}))),
	}
}

// intNamedOps are common named combinations over integers that keep
// programs small: sign, square, digit sum, popcount, divisibility, lcm,
// binomial coefficients.
func intNamedOps() []*operator {
	return []*operator{
		op1("sign", famScalar, func(x int64) (int64, bool) { return int64(cmpI(x, 0)), true },
			pyOnly(func(a []code) code { return binop(cmpop(a[0], ">", atom("0")), "-", cmpop(a[0], "<", atom("0")), pAdd) })),
		op1("square", famScalar, func(x int64) (int64, bool) { return mulI(x, x) },
			pyOnly(func(a []code) code { return code{a[0].at(pPow+1) + " ** 2", pPow} })),
		rare(op1("digit_sum", famScalar, func(x int64) (int64, bool) { return digitSum(x), true },
			pyOnly(func(a []code) code { return atom("sum(int(d) for d in str(abs(" + a[0].s + ")))") }))),
		rare(op1("popcount", famScalar, func(x int64) (int64, bool) {
			if x == math.MinInt64 {
				return 0, false
			}
			return int64(bits.OnesCount64(uint64(absI(x)))), true
		}, pyOnly(func(a []code) code { return atom("bin(" + a[0].s + `).count("1")`) }))),
		rare(op2("divides", famScalar, func(x, y int64) (bool, bool) {
			m, good := pyMod(x, y)
			return m == 0, good
		}, pyOnly(func(a []code) code { return cmpop(binop(a[0], "%", a[1], pMul), "==", atom("0")) }))),
		rare(op2("lcm", famScalar, func(x, y int64) (int64, bool) {
			if x == 0 || y == 0 {
				return 0, true
			}
			q, _ := floorDiv(absI(x), gcdI(x, y))
			return mulI(q, absI(y))
		}, func(e *emitter, a []code) code { e.use("math"); return call("math.lcm", a...) })),
		rare(op2("comb", famScalar, func(n, k int64) (int64, bool) {
			if n < 0 || k < 0 {
				return 0, false
			}
			if k > n {
				return 0, true
			}
			k = min(k, n-k)
			r := int64(1)
			for i := int64(1); i <= k; i++ {
				var good bool
				if r, good = mulI(r, n-k+i); !good {
					return 0, false
				}
				r /= i
			}
			return r, true
		}, func(e *emitter, a []code) code { e.use("math"); return call("math.comb", a...) })),
	}
}

// digitsOf is the decimal digits of |n|, most significant first, from ar.
func digitsOf(ar *arena, n int64) []int64 {
	u := absU(n)
	count := 1
	for v := u / 10; v > 0; v /= 10 {
		count++
	}
	out := alloc[int64](ar, count)
	for i := count - 1; i >= 0; i-- {
		out[i] = int64(u % 10)
		u /= 10
	}
	return out
}

// digitSum is the sum of the decimal digits of |n|.
func digitSum(n int64) int64 {
	s := int64(0)
	for u := absU(n); u > 0; u /= 10 {
		s += int64(u % 10)
	}
	return s
}

// absU is |n| as an unsigned number (math.MinInt64 included).
func absU(n int64) uint64 {
	if n < 0 {
		return -uint64(n)
	}
	return uint64(n)
}

// squareCode renders c ** 2, folding an integer literal.
func squareCode(c code) code {
	if n, err := strconv.ParseInt(c.s, 10, 64); err == nil && n > -3_000_000_000 && n < 3_000_000_000 {
		return atom(strconv.FormatInt(n*n, 10))
	}
	return code{c.at(pPow+1) + " ** 2", pPow}
}

// sumSquares is x ** 2 + y ** 2, failing on overflow.
func sumSquares(x, y int64) (int64, bool) {
	a, good := mulI(x, x)
	if !good {
		return 0, false
	}
	b, good := mulI(y, y)
	if !good {
		return 0, false
	}
	return addI(a, b)
}

// powMod is Python's pow(a, b, m): the result takes the sign of m, and a
// negative exponent raises a to the modular inverse (ValueError when a is
// not invertible, as for m == 0).
func powMod(a, b, m int64) (int64, bool) {
	if m == 0 || m == math.MinInt64 {
		return 0, false
	}
	mod := uint64(absI(m))
	base, good := pyMod(a, int64(mod))
	if !good {
		return 0, false
	}
	if b < 0 {
		inv, good := modInverse(base, int64(mod))
		if !good {
			return 0, false
		}
		base, b = inv, -b
		if b < 0 {
			return 0, false
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
	return pyMod(int64(r), m)
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
func toBase(n, base int64) (string, bool) {
	if base < 2 || base > 36 {
		return "", false
	}
	if n == 0 {
		return "0", true
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
	return string(buf[i:]), true
}

const pyIsPrime = `
def is_prime(n):
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True
`

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

// intProgramOps are integer operators of whole programs only, not of
// lambda bodies (so that the lambda banks stay as they are): the integer
// k-th root, math.isqrt's generalisation.
func intProgramOps() []*operator {
	return []*operator{
		op2("iroot", famScalar, iroot, func(e *emitter, a []code) code {
			e.helper("iroot", pyIroot)
			return call("iroot", a...)
		}),
	}
}

// iroot is the largest r >= 0 with r ** k <= n, for n >= 0 and k >= 1.
func iroot(n, k int64) (int64, bool) {
	if n < 0 || k < 1 || k > 64 {
		return 0, false
	}
	// fits reports whether r ** k <= n without overflowing.
	fits := func(r int64) bool {
		p := int64(1)
		for range k {
			var good bool
			if p, good = mulI(p, r); !good || p > n {
				return false
			}
		}
		return true
	}
	if k == 1 {
		return n, true
	}
	// From the float root, clamped: for k >= 2 the root is at most
	// sqrt(MaxInt64) < 3037000500 (a float conversion out of range
	// would start the walk below anywhere).
	r := int64(min(math.Round(math.Pow(float64(n), 1/float64(k))), 3037000499))
	for r > 0 && !fits(r) {
		r--
	}
	for fits(r + 1) {
		r++
	}
	return r, true
}

const pyIroot = `
def iroot(n, k):
    if n < 0 or k < 1 or k > 64:
        raise ValueError("iroot needs n >= 0 and 1 <= k <= 64")
    r = int(round(n ** (1 / k)))
    while r > 0 and r ** k > n:
        r -= 1
    while (r + 1) ** k <= n:
        r += 1
    return r
`
