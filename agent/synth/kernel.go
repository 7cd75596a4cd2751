package synth

import "math"

// Typed operators. An operator written as a typed Go function (op1, op2,
// op3, and opL1, opL2 with a lambda) gets two evaluations from it: Eval,
// over boxed values, for lambda bodies, sketches and single programs; and
// a kernel, over columns (vec.go), which the enumerator runs on every
// environment at once with neither boxing nor a type switch per value.

// kernel evaluates an operator on the first n environments at once from
// its arguments' columns: it writes environment i's result into out (a
// column of the operator's result type) or sets bad[i]. bad comes in
// marking the environments where an argument raised, which it skips.
type kernel func(l *lambda, args []any, n int, out any, bad []bool)

// typeFor is the DSL type of Go type T.
func typeFor[T any]() valType {
	var zero T
	t, good := typeOf(any(zero))
	if !good {
		panic("synth: no DSL type for a Go type of an operator")
	}
	return t
}

// fin is a float result: Python's float operations never yield NaN or an
// infinity where the DSL's do, so those are failures.
func fin(f float64) (float64, bool) {
	return f, !math.IsNaN(f) && !math.IsInf(f, 0)
}

// op1 is an operator of one argument without a lambda.
func op1[A, R any](name string, fam family, f func(A) (R, bool), py func(e *emitter, a []code) code) *operator {
	return &operator{Name: name, Fam: fam, Args: ts(typeFor[A]()), Ret: typeFor[R](), Cost: 1,
		Eval: func(_ *lambda, a []any) any {
			x, good := a[0].(A)
			if !good {
				return errV
			}
			if r, good := f(x); good {
				return r
			}
			return errV
		},
		kern: func(_ *lambda, args []any, n int, out any, bad []bool) {
			as, rs := args[0].([]A), out.([]R)
			for i := range n {
				if bad[i] {
					continue
				}
				rs[i], bad[i] = negate(f(as[i]))
			}
		},
		Py: func(e *emitter, _ *lambda, a []code) code { return py(e, a) }}
}

// op2 is an operator of two arguments without a lambda.
func op2[A, B, R any](name string, fam family, f func(A, B) (R, bool), py func(e *emitter, a []code) code) *operator {
	return &operator{Name: name, Fam: fam, Args: ts(typeFor[A](), typeFor[B]()), Ret: typeFor[R](), Cost: 1,
		Eval: func(_ *lambda, a []any) any {
			x, good1 := a[0].(A)
			y, good2 := a[1].(B)
			if !good1 || !good2 {
				return errV
			}
			if r, good := f(x, y); good {
				return r
			}
			return errV
		},
		kern: func(_ *lambda, args []any, n int, out any, bad []bool) {
			as, bs, rs := args[0].([]A), args[1].([]B), out.([]R)
			for i := range n {
				if bad[i] {
					continue
				}
				rs[i], bad[i] = negate(f(as[i], bs[i]))
			}
		},
		Py: func(e *emitter, _ *lambda, a []code) code { return py(e, a) }}
}

// op3 is an operator of three arguments without a lambda.
func op3[A, B, C, R any](name string, fam family, f func(A, B, C) (R, bool), py func(e *emitter, a []code) code) *operator {
	return &operator{Name: name, Fam: fam, Args: ts(typeFor[A](), typeFor[B](), typeFor[C]()), Ret: typeFor[R](), Cost: 1,
		Eval: func(_ *lambda, a []any) any {
			x, good1 := a[0].(A)
			y, good2 := a[1].(B)
			z, good3 := a[2].(C)
			if !good1 || !good2 || !good3 {
				return errV
			}
			if r, good := f(x, y, z); good {
				return r
			}
			return errV
		},
		kern: func(_ *lambda, args []any, n int, out any, bad []bool) {
			as, bs, cs, rs := args[0].([]A), args[1].([]B), args[2].([]C), out.([]R)
			for i := range n {
				if bad[i] {
					continue
				}
				rs[i], bad[i] = negate(f(as[i], bs[i], cs[i]))
			}
		},
		Py: func(e *emitter, _ *lambda, a []code) code { return py(e, a) }}
}

// opL1 is an operator of one argument and a lambda of signature sig
// returning lamRet.
func opL1[A, R any](name string, fam family, sig lamSig, lamRet valType, f func(l *lambda, a A) (R, bool), py func(e *emitter, l *lambda, a []code) code) *operator {
	return &operator{Name: name, Fam: fam, Sig: sig, LamRet: lamRet, Args: ts(typeFor[A]()), Ret: typeFor[R](), Cost: 1,
		Eval: func(l *lambda, a []any) any {
			x, good := a[0].(A)
			if !good {
				return errV
			}
			if r, good := f(l, x); good {
				return r
			}
			return errV
		},
		kern: func(l *lambda, args []any, n int, out any, bad []bool) {
			as, rs := args[0].([]A), out.([]R)
			for i := range n {
				if bad[i] {
					continue
				}
				rs[i], bad[i] = negate(f(l, as[i]))
			}
		},
		Py: py}
}

// opL2 is an operator of two arguments and a lambda of signature sig
// returning lamRet.
func opL2[A, B, R any](name string, fam family, sig lamSig, lamRet valType, f func(l *lambda, a A, b B) (R, bool), py func(e *emitter, l *lambda, a []code) code) *operator {
	return &operator{Name: name, Fam: fam, Sig: sig, LamRet: lamRet, Args: ts(typeFor[A](), typeFor[B]()), Ret: typeFor[R](), Cost: 1,
		Eval: func(l *lambda, a []any) any {
			x, good1 := a[0].(A)
			y, good2 := a[1].(B)
			if !good1 || !good2 {
				return errV
			}
			if r, good := f(l, x, y); good {
				return r
			}
			return errV
		},
		kern: func(l *lambda, args []any, n int, out any, bad []bool) {
			as, bs, rs := args[0].([]A), args[1].([]B), out.([]R)
			for i := range n {
				if bad[i] {
					continue
				}
				rs[i], bad[i] = negate(f(l, as[i], bs[i]))
			}
		},
		Py: py}
}

// negate turns a result and whether it is good into the result and
// whether it is bad.
func negate[R any](r R, good bool) (R, bool) { return r, !good }

// pyOnly adapts a Python renderer that needs no emitter.
func pyOnly(py func(a []code) code) func(e *emitter, a []code) code {
	return func(_ *emitter, a []code) code { return py(a) }
}
