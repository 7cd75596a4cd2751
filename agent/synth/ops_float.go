package synth

import "math"

// Float operators.

// opFAdd is float addition (itertools.accumulate's default).
var opFAdd = fBin("fadd", "+", pAdd, func(a, b float64) float64 { return a + b })

// floatOps are the basic float operators: arithmetic (with integers too),
// rounding, comparisons.
func floatOps() []*operator {
	I, F := tInt, tFloat
	return []*operator{
		opFAdd,
		fBin("fsub", "-", pAdd, func(a, b float64) float64 { return a - b }),
		fBin("fmul", "*", pMul, func(a, b float64) float64 { return a * b }),
		mk("fdiv", famScalar, ts(F, F), F, func(a []any) any {
			b := a[1].(float64)
			if b == 0 {
				return errV
			}
			return finite(a[0].(float64) / b)
		}, func(a []code) code { return binop(a[0], "/", a[1], pMul) }),
		mk("fdivi", famScalar, ts(F, I), F, func(a []any) any {
			b := a[1].(int64)
			if b == 0 {
				return errV
			}
			return finite(a[0].(float64) / float64(b))
		}, func(a []code) code { return binop(a[0], "/", a[1], pMul) }),
		mk("fmuli", famScalar, ts(F, I), F, func(a []any) any { return finite(a[0].(float64) * float64(a[1].(int64))) },
			func(a []code) code { return binop(a[0], "*", a[1], pMul) }),
		mk("div", famScalar, ts(I, I), F, func(a []any) any {
			b := a[1].(int64)
			if b == 0 {
				return errV
			}
			return float64(a[0].(int64)) / float64(b)
		}, func(a []code) code { return binop(a[0], "/", a[1], pMul) }),
		mk("float", famScalar, ts(I), F, func(a []any) any { return float64(a[0].(int64)) },
			func(a []code) code { return call("float", a[0]) }),
		mk("fneg", famScalar, ts(F), F, func(a []any) any { return -a[0].(float64) },
			func(a []code) code { return code{"-" + a[0].at(pUnary), pUnary} }),
		mk("fabs", famScalar, ts(F), F, func(a []any) any { return math.Abs(a[0].(float64)) },
			func(a []code) code { return call("abs", a[0]) }),
		builtin("min", mk("fmin", famScalar, ts(F, F), F, func(a []any) any { return math.Min(a[0].(float64), a[1].(float64)) },
			func(a []code) code { return call("min", a...) })),
		builtin("max", mk("fmax", famScalar, ts(F, F), F, func(a []any) any { return math.Max(a[0].(float64), a[1].(float64)) },
			func(a []code) code { return call("max", a...) })),
		mkE("sqrt", famScalar, ts(F), F, func(a []any) any {
			x := a[0].(float64)
			if x < 0 {
				return errV
			}
			return math.Sqrt(x)
		}, func(e *emitter, a []code) code { e.use("math"); return call("math.sqrt", a[0]) }),
		mk("round", famScalar, ts(F), I, func(a []any) any { return ok(roundHalfEven(a[0].(float64))) },
			func(a []code) code { return call("round", a[0]) }),
		mk("roundto", famScalar, ts(F, I), F, func(a []any) any { return okF(roundTo(a[0].(float64), a[1].(int64))) },
			func(a []code) code { return call("round", a...) }),
		mkE("floor", famScalar, ts(F), I, func(a []any) any {
			x := a[0].(float64)
			if math.Abs(x) > 9e18 {
				return errV
			}
			return int64(math.Floor(x))
		}, func(e *emitter, a []code) code { e.use("math"); return call("math.floor", a[0]) }),
		mkE("ceil", famScalar, ts(F), I, func(a []any) any {
			x := a[0].(float64)
			if math.Abs(x) > 9e18 {
				return errV
			}
			return int64(math.Ceil(x))
		}, func(e *emitter, a []code) code { e.use("math"); return call("math.ceil", a[0]) }),
		fCmp("flt", "<", func(a, b float64) bool { return a < b }),
		fCmp("fle", "<=", func(a, b float64) bool { return a <= b }),
	}
}

// floatNamedOps are named combinations over floats.
func floatNamedOps() []*operator {
	F := tFloat
	return []*operator{
		mk("fsquare", famScalar, ts(F), F, func(a []any) any { x := a[0].(float64); return finite(x * x) },
			func(a []code) code { return code{a[0].at(pPow+1) + " ** 2", pPow} }),
	}
}
