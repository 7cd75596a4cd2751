package synth

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// maxLen bounds lists and strings the evaluator builds (range, repeat), and
// maxSteps bounds loops; beyond them a program counts as failing.
const (
	maxLen   = 10000
	maxSteps = 1000
)

func mk(name string, fam Family, args []Type, ret Type, eval func(a []any) any, py func(a []code) code) *Op {
	return &Op{Name: name, Fam: fam, Args: args, Ret: ret, Cost: 1,
		Eval: func(_ *Lambda, a []any) any { return eval(a) },
		Py:   func(_ *emitter, _ *Lambda, a []code) code { return py(a) }}
}

func mkE(name string, fam Family, args []Type, ret Type, eval func(a []any) any, py func(e *emitter, a []code) code) *Op {
	return &Op{Name: name, Fam: fam, Args: args, Ret: ret, Cost: 1,
		Eval: func(_ *Lambda, a []any) any { return eval(a) },
		Py:   func(e *emitter, _ *Lambda, a []code) code { return py(e, a) }}
}

func mkL(name string, fam Family, sig LamSig, lamRet Type, args []Type, ret Type,
	eval func(l *Lambda, a []any) any, py func(e *emitter, l *Lambda, a []code) code) *Op {
	return &Op{Name: name, Fam: fam, Sig: sig, LamRet: lamRet, Args: args, Ret: ret, Cost: 1, Eval: eval, Py: py}
}

func ok(v int64, good bool) any {
	if !good {
		return errV
	}
	return v
}

func okF(v float64, good bool) any {
	if !good {
		return errV
	}
	return finite(v)
}

func ts(t ...Type) []Type { return t }

var (
	x0 = atom("x")
	y0 = atom("y")
)

// mapList applies f to every element, failing if any call fails or
// returns another type.
func mapList[A, B any](xs []A, f func(A) any) any {
	out := make([]B, len(xs))
	for i, x := range xs {
		v, good := f(x).(B)
		if !good {
			return errV
		}
		out[i] = v
	}
	return out
}

func filterList[A any](xs []A, p func(A) any) any {
	out := make([]A, 0, len(xs))
	for _, x := range xs {
		b, good := p(x).(bool)
		if !good {
			return errV
		}
		if b {
			out = append(out, x)
		}
	}
	return out
}

func countList[A any](xs []A, p func(A) any) any {
	n := int64(0)
	for _, x := range xs {
		b, good := p(x).(bool)
		if !good {
			return errV
		}
		if b {
			n++
		}
	}
	return n
}

