package synth

import "sort"

// More typed helpers of typed operators (kernel.go, ops_typed.go): the
// list helpers over an element function instead of a lambda, for
// lambdas that take an element apart (a pair's two coordinates); the
// constructor of an operator of three arguments and a lambda, and the
// second lambda of an operator that takes two.

// pairL calls a two-argument lambda on the coordinates of p; false when
// the lambda fails or returns another type than B.
func pairL[B any](l *lambda, p pair) (B, bool) { return lam2[int64, int64, B](l, p[0], p[1]) }

// mapF is [f(x) for x in xs].
func mapF[A, B any](xs []A, f func(A) (B, bool)) ([]B, bool) {
	out := make([]B, len(xs))
	for i, x := range xs {
		v, good := f(x)
		if !good {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// filterF is [x for x in xs if p(x)].
func filterF[A any](xs []A, p func(A) (bool, bool)) ([]A, bool) {
	out := make([]A, 0, len(xs))
	for _, x := range xs {
		b, good := p(x)
		if !good {
			return nil, false
		}
		if b {
			out = append(out, x)
		}
	}
	return out, true
}

// countF is sum(1 for x in xs if p(x)).
func countF[A any](xs []A, p func(A) (bool, bool)) (int64, bool) {
	n := int64(0)
	for _, x := range xs {
		b, good := p(x)
		if !good {
			return 0, false
		}
		if b {
			n++
		}
	}
	return n, true
}

// sortByF is Python's stable sorted(xs, key=key).
func sortByF[A any](xs []A, key func(A) (int64, bool)) ([]A, bool) {
	keys := make([]int64, len(xs))
	for i, x := range xs {
		k, good := key(x)
		if !good {
			return nil, false
		}
		keys[i] = k
	}
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
	out := make([]A, len(xs))
	for i, j := range idx {
		out[i] = xs[j]
	}
	return out, true
}

// extremeByF is Python's max/min(xs, key=key): the first extreme
// element, failing on an empty list.
func extremeByF[A any](xs []A, key func(A) (int64, bool), max bool) (A, bool) {
	var zero A
	if len(xs) == 0 {
		return zero, false
	}
	var best int64
	bi := -1
	for i, x := range xs {
		k, good := key(x)
		if !good {
			return zero, false
		}
		if bi < 0 || (max && k > best) || (!max && k < best) {
			best, bi = k, i
		}
	}
	return xs[bi], true
}

// opL3 is an operator of three arguments and a lambda of signature sig
// returning lamRet.
func opL3[A, B, C, R any](name string, fam family, sig lamSig, lamRet valType, f func(l *lambda, a A, b B, c C) (R, bool), py func(e *emitter, l *lambda, a []code) code) *operator {
	return &operator{Name: name, Fam: fam, Sig: sig, LamRet: lamRet, Args: ts(typeFor[A](), typeFor[B](), typeFor[C]()), Ret: typeFor[R](), Cost: 1,
		Eval: func(l *lambda, a []any) any {
			x, good1 := a[0].(A)
			y, good2 := a[1].(B)
			z, good3 := a[2].(C)
			if !good1 || !good2 || !good3 {
				return errV
			}
			if r, good := f(l, x, y, z); good {
				return r
			}
			return errV
		},
		kern: func(l *lambda, args []any, n int, out any, bad []bool) {
			as, bs, cs, rs := args[0].([]A), args[1].([]B), args[2].([]C), out.([]R)
			for i := range n {
				if bad[i] {
					continue
				}
				rs[i], bad[i] = negate(f(l, as[i], bs[i], cs[i]))
			}
		},
		Py: py}
}

// thenL gives an operator built by opL1 or opL2 a second lambda, of
// signature sig returning lamRet, which its function finds as l.Next.
func thenL(sig lamSig, lamRet valType, o *operator) *operator {
	o.Sig2, o.LamRet2 = sig, lamRet
	return o
}
