package dsl

import (
	"cmp"
	"slices"
)

// The building blocks of operators: constructors, the settings they carry
// beside their signature, the conditional, and the generic helpers that
// evaluate them over lists of any element type with Python's semantics.

// MaxLen bounds lists and strings the evaluator builds (range, repeat), and
// maxSteps bounds loops; beyond them a program counts as failing.
const (
	MaxLen   = 10000
	maxSteps = 1000
)

// rare marks a scalar operator that is seldom a step towards something
// else: it goes last within a size, so that the lambda banks' per-type caps
// cut it first, and anchored and keyed lambdas leave it out.
func rare(o *Operator) *Operator {
	o.Rare = true
	return o
}

// comprehension marks an operator over one list with a lambda (map, filter,
// count): the staged sweep tries it one lambda size ahead of the others.
func comprehension(o *Operator) *Operator {
	o.Comprehension = true
	return o
}

// builtin names the Python builtin an operator of two arguments is.
func builtin(name string, o *Operator) *Operator {
	o.PyBuiltin = name
	return o
}

// costs gives an operator an extra size: one seldom a step towards
// something else stays in reach as a whole program while adding fewer
// intermediate values to every level of the bank.
func costs(n int, o *Operator) *Operator {
	o.Cost = n
	return o
}

// iBin is a binary integer operator written as a Python infix operator.
func iBin(name, sym string, p int, f func(a, b int64) (int64, bool)) *Operator {
	return op2(name, FamScalar, f, pyOnly(func(a []Code) Code { return binop(a[0], sym, a[1], p) }))
}

// fBin is a binary float operator written as a Python infix operator.
func fBin(name, sym string, p int, f func(a, b float64) float64) *Operator {
	return op2(name, FamScalar, func(a, b float64) (float64, bool) { return fin(f(a, b)) },
		pyOnly(func(a []Code) Code { return binop(a[0], sym, a[1], p) }))
}

// iCmp compares two integers.
func iCmp(name, sym string, f func(a, b int64) bool) *Operator {
	return op2(name, FamScalar, func(a, b int64) (bool, bool) { return f(a, b), true },
		pyOnly(func(a []Code) Code { return cmpop(a[0], sym, a[1]) }))
}

// fCmp compares two floats.
func fCmp(name, sym string, f func(a, b float64) bool) *Operator {
	return op2(name, FamScalar, func(a, b float64) (bool, bool) { return f(a, b), true },
		pyOnly(func(a []Code) Code { return cmpop(a[0], sym, a[1]) }))
}

// iPred is a predicate of an integer.
func iPred(name string, f func(int64) bool, py func(a Code) Code) *Operator {
	return op1(name, FamScalar, func(x int64) (bool, bool) { return f(x), true },
		pyOnly(func(a []Code) Code { return py(a[0]) }))
}

// sPred is a predicate of a string.
func sPred(name string, f func(string) bool, py func(a Code) Code) *Operator {
	return op1(name, FamScalar, func(x string) (bool, bool) { return f(x), true },
		pyOnly(func(a []Code) Code { return py(a[0]) }))
}

// sMap is a string method returning a string.
func sMap(name, meth string, f func(string) string) *Operator {
	return op1(name, FamScalar, func(x string) (string, bool) { return f(x), true },
		pyOnly(func(a []Code) Code { return method(a[0], meth) }))
}

// conditional is "t if c else e" over values of type t: lazy, it receives
// the failed branch it does not take.
func conditional(name string, t Type) *Operator {
	var lower func(*Lambda, []any) any
	var kern kernel
	switch t {
	case Int:
		lower, kern = lowerCond[int64], condKernel[int64]
	case Float:
		lower, kern = lowerCond[float64], condKernel[float64]
	case Str:
		lower, kern = lowerCond[string], condKernel[string]
	case Bool:
		lower, kern = lowerCond[bool], condKernel[bool]
	case ListInt:
		kern = condKernel[[]int64]
	case ListFloat:
		kern = condKernel[[]float64]
	case ListBool:
		kern = condKernel[[]bool]
	case ListStr:
		kern = condKernel[[]string]
	case ListPair:
		kern = condKernel[[]Pair]
	}
	return &Operator{Name: name, Fam: famCond, Args: Types(Bool, t, t), Ret: t, Cost: 1, Lazy: true, lower: lower, Kern: kern,
		Eval: func(_ *Lambda, a []any) any {
			b, good := a[0].(bool)
			if !good {
				return ErrV
			}
			if b {
				return a[1]
			}
			return a[2]
		},
		Py: func(_ *Emitter, _ *Lambda, a []Code) Code {
			return Code{a[1].At(PTern+1) + " if " + a[0].At(PTern+1) + " else " + a[2].At(PTern), PTern}
		}}
}

