package synth

import "math"

// Typed operators. An operator written as a typed Go function (op1, op2,
// op3, and opL1, opL2 with a lambda) gets two evaluations from it: Eval,
// over boxed values, for lambda bodies, sketches and single programs; and
// a kernel, over columns (vec.go), which the enumerator runs on every
// environment at once with neither boxing nor a type switch per value.

// kernel evaluates an operator on the first n environments at once from
// its arguments' values: it writes environment i's result into out (a
// column of the operator's result type) or sets bad[i]. For an operator
// that is not lazy, bad comes in marking the environments where an
// argument raised, which it skips; a lazy one starts from no failure and
// reads its arguments' failures itself. Results are allocated from ar.
type kernel func(ar *arena, l *lambda, args []vec, n int, out any, bad []bool)

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

// typed1 is an operator of one argument from its typed function, which
// takes the arena its results come from (nil outside the enumerator) and
// the operator's lambda (nil when it takes none).
func typed1[A, R any](name string, fam family, f func(ar *arena, l *lambda, x A) (R, bool)) *operator {
	return &operator{Name: name, Fam: fam, Args: ts(typeFor[A]()), Ret: typeFor[R](), Cost: 1,
		Eval: func(l *lambda, a []any) any {
			x, good := a[0].(A)
			if !good {
				return errV
			}
			if r, good := f(nil, l, x); good {
				return r
			}
			return errV
		},
		lower: lower1(f),
		kern: func(ar *arena, l *lambda, args []vec, n int, out any, bad []bool) {
			as, rs := args[0].data.([]A), out.([]R)
			for i := range n {
				if bad[i] {
					continue
				}
				rs[i], bad[i] = negate(f(ar, l, as[i]))
			}
		}}
}

// typed2 is typed1 for an operator of two arguments.
func typed2[A, B, R any](name string, fam family, f func(ar *arena, l *lambda, x A, y B) (R, bool)) *operator {
	return &operator{Name: name, Fam: fam, Args: ts(typeFor[A](), typeFor[B]()), Ret: typeFor[R](), Cost: 1,
		Eval: func(l *lambda, a []any) any {
			x, good1 := a[0].(A)
			y, good2 := a[1].(B)
			if !good1 || !good2 {
				return errV
			}
			if r, good := f(nil, l, x, y); good {
				return r
			}
			return errV
		},
		lower: lower2(f),
		kern: func(ar *arena, l *lambda, args []vec, n int, out any, bad []bool) {
			as, bs, rs := args[0].data.([]A), args[1].data.([]B), out.([]R)
			for i := range n {
				if bad[i] {
					continue
				}
				rs[i], bad[i] = negate(f(ar, l, as[i], bs[i]))
			}
		}}
}

// typed3 is typed1 for an operator of three arguments.
func typed3[A, B, C, R any](name string, fam family, f func(ar *arena, l *lambda, x A, y B, z C) (R, bool)) *operator {
	return &operator{Name: name, Fam: fam, Args: ts(typeFor[A](), typeFor[B](), typeFor[C]()), Ret: typeFor[R](), Cost: 1,
		Eval: func(l *lambda, a []any) any {
			x, good1 := a[0].(A)
			y, good2 := a[1].(B)
			z, good3 := a[2].(C)
			if !good1 || !good2 || !good3 {
				return errV
			}
			if r, good := f(nil, l, x, y, z); good {
				return r
			}
			return errV
		},
		lower: lower3(f),
		kern: func(ar *arena, l *lambda, args []vec, n int, out any, bad []bool) {
			as, bs, cs, rs := args[0].data.([]A), args[1].data.([]B), args[2].data.([]C), out.([]R)
			for i := range n {
				if bad[i] {
					continue
				}
				rs[i], bad[i] = negate(f(ar, l, as[i], bs[i], cs[i]))
			}
		}}
}

// withPy sets an operator's Python renderer.
func withPy(o *operator, py func(e *emitter, a []code) code) *operator {
	o.Py = func(e *emitter, _ *lambda, a []code) code { return py(e, a) }
	return o
}

// withLambda sets an operator's lambda signature and Python renderer.
func withLambda(o *operator, sig lamSig, lamRet valType, py func(e *emitter, l *lambda, a []code) code) *operator {
	o.Sig, o.LamRet, o.Py = sig, lamRet, py
	return o
}

// op1 is an operator of one argument without a lambda. Its kernel calls f
// itself, not through the adapter Eval and the lowering call: one
// indirect call fewer per environment of every program evaluated.
func op1[A, R any](name string, fam family, f func(A) (R, bool), py func(e *emitter, a []code) code) *operator {
	o := withPy(typed1(name, fam, func(_ *arena, _ *lambda, x A) (R, bool) { return f(x) }), py)
	o.kern = func(_ *arena, _ *lambda, args []vec, n int, out any, bad []bool) {
		as, rs := args[0].data.([]A), out.([]R)
		for i := range n {
			if bad[i] {
				continue
			}
			rs[i], bad[i] = negate(f(as[i]))
		}
	}
	return o
}

