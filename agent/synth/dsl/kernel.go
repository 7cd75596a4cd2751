package dsl

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
type kernel func(ar *Arena, l *Lambda, args []Vec, n int, out any, bad []bool)

// typeFor is the DSL type of Go type T.
func typeFor[T any]() Type {
	var zero T
	t, good := TypeOf(any(zero))
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
func typed1[A, R any](name string, fam Family, f func(ar *Arena, l *Lambda, x A) (R, bool)) *Operator {
	return &Operator{Name: name, Fam: fam, Args: Types(typeFor[A]()), Ret: typeFor[R](), Cost: 1,
		Eval: func(l *Lambda, a []any) any {
			x, good := a[0].(A)
			if !good {
				return ErrV
			}
			if r, good := f(nil, l, x); good {
				return r
			}
			return ErrV
		},
		lower: lower1(f),
		Kern: func(ar *Arena, l *Lambda, args []Vec, n int, out any, bad []bool) {
			as, rs := args[0].Data.([]A), out.([]R)
			for i := range n {
				if bad[i] {
					continue
				}
				rs[i], bad[i] = negate(f(ar, l, as[i]))
			}
		}}
}

// typed2 is typed1 for an operator of two arguments.
func typed2[A, B, R any](name string, fam Family, f func(ar *Arena, l *Lambda, x A, y B) (R, bool)) *Operator {
	return &Operator{Name: name, Fam: fam, Args: Types(typeFor[A](), typeFor[B]()), Ret: typeFor[R](), Cost: 1,
		Eval: func(l *Lambda, a []any) any {
			x, good1 := a[0].(A)
			y, good2 := a[1].(B)
			if !good1 || !good2 {
				return ErrV
			}
			if r, good := f(nil, l, x, y); good {
				return r
			}
			return ErrV
		},
		lower: lower2(f),
		Kern: func(ar *Arena, l *Lambda, args []Vec, n int, out any, bad []bool) {
			as, bs, rs := args[0].Data.([]A), args[1].Data.([]B), out.([]R)
			for i := range n {
				if bad[i] {
					continue
				}
				rs[i], bad[i] = negate(f(ar, l, as[i], bs[i]))
			}
		}}
}

// typed3 is typed1 for an operator of three arguments.
func typed3[A, B, C, R any](name string, fam Family, f func(ar *Arena, l *Lambda, x A, y B, z C) (R, bool)) *Operator {
	return &Operator{Name: name, Fam: fam, Args: Types(typeFor[A](), typeFor[B](), typeFor[C]()), Ret: typeFor[R](), Cost: 1,
		Eval: func(l *Lambda, a []any) any {
			x, good1 := a[0].(A)
			y, good2 := a[1].(B)
			z, good3 := a[2].(C)
			if !good1 || !good2 || !good3 {
				return ErrV
			}
			if r, good := f(nil, l, x, y, z); good {
				return r
			}
			return ErrV
		},
		lower: lower3(f),
		Kern: func(ar *Arena, l *Lambda, args []Vec, n int, out any, bad []bool) {
			as, bs, cs, rs := args[0].Data.([]A), args[1].Data.([]B), args[2].Data.([]C), out.([]R)
			for i := range n {
				if bad[i] {
					continue
				}
				rs[i], bad[i] = negate(f(ar, l, as[i], bs[i], cs[i]))
			}
		}}
}

// withPy sets an operator's Python renderer.
func withPy(o *Operator, py func(e *Emitter, a []Code) Code) *Operator {
	o.Py = func(e *Emitter, _ *Lambda, a []Code) Code { return py(e, a) }
	return o
}

// withLambda sets an operator's lambda signature and Python renderer.
func withLambda(o *Operator, sig Sig, lamRet Type, py func(e *Emitter, l *Lambda, a []Code) Code) *Operator {
	o.Sig, o.LamRet, o.Py = sig, lamRet, py
	return o
}

// op1 is an operator of one argument without a lambda. Its kernel calls f
// itself, not through the adapter Eval and the lowering call: one
// indirect call fewer per environment of every program evaluated.
func op1[A, R any](name string, fam Family, f func(A) (R, bool), py func(e *Emitter, a []Code) Code) *Operator {
	o := withPy(typed1(name, fam, func(_ *Arena, _ *Lambda, x A) (R, bool) { return f(x) }), py)
	o.HeapRows = true
	o.Kern = func(_ *Arena, _ *Lambda, args []Vec, n int, out any, bad []bool) {
		as, rs := args[0].Data.([]A), out.([]R)
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
func op1a[A, R any](name string, fam Family, f func(ar *Arena, x A) (R, bool), py func(e *Emitter, a []Code) Code) *Operator {
	o := withPy(typed1(name, fam, func(ar *Arena, _ *Lambda, x A) (R, bool) { return f(ar, x) }), py)
	o.Kern = func(ar *Arena, _ *Lambda, args []Vec, n int, out any, bad []bool) {
		as, rs := args[0].Data.([]A), out.([]R)
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
func op2[A, B, R any](name string, fam Family, f func(A, B) (R, bool), py func(e *Emitter, a []Code) Code) *Operator {
	o := withPy(typed2(name, fam, func(_ *Arena, _ *Lambda, x A, y B) (R, bool) { return f(x, y) }), py)
	o.HeapRows = true
	o.Kern = func(_ *Arena, _ *Lambda, args []Vec, n int, out any, bad []bool) {
		as, bs, rs := args[0].Data.([]A), args[1].Data.([]B), out.([]R)
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
func op2a[A, B, R any](name string, fam Family, f func(ar *Arena, x A, y B) (R, bool), py func(e *Emitter, a []Code) Code) *Operator {
	o := withPy(typed2(name, fam, func(ar *Arena, _ *Lambda, x A, y B) (R, bool) { return f(ar, x, y) }), py)
	o.Kern = func(ar *Arena, _ *Lambda, args []Vec, n int, out any, bad []bool) {
		as, bs, rs := args[0].Data.([]A), args[1].Data.([]B), out.([]R)
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
func op3[A, B, C, R any](name string, fam Family, f func(A, B, C) (R, bool), py func(e *Emitter, a []Code) Code) *Operator {
	o := withPy(typed3(name, fam, func(_ *Arena, _ *Lambda, x A, y B, z C) (R, bool) { return f(x, y, z) }), py)
	o.HeapRows = true
	return o
}

// opL1 is an operator of one argument and a lambda of signature sig
// returning lamRet; its results come from an arena.
func opL1[A, R any](name string, fam Family, sig Sig, lamRet Type, f func(ar *Arena, l *Lambda, x A) (R, bool), py func(e *Emitter, l *Lambda, a []Code) Code) *Operator {
	return withLambda(typed1(name, fam, f), sig, lamRet, py)
}

// opL2 is an operator of two arguments and a lambda of signature sig
// returning lamRet; its results come from an arena.
func opL2[A, B, R any](name string, fam Family, sig Sig, lamRet Type, f func(ar *Arena, l *Lambda, x A, y B) (R, bool), py func(e *Emitter, l *Lambda, a []Code) Code) *Operator {
	return withLambda(typed2(name, fam, f), sig, lamRet, py)
}

// opL3 is an operator of three arguments and a lambda of signature sig
// returning lamRet; its results come from an arena.
func opL3[A, B, C, R any](name string, fam Family, sig Sig, lamRet Type, f func(ar *Arena, l *Lambda, x A, y B, z C) (R, bool), py func(e *Emitter, l *Lambda, a []Code) Code) *Operator {
	return withLambda(typed3(name, fam, f), sig, lamRet, py)
}

// thenL gives an operator built by opL1 or opL2 a second lambda, of
// signature sig returning lamRet, which its function finds as l.Next.
func thenL(sig Sig, lamRet Type, o *Operator) *Operator {
	o.Sig2, o.LamRet2 = sig, lamRet
	return o
}

// negate turns a result and whether it is good into the result and
// whether it is bad.
func negate[R any](r R, good bool) (R, bool) { return r, !good }

// pyOnly adapts a Python renderer that needs no emitter.
func pyOnly(py func(a []Code) Code) func(e *Emitter, a []Code) Code {
	return func(_ *Emitter, a []Code) Code { return py(a) }
}

// condKernel is the kernel of "t if c else e": lazy, it fails only where
// the condition or the branch it takes failed.
func condKernel[T any](_ *Arena, _ *Lambda, args []Vec, n int, out any, bad []bool) {
	cs, ts, es, rs := args[0].Data.([]bool), args[1].Data.([]T), args[2].Data.([]T), out.([]T)
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
