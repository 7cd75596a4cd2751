package synth

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// sampleValue draws a value of type t: small numbers, extremes, short
// lists and strings, so that operators meet both their usual arguments
// and the ones on which they fail.
func sampleValue(r *rand.Rand, t valType) any {
	anInt := func() int64 {
		switch r.IntN(12) {
		case 0:
			return math.MinInt64
		case 1:
			return math.MaxInt64
		case 2:
			return int64(r.IntN(20000) - 10000)
		}
		return int64(r.IntN(25) - 12)
	}
	aFloat := func() float64 {
		switch r.IntN(10) {
		case 0:
			return 0
		case 1:
			return 1e300
		}
		return float64(r.IntN(41)-20) / 4
	}
	aString := func() string {
		const alphabet = "aBz 1-.xY"
		b := make([]byte, r.IntN(7))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	n := r.IntN(7)
	switch t {
	case tInt:
		return anInt()
	case tFloat:
		return aFloat()
	case tBool:
		return r.IntN(2) == 0
	case tStr:
		return aString()
	case tListInt:
		out := make([]int64, n)
		for i := range out {
			out[i] = int64(r.IntN(13) - 6)
		}
		return out
	case tListFloat:
		out := make([]float64, n)
		for i := range out {
			out[i] = aFloat()
		}
		return out
	case tListBool:
		out := make([]bool, n)
		for i := range out {
			out[i] = r.IntN(2) == 0
		}
		return out
	case tListStr:
		out := make([]string, n)
		for i := range out {
			out[i] = aString()
		}
		return out
	case tListPair:
		out := make([]pair, n)
		for i := range out {
			out[i] = pair{int64(r.IntN(13) - 6), int64(r.IntN(13) - 6)}
		}
		return out
	}
	panic("no sample for " + t.String())
}

// sampleLambdas are a few lambdas of an operator's signature, or nil
// when it takes none.
func sampleLambdas(t *testing.T, op *operator) []*lambda {
	t.Helper()
	if op.Sig == sigNone {
		return []*lambda{nil}
	}
	banks := defaultLambdas()
	var out []*lambda
	for size := 1; size <= 4 && len(out) < 6; size++ {
		ls := banks.get(op.Sig, op.LamRet, size)
		for i := 0; i < len(ls) && i < 3; i++ {
			l := ls[i]
			if op.Sig2 != sigNone {
				l2s := banks.get(op.Sig2, op.LamRet2, 3)
				if len(l2s) == 0 {
					continue
				}
				pl := *l
				pl.Next = l2s[0]
				l = &pl
			}
			out = append(out, l)
		}
	}
	return out
}

// TestKernelsMatchEval runs every operator's kernel over columns of
// random arguments and checks each environment against Eval on the same
// boxed arguments: the enumerator and a program's single evaluation must
// agree on every value and every failure.
func TestKernelsMatchEval(t *testing.T) {
	const envs = 40
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[*operator]bool{}
	for _, ops := range [][]*operator{catalog.top, catalog.scalars, catalog.holes} {
		for _, op := range ops {
			if op.kern == nil || seen[op] {
				continue
			}
			seen[op] = true
			t.Run(opSig(op), func(t *testing.T) {
				for _, l := range sampleLambdas(t, op) {
					args := make([]vec, len(op.Args))
					boxed := make([][]any, len(op.Args))
					for j, at := range op.Args {
						boxed[j] = make([]any, envs)
						for i := range envs {
							boxed[j][i] = sampleValue(r, at)
							if op.Lazy && r.IntN(6) == 0 {
								boxed[j][i] = errV
							}
						}
						args[j] = columnOf(at, boxed[j])
					}
					out := newColumn(op.Ret, envs)
					bad := make([]bool, envs)
					if !op.Lazy {
						// Environments marked bad on the way in stay
						// bad; a lazy operator's arguments carry their
						// own failures.
						bad[3], bad[17] = true, true
					}
					if panicked := runKernel(op, l, args, envs, out, bad); panicked {
						// The enumerator drops a program whose kernel
						// panics; the boxed evaluation must panic on one
						// of the same arguments.
						if !evalPanicsSomewhere(op, l, boxed, envs) {
							t.Errorf("lambda %v: the kernel panics where Eval does not", l)
						}
						continue
					}
					got := vec{data: out, bad: bad}.boxed()
					for i := range envs {
						if !op.Lazy && (i == 3 || i == 17) {
							if !bad[i] {
								t.Errorf("environment %d was bad on the way in and is not on the way out", i)
							}
							continue
						}
						a := make([]any, len(op.Args))
						for j := range a {
							a[j] = boxed[j][i]
						}
						want := evalRecovering(op, l, a)
						if !reflect.DeepEqual(got[i], want) && !(isErr(got[i]) && isErr(want)) {
							t.Errorf("lambda %v, arguments %v: kernel %#v, Eval %#v", l, a, got[i], want)
						}
					}
				}
			})
		}
	}
	if len(seen) < 100 {
		t.Errorf("only %d operators have kernels", len(seen))
	}
}

// runKernel runs a kernel, reporting whether it panicked.
func runKernel(op *operator, l *lambda, args []vec, n int, out any, bad []bool) (panicked bool) {
	defer func() { panicked = recover() != nil }()
	op.kern(&arena{}, l, args, n, out, bad)
	return false
}

// evalPanicsSomewhere reports whether Eval panics on one environment's
// arguments.
func evalPanicsSomewhere(op *operator, l *lambda, boxed [][]any, n int) bool {
	for i := range n {
		a := make([]any, len(boxed))
		for j := range a {
			a[j] = boxed[j][i]
		}
		if func() (p bool) {
			defer func() { p = recover() != nil }()
			op.Eval(l, a)
			return false
		}() {
			return true
		}
	}
	return false
}

// evalRecovering is Eval, with a panic counted as a failure.
func evalRecovering(op *operator, l *lambda, a []any) (v any) {
	defer func() {
		if recover() != nil {
			v = errV
		}
	}()
	return op.Eval(l, a)
}

// TestHashColumnMatchesBoxedHash checks that a column hashes as the
// hashes of its boxed values, each on its own, mixed in turn: the typed
// hashes of values (hasher.ofInts...) are those of hasher.value.
func TestHashColumnMatchesBoxedHash(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for typ := valType(0); typ < numTypes; typ++ {
		t.Run(typ.String(), func(t *testing.T) {
			for round := range 50 {
				n := 1 + r.IntN(12)
				vals := make([]any, n)
				for i := range vals {
					vals[i] = sampleValue(r, typ)
					if round%3 == 0 && r.IntN(4) == 0 {
						vals[i] = errV
					}
				}
				col := columnOf(typ, vals)
				want := fnvOffset
				for _, v := range vals {
					want = want.mix(uint64(fnvOffset.value(v)))
				}
				if got := hashColumn(col.data, col.bad, n, false); got != want {
					t.Fatalf("hashColumn(%v) = %x, boxed hash %x", vals, got, want)
				}
				if back := col.boxed(); !reflect.DeepEqual(back, vals) {
					t.Fatalf("columnOf(%v).boxed() = %v", vals, back)
				}
				var boxedBytes int64
				for _, v := range vals {
					boxedBytes += valueBytes(v)
				}
				if got := columnBytes(col.data, col.bad); got != boxedBytes {
					t.Fatalf("columnBytes(%v) = %d, boxed %d", vals, got, boxedBytes)
				}
			}
		})
	}
}

// TestColumnOfMarksOtherTypes checks that a value of another type than
// the column's (an error among them) marks its environment bad.
func TestColumnOfMarksOtherTypes(t *testing.T) {
	col := columnOf(tInt, []any{int64(4), errV, "x", int64(-1)})
	if want := []bool{false, true, true, false}; !reflect.DeepEqual(col.bad, want) {
		t.Errorf("bad = %v, want %v", col.bad, want)
	}
	if got := columnOf(tStr, []any{"a", "b"}).bad; got != nil {
		t.Errorf("a column without failures has bad = %v, want nil", got)
	}
}

// TestMatchesColMatchesBoxed checks that a program's typed values are
// judged right or wrong on each example as its boxed values are.
func TestMatchesColMatchesBoxed(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for typ := valType(0); typ < numTypes; typ++ {
		for _, round := range []int{-1, 2} {
			t.Run(typ.String(), func(t *testing.T) {
				for range 200 {
					n := 1 + r.IntN(8)
					vals := make([]any, n)
					outs := make([]any, n)
					for i := range vals {
						vals[i] = sampleValue(r, typ)
						switch r.IntN(5) {
						case 0:
							vals[i] = errV
						case 1:
							outs[i] = errV
						case 2:
							outs[i] = vals[i]
						case 3:
							// Another type: an int where a float is expected.
							outs[i] = sampleValue(r, valType(r.IntN(int(numTypes))))
						default:
							outs[i] = sampleValue(r, typ)
						}
						if outs[i] == nil {
							outs[i] = vals[i]
						}
						if isErr(vals[i]) && !isErr(outs[i]) && r.IntN(2) == 0 {
							outs[i] = errV
						}
					}
					p := &problem{outs: outs, round: round}
					col := columnOf(typ, vals)
					wantBits, wantN := p.matches(vals)
					gotBits, gotN := p.matchesCol(col)
					if gotN != wantN || !reflect.DeepEqual(gotBits, wantBits) {
						t.Fatalf("values %v, outputs %v: matchesCol %v (%d), matches %v (%d)", vals, outs, gotBits, gotN, wantBits, wantN)
					}
					if p.allMatchCol(col) != p.allMatch(vals) {
						t.Fatalf("values %v, outputs %v: allMatchCol disagrees", vals, outs)
					}
				}
			})
		}
	}
}

// TestTypedLambdasMatchBoxed checks every lambda of the default banks
// that has a typed form against its boxed evaluation on sample arguments
// of its signature.
func TestTypedLambdasMatchBoxed(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	banks := defaultLambdas()
	typed, all := 0, 0
	for sig := sigI; sig < sigGeo; sig++ {
		args := sigArgs[sig]
		for ret := valType(0); ret < numTypes; ret++ {
			for _, ls := range banks.by[sig][ret] {
				for _, l := range ls {
					all++
					if l.typed == nil {
						continue
					}
					typed++
					for range 4 {
						x := sampleValue(r, args[0])
						var y any
						if len(args) == 2 {
							y = sampleValue(r, args[1])
						}
						want := boxedCall(l, x, y)
						got := typedCall(l, ret, x, y)
						if !reflect.DeepEqual(got, want) && !(isErr(got) && isErr(want)) {
							t.Fatalf("%v on %v, %v: typed %#v, boxed %#v", l, x, y, got, want)
						}
					}
				}
			}
		}
	}
	t.Logf("%d of %d lambdas typed", typed, all)
	if typed < all/2 {
		t.Errorf("only %d of %d lambdas have a typed form", typed, all)
	}
}

// boxedCall calls a lambda over boxed values, a panic counted as a
// failure.
func boxedCall(l *lambda, x, y any) (v any) {
	defer func() {
		if recover() != nil {
			v = errV
		}
	}()
	if len(sigArgs[l.Sig]) == 2 {
		return l.call2(x, y)
	}
	return l.call1(x)
}

// typedCall calls a lambda returning ret through lam1 or lam2, as the
// typed operators do, a panic or a failure counted as errV.
func typedCall(l *lambda, ret valType, x, y any) (v any) {
	defer func() {
		if recover() != nil {
			v = errV
		}
	}()
	switch ret {
	case tInt:
		return viaLam[int64](l, x, y)
	case tFloat:
		return viaLam[float64](l, x, y)
	case tBool:
		return viaLam[bool](l, x, y)
	case tStr:
		return viaLam[string](l, x, y)
	}
	return boxedCall(l, x, y)
}

func viaLam[B any](l *lambda, x, y any) any {
	var v B
	var good bool
	two := len(sigArgs[l.Sig]) == 2
	switch xv := x.(type) {
	case int64:
		if two {
			v, good = lam2[int64, int64, B](nil, l, xv, y.(int64))
		} else {
			v, good = lam1[int64, B](nil, l, xv)
		}
	case float64:
		if two {
			v, good = lam2[float64, float64, B](nil, l, xv, y.(float64))
		} else {
			v, good = lam1[float64, B](nil, l, xv)
		}
	case string:
		v, good = lam1[string, B](nil, l, xv)
	}
	if !good {
		return errV
	}
	return v
}
