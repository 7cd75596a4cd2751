package dsl

import (
	"math"
	"math/bits"
	"strconv"
)

// Integer and truth-value operators.

// opAdd is integer addition (itertools.accumulate's default).
var opAdd = iBin("add", "+", pAdd, AddI)

// OpMod is Python's integer %, the learned modulus's operator
// (package synth's strategy_modulus.go).
var OpMod = iBin("mod", "%", pMul, PyMod)

// intOps are the basic operators of integers and truth values: arithmetic,
// comparisons, predicates, logic.
func intOps() []*Operator {
	return []*Operator{
		opAdd,
		iBin("sub", "-", pAdd, SubI),
		iBin("mul", "*", pMul, MulI),
		iBin("floordiv", "//", pMul, FloorDiv),
		OpMod,
		op1("neg", FamScalar, func(x int64) (int64, bool) { return -x, x != math.MinInt64 },
			pyOnly(func(a []Code) Code { return Code{"-" + a[0].At(pUnary), pUnary} })),
		op1("abs", FamScalar, func(x int64) (int64, bool) { return AbsI(x), x != math.MinInt64 },
			pyOnly(func(a []Code) Code { return Call("abs", a[0]) })),
		builtin("min", op2("min", FamScalar, func(x, y int64) (int64, bool) { return min(x, y), true },
			pyOnly(func(a []Code) Code { return Call("min", a...) }))),
		builtin("max", op2("max", FamScalar, func(x, y int64) (int64, bool) { return max(x, y), true },
			pyOnly(func(a []Code) Code { return Call("max", a...) }))),
		rare(op2("pow", FamScalar, powI,
			pyOnly(func(a []Code) Code { return Code{a[0].At(pPow+1) + " ** " + a[1].At(pPow), pPow} }))),
		rare(iBin("xor", "^", pXor, func(a, b int64) (int64, bool) { return a ^ b, true })),
		rare(iBin("band", "&", pBand, func(a, b int64) (int64, bool) { return a & b, true })),
		rare(iBin("bor", "|", pBor, func(a, b int64) (int64, bool) { return a | b, true })),
		iCmp("lt", "<", func(a, b int64) bool { return a < b }),
		iCmp("le", "<=", func(a, b int64) bool { return a <= b }),
		iCmp("eq", "==", func(a, b int64) bool { return a == b }),
		iCmp("ne", "!=", func(a, b int64) bool { return a != b }),
		iPred("even", func(x int64) bool { return x%2 == 0 }, func(a Code) Code { return cmpop(binop(a, "%", Atom("2"), pMul), "==", Atom("0")) }),
		iPred("odd", func(x int64) bool { return x%2 != 0 }, func(a Code) Code { return cmpop(binop(a, "%", Atom("2"), pMul), "==", Atom("1")) }),
		iPred("positive", func(x int64) bool { return x > 0 }, func(a Code) Code { return cmpop(a, ">", Atom("0")) }),
		iPred("negative", func(x int64) bool { return x < 0 }, func(a Code) Code { return cmpop(a, "<", Atom("0")) }),
		rare(op1("is_prime", FamScalar, func(n int64) (bool, bool) {
			if n > maxPrime {
				return false, false
			}
			return isPrime(n), true
		}, func(e *Emitter, a []Code) Code {
			e.helper("is_prime", pyIsPrime)
			return Call("is_prime", a[0])
		})),
		op2("and", FamScalar, func(x, y bool) (bool, bool) { return x && y, true },
			pyOnly(func(a []Code) Code { return binop(a[0], "and", a[1], pAnd) })),
		op2("or", FamScalar, func(x, y bool) (bool, bool) { return x || y, true },
			pyOnly(func(a []Code) Code { return binop(a[0], "or", a[1], POr) })),
		op1("not", FamScalar, func(x bool) (bool, bool) { return !x, true },
			pyOnly(func(a []Code) Code { return Code{"not " + a[0].At(pNot), pNot} })),
		rare(op1("int", FamScalar, func(x bool) (int64, bool) { return int64(boolRank(x)), true },
			pyOnly(func(a []Code) Code { return Call("int", a[0]) }))),
		rare(op2("gcd", FamScalar, func(x, y int64) (int64, bool) { return gcdI(x, y), true },
			func(e *Emitter, a []Code) Code { e.use("math"); return Call("math.gcd", a...) })),
	}
}