// conditionalOps are the conditionals of lambda bodies: of integers,
// floats, strings and truth values.
func conditionalOps() []*Operator {
	var out []*Operator
	for _, t := range []Type{Int, Float, Str, Bool} {
		out = append(out, conditional("ite_"+t.String(), t))
	}
	return out
}

// Types lists types: an operator's arguments.
func Types(t ...Type) []Type { return t }

var (
	x0 = Atom("x")
	y0 = Atom("y")
)

// Reversed is xs[::-1], from the arena when there is one.
func Reversed[A any](ar *Arena, xs []A) []A {
	out := alloc[A](ar, len(xs))
	for i, x := range xs {
		out[len(xs)-1-i] = x
	}
	return out
}

func takeList[A any](xs []A, k int64) []A {
	return xs[:clampIdx(k, len(xs))]
}

func dropList[A any](xs []A, k int64) []A {
	return xs[clampIdx(k, len(xs)):]
}

// clampIdx is Python's slice bound normalisation.
func clampIdx(k int64, n int) int {
	if k < 0 {
		k += int64(n)
		if k < 0 {
			k = 0
		}
	}
	if k > int64(n) {
		k = int64(n)
	}
	return int(k)
}

func sortedCopy[A cmp.Ordered](ar *Arena, xs []A, desc bool) []A {
	out := alloc[A](ar, len(xs))
	copy(out, xs)
	slices.Sort(out)
	if desc {
		slices.Reverse(out)
	}
	return out
}

// uniqueOrdered keeps the first occurrence of each element. Short lists
// (the usual case) are scanned instead of hashed: no map to allocate.
func uniqueOrdered[A comparable](ar *Arena, xs []A) []A {
	if ints, isInt := any(xs).([]int64); isInt && len(xs) > 32 {
		if strictlyMonotone(ints) {
			// No element repeats (a range, a running sum of positives).
			out := alloc[int64](ar, len(ints))
			copy(out, ints)
			return any(out).([]A)
		}
		if out, good := uniqueInSpan(ar, ints); good {
			return any(out).([]A)
		}
	}
	out := allocCap[A](ar, len(xs))
	if len(xs) <= 32 {
		for _, x := range xs {
			if !slices.Contains(out, x) {
				out = append(out, x)
			}
		}
		return out
	}
	seen := make(map[A]bool, len(xs))
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// strictlyMonotone reports whether xs strictly increases or strictly
// decreases.
func strictlyMonotone(xs []int64) bool {
	up, down := true, true
	for i := 1; i < len(xs) && (up || down); i++ {
		up = up && xs[i] > xs[i-1]
		down = down && xs[i] < xs[i-1]
	}
	return up || down
}

// maxUniqueSpan is the widest range of values uniqueInSpan handles: a bit
// per value, on the stack.
const maxUniqueSpan = 4096

// uniqueInSpan is uniqueOrdered for integers spanning fewer than
// maxUniqueSpan values (long ranges, counts, digits), marking values in a
// bit set instead of a map; false when the span is wider.
func uniqueInSpan(ar *Arena, xs []int64) ([]int64, bool) {
	lo, hi := xs[0], xs[0]
	for _, x := range xs[1:] {
		lo, hi = min(lo, x), max(hi, x)
	}
	// A span past the int64 range wraps to a negative difference.
	if d := hi - lo; d < 0 || d >= maxUniqueSpan {
		return nil, false
	}
	var seen [maxUniqueSpan / 64]uint64
	out := allocCap[int64](ar, len(xs))
	for _, x := range xs {
		d := x - lo
		w, bit := d>>6, uint64(1)<<(d&63)
		if seen[w]&bit == 0 {
			seen[w] |= bit
			out = append(out, x)
		}
	}
	return out, true
}

func listOf(a []Code) Code { return Atom("[" + a[0].S + "]") }

func comp(expr Code, vars, src string) Code {
	return Atom("[" + expr.S + " for " + vars + " in " + src + "]")
}

func cmpI(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func runLengths[A comparable](ar *Arena, xs []A) []int64 {
	n := 0
	for i, x := range xs {
		if i == 0 || xs[i-1] != x {
			n++
		}
	}
	out := allocCap[int64](ar, n)
	for i, x := range xs {
		if i == 0 || xs[i-1] != x {
			out = append(out, 1)
		} else {
			out[len(out)-1]++
		}
	}
	return out
}

// mostCommon is max(sorted(xs), key=xs.count): the most frequent element,
// the smallest on ties. xs must not be empty.
func mostCommon[A int64 | rune](ar *Arena, xs []A) A {
	s := sortedCopy(ar, xs, false)
	best, bestN := s[0], 0
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] == s[i] {
			j++
		}
		if j-i > bestN {
			best, bestN = s[i], j-i
		}
		i = j
	}
	return best
}
