package dsl

import (
	"math"
	"math/bits"
	"strconv"
)

// Integer arithmetic with Python's semantics; overflow of int64 (where
// Python would switch to big integers) is reported as an error so that the
// enumerator drops the program instead of trusting a wrapped value.

// AddI adds, reporting false on overflow.
func AddI(a, b int64) (int64, bool) {
	r := a + b
	if (a > 0 && b > 0 && r < 0) || (a < 0 && b < 0 && r >= 0) {
		return 0, false
	}
	return r, true
}

// SubI subtracts, reporting false on overflow.
func SubI(a, b int64) (int64, bool) {
	r := a - b
	if (a >= 0 && b < 0 && r < 0) || (a < 0 && b > 0 && r >= 0) {
		return 0, false
	}
	return r, true
}

// MulI multiplies, reporting false on overflow.
func MulI(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	hi, lo := bits.Mul64(uint64(AbsI(a)), uint64(AbsI(b)))
	if hi != 0 || lo > math.MaxInt64 || a == math.MinInt64 || b == math.MinInt64 {
		return 0, false
	}
	r := int64(lo)
	if (a < 0) != (b < 0) {
		r = -r
	}
	return r, true
}

// AbsI is the absolute value.
func AbsI(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

// FloorDiv is Python's a // b.
func FloorDiv(a, b int64) (int64, bool) {
	if b == 0 || (a == math.MinInt64 && b == -1) {
		return 0, false
	}
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q, true
}

// PyMod is Python's a % b (the sign follows b).
func PyMod(a, b int64) (int64, bool) {
	if b == 0 {
		return 0, false
	}
	if b == -1 {
		return 0, true
	}
	r := a % b
	if r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return r, true
}

func powI(a, b int64) (int64, bool) {
	if b < 0 || b > 64 {
		return 0, false
	}
	r := int64(1)
	for i := int64(0); i < b; i++ {
		var ok bool
		if r, ok = MulI(r, a); !ok {
			return 0, false
		}
	}
	return r, true
}

func gcdI(a, b int64) int64 {
	a, b = AbsI(a), AbsI(b)
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// roundHalfEven is Python's round(x) (to an int).
func roundHalfEven(x float64) (int64, bool) {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 9e18 {
		return 0, false
	}
	return int64(math.RoundToEven(x)), true
}

// roundTo is Python's round(x, n) for a float: correctly rounded decimal,
// ties to even.
func roundTo(x float64, n int64) (float64, bool) {
	if n < 0 || n > 15 || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, false
	}
	f, err := strconv.ParseFloat(strconv.FormatFloat(x, 'f', int(n), 64), 64)
	if err != nil {
		return 0, false
	}
	return f, true
}

func finite(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return ErrV
	}
	return f
}

// maxPrime bounds trial division: beyond it the Python helper would be too
// slow to trust, so the operator fails instead.
const maxPrime = 100_000_000

func isPrime(n int64) bool {
	if n < 2 {
		return false
	}
	for d := int64(2); d*d <= n; d++ {
		if n%d == 0 {
			return false
		}
	}
	return true
}
