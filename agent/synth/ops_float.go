package synth

import "math"

// Float operators.

// opFAdd is float addition (itertools.accumulate's default).
var opFAdd = fBin("fadd", "+", pAdd, func(a, b float64) float64 { return a + b })

// floatOps are the basic float operators: arithmetic (with integers too),
// rounding, comparisons.
func floatOps() []*operator {
	return []*operator{
		opFAdd,
		fBin("fsub", "-", pAdd, func(a, b float64) float64 { return a - b }),
		fBin("fmul", "*", pMul, func(a, b float64) float64 { return a * b }),
		op2("fdiv", famScalar, func(x, y float64) (float64, bool) {
			if y == 0 {
				return 0, false
			}
			return fin(x / y)
		}, pyOnly(func(a []code) code { return binop(a[0], "/", a[1], pMul) })),
		op2("fdivi", famScalar, func(x float64, y int64) (float64, bool) {
			if y == 0 {
				return 0, false
			}
			return fin(x / float64(y))
		}, pyOnly(func(a []code) code { return binop(a[0], "/", a[1], pMul) })),
		op2("fmuli", famScalar, func(x float64, y int64) (float64, bool) { return fin(x * float64(y)) },
			pyOnly(func(a []code) code { return binop(a[0], "*", a[1], pMul) })),
		op2("div", famScalar, func(x, y int64) (float64, bool) {
			if y == 0 {
				return 0, false
			}
			return float64(x) / float64(y), true
		}, pyOnly(func(a []code) code { return binop(a[0], "/", a[1], pMul) })),
		op1("float", famScalar, func(x int64) (float64, bool) { return float64(x), true },
			pyOnly(func(a []code) code { return call("float", a[0]) })),
		op1("fneg", famScalar, func(x float64) (float64, bool) { return -x, true },
			pyOnly(func(a []code) code { return code{"-" + a[0].at(pUnary), pUnary} })),
		op1("fabs", famScalar, func(x float64) (float64, bool) { return math.Abs(x), true },
			pyOnly(func(a []code) code { return call("abs", a[0]) })),
		builtin("min", op2("fmin", famScalar, func(x, y float64) (float64, bool) { return math.Min(x, y), true },
			pyOnly(func(a []code) code { return call("min", a...) }))),
		builtin("max", op2("fmax", famScalar, func(x, y float64) (float64, bool) { return math.Max(x, y), true },
			pyOnly(func(a []code) code { return call("max", a...) }))),
		op1("sqrt", famScalar, func(x float64) (float64, bool) { return math.Sqrt(x), x >= 0 },
			func(e *emitter, a []code) code { e.use("math"); return call("math.sqrt", a[0]) }),
		op1("round", famScalar, roundHalfEven,
			pyOnly(func(a []code) code { return call("round", a[0]) })),
		op2("roundto", famScalar, func(x float64, n int64) (float64, bool) {
			r, good := roundTo(x, n)
			if !good {
				return 0, false
			}
			return fin(r)
		}, pyOnly(func(a []code) code { return call("round", a...) })),
		op1("floor", famScalar, func(x float64) (int64, bool) { return int64(math.Floor(x)), math.Abs(x) <= 9e18 },
			func(e *emitter, a []code) code { e.use("math"); return call("math.floor", a[0]) }),
		op1("ceil", famScalar, func(x float64) (int64, bool) { return int64(math.Ceil(x)), math.Abs(x) <= 9e18 },
			func(e *emitter, a []code) code { e.use("math"); return call("math.ceil", a[0]) }),
		fCmp("flt", "<", func(a, b float64) bool { return a < b }),
		fCmp("fle", "<=", func(a, b float64) bool { return a <= b }),
	}
}

// floatNamedOps are named combinations over floats.
func floatNamedOps() []*operator {
	return []*operator{
		op1("fsquare", famScalar, func(x float64) (float64, bool) { return fin(x * x) },
			pyOnly(func(a []code) code { return code{a[0].at(pPow+1) + " ** 2", pPow} })),
	}
}
