package dsl

import (
	"cmp"
	"slices"
)

// Typed helpers of typed operators (kernel.go): each returns its result
// and whether it is good, false where Python would raise.

// Lam1 calls a one-argument lambda on x; false when the lambda fails or
// returns another type than B. A lambda with a typed form reads its
// argument from the arena's environment (a new one when ar is nil), so
// that searches running at once never share one.
func Lam1[A, B any](ar *Arena, l *Lambda, x A) (B, bool) {
	if fn, typed := l.Typed.(typedFn[B]); typed {
		env := ar.lamEnv()
		if args := SigArgs[l.Sig]; len(args) == 1 && setArg(env, 0, args[0], x) {
			return fn(env)
		}
	}
	v, good := l.Call1(x).(B)
	return v, good
}

// Lam2 calls a two-argument lambda on x and y; false when the lambda
// fails or returns another type than B.
func Lam2[A, C, B any](ar *Arena, l *Lambda, x A, y C) (B, bool) {
	if fn, typed := l.Typed.(typedFn[B]); typed {
		env := ar.lamEnv()
		if args := SigArgs[l.Sig]; len(args) == 2 && setArg(env, 0, args[0], x) && setArg(env, 1, args[1], y) {
			return fn(env)
		}
	}
	v, good := l.Call2(x, y).(B)
	return v, good
}

// pairL calls a two-argument lambda on the coordinates of p; false when
// the lambda fails or returns another type than B.
func pairL[B any](ar *Arena, l *Lambda, p Pair) (B, bool) {
	return Lam2[int64, int64, B](ar, l, p[0], p[1])
}

// mapF is [f(x) for x in xs].
func mapF[A, B any](ar *Arena, xs []A, f func(A) (B, bool)) ([]B, bool) {
	out := alloc[B](ar, len(xs))
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
func filterF[A any](ar *Arena, xs []A, p func(A) (bool, bool)) ([]A, bool) {
	out := allocCap[A](ar, len(xs))
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
func sortByF[A any](ar *Arena, xs []A, key func(A) (int64, bool)) ([]A, bool) {
	keys := alloc[int64](ar, len(xs))
	for i, x := range xs {
		k, good := key(x)
		if !good {
			return nil, false
		}
		keys[i] = k
	}
	idx := alloc[int64](ar, len(xs))
	for i := range idx {
		idx[i] = int64(i)
	}
	// A stable sort's order is the only one: any stable sort gives it.
	slices.SortStableFunc(idx, func(a, b int64) int { return cmp.Compare(keys[a], keys[b]) })
	out := alloc[A](ar, len(xs))
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

// mapL is [l(x) for x in xs].
func mapL[A, B any](ar *Arena, l *Lambda, xs []A) ([]B, bool) {
	return mapF(ar, xs, func(x A) (B, bool) { return Lam1[A, B](ar, l, x) })
}

// mapWithL is [l(x, s) for x in xs].
func mapWithL[A, S, B any](ar *Arena, l *Lambda, xs []A, s S) ([]B, bool) {
	return mapF(ar, xs, func(x A) (B, bool) { return Lam2[A, S, B](ar, l, x, s) })
}

// filterL is [x for x in xs if l(x)].
func filterL[A any](ar *Arena, l *Lambda, xs []A) ([]A, bool) {
	return filterF(ar, xs, func(x A) (bool, bool) { return Lam1[A, bool](ar, l, x) })
}

// filterWithL is [x for x in xs if l(x, s)].
func filterWithL[A, S any](ar *Arena, l *Lambda, xs []A, s S) ([]A, bool) {
	return filterF(ar, xs, func(x A) (bool, bool) { return Lam2[A, S, bool](ar, l, x, s) })
}

// countL is sum(1 for x in xs if l(x)).
func countL[A any](ar *Arena, l *Lambda, xs []A) (int64, bool) {
	return countF(xs, func(x A) (bool, bool) { return Lam1[A, bool](ar, l, x) })
}

// zipL is [l(x, y) for x, y in zip(xs, ys)].
func zipL[A, B any](ar *Arena, l *Lambda, xs, ys []A) ([]B, bool) {
	n := min(len(xs), len(ys))
	out := alloc[B](ar, n)
	for i := range n {
		v, good := Lam2[A, A, B](ar, l, xs[i], ys[i])
		if !good {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// sortByL is Python's stable sorted(xs, key=l).
func sortByL[A any](ar *Arena, l *Lambda, xs []A) ([]A, bool) {
	return sortByF(ar, xs, func(x A) (int64, bool) { return Lam1[A, int64](ar, l, x) })
}

// extremeByL is Python's max/min(xs, key=l): the first extreme element.
func extremeByL[A any](ar *Arena, l *Lambda, xs []A, max bool) (A, bool) {
	return extremeByF(xs, func(x A) (int64, bool) { return Lam1[A, int64](ar, l, x) }, max)
}

// at is xs[i] with Python's negative indices.
func at[A any](xs []A, i int64) (A, bool) {
	if i < 0 {
		i += int64(len(xs))
	}
	if i < 0 || i >= int64(len(xs)) {
		var zero A
		return zero, false
	}
	return xs[i], true
}

// joined is a + b, failing past MaxLen.
func joined[A any](ar *Arena, a, b []A) ([]A, bool) {
	if len(a)+len(b) > MaxLen {
		return nil, false
	}
	out := allocCap[A](ar, len(a)+len(b))
	return append(append(out, a...), b...), true
}

// sumInts is sum(xs), failing on overflow.
func sumInts(xs []int64) (int64, bool) {
	s := int64(0)
	for _, x := range xs {
		var good bool
		if s, good = AddI(s, x); !good {
			return 0, false
		}
	}
	return s, true
}

// sumFloats is sum(xs), failing when it is not finite.
func sumFloats(xs []float64) (float64, bool) {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return fin(s)
}

// largest is max(xs), the first of equal maxima, failing on an empty
// list.
func largest[A int64 | float64](xs []A) (A, bool) {
	if len(xs) == 0 {
		return 0, false
	}
	m := xs[0]
	for _, x := range xs[1:] {
		if x > m {
			m = x
		}
	}
	return m, true
}

// smallest is min(xs), the first of equal minima, failing on an empty
// list.
func smallest[A int64 | float64](xs []A) (A, bool) {
	if len(xs) == 0 {
		return 0, false
	}
	m := xs[0]
	for _, x := range xs[1:] {
		if x < m {
			m = x
		}
	}
	return m, true
}

// rangeOf is list(range(lo, hi)), failing past MaxLen. Within
// -MaxLen..MaxLen it is a window of one shared list of those integers
// (its capacity ends with it, so an append copies): values are never
// written once computed, and ranges are the longest lists the
// enumerator builds.
func rangeOf(ar *Arena, lo, hi int64) ([]int64, bool) {
	if hi-lo > MaxLen {
		return nil, false
	}
	if hi <= lo {
		return alloc[int64](ar, 0), true
	}
	if lo >= -MaxLen && hi <= MaxLen {
		return counting[lo+MaxLen : hi+MaxLen : hi+MaxLen], true
	}
	out := alloc[int64](ar, int(hi-lo))
	for i := range out {
		out[i] = lo + int64(i)
	}
	return out, true
}

// counting is the integers from -MaxLen to MaxLen - 1.
var counting = func() []int64 {
	out := make([]int64, 2*MaxLen)
	for i := range out {
		out[i] = int64(i) - MaxLen
	}
	return out
}()

// good marks a result that cannot fail.
func good[R any](r R) (R, bool) { return r, true }