// op1a is op1 for a function whose results come from an arena.
func op1a[A, R any](name string, fam family, f func(ar *arena, x A) (R, bool), py func(e *emitter, a []code) code) *operator {
	o := withPy(typed1(name, fam, func(ar *arena, _ *lambda, x A) (R, bool) { return f(ar, x) }), py)
	o.kern = func(ar *arena, _ *lambda, args []vec, n int, out any, bad []bool) {
		as, rs := args[0].data.([]A), out.([]R)
		for i := range n {
			if bad[i] {
				continue
			}
			rs[i], bad[i] = negate(f(ar, as[i]))
		}
	}
	return o
}

// op2 is an operator of two arguments without a lambda.
func op2[A, B, R any](name string, fam family, f func(A, B) (R, bool), py func(e *emitter, a []code) code) *operator {
	o := withPy(typed2(name, fam, func(_ *arena, _ *lambda, x A, y B) (R, bool) { return f(x, y) }), py)
	o.kern = func(_ *arena, _ *lambda, args []vec, n int, out any, bad []bool) {
		as, bs, rs := args[0].data.([]A), args[1].data.([]B), out.([]R)
		for i := range n {
			if bad[i] {
				continue
			}
			rs[i], bad[i] = negate(f(as[i], bs[i]))
		}
	}
	return o
}

// op2a is op2 for a function whose results come from an arena.
func op2a[A, B, R any](name string, fam family, f func(ar *arena, x A, y B) (R, bool), py func(e *emitter, a []code) code) *operator {
	o := withPy(typed2(name, fam, func(ar *arena, _ *lambda, x A, y B) (R, bool) { return f(ar, x, y) }), py)
	o.kern = func(ar *arena, _ *lambda, args []vec, n int, out any, bad []bool) {
		as, bs, rs := args[0].data.([]A), args[1].data.([]B), out.([]R)
		for i := range n {
			if bad[i] {
				continue
			}
			rs[i], bad[i] = negate(f(ar, as[i], bs[i]))
		}
	}
	return o
}

// op3 is an operator of three arguments without a lambda.
func op3[A, B, C, R any](name string, fam family, f func(A, B, C) (R, bool), py func(e *emitter, a []code) code) *operator {
	return withPy(typed3(name, fam, func(_ *arena, _ *lambda, x A, y B, z C) (R, bool) { return f(x, y, z) }), py)
}

// opL1 is an operator of one argument and a lambda of signature sig
// returning lamRet; its results come from an arena.
func opL1[A, R any](name string, fam family, sig lamSig, lamRet valType, f func(ar *arena, l *lambda, x A) (R, bool), py func(e *emitter, l *lambda, a []code) code) *operator {
	return withLambda(typed1(name, fam, f), sig, lamRet, py)
}

// opL2 is an operator of two arguments and a lambda of signature sig
// returning lamRet; its results come from an arena.
func opL2[A, B, R any](name string, fam family, sig lamSig, lamRet valType, f func(ar *arena, l *lambda, x A, y B) (R, bool), py func(e *emitter, l *lambda, a []code) code) *operator {
	return withLambda(typed2(name, fam, f), sig, lamRet, py)
}

// opL3 is an operator of three arguments and a lambda of signature sig
// returning lamRet; its results come from an arena.
func opL3[A, B, C, R any](name string, fam family, sig lamSig, lamRet valType, f func(ar *arena, l *lambda, x A, y B, z C) (R, bool), py func(e *emitter, l *lambda, a []code) code) *operator {
	return withLambda(typed3(name, fam, f), sig, lamRet, py)
}

// thenL gives an operator built by opL1 or opL2 a second lambda, of
// signature sig returning lamRet, which its function finds as l.Next.
func thenL(sig lamSig, lamRet valType, o *operator) *operator {
	o.Sig2, o.LamRet2 = sig, lamRet
	return o
}

// negate turns a result and whether it is good into the result and
// whether it is bad.
func negate[R any](r R, good bool) (R, bool) { return r, !good }

// pyOnly adapts a Python renderer that needs no emitter.
func pyOnly(py func(a []code) code) func(e *emitter, a []code) code {
	return func(_ *emitter, a []code) code { return py(a) }
}

// condKernel is the kernel of "t if c else e": lazy, it fails only where
// the condition or the branch it takes failed.
func condKernel[T any](_ *arena, _ *lambda, args []vec, n int, out any, bad []bool) {
	cs, ts, es, rs := args[0].data.([]bool), args[1].data.([]T), args[2].data.([]T), out.([]T)
	for i := range n {
		switch {
		case args[0].failed(i):
			bad[i] = true
		case cs[i]:
			rs[i], bad[i] = ts[i], args[1].failed(i)
		default:
			rs[i], bad[i] = es[i], args[2].failed(i)
		}
	}
}