// intLibraryOps are Python builtins and idioms over integers that
// otherwise take many DSL nodes: a sum of squares, three-argument pow,
// base conversion.
func intLibraryOps() []*Operator {
	return []*Operator{
		rare(op2("sumsq", FamScalar, sumSquares,
			pyOnly(func(a []Code) Code { return binop(squareCode(a[0]), "+", squareCode(a[1]), pAdd) }))),
		rare(costs(2, op3("powmod", FamScalar, powMod,
			pyOnly(func(a []Code) Code { return Call("pow", a...) })))),
		rare(costs(2, op2("to_base", FamScalar, toBase,
			func(e *Emitter, a []Code) Code {
				// Python's format spells the common bases without a helper.
				switch a[1].S {
				case "2":
					return Call("format", a[0], Atom(`"b"`))
				case "8":
					return Call("format", a[0], Atom(`"o"`))
				case "16":
					return Call("format", a[0], Atom(`"x"`))
				}
				e.helper("to_base", pyToBase)
				return Call("to_base", a...)
			}))),
	}
}

// intNamedOps are common named combinations over integers that keep
// programs small: sign, square, digit sum, popcount, divisibility, lcm,
// binomial coefficients.
func intNamedOps() []*Operator {
	return []*Operator{
		op1("sign", FamScalar, func(x int64) (int64, bool) { return int64(cmpI(x, 0)), true },
			pyOnly(func(a []Code) Code { return binop(cmpop(a[0], ">", Atom("0")), "-", cmpop(a[0], "<", Atom("0")), pAdd) })),
		op1("square", FamScalar, func(x int64) (int64, bool) { return MulI(x, x) },
			pyOnly(func(a []Code) Code { return Code{a[0].At(pPow+1) + " ** 2", pPow} })),
		rare(op1("digit_sum", FamScalar, func(x int64) (int64, bool) { return digitSum(x), true },
			pyOnly(func(a []Code) Code { return Atom("sum(int(d) for d in str(abs(" + a[0].S + ")))") }))),
		rare(op1("popcount", FamScalar, func(x int64) (int64, bool) {
			if x == math.MinInt64 {
				return 0, false
			}
			return int64(bits.OnesCount64(uint64(AbsI(x)))), true
		}, pyOnly(func(a []Code) Code { return Atom("bin(" + a[0].S + `).count("1")`) }))),
		rare(op2("divides", FamScalar, func(x, y int64) (bool, bool) {
			m, good := PyMod(x, y)
			return m == 0, good
		}, pyOnly(func(a []Code) Code { return cmpop(binop(a[0], "%", a[1], pMul), "==", Atom("0")) }))),
		rare(op2("lcm", FamScalar, func(x, y int64) (int64, bool) {
			if x == 0 || y == 0 {
				return 0, true
			}
			q, _ := FloorDiv(AbsI(x), gcdI(x, y))
			return MulI(q, AbsI(y))
		}, func(e *Emitter, a []Code) Code { e.use("math"); return Call("math.lcm", a...) })),
		rare(op2("comb", FamScalar, func(n, k int64) (int64, bool) {
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
				if r, good = MulI(r, n-k+i); !good {
					return 0, false
				}
				r /= i
			}
			return r, true
		}, func(e *Emitter, a []Code) Code { e.use("math"); return Call("math.comb", a...) })),
	}
}

// digitsOf is the decimal digits of |n|, most significant first, from ar.
func digitsOf(ar *Arena, n int64) []int64 {
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
func squareCode(c Code) Code {
	if n, err := strconv.ParseInt(c.S, 10, 64); err == nil && n > -3_000_000_000 && n < 3_000_000_000 {
		return Atom(strconv.FormatInt(n*n, 10))
	}
	return Code{c.At(pPow+1) + " ** 2", pPow}
}

// sumSquares is x ** 2 + y ** 2, failing on overflow.
func sumSquares(x, y int64) (int64, bool) {
	a, good := MulI(x, x)
	if !good {
		return 0, false
	}
	b, good := MulI(y, y)
	if !good {
		return 0, false
	}
	return AddI(a, b)
}

// powMod is Python's pow(a, b, m): the result takes the sign of m, and a
// negative exponent raises a to the modular inverse (ValueError when a is
// not invertible, as for m == 0).
func powMod(a, b, m int64) (int64, bool) {
	if m == 0 || m == math.MinInt64 {
		return 0, false
	}
	mod := uint64(AbsI(m))
	base, good := PyMod(a, int64(mod))
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
	return PyMod(int64(r), m)
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
	v, _ := PyMod(oldS, m)
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
func intProgramOps() []*Operator {
	return []*Operator{
		op2("iroot", FamScalar, iroot, func(e *Emitter, a []Code) Code {
			e.helper("iroot", pyIroot)
			return Call("iroot", a...)
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
			if p, good = MulI(p, r); !good || p > n {
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