func reversed[A any](xs []A) []A {
	out := make([]A, len(xs))
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

func index[A any](xs []A, i int64) any {
	if i < 0 {
		i += int64(len(xs))
	}
	if i < 0 || i >= int64(len(xs)) {
		return errV
	}
	return xs[i]
}

func concat[A any](a, b []A) any {
	if len(a)+len(b) > maxLen {
		return errV
	}
	out := make([]A, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}

func sumI(xs []int64) any {
	s := int64(0)
	for _, x := range xs {
		var good bool
		if s, good = addI(s, x); !good {
			return errV
		}
	}
	return s
}

func sumF(xs []float64) any {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return finite(s)
}

func maxOf[A int64 | float64](xs []A) any {
	if len(xs) == 0 {
		return errV
	}
	m := xs[0]
	for _, x := range xs[1:] {
		if x > m {
			m = x
		}
	}
	return m
}

func minOf[A int64 | float64](xs []A) any {
	if len(xs) == 0 {
		return errV
	}
	m := xs[0]
	for _, x := range xs[1:] {
		if x < m {
			m = x
		}
	}
	return m
}

func sortedCopy[A int64 | float64 | string](xs []A, desc bool) []A {
	out := slices.Clone(xs)
	if out == nil {
		out = []A{}
	}
	slices.Sort(out)
	if desc {
		slices.Reverse(out)
	}
	return out
}

// sortByKey is Python's stable sorted(xs, key=f).
func sortByKey[A any](xs []A, f func(A) any) any {
	keys := make([]int64, len(xs))
	for i, x := range xs {
		k, good := f(x).(int64)
		if !good {
			return errV
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
	return out
}

// extremeByKey is Python's max/min(xs, key=f): the first extreme element.
func extremeByKey[A any](xs []A, f func(A) any, max bool) any {
	if len(xs) == 0 {
		return errV
	}
	var best int64
	bi := -1
	for i, x := range xs {
		k, good := f(x).(int64)
		if !good {
			return errV
		}
		if bi < 0 || (max && k > best) || (!max && k < best) {
			best, bi = k, i
		}
	}
	return xs[bi]
}

// uniqueOrdered keeps the first occurrence of each element. Short lists
// (the usual case) are scanned instead of hashed: no map to allocate.
func uniqueOrdered[A comparable](xs []A) []A {
	if ints, isInt := any(xs).([]int64); isInt && len(xs) > 32 {
		if out, good := uniqueInSpan(ints); good {
			return any(out).([]A)
		}
	}
	out := make([]A, 0, len(xs))
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

// maxUniqueSpan is the widest range of values uniqueInSpan handles: a bit
// per value, on the stack.
const maxUniqueSpan = 4096

// uniqueInSpan is uniqueOrdered for integers spanning fewer than
// maxUniqueSpan values (long ranges, counts, digits), marking values in a
// bit set instead of a map; false when the span is wider.
func uniqueInSpan(xs []int64) ([]int64, bool) {
	lo, hi := xs[0], xs[0]
	for _, x := range xs[1:] {
		lo, hi = min(lo, x), max(hi, x)
	}
	// A span past the int64 range wraps to a negative difference.
	if d := hi - lo; d < 0 || d >= maxUniqueSpan {
		return nil, false
	}
	var seen [maxUniqueSpan / 64]uint64
	out := make([]int64, 0, len(xs))
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

func digitsOf(n int64) []int64 {
	s := strconv.FormatInt(absI(n), 10)
	if n == math.MinInt64 {
		s = "9223372036854775808"
	}
	out := make([]int64, len(s))
	for i := range s {
		out[i] = int64(s[i] - '0')
	}
	return out
}

// joinedInt is Python's int("".join(map(str, xs)), base) for base 2 or
// 10, computed without building the string: false where Python raises
// (an empty list, a minus sign after the first element, a digit too large
// for the base) or where the result leaves int64.
func joinedInt(xs []int64, base int64) (int64, bool) {
	if len(xs) == 0 {
		return 0, false
	}
	neg := false
	var n int64
	var buf [20]byte
	for i, x := range xs {
		if x < 0 {
			if i > 0 || x == math.MinInt64 {
				return 0, false
			}
			neg, x = true, -x
		}
		for _, c := range strconv.AppendInt(buf[:0], x, 10) {
			d := int64(c - '0')
			if d >= base || n > (math.MaxInt64-d)/base {
				return 0, false
			}
			n = n*base + d
		}
	}
	if neg {
		n = -n
	}
	return n, true
}

func listOf(a []code) code { return atom("[" + a[0].s + "]") }

func comp(expr code, vars, src string) code {
	return atom("[" + expr.s + " for " + vars + " in " + src + "]")
}

// The catalogue. scalarOps are usable inside lambdas and at the top level;
// the others only at the top level.
var (
	opIte = &Op{Name: "ite", Fam: FamCond, Args: ts(TBool, TInt, TInt), Ret: TInt, Cost: 1, Lazy: true}

	scalarOps []*Op
	listOps   []*Op
	loopOps   []*Op
)

func init() {
	I, F, B, S := TInt, TFloat, TBool, TStr
	LI, LF, LB, LS, LP := TListInt, TListFloat, TListBool, TListStr, TListPair
	iBin := func(name, sym string, p int, f func(a, b int64) (int64, bool)) *Op {
		return mk(name, FamScalar, ts(I, I), I,
			func(a []any) any { return ok(f(a[0].(int64), a[1].(int64))) },
			func(a []code) code { return binop(a[0], sym, a[1], p) })
	}
	fBin := func(name, sym string, p int, f func(a, b float64) float64) *Op {
		return mk(name, FamScalar, ts(F, F), F,
			func(a []any) any { return finite(f(a[0].(float64), a[1].(float64))) },
			func(a []code) code { return binop(a[0], sym, a[1], p) })
	}
	iCmp := func(name, sym string, f func(a, b int64) bool) *Op {
		return mk(name, FamScalar, ts(I, I), B,
			func(a []any) any { return f(a[0].(int64), a[1].(int64)) },
			func(a []code) code { return cmpop(a[0], sym, a[1]) })
	}
	fCmp := func(name, sym string, f func(a, b float64) bool) *Op {
		return mk(name, FamScalar, ts(F, F), B,
			func(a []any) any { return f(a[0].(float64), a[1].(float64)) },
			func(a []code) code { return cmpop(a[0], sym, a[1]) })
	}
	iPred := func(name string, f func(int64) bool, py func(a code) code) *Op {
		return mk(name, FamScalar, ts(I), B, func(a []any) any { return f(a[0].(int64)) },
			func(a []code) code { return py(a[0]) })
	}
	sPred := func(name string, f func(string) bool, py func(a code) code) *Op {
		return mk(name, FamScalar, ts(S), B, func(a []any) any { return f(a[0].(string)) },
			func(a []code) code { return py(a[0]) })
	}
	sMap := func(name, meth string, f func(string) string) *Op {
		return mk(name, FamScalar, ts(S), S, func(a []any) any { return f(a[0].(string)) },
			func(a []code) code { return method(a[0], meth) })
	}
	opIte.Eval = func(_ *Lambda, a []any) any {
		b, good := a[0].(bool)
		if !good {
			return errV
		}
		if b {
			return a[1]
		}
		return a[2]
	}
	opIte.Py = func(_ *emitter, _ *Lambda, a []code) code {
		return code{a[1].at(pTern+1) + " if " + a[0].at(pTern+1) + " else " + a[2].at(pTern), pTern}
	}
	iteOf := func(t Type) *Op {
		o := *opIte
		o.Name = "ite_" + t.String()
		o.Args = ts(B, t, t)
		o.Ret = t
		return &o
	}

	scalarOps = []*Op{
		iBin("add", "+", pAdd, addI),
		iBin("sub", "-", pAdd, subI),
		iBin("mul", "*", pMul, mulI),
		iBin("floordiv", "//", pMul, floorDiv),
		iBin("mod", "%", pMul, pyMod),
		mk("neg", FamScalar, ts(I), I, func(a []any) any {
			x := a[0].(int64)
			if x == math.MinInt64 {
				return errV
			}
			return -x
		}, func(a []code) code { return code{"-" + a[0].at(pUnary), pUnary} }),
		mk("abs", FamScalar, ts(I), I, func(a []any) any {
			x := a[0].(int64)
			if x == math.MinInt64 {
				return errV
			}
			return absI(x)
		}, func(a []code) code { return call("abs", a[0]) }),
		mk("min", FamScalar, ts(I, I), I, func(a []any) any { return min(a[0].(int64), a[1].(int64)) },
			func(a []code) code { return call("min", a...) }),
		mk("max", FamScalar, ts(I, I), I, func(a []any) any { return max(a[0].(int64), a[1].(int64)) },
			func(a []code) code { return call("max", a...) }),
		mk("pow", FamScalar, ts(I, I), I, func(a []any) any { return ok(powI(a[0].(int64), a[1].(int64))) },
			func(a []code) code { return code{a[0].at(pPow+1) + " ** " + a[1].at(pPow), pPow} }),
		iBin("xor", "^", pXor, func(a, b int64) (int64, bool) { return a ^ b, true }),
		iBin("band", "&", pBand, func(a, b int64) (int64, bool) { return a & b, true }),
		iBin("bor", "|", pBor, func(a, b int64) (int64, bool) { return a | b, true }),
		iCmp("lt", "<", func(a, b int64) bool { return a < b }),
		iCmp("le", "<=", func(a, b int64) bool { return a <= b }),
		iCmp("eq", "==", func(a, b int64) bool { return a == b }),
		iCmp("ne", "!=", func(a, b int64) bool { return a != b }),
		iPred("even", func(x int64) bool { return x%2 == 0 }, func(a code) code { return cmpop(binop(a, "%", atom("2"), pMul), "==", atom("0")) }),
		iPred("odd", func(x int64) bool { return x%2 != 0 }, func(a code) code { return cmpop(binop(a, "%", atom("2"), pMul), "==", atom("1")) }),
		iPred("positive", func(x int64) bool { return x > 0 }, func(a code) code { return cmpop(a, ">", atom("0")) }),
		iPred("negative", func(x int64) bool { return x < 0 }, func(a code) code { return cmpop(a, "<", atom("0")) }),
		mk("is_prime", FamScalar, ts(I), B, func(a []any) any {
			n := a[0].(int64)
			if n > maxPrime {
				return errV
			}
			return isPrime(n)
		}, func(a []code) code { return call("is_prime", a[0]) }),
		mk("and", FamScalar, ts(B, B), B, func(a []any) any { return a[0].(bool) && a[1].(bool) },
			func(a []code) code { return binop(a[0], "and", a[1], pAnd) }),
		mk("or", FamScalar, ts(B, B), B, func(a []any) any { return a[0].(bool) || a[1].(bool) },
			func(a []code) code { return binop(a[0], "or", a[1], pOr) }),
		mk("not", FamScalar, ts(B), B, func(a []any) any { return !a[0].(bool) },
			func(a []code) code { return code{"not " + a[0].at(pNot), pNot} }),
		mk("int", FamScalar, ts(B), I, func(a []any) any {
			if a[0].(bool) {
				return int64(1)
			}
			return int64(0)
		}, func(a []code) code { return call("int", a[0]) }),
		mk("gcd", FamScalar, ts(I, I), I, func(a []any) any { return gcdI(a[0].(int64), a[1].(int64)) },
			func(a []code) code { return call("math.gcd", a...) }),

		// floats
		fBin("fadd", "+", pAdd, func(a, b float64) float64 { return a + b }),
		fBin("fsub", "-", pAdd, func(a, b float64) float64 { return a - b }),
		fBin("fmul", "*", pMul, func(a, b float64) float64 { return a * b }),
		mk("fdiv", FamScalar, ts(F, F), F, func(a []any) any {
			b := a[1].(float64)
			if b == 0 {
				return errV
			}
			return finite(a[0].(float64) / b)
		}, func(a []code) code { return binop(a[0], "/", a[1], pMul) }),
		mk("fdivi", FamScalar, ts(F, I), F, func(a []any) any {
			b := a[1].(int64)
			if b == 0 {
				return errV
			}
			return finite(a[0].(float64) / float64(b))
		}, func(a []code) code { return binop(a[0], "/", a[1], pMul) }),
		mk("fmuli", FamScalar, ts(F, I), F, func(a []any) any { return finite(a[0].(float64) * float64(a[1].(int64))) },
			func(a []code) code { return binop(a[0], "*", a[1], pMul) }),
		mk("div", FamScalar, ts(I, I), F, func(a []any) any {
			b := a[1].(int64)
			if b == 0 {
				return errV
			}
			return float64(a[0].(int64)) / float64(b)
		}, func(a []code) code { return binop(a[0], "/", a[1], pMul) }),
		mk("float", FamScalar, ts(I), F, func(a []any) any { return float64(a[0].(int64)) },
			func(a []code) code { return call("float", a[0]) }),
		mk("fneg", FamScalar, ts(F), F, func(a []any) any { return -a[0].(float64) },
			func(a []code) code { return code{"-" + a[0].at(pUnary), pUnary} }),
		mk("fabs", FamScalar, ts(F), F, func(a []any) any { return math.Abs(a[0].(float64)) },
			func(a []code) code { return call("abs", a[0]) }),
		mk("fmin", FamScalar, ts(F, F), F, func(a []any) any { return math.Min(a[0].(float64), a[1].(float64)) },
			func(a []code) code { return call("min", a...) }),
		mk("fmax", FamScalar, ts(F, F), F, func(a []any) any { return math.Max(a[0].(float64), a[1].(float64)) },
			func(a []code) code { return call("max", a...) }),
		mkE("sqrt", FamScalar, ts(F), F, func(a []any) any {
			x := a[0].(float64)
			if x < 0 {
				return errV
			}
			return math.Sqrt(x)
		}, func(e *emitter, a []code) code { e.use("math"); return call("math.sqrt", a[0]) }),
		mk("round", FamScalar, ts(F), I, func(a []any) any { return ok(roundHalfEven(a[0].(float64))) },
			func(a []code) code { return call("round", a[0]) }),
		mk("roundto", FamScalar, ts(F, I), F, func(a []any) any { return okF(roundTo(a[0].(float64), a[1].(int64))) },
			func(a []code) code { return call("round", a...) }),
		mkE("floor", FamScalar, ts(F), I, func(a []any) any {
			x := a[0].(float64)
			if math.Abs(x) > 9e18 {
				return errV
			}
			return int64(math.Floor(x))
		}, func(e *emitter, a []code) code { e.use("math"); return call("math.floor", a[0]) }),
		mkE("ceil", FamScalar, ts(F), I, func(a []any) any {
			x := a[0].(float64)
			if math.Abs(x) > 9e18 {
				return errV
			}
			return int64(math.Ceil(x))
		}, func(e *emitter, a []code) code { e.use("math"); return call("math.ceil", a[0]) }),
		fCmp("flt", "<", func(a, b float64) bool { return a < b }),
		fCmp("fle", "<=", func(a, b float64) bool { return a <= b }),

		// strings
		mk("len", FamScalar, ts(S), I, func(a []any) any { return int64(len([]rune(a[0].(string)))) },
			func(a []code) code { return call("len", a[0]) }),
		sMap("upper", "upper", strings.ToUpper),
		sMap("lower", "lower", strings.ToLower),
		sMap("strip", "strip", strings.TrimSpace),
		sMap("capitalize", "capitalize", pyCapitalize),
		sMap("title", "title", pyTitle),
		sMap("swapcase", "swapcase", pySwapcase),
		mk("reverse", FamScalar, ts(S), S, func(a []any) any { return reverseString(a[0].(string)) },
			func(a []code) code { return atom(a[0].at(pAtom) + "[::-1]") }),
		mk("sorted_chars", FamScalar, ts(S), S, func(a []any) any {
			r := []rune(a[0].(string))
			slices.Sort(r)
			return string(r)
		}, func(a []code) code { return atom(`"".join(sorted(` + a[0].s + `))`) }),
		mk("concat", FamScalar, ts(S, S), S, func(a []any) any {
			s := a[0].(string) + a[1].(string)
			if len(s) > maxLen {
				return errV
			}
			return s
		}, func(a []code) code { return binop(a[0], "+", a[1], pAdd) }),
		mk("repeat", FamScalar, ts(S, I), S, func(a []any) any {
			s, k := a[0].(string), a[1].(int64)
			if k <= 0 {
				return ""
			}
			if k > maxLen || int64(len(s))*k > maxLen {
				return errV
			}
			return strings.Repeat(s, int(k))
		}, func(a []code) code { return binop(a[0], "*", a[1], pMul) }),
		mk("seq", FamScalar, ts(S, S), B, func(a []any) any { return a[0].(string) == a[1].(string) },
			func(a []code) code { return cmpop(a[0], "==", a[1]) }),
		mk("contains", FamScalar, ts(S, S), B, func(a []any) any { return strings.Contains(a[1].(string), a[0].(string)) },
			func(a []code) code { return cmpop(a[0], "in", a[1]) }),
		mk("count", FamScalar, ts(S, S), I, func(a []any) any {
			s, t := a[0].(string), a[1].(string)
			if t == "" {
				return int64(len([]rune(s)) + 1)
			}
			return int64(strings.Count(s, t))
		}, func(a []code) code { return method(a[0], "count", a[1]) }),
		mk("char_at", FamScalar, ts(S, I), S, func(a []any) any {
			v := index([]rune(a[0].(string)), a[1].(int64))
			if r, good := v.(rune); good {
				return string(r)
			}
			return errV
		}, func(a []code) code { return atom(a[0].at(pAtom) + "[" + a[1].s + "]") }),
		mk("prefix", FamScalar, ts(S, I), S, func(a []any) any { return string(takeList([]rune(a[0].(string)), a[1].(int64))) },
			func(a []code) code { return atom(a[0].at(pAtom) + "[:" + a[1].s + "]") }),
		mk("suffix", FamScalar, ts(S, I), S, func(a []any) any { return string(dropList([]rune(a[0].(string)), a[1].(int64))) },
			func(a []code) code { return atom(a[0].at(pAtom) + "[" + a[1].s + ":]") }),
		sPred("isdigit", func(s string) bool { return allRunes(s, isASCIIDigit) }, func(a code) code { return method(a, "isdigit") }),
		sPred("isalpha", func(s string) bool { return allRunes(s, unicode.IsLetter) }, func(a code) code { return method(a, "isalpha") }),
		sPred("isspace", func(s string) bool { return allRunes(s, unicode.IsSpace) }, func(a code) code { return method(a, "isspace") }),
		sPred("isupper", func(s string) bool { return strings.ToLower(s) != s && strings.ToUpper(s) == s },
			func(a code) code { return method(a, "isupper") }),
		sPred("islower", func(s string) bool { return strings.ToUpper(s) != s && strings.ToLower(s) == s },
			func(a code) code { return method(a, "islower") }),
		sPred("is_vowel", func(s string) bool { return s != "" && strings.Contains("aeiouAEIOU", s) },
			func(a code) code { return cmpop(a, "in", atom(`"aeiouAEIOU"`)) }),
		mk("ord", FamScalar, ts(S), I, func(a []any) any {
			r := []rune(a[0].(string))
			if len(r) != 1 {
				return errV
			}
			return int64(r[0])
		}, func(a []code) code { return call("ord", a[0]) }),
		mk("chr", FamScalar, ts(I), S, func(a []any) any {
			n := a[0].(int64)
			if n < 0 || n > 0xD7FF {
				return errV
			}
			return string(rune(n))
		}, func(a []code) code { return call("chr", a[0]) }),
		mk("str", FamScalar, ts(I), S, func(a []any) any { return strconv.FormatInt(a[0].(int64), 10) },
			func(a []code) code { return call("str", a[0]) }),
		mkE("shift", FamScalar, ts(S, I), S, func(a []any) any { return shiftLetter(a[0].(string), a[1].(int64)) },
			func(e *emitter, a []code) code {
				e.helper("shift_letters", pyShiftLetters)
				return call("shift_letters", a...)
			}),
	}
	scalarOps = append(scalarOps, iteOf(I), iteOf(F), iteOf(S), iteOf(B))
	for _, o := range scalarOps {
		if o.Name == "is_prime" {
			o.Py = func(e *emitter, _ *Lambda, a []code) code {
				e.helper("is_prime", pyIsPrime)
				return call("is_prime", a[0])
			}
		}
		if o.Name == "gcd" {
			o.Py = func(e *emitter, _ *Lambda, a []code) code { e.use("math"); return call("math.gcd", a...) }
		}
	}

	xs := func(a code) string { return a.s }
	listOps = []*Op{
		// int lists
		mk("len", FamList, ts(LI), I, func(a []any) any { return int64(len(a[0].([]int64))) }, func(a []code) code { return call("len", a[0]) }),
		mk("sum", FamList, ts(LI), I, func(a []any) any { return sumI(a[0].([]int64)) }, func(a []code) code { return call("sum", a[0]) }),
		mk("max", FamList, ts(LI), I, func(a []any) any { return maxOf(a[0].([]int64)) }, func(a []code) code { return call("max", a[0]) }),
		mk("min", FamList, ts(LI), I, func(a []any) any { return minOf(a[0].([]int64)) }, func(a []code) code { return call("min", a[0]) }),
		mk("first", FamList, ts(LI), I, func(a []any) any { return index(a[0].([]int64), 0) }, func(a []code) code { return atom(a[0].at(pAtom) + "[0]") }),
		mk("last", FamList, ts(LI), I, func(a []any) any { return index(a[0].([]int64), -1) }, func(a []code) code { return atom(a[0].at(pAtom) + "[-1]") }),
		mk("at", FamList, ts(LI, I), I, func(a []any) any { return index(a[0].([]int64), a[1].(int64)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[" + a[1].s + "]") }),
		mk("sorted", FamList, ts(LI), LI, func(a []any) any { return sortedCopy(a[0].([]int64), false) }, func(a []code) code { return call("sorted", a[0]) }),
		mk("sorted_desc", FamList, ts(LI), LI, func(a []any) any { return sortedCopy(a[0].([]int64), true) }, func(a []code) code { return atom("sorted(" + xs(a[0]) + ", reverse=True)") }),
		mk("reversed", FamList, ts(LI), LI, func(a []any) any { return reversed(a[0].([]int64)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[::-1]") }),
		mk("unique", FamList, ts(LI), LI, func(a []any) any { return uniqueOrdered(a[0].([]int64)) }, func(a []code) code { return atom("list(dict.fromkeys(" + xs(a[0]) + "))") }),
		mk("sorted_set", FamList, ts(LI), LI, func(a []any) any { return sortedCopy(uniqueOrdered(a[0].([]int64)), false) }, func(a []code) code { return atom("sorted(set(" + xs(a[0]) + "))") }),
		mk("take", FamList, ts(LI, I), LI, func(a []any) any { return takeList(a[0].([]int64), a[1].(int64)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[:" + a[1].s + "]") }),
		mk("drop", FamList, ts(LI, I), LI, func(a []any) any { return dropList(a[0].([]int64), a[1].(int64)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[" + a[1].s + ":]") }),
		mk("concat", FamList, ts(LI, LI), LI, func(a []any) any { return concat(a[0].([]int64), a[1].([]int64)) }, func(a []code) code { return binop(a[0], "+", a[1], pAdd) }),
		mk("append", FamList, ts(LI, I), LI, func(a []any) any { return concat(a[0].([]int64), []int64{a[1].(int64)}) }, func(a []code) code { return binop(a[0], "+", listOf(a[1:]), pAdd) }),
		mk("count_of", FamList, ts(LI, I), I, func(a []any) any {
			return int64(len(slices.DeleteFunc(slices.Clone(a[0].([]int64)), func(x int64) bool { return x != a[1].(int64) })))
		}, func(a []code) code { return method(a[0], "count", a[1]) }),
		mk("member", FamList, ts(I, LI), B, func(a []any) any { return slices.Contains(a[1].([]int64), a[0].(int64)) }, func(a []code) code { return cmpop(a[0], "in", a[1]) }),
		mk("index_of", FamList, ts(LI, I), I, func(a []any) any {
			i := slices.Index(a[0].([]int64), a[1].(int64))
			if i < 0 {
				return errV
			}
			return int64(i)
		}, func(a []code) code { return method(a[0], "index", a[1]) }),
		mk("argmax", FamList, ts(LI), I, func(a []any) any {
			m := maxOf(a[0].([]int64))
			if isErr(m) {
				return errV
			}
			return int64(slices.Index(a[0].([]int64), m.(int64)))
		}, func(a []code) code { return method(a[0], "index", call("max", a[0])) }),
		mk("argmin", FamList, ts(LI), I, func(a []any) any {
			m := minOf(a[0].([]int64))
			if isErr(m) {
				return errV
			}
			return int64(slices.Index(a[0].([]int64), m.(int64)))
		}, func(a []code) code { return method(a[0], "index", call("min", a[0])) }),
		mkE("prod", FamList, ts(LI), I, func(a []any) any {
			p := int64(1)
			for _, x := range a[0].([]int64) {
				var good bool
				if p, good = mulI(p, x); !good {
					return errV
				}
			}
			return p
		}, func(e *emitter, a []code) code { e.use("math"); return call("math.prod", a[0]) }),
		mk("range", FamList, ts(I), LI, func(a []any) any { return rangeList(0, a[0].(int64)) }, func(a []code) code { return atom("list(range(" + a[0].s + "))") }),
		mk("range2", FamList, ts(I, I), LI, func(a []any) any { return rangeList(a[0].(int64), a[1].(int64)) }, func(a []code) code { return atom("list(range(" + a[0].s + ", " + a[1].s + "))") }),
		mk("singleton", FamList, ts(I), LI, func(a []any) any { return []int64{a[0].(int64)} }, listOf),
		mk("pair", FamList, ts(I, I), LI, func(a []any) any { return []int64{a[0].(int64), a[1].(int64)} }, func(a []code) code { return atom("[" + a[0].s + ", " + a[1].s + "]") }),
		mk("fpair", FamList, ts(F, F), LF, func(a []any) any { return []float64{a[0].(float64), a[1].(float64)} }, func(a []code) code { return atom("[" + a[0].s + ", " + a[1].s + "]") }),
		mk("digits", FamList, ts(I), LI, func(a []any) any { return digitsOf(a[0].(int64)) }, func(a []code) code { return atom("[int(d) for d in str(abs(" + a[0].s + "))]") }),
		mk("bits", FamList, ts(I), LI, func(a []any) any {
			n := a[0].(int64)
			if n < 0 {
				return errV
			}
			s := strconv.FormatInt(n, 2)
			out := make([]int64, len(s))
			for i := range s {
				out[i] = int64(s[i] - '0')
			}
			return out
		}, func(a []code) code { return atom("[int(b) for b in bin(" + a[0].s + ")[2:]]") }),
		mk("from_digits", FamList, ts(LI), I, func(a []any) any {
			n, ok := joinedInt(a[0].([]int64), 10)
			if !ok {
				return errV
			}
			return n
		}, func(a []code) code { return atom(`int("".join(map(str, ` + a[0].s + `)))`) }),
		mk("from_bits", FamList, ts(LI), I, func(a []any) any {
			n, ok := joinedInt(a[0].([]int64), 2)
			if !ok {
				return errV
			}
			return n
		}, func(a []code) code { return atom(`int("".join(map(str, ` + a[0].s + `)), 2)`) }),
		mk("intersect", FamList, ts(LI, LI), LI, func(a []any) any {
			b := a[1].([]int64)
			return sortedCopy(uniqueOrdered(slices.DeleteFunc(slices.Clone(a[0].([]int64)), func(x int64) bool { return !slices.Contains(b, x) })), false)
		}, func(a []code) code { return atom("sorted(set(" + a[0].s + ") & set(" + a[1].s + "))") }),
		mk("union", FamList, ts(LI, LI), LI, func(a []any) any {
			return sortedCopy(uniqueOrdered(append(slices.Clone(a[0].([]int64)), a[1].([]int64)...)), false)
		}, func(a []code) code { return atom("sorted(set(" + a[0].s + ") | set(" + a[1].s + "))") }),
		mk("without", FamList, ts(LI, LI), LI, func(a []any) any {
			b := a[1].([]int64)
			out := slices.DeleteFunc(slices.Clone(a[0].([]int64)), func(x int64) bool { return slices.Contains(b, x) })
			if out == nil {
				out = []int64{}
			}
			return out
		}, func(a []code) code { return atom("[x for x in " + a[0].s + " if x not in " + a[1].s + "]") }),
		mkL("map", FamList, sigI, I, ts(LI), LI, func(l *Lambda, a []any) any { return mapList[int64, int64](a[0].([]int64), c1[int64](l)) },
			func(e *emitter, l *Lambda, a []code) code { return comp(e.lam(l, x0), "x", a[0].s) }),
		mkL("map", FamList, sigI, F, ts(LI), LF, func(l *Lambda, a []any) any { return mapList[int64, float64](a[0].([]int64), c1[int64](l)) },
			func(e *emitter, l *Lambda, a []code) code { return comp(e.lam(l, x0), "x", a[0].s) }),
		mkL("map", FamList, sigI, B, ts(LI), LB, func(l *Lambda, a []any) any { return mapList[int64, bool](a[0].([]int64), c1[int64](l)) },
			func(e *emitter, l *Lambda, a []code) code { return comp(e.lam(l, x0), "x", a[0].s) }),
		mkL("map", FamList, sigI, S, ts(LI), LS, func(l *Lambda, a []any) any { return mapList[int64, string](a[0].([]int64), c1[int64](l)) },
			func(e *emitter, l *Lambda, a []code) code { return comp(e.lam(l, x0), "x", a[0].s) }),
		mkL("filter", FamList, sigI, B, ts(LI), LI, func(l *Lambda, a []any) any { return filterList(a[0].([]int64), c1[int64](l)) },
			func(e *emitter, l *Lambda, a []code) code {
				return atom("[x for x in " + a[0].s + " if " + e.lam(l, x0).s + "]")
			}),
		mkL("count", FamList, sigI, B, ts(LI), I, func(l *Lambda, a []any) any { return countList(a[0].([]int64), c1[int64](l)) },
			func(e *emitter, l *Lambda, a []code) code {
				return atom("sum(1 for x in " + a[0].s + " if " + e.lam(l, x0).s + ")")
			}),
		mkL("map_with", FamList, sigII, I, ts(LI, I), LI, func(l *Lambda, a []any) any {
			s := a[1]
			return mapList[int64, int64](a[0].([]int64), func(x int64) any { return l.call2(x, s) })
		}, func(e *emitter, l *Lambda, a []code) code { return comp(e.lam(l, x0, a[1]), "x", a[0].s) }),
		mkL("filter_with", FamList, sigII, B, ts(LI, I), LI, func(l *Lambda, a []any) any {
			s := a[1]
			return filterList(a[0].([]int64), func(x int64) any { return l.call2(x, s) })
		}, func(e *emitter, l *Lambda, a []code) code {
			return atom("[x for x in " + a[0].s + " if " + e.lam(l, x0, a[1]).s + "]")
		}),
		mkL("zip_with", FamList, sigII, I, ts(LI, LI), LI, func(l *Lambda, a []any) any { return zipWith[int64, int64](a[0].([]int64), a[1].([]int64), l.call2) },
			func(e *emitter, l *Lambda, a []code) code {
				return comp(e.lam(l, x0, y0), "x, y", "zip("+a[0].s+", "+a[1].s+")")
			}),
		mkL("adjacent", FamScan, sigII, I, ts(LI), LI, func(l *Lambda, a []any) any {
			xs := a[0].([]int64)
			return zipWith[int64, int64](xs, dropList(xs, 1), l.call2)
		}, func(e *emitter, l *Lambda, a []code) code {
			return comp(e.lam(l, x0, y0), "x, y", "zip("+a[0].s+", "+a[0].at(pAtom)+"[1:])")
		}),
		mkL("adjacent", FamScan, sigII, B, ts(LI), LB, func(l *Lambda, a []any) any {
			xs := a[0].([]int64)
			return zipWith[int64, bool](xs, dropList(xs, 1), l.call2)
		}, func(e *emitter, l *Lambda, a []code) code {
			return comp(e.lam(l, x0, y0), "x, y", "zip("+a[0].s+", "+a[0].at(pAtom)+"[1:])")
		}),
		mkL("enumerate_map", FamList, sigII, I, ts(LI), LI, func(l *Lambda, a []any) any {
			xs := a[0].([]int64)
			out := make([]int64, len(xs))
			for i, x := range xs {
				v, good := l.call2(int64(i), x).(int64)
				if !good {
					return errV
				}
				out[i] = v
			}
			return out
		}, func(e *emitter, l *Lambda, a []code) code {
			return comp(e.lam(l, atom("i"), x0), "i, x", "enumerate("+a[0].s+")")
		}),
		mkL("scan", FamScan, sigII, I, ts(LI), LI, func(l *Lambda, a []any) any {
			xs := a[0].([]int64)
			out := make([]int64, len(xs))
			for i, x := range xs {
				if i == 0 {
					out[0] = x
					continue
				}
				v, good := l.call2(out[i-1], x).(int64)
				if !good {
					return errV
				}
				out[i] = v
			}
			return out
		}, func(e *emitter, l *Lambda, a []code) code {
			e.use("accumulate")
			if l.Body != nil && l.Body.Op != nil && l.Body.Op.Name == "add" && l.Body.Kids[0].Var == 0 && l.Body.Kids[1].Var == 1 && l.Body.Kids[0].Op == nil && l.Body.Kids[1].Op == nil {
				return atom("list(accumulate(" + a[0].s + "))")
			}
			return atom("list(accumulate(" + a[0].s + ", " + e.fn(l, "acc", "x") + "))")
		}),
		mkL("fold", FamScan, sigII, I, ts(LI, I), I, func(l *Lambda, a []any) any {
			acc := a[1]
			for _, x := range a[0].([]int64) {
				acc = l.call2(acc, x)
				if _, good := acc.(int64); !good {
					return errV
				}
			}
			return acc
		}, func(e *emitter, l *Lambda, a []code) code {
			e.use("reduce")
			return atom("reduce(" + e.fn(l, "acc", "x") + ", " + a[0].s + ", " + a[1].s + ")")
		}),
		mkL("sort_by", FamList, sigI, I, ts(LI), LI, func(l *Lambda, a []any) any {
			return sortByKey(a[0].([]int64), func(x int64) any { return l.call1(x) })
		},
			func(e *emitter, l *Lambda, a []code) code {
				return atom("sorted(" + a[0].s + ", key=" + e.fn(l, "x") + ")")
			}),
		mkL("any", FamList, sigI, B, ts(LI), B, func(l *Lambda, a []any) any {
			n := countList(a[0].([]int64), c1[int64](l))
			if isErr(n) {
				return n
			}
			return n.(int64) > 0
		}, func(e *emitter, l *Lambda, a []code) code {
			return atom("any(" + e.lam(l, x0).s + " for x in " + a[0].s + ")")
		}),
		mkL("all", FamList, sigI, B, ts(LI), B, func(l *Lambda, a []any) any {
			n := countList(a[0].([]int64), c1[int64](l))
			if isErr(n) {
				return n
			}
			return n.(int64) == int64(len(a[0].([]int64)))
		}, func(e *emitter, l *Lambda, a []code) code {
			return atom("all(" + e.lam(l, x0).s + " for x in " + a[0].s + ")")
		}),

		// float lists
		mk("len", FamList, ts(LF), I, func(a []any) any { return int64(len(a[0].([]float64))) }, func(a []code) code { return call("len", a[0]) }),
		mk("sum", FamList, ts(LF), F, func(a []any) any { return sumF(a[0].([]float64)) }, func(a []code) code { return call("sum", a[0]) }),
		mk("max", FamList, ts(LF), F, func(a []any) any { return maxOf(a[0].([]float64)) }, func(a []code) code { return call("max", a[0]) }),
		mk("min", FamList, ts(LF), F, func(a []any) any { return minOf(a[0].([]float64)) }, func(a []code) code { return call("min", a[0]) }),
		mk("first", FamList, ts(LF), F, func(a []any) any { return index(a[0].([]float64), 0) }, func(a []code) code { return atom(a[0].at(pAtom) + "[0]") }),
		mk("last", FamList, ts(LF), F, func(a []any) any { return index(a[0].([]float64), -1) }, func(a []code) code { return atom(a[0].at(pAtom) + "[-1]") }),
		mk("sorted", FamList, ts(LF), LF, func(a []any) any { return sortedCopy(a[0].([]float64), false) }, func(a []code) code { return call("sorted", a[0]) }),
		mk("sorted_desc", FamList, ts(LF), LF, func(a []any) any { return sortedCopy(a[0].([]float64), true) }, func(a []code) code { return atom("sorted(" + xs(a[0]) + ", reverse=True)") }),
		mk("reversed", FamList, ts(LF), LF, func(a []any) any { return reversed(a[0].([]float64)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[::-1]") }),
		mk("take", FamList, ts(LF, I), LF, func(a []any) any { return takeList(a[0].([]float64), a[1].(int64)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[:" + a[1].s + "]") }),
		mk("drop", FamList, ts(LF, I), LF, func(a []any) any { return dropList(a[0].([]float64), a[1].(int64)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[" + a[1].s + ":]") }),
		mkL("map", FamList, sigF, F, ts(LF), LF, func(l *Lambda, a []any) any { return mapList[float64, float64](a[0].([]float64), c1[float64](l)) },
			func(e *emitter, l *Lambda, a []code) code { return comp(e.lam(l, x0), "x", a[0].s) }),
		mkL("map", FamList, sigF, I, ts(LF), LI, func(l *Lambda, a []any) any { return mapList[float64, int64](a[0].([]float64), c1[float64](l)) },
			func(e *emitter, l *Lambda, a []code) code { return comp(e.lam(l, x0), "x", a[0].s) }),
		mkL("map", FamList, sigF, B, ts(LF), LB, func(l *Lambda, a []any) any { return mapList[float64, bool](a[0].([]float64), c1[float64](l)) },
			func(e *emitter, l *Lambda, a []code) code { return comp(e.lam(l, x0), "x", a[0].s) }),
		mkL("filter", FamList, sigF, B, ts(LF), LF, func(l *Lambda, a []any) any { return filterList(a[0].([]float64), c1[float64](l)) },
			func(e *emitter, l *Lambda, a []code) code {
				return atom("[x for x in " + a[0].s + " if " + e.lam(l, x0).s + "]")
			}),
		mkL("count", FamList, sigF, B, ts(LF), I, func(l *Lambda, a []any) any { return countList(a[0].([]float64), c1[float64](l)) },
			func(e *emitter, l *Lambda, a []code) code {
				return atom("sum(1 for x in " + a[0].s + " if " + e.lam(l, x0).s + ")")
			}),
		mkL("map_with", FamList, sigFF, F, ts(LF, F), LF, func(l *Lambda, a []any) any {
			s := a[1]
			return mapList[float64, float64](a[0].([]float64), func(x float64) any { return l.call2(x, s) })
		}, func(e *emitter, l *Lambda, a []code) code { return comp(e.lam(l, x0, a[1]), "x", a[0].s) }),
		mkL("filter_with", FamList, sigFF, B, ts(LF, F), LF, func(l *Lambda, a []any) any {
			s := a[1]
			return filterList(a[0].([]float64), func(x float64) any { return l.call2(x, s) })
		}, func(e *emitter, l *Lambda, a []code) code {
			return atom("[x for x in " + a[0].s + " if " + e.lam(l, x0, a[1]).s + "]")
		}),
		mkL("zip_with", FamList, sigFF, F, ts(LF, LF), LF, func(l *Lambda, a []any) any {
			return zipWith[float64, float64](a[0].([]float64), a[1].([]float64), l.call2)
		}, func(e *emitter, l *Lambda, a []code) code {
			return comp(e.lam(l, x0, y0), "x, y", "zip("+a[0].s+", "+a[1].s+")")
		}),
		mkL("adjacent", FamScan, sigFF, F, ts(LF), LF, func(l *Lambda, a []any) any {
			xs := a[0].([]float64)
			return zipWith[float64, float64](xs, dropList(xs, 1), l.call2)
		}, func(e *emitter, l *Lambda, a []code) code {
			return comp(e.lam(l, x0, y0), "x, y", "zip("+a[0].s+", "+a[0].at(pAtom)+"[1:])")
		}),
		mkL("scan", FamScan, sigFF, F, ts(LF), LF, func(l *Lambda, a []any) any {
			xs := a[0].([]float64)
			out := make([]float64, len(xs))
			for i, x := range xs {
				if i == 0 {
					out[0] = x
					continue
				}
				v, good := l.call2(out[i-1], x).(float64)
				if !good {
					return errV
				}
				out[i] = v
			}
			return out
		}, func(e *emitter, l *Lambda, a []code) code {
			e.use("accumulate")
			if l.Body != nil && l.Body.Op != nil && l.Body.Op.Name == "fadd" && l.Body.Kids[0].Var == 0 && l.Body.Kids[1].Var == 1 && l.Body.Kids[0].Op == nil && l.Body.Kids[1].Op == nil {
				return atom("list(accumulate(" + a[0].s + "))")
			}
			return atom("list(accumulate(" + a[0].s + ", " + e.fn(l, "acc", "x") + "))")
		}),

		// bool lists
		mk("any", FamList, ts(LB), B, func(a []any) any { return slices.Contains(a[0].([]bool), true) }, func(a []code) code { return call("any", a[0]) }),
		mk("all", FamList, ts(LB), B, func(a []any) any { return !slices.Contains(a[0].([]bool), false) }, func(a []code) code { return call("all", a[0]) }),

		// strings and lists of strings
		mk("split", FamList, ts(S), LS, func(a []any) any {
			f := strings.Fields(a[0].(string))
			if f == nil {
				f = []string{}
			}
			return f
		}, func(a []code) code { return method(a[0], "split") }),
		mk("chars", FamList, ts(S), LS, func(a []any) any {
			r := []rune(a[0].(string))
			out := make([]string, len(r))
			for i, c := range r {
				out[i] = string(c)
			}
			return out
		}, func(a []code) code { return call("list", a[0]) }),
		mk("join", FamList, ts(LS), S, func(a []any) any { return strings.Join(a[0].([]string), " ") }, func(a []code) code { return method(atom(`" "`), "join", a[0]) }),
		mk("concat_all", FamList, ts(LS), S, func(a []any) any { return strings.Join(a[0].([]string), "") }, func(a []code) code { return method(atom(`""`), "join", a[0]) }),
		mk("len", FamList, ts(LS), I, func(a []any) any { return int64(len(a[0].([]string))) }, func(a []code) code { return call("len", a[0]) }),
		mk("sorted", FamList, ts(LS), LS, func(a []any) any { return sortedCopy(a[0].([]string), false) }, func(a []code) code { return call("sorted", a[0]) }),
		mk("reversed", FamList, ts(LS), LS, func(a []any) any { return reversed(a[0].([]string)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[::-1]") }),
		mk("first", FamList, ts(LS), S, func(a []any) any { return index(a[0].([]string), 0) }, func(a []code) code { return atom(a[0].at(pAtom) + "[0]") }),
		mk("last", FamList, ts(LS), S, func(a []any) any { return index(a[0].([]string), -1) }, func(a []code) code { return atom(a[0].at(pAtom) + "[-1]") }),
		mk("unique", FamList, ts(LS), LS, func(a []any) any { return uniqueOrdered(a[0].([]string)) }, func(a []code) code { return atom("list(dict.fromkeys(" + xs(a[0]) + "))") }),
		mkL("map", FamList, sigS, S, ts(LS), LS, func(l *Lambda, a []any) any { return mapList[string, string](a[0].([]string), c1[string](l)) },
			func(e *emitter, l *Lambda, a []code) code { return comp(e.lam(l, atom("w")), "w", a[0].s) }),
		mkL("map", FamList, sigS, I, ts(LS), LI, func(l *Lambda, a []any) any { return mapList[string, int64](a[0].([]string), c1[string](l)) },
			func(e *emitter, l *Lambda, a []code) code { return comp(e.lam(l, atom("w")), "w", a[0].s) }),
		mkL("filter", FamList, sigS, B, ts(LS), LS, func(l *Lambda, a []any) any { return filterList(a[0].([]string), c1[string](l)) },
			func(e *emitter, l *Lambda, a []code) code {
				return atom("[w for w in " + a[0].s + " if " + e.lam(l, atom("w")).s + "]")
			}),
		mkL("sort_by", FamList, sigS, I, ts(LS), LS, func(l *Lambda, a []any) any {
			return sortByKey(a[0].([]string), func(x string) any { return l.call1(x) })
		},
			func(e *emitter, l *Lambda, a []code) code {
				return atom("sorted(" + a[0].s + ", key=" + e.fn(l, "w") + ")")
			}),
		mkL("max_by", FamList, sigS, I, ts(LS), S, func(l *Lambda, a []any) any {
			return extremeByKey(a[0].([]string), func(x string) any { return l.call1(x) }, true)
		},
			func(e *emitter, l *Lambda, a []code) code {
				return atom("max(" + a[0].s + ", key=" + e.fn(l, "w") + ")")
			}),
		mkL("min_by", FamList, sigS, I, ts(LS), S, func(l *Lambda, a []any) any {
			return extremeByKey(a[0].([]string), func(x string) any { return l.call1(x) }, false)
		},
			func(e *emitter, l *Lambda, a []code) code {
				return atom("min(" + a[0].s + ", key=" + e.fn(l, "w") + ")")
			}),
		mkL("map_chars", FamList, sigS, S, ts(S), S, func(l *Lambda, a []any) any {
			var sb strings.Builder
			for _, c := range a[0].(string) {
				v, good := l.call1(string(c)).(string)
				if !good {
					return errV
				}
				sb.WriteString(v)
			}
			return sb.String()
		}, func(e *emitter, l *Lambda, a []code) code {
			return atom(`"".join(` + e.lam(l, atom("c")).s + " for c in " + a[0].s + ")")
		}),
		mkL("filter_chars", FamList, sigS, B, ts(S), S, func(l *Lambda, a []any) any {
			var sb strings.Builder
			for _, c := range a[0].(string) {
				v, good := l.call1(string(c)).(bool)
				if !good {
					return errV
				}
				if v {
					sb.WriteRune(c)
				}
			}
			return sb.String()
		}, func(e *emitter, l *Lambda, a []code) code {
			return atom(`"".join(c for c in ` + a[0].s + " if " + e.lam(l, atom("c")).s + ")")
		}),
		mkL("count_chars", FamList, sigS, B, ts(S), I, func(l *Lambda, a []any) any {
			n := int64(0)
			for _, c := range a[0].(string) {
				v, good := l.call1(string(c)).(bool)
				if !good {
					return errV
				}
				if v {
					n++
				}
			}
			return n
		}, func(e *emitter, l *Lambda, a []code) code {
			return atom("sum(1 for c in " + a[0].s + " if " + e.lam(l, atom("c")).s + ")")
		}),

		// lists of pairs and points
		mk("len", FamList, ts(LP), I, func(a []any) any { return int64(len(a[0].([]pair))) }, func(a []code) code { return call("len", a[0]) }),
		mk("sorted", FamList, ts(LP), LP, func(a []any) any {
			out := slices.Clone(a[0].([]pair))
			if out == nil {
				out = []pair{}
			}
			slices.SortStableFunc(out, func(p, q pair) int {
				if p[0] != q[0] {
					return cmpI(p[0], q[0])
				}
				return cmpI(p[1], q[1])
			})
			return out
		}, func(a []code) code { return call("sorted", a[0]) }),
		mk("reversed", FamList, ts(LP), LP, func(a []any) any { return reversed(a[0].([]pair)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[::-1]") }),
		mk("first", FamList, ts(LP), LI, func(a []any) any { return pairAt(a[0].([]pair), 0) }, func(a []code) code { return atom("list(" + a[0].at(pAtom) + "[0])") }),
		mk("last", FamList, ts(LP), LI, func(a []any) any { return pairAt(a[0].([]pair), -1) }, func(a []code) code { return atom("list(" + a[0].at(pAtom) + "[-1])") }),
		mk("swap", FamList, ts(LP), LP, func(a []any) any {
			ps := a[0].([]pair)
			out := make([]pair, len(ps))
			for i, p := range ps {
				out[i] = pair{p[1], p[0]}
			}
			return out
		}, func(a []code) code { return atom("[[y, x] for x, y in " + a[0].s + "]") }),
		mk("zip", FamList, ts(LI, LI), LP, func(a []any) any {
			x, y := a[0].([]int64), a[1].([]int64)
			n := min(len(x), len(y))
			out := make([]pair, n)
			for i := 0; i < n; i++ {
				out[i] = pair{x[i], y[i]}
			}
			return out
		}, func(a []code) code { return atom("[[x, y] for x, y in zip(" + a[0].s + ", " + a[1].s + ")]") }),
		mk("flatten", FamList, ts(LP), LI, func(a []any) any {
			ps := a[0].([]pair)
			out := make([]int64, 0, 2*len(ps))
			for _, p := range ps {
				out = append(out, p[0], p[1])
			}
			return out
		}, func(a []code) code { return atom("[v for p in " + a[0].s + " for v in p]") }),
		mkL("map", FamList, sigII, I, ts(LP), LI, func(l *Lambda, a []any) any {
			return mapList[pair, int64](a[0].([]pair), func(p pair) any { return l.call2(p[0], p[1]) })
		}, func(e *emitter, l *Lambda, a []code) code { return comp(e.lam(l, x0, y0), "x, y", a[0].s) }),
		mkL("map", FamList, sigII, F, ts(LP), LF, func(l *Lambda, a []any) any {
			return mapList[pair, float64](a[0].([]pair), func(p pair) any { return l.call2(p[0], p[1]) })
		}, func(e *emitter, l *Lambda, a []code) code { return comp(e.lam(l, x0, y0), "x, y", a[0].s) }),
		mkL("map", FamList, sigII, B, ts(LP), LB, func(l *Lambda, a []any) any {
			return mapList[pair, bool](a[0].([]pair), func(p pair) any { return l.call2(p[0], p[1]) })
		}, func(e *emitter, l *Lambda, a []code) code { return comp(e.lam(l, x0, y0), "x, y", a[0].s) }),
		mkL("filter", FamList, sigII, B, ts(LP), LP, func(l *Lambda, a []any) any {
			return filterList(a[0].([]pair), func(p pair) any { return l.call2(p[0], p[1]) })
		}, func(e *emitter, l *Lambda, a []code) code {
			return atom("[[x, y] for x, y in " + a[0].s + " if " + e.lam(l, x0, y0).s + "]")
		}),
		mkL("count", FamList, sigII, B, ts(LP), I, func(l *Lambda, a []any) any {
			return countList(a[0].([]pair), func(p pair) any { return l.call2(p[0], p[1]) })
		}, func(e *emitter, l *Lambda, a []code) code {
			return atom("sum(1 for x, y in " + a[0].s + " if " + e.lam(l, x0, y0).s + ")")
		}),
		mkL("sort_by", FamList, sigII, I, ts(LP), LP, func(l *Lambda, a []any) any {
			return sortByKey(a[0].([]pair), func(p pair) any { return l.call2(p[0], p[1]) })
		}, func(e *emitter, l *Lambda, a []code) code {
			return atom("sorted(" + a[0].s + ", key=lambda p: " + e.lam(l, atom("p[0]"), atom("p[1]")).s + ")")
		}),
		mkL("max_by", FamList, sigII, I, ts(LP), LI, func(l *Lambda, a []any) any {
			v := extremeByKey(a[0].([]pair), func(p pair) any { return l.call2(p[0], p[1]) }, true)
			if p, good := v.(pair); good {
				return []int64{p[0], p[1]}
			}
			return errV
		}, func(e *emitter, l *Lambda, a []code) code {
			return atom("list(max(" + a[0].s + ", key=lambda p: " + e.lam(l, atom("p[0]"), atom("p[1]")).s + "))")
		}),
		mkL("min_by", FamList, sigII, I, ts(LP), LI, func(l *Lambda, a []any) any {
			v := extremeByKey(a[0].([]pair), func(p pair) any { return l.call2(p[0], p[1]) }, false)
			if p, good := v.(pair); good {
				return []int64{p[0], p[1]}
			}
			return errV
		}, func(e *emitter, l *Lambda, a []code) code {
			return atom("list(min(" + a[0].s + ", key=lambda p: " + e.lam(l, atom("p[0]"), atom("p[1]")).s + "))")
		}),
		mkL("map_first", FamList, sigII, I, ts(LP), LP, func(l *Lambda, a []any) any {
			return mapPairs(a[0].([]pair), func(p pair) (pair, bool) {
				v, good := l.call2(p[0], p[1]).(int64)
				return pair{v, p[1]}, good
			})
		}, func(e *emitter, l *Lambda, a []code) code {
			return atom("[[" + e.lam(l, x0, y0).s + ", y] for x, y in " + a[0].s + "]")
		}),
		mkL("map_second", FamList, sigII, I, ts(LP), LP, func(l *Lambda, a []any) any {
			return mapPairs(a[0].([]pair), func(p pair) (pair, bool) {
				v, good := l.call2(p[0], p[1]).(int64)
				return pair{p[0], v}, good
			})
		}, func(e *emitter, l *Lambda, a []code) code {
			return atom("[[x, " + e.lam(l, x0, y0).s + "] for x, y in " + a[0].s + "]")
		}),
		mkL("adjacent", FamScan, sigGeo, I, ts(LP), LI, func(l *Lambda, a []any) any { return geoWindows[int64](a[0].([]pair), l.Geo, false) },
			func(e *emitter, l *Lambda, a []code) code {
				return comp(e.lam(l, atom("p"), atom("q")), "p, q", "zip("+a[0].s+", "+a[0].at(pAtom)+"[1:])")
			}),
		mkL("adjacent", FamScan, sigGeo, F, ts(LP), LF, func(l *Lambda, a []any) any { return geoWindows[float64](a[0].([]pair), l.Geo, false) },
			func(e *emitter, l *Lambda, a []code) code {
				return comp(e.lam(l, atom("p"), atom("q")), "p, q", "zip("+a[0].s+", "+a[0].at(pAtom)+"[1:])")
			}),
		mkL("cyclic", FamScan, sigGeo, I, ts(LP), LI, func(l *Lambda, a []any) any { return geoWindows[int64](a[0].([]pair), l.Geo, true) },
			func(e *emitter, l *Lambda, a []code) code {
				return comp(e.lam(l, atom("p"), atom("q")), "p, q", "zip("+a[0].s+", "+a[0].at(pAtom)+"[1:] + "+a[0].at(pAtom)+"[:1])")
			}),
		mkL("cyclic", FamScan, sigGeo, F, ts(LP), LF, func(l *Lambda, a []any) any { return geoWindows[float64](a[0].([]pair), l.Geo, true) },
			func(e *emitter, l *Lambda, a []code) code {
				return comp(e.lam(l, atom("p"), atom("q")), "p, q", "zip("+a[0].s+", "+a[0].at(pAtom)+"[1:] + "+a[0].at(pAtom)+"[:1])")
			}),
		mkL("all_pairs", FamScan, sigGeo, I, ts(LP), LI, func(l *Lambda, a []any) any { return geoAllPairs[int64](a[0].([]pair), l.Geo) },
			func(e *emitter, l *Lambda, a []code) code {
				v := a[0].s
				return atom("[" + e.lam(l, atom(v+"[i]"), atom(v+"[j]")).s + " for i in range(len(" + v + ")) for j in range(i + 1, len(" + v + "))]")
			}),
		mkL("all_pairs", FamScan, sigGeo, F, ts(LP), LF, func(l *Lambda, a []any) any { return geoAllPairs[float64](a[0].([]pair), l.Geo) },
			func(e *emitter, l *Lambda, a []code) code {
				v := a[0].s
				return atom("[" + e.lam(l, atom(v+"[i]"), atom(v+"[j]")).s + " for i in range(len(" + v + ")) for j in range(i + 1, len(" + v + "))]")
			}),
	}

	loopOps = []*Op{
		mkL("recurrence", FamLoop, sigII, I, ts(I, I, I), I, func(l *Lambda, a []any) any {
			n := a[0].(int64)
			if n > maxSteps {
				return errV
			}
			x, y := a[1], a[2]
			for i := int64(0); i < n; i++ {
				x, y = y, l.call2(x, y)
				if _, good := y.(int64); !good {
					return errV
				}
			}
			return x
		}, func(e *emitter, l *Lambda, a []code) code {
			e.helper("recurrence", pyRecurrence)
			return atom("recurrence(" + a[0].s + ", " + a[1].s + ", " + a[2].s + ", " + e.fn(l, "a", "b") + ")")
		}),
		mkL("apply_times", FamLoop, sigI, I, ts(I, I), I, func(l *Lambda, a []any) any {
			x, n := a[0], a[1].(int64)
			if n > maxSteps {
				return errV
			}
			for i := int64(0); i < n; i++ {
				x = l.call1(x)
				if _, good := x.(int64); !good {
					return errV
				}
			}
			return x
		}, func(e *emitter, l *Lambda, a []code) code {
			e.helper("apply_times", pyApplyTimes)
			return atom("apply_times(" + a[0].s + ", " + a[1].s + ", " + e.fn(l, "x") + ")")
		}),
		{Name: "steps_until", Fam: FamLoop, Sig: sigI, LamRet: I, Args: ts(I), Ret: I, Cost: 1, Eval: func(l *Lambda, a []any) any {
			x, _, steps := iterateUntil(l, l.Next, a[0])
			if isErr(x) {
				return errV
			}
			return steps
		}, Py: func(e *emitter, l *Lambda, a []code) code {
			e.helper("steps_until", pyStepsUntil)
			return atom("steps_until(" + a[0].s + ", " + e.fn(l, "x") + ", " + e.fn(l.Next, "x") + ")")
		}},
		{Name: "iterate_until", Fam: FamLoop, Sig: sigI, LamRet: I, Args: ts(I), Ret: I, Cost: 1, Eval: func(l *Lambda, a []any) any {
			x, _, _ := iterateUntil(l, l.Next, a[0])
			return x
		}, Py: func(e *emitter, l *Lambda, a []code) code {
			e.helper("iterate_until", pyIterateUntil)
			return atom("iterate_until(" + a[0].s + ", " + e.fn(l, "x") + ", " + e.fn(l.Next, "x") + ")")
		}},
	}
	for _, o := range loopOps {
		if o.Name == "steps_until" || o.Name == "iterate_until" {
			o.Sig2, o.LamRet2 = sigI, B
		}
	}
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

func pairAt(ps []pair, i int64) any {
	v := index(ps, i)
	if p, good := v.(pair); good {
		return []int64{p[0], p[1]}
	}
	return errV
}

func mapPairs(ps []pair, f func(pair) (pair, bool)) any {
	out := make([]pair, len(ps))
	for i, p := range ps {
		q, good := f(p)
		if !good {
			return errV
		}
		out[i] = q
	}
	return out
}

func rangeList(lo, hi int64) any {
	if hi-lo > maxLen {
		return errV
	}
	if hi <= lo {
		return []int64{}
	}
	out := make([]int64, 0, hi-lo)
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}

func zipWith[A, B any](xs, ys []A, f func(x, y any) any) any {
	n := min(len(xs), len(ys))
	out := make([]B, n)
	for i := 0; i < n; i++ {
		v, good := f(xs[i], ys[i]).(B)
		if !good {
			return errV
		}
		out[i] = v
	}
	return out
}

// iterateUntil applies step until done holds, returning the final value,
// whether it stopped, and the number of steps.
func iterateUntil(step, done *Lambda, x any) (any, bool, int64) {
	for steps := int64(0); steps <= maxSteps; steps++ {
		b, good := done.call1(x).(bool)
		if !good {
			return errV, false, 0
		}
		if b {
			return x, true, steps
		}
		x = step.call1(x)
		if _, good := x.(int64); !good {
			return errV, false, 0
		}
	}
	return errV, false, 0
}

const pyIsPrime = `
def is_prime(n):
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True
`

const pyShiftLetters = `
def shift_letters(s, k):
    out = []
    for c in s:
        if "a" <= c <= "z":
            c = chr((ord(c) - ord("a") + k) % 26 + ord("a"))
        elif "A" <= c <= "Z":
            c = chr((ord(c) - ord("A") + k) % 26 + ord("A"))
        out.append(c)
    return "".join(out)
`

const pyRecurrence = `
def recurrence(n, a, b, step):
    for _ in range(n):
        a, b = b, step(a, b)
    return a
`

const pyApplyTimes = `
def apply_times(x, n, step):
    for _ in range(n):
        x = step(x)
    return x
`

const pyStepsUntil = `
def steps_until(x, step, done):
    steps = 0
    while not done(x):
        x = step(x)
        steps += 1
    return steps
`

const pyIterateUntil = `
def iterate_until(x, step, done):
    while not done(x):
        x = step(x)
    return x
`

// c1 adapts a unary lambda to a typed element function.
func c1[A any](l *Lambda) func(A) any { return func(x A) any { return l.call1(x) } }
