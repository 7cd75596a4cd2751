package dsl

import "math"

// Float operators.

// opFAdd is float addition (itertools.accumulate's default).
var opFAdd = fBin("fadd", "+", pAdd, func(a, b float64) float64 { return a + b })

// floatOps are the basic float operators: arithmetic (with integers too),
// rounding, comparisons.
func floatOps() []*Operator {
	return []*Operator{
		opFAdd,
		fBin("fsub", "-", pAdd, func(a, b float64) float64 { return a - b }),
		fBin("fmul", "*", pMul, func(a, b float64) float64 { return a * b }),
		op2("fdiv", FamScalar, func(x, y float64) (float64, bool) {
			if y == 0 {
				return 0, false
			}
			return fin(x / y)
		}, pyOnly(func(a []Code) Code { return binop(a[0], "/", a[1], pMul) })),
		op2("fdivi", FamScalar, func(x float64, y int64) (float64, bool) {
			if y == 0 {
				return 0, false
			}
			return fin(x / float64(y))
		}, pyOnly(func(a []Code) Code { return binop(a[0], "/", a[1], pMul) })),
		op2("fmuli", FamScalar, func(x float64, y int64) (float64, bool) { return fin(x * float64(y)) },
			pyOnly(func(a []Code) Code { return binop(a[0], "*", a[1], pMul) })),
		op2("div", FamScalar, func(x, y int64) (float64, bool) {
			if y == 0 {
				return 0, false
			}
			return float64(x) / float64(y), true
		}, pyOnly(func(a []Code) Code { return binop(a[0], "/", a[1], pMul) })),
		op1("float", FamScalar, func(x int64) (float64, bool) { return float64(x), true },
			pyOnly(func(a []Code) Code { return Call("float", a[0]) })),
		op1("fneg", FamScalar, func(x float64) (float64, bool) { return -x, true },
			pyOnly(func(a []Code) Code { return Code{"-" + a[0].At(pUnary), pUnary} })),
		op1("fabs", FamScalar, func(x float64) (float64, bool) { return math.Abs(x), true },
			pyOnly(func(a []Code) Code { return Call("abs", a[0]) })),
		builtin("min", op2("fmin", FamScalar, func(x, y float64) (float64, bool) { return math.Min(x, y), true },
			pyOnly(func(a []Code) Code { return Call("min", a...) }))),
		builtin("max", op2("fmax", FamScalar, func(x, y float64) (float64, bool) { return math.Max(x, y), true },
			pyOnly(func(a []Code) Code { return Call("max", a...) }))),
		op1("sqrt", FamScalar, func(x float64) (float64, bool) { return math.Sqrt(x), x >= 0 },
			func(e *Emitter, a []Code) Code { e.use("math"); return Call("math.sqrt", a[0]) }),
		op1("round", FamScalar, roundHalfEven,
			pyOnly(func(a []Code) Code { return Call("round", a[0]) })),
		op2("roundto", FamScalar, func(x float64, n int64) (float64, bool) {
			r, good := roundTo(x, n)
			if !good {
				return 0, false
			}
			return fin(r)
		}, pyOnly(func(a []Code) Code { return Call("round", a...) })),
		op1("floor", FamScalar, func(x float64) (int64, bool) { return int64(math.Floor(x)), math.Abs(x) <= 9e18 },
			func(e *Emitter, a []Code) Code { e.use("math"); return Call("math.floor", a[0]) }),
		op1("ceil", FamScalar, func(x float64) (int64, bool) { return int64(math.Ceil(x)), math.Abs(x) <= 9e18 },
			func(e *Emitter, a []Code) Code { e.use("math"); return Call("math.ceil", a[0]) }),
		fCmp("flt", "<", func(a, b float64) bool { return a < b }),
		fCmp("fle", "<=", func(a, b float64) bool { return a <= b }),
	}
}

// floatNamedOps are named combinations over floats.
func floatNamedOps() []*Operator {
	return []*Operator{
		op1("fsquare", FamScalar, func(x float64) (float64, bool) { return fin(x * x) },
			pyOnly(func(a []Code) Code { return Code{a[0].At(pPow+1) + " ** 2", pPow} })),
	}
}
