package synth

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// sampleValue draws a value of type t: small numbers, extremes, short
// lists and strings, so that operators meet both their usual arguments
// and the ones on which they fail.
func sampleValue(r *rand.Rand, t dsl.Type) any {
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
	case dsl.Int:
		return anInt()
	case dsl.Float:
		return aFloat()
	case dsl.Bool:
		return r.IntN(2) == 0
	case dsl.Str:
		return aString()
	case dsl.ListInt:
		out := make([]int64, n)
		for i := range out {
			out[i] = int64(r.IntN(13) - 6)
		}
		return out
	case dsl.ListFloat:
		out := make([]float64, n)
		for i := range out {
			out[i] = aFloat()
		}
		return out
	case dsl.ListBool:
		out := make([]bool, n)
		for i := range out {
			out[i] = r.IntN(2) == 0
		}
		return out
	case dsl.ListStr:
		out := make([]string, n)
		for i := range out {
			out[i] = aString()
		}
		return out
	case dsl.ListPair:
		out := make([]dsl.Pair, n)
		for i := range out {
			out[i] = dsl.Pair{int64(r.IntN(13) - 6), int64(r.IntN(13) - 6)}
		}
		return out
	}
	panic("no sample for " + t.String())
}

// sampleLambdas are a few lambdas of an operator's signature, or nil
// when it takes none.
func sampleLambdas(t *testing.T, op *dsl.Operator) []*dsl.Lambda {
	t.Helper()
	if op.Sig == dsl.SigNone {
		return []*dsl.Lambda{nil}
	}
	banks := defaultLambdas()
	var out []*dsl.Lambda
	for size := 1; size <= 4 && len(out) < 6; size++ {
		ls := banks.Get(op.Sig, op.LamRet, size)
		for i := 0; i < len(ls) && i < 3; i++ {
			l := ls[i]
			if op.Sig2 != dsl.SigNone {
				l2s := banks.Get(op.Sig2, op.LamRet2, 3)
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
	seen := map[*dsl.Operator]bool{}
	for _, ops := range [][]*dsl.Operator{dsl.Catalog.Top, dsl.Catalog.Scalars, dsl.Catalog.Holes} {
		for _, op := range ops {
			if op.Kern == nil || seen[op] {
				continue
			}
			seen[op] = true
			t.Run(opSig(op), func(t *testing.T) {
				for _, l := range sampleLambdas(t, op) {
					args := make([]dsl.Vec, len(op.Args))
					boxed := make([][]any, len(op.Args))
					for j, at := range op.Args {
						boxed[j] = make([]any, envs)
						for i := range envs {
							boxed[j][i] = sampleValue(r, at)
							if op.Lazy && r.IntN(6) == 0 {
								boxed[j][i] = dsl.ErrV
							}
						}
						args[j] = dsl.ColumnOf(at, boxed[j])
					}
					out := dsl.NewColumn(op.Ret, envs)
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
					got := dsl.Vec{Data: out, Bad: bad}.Boxed()
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
						if !reflect.DeepEqual(got[i], want) && !(dsl.IsErr(got[i]) && dsl.IsErr(want)) {
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
func runKernel(op *dsl.Operator, l *dsl.Lambda, args []dsl.Vec, n int, out any, bad []bool) (panicked bool) {
	defer func() { panicked = recover() != nil }()
	op.Kern(&dsl.Arena{}, l, args, n, out, bad)
	return false
}

// evalPanicsSomewhere reports whether Eval panics on one environment's
// arguments.
func evalPanicsSomewhere(op *dsl.Operator, l *dsl.Lambda, boxed [][]any, n int) bool {
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
func evalRecovering(op *dsl.Operator, l *dsl.Lambda, a []any) (v any) {
	defer func() {
		if recover() != nil {
			v = dsl.ErrV
		}
	}()
	return op.Eval(l, a)
}

// TestHashColumnMatchesBoxedHash checks that a column hashes as the
// hashes of its boxed values, each on its own, mixed in turn: the typed
// hashes of values (hasher.ofInts...) are those of hasher.value.
func TestHashColumnMatchesBoxedHash(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for typ := dsl.Type(0); typ < dsl.NumTypes; typ++ {
		t.Run(typ.String(), func(t *testing.T) {
			for round := range 50 {
				n := 1 + r.IntN(12)
				vals := make([]any, n)
				for i := range vals {
					vals[i] = sampleValue(r, typ)
					if round%3 == 0 && r.IntN(4) == 0 {
						vals[i] = dsl.ErrV
					}
				}
				col := dsl.ColumnOf(typ, vals)
				want := dsl.FnvOffset
				for _, v := range vals {
					want = want.Mix(uint64(dsl.FnvOffset.Value(v)))
				}
				if got := dsl.HashColumn(col.Data, col.Bad, n, false); got != want {
					t.Fatalf("hashColumn(%v) = %x, boxed hash %x", vals, got, want)
				}
				if back := col.Boxed(); !reflect.DeepEqual(back, vals) {
					t.Fatalf("columnOf(%v).boxed() = %v", vals, back)
				}
				if got, want := dsl.HeapBytes(col.Data, false), stringBytes(vals); got != want {
					t.Fatalf("HeapBytes(%v) = %d, want %d", vals, got, want)
				}
			}
		})
	}
}

// stringBytes is what the strings among vals (alone or in lists) hold on
// the heap: their bytes, and a list's headers, each at its size class.
func stringBytes(vals []any) int64 {
	var n int64
	for _, v := range vals {
		switch x := v.(type) {
		case string:
			n += dsl.AllocBytes(len(x))
		case []string:
			n += dsl.AllocBytes(16 * cap(x))
			for _, s := range x {
				n += dsl.AllocBytes(len(s))
			}
		}
	}
	return n
}

// TestColumnOfMarksOtherTypes checks that a value of another type than
// the column's (an error among them) marks its environment bad.
func TestColumnOfMarksOtherTypes(t *testing.T) {
	col := dsl.ColumnOf(dsl.Int, []any{int64(4), dsl.ErrV, "x", int64(-1)})
	if want := []bool{false, true, true, false}; !reflect.DeepEqual(col.Bad, want) {
		t.Errorf("bad = %v, want %v", col.Bad, want)
	}
	if got := dsl.ColumnOf(dsl.Str, []any{"a", "b"}).Bad; got != nil {
		t.Errorf("a column without failures has bad = %v, want nil", got)
	}
}

// TestMatchesColMatchesBoxed checks that a program's typed values are
// judged right or wrong on each example as its boxed values are.
func TestMatchesColMatchesBoxed(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for typ := dsl.Type(0); typ < dsl.NumTypes; typ++ {
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
							vals[i] = dsl.ErrV
						case 1:
							outs[i] = dsl.ErrV
						case 2:
							outs[i] = vals[i]
						case 3:
							// Another type: an int where a float is expected.
							outs[i] = sampleValue(r, dsl.Type(r.IntN(int(dsl.NumTypes))))
						default:
							outs[i] = sampleValue(r, typ)
						}
						if outs[i] == nil {
							outs[i] = vals[i]
						}
						if dsl.IsErr(vals[i]) && !dsl.IsErr(outs[i]) && r.IntN(2) == 0 {
							outs[i] = dsl.ErrV
						}
					}
					p := &dsl.Problem{Outs: outs, Round: round}
					col := dsl.ColumnOf(typ, vals)
					wantBits, wantN := p.Matches(vals)
					gotBits, gotN := p.MatchesCol(col)
					if gotN != wantN || !reflect.DeepEqual(gotBits, wantBits) {
						t.Fatalf("values %v, outputs %v: matchesCol %v (%d), matches %v (%d)", vals, outs, gotBits, gotN, wantBits, wantN)
					}
					if p.AllMatchCol(col) != p.AllMatch(vals) {
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
	for sig := dsl.SigI; sig < dsl.SigGeo; sig++ {
		args := dsl.SigArgs[sig]
		for ret := dsl.Type(0); ret < dsl.NumTypes; ret++ {
			for _, ls := range banks.By[sig][ret] {
				for _, l := range ls {
					all++
					if l.Typed == nil {
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
						if !reflect.DeepEqual(got, want) && !(dsl.IsErr(got) && dsl.IsErr(want)) {
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
func boxedCall(l *dsl.Lambda, x, y any) (v any) {
	defer func() {
		if recover() != nil {
			v = dsl.ErrV
		}
	}()
	if len(dsl.SigArgs[l.Sig]) == 2 {
		return l.Call2(x, y)
	}
	return l.Call1(x)
}

// typedCall calls a lambda returning ret through lam1 or lam2, as the
// typed operators do, a panic or a failure counted as ErrV.
func typedCall(l *dsl.Lambda, ret dsl.Type, x, y any) (v any) {
	defer func() {
		if recover() != nil {
			v = dsl.ErrV
		}
	}()
	switch ret {
	case dsl.Int:
		return viaLam[int64](l, x, y)
	case dsl.Float:
		return viaLam[float64](l, x, y)
	case dsl.Bool:
		return viaLam[bool](l, x, y)
	case dsl.Str:
		return viaLam[string](l, x, y)
	}
	return boxedCall(l, x, y)
}

func viaLam[B any](l *dsl.Lambda, x, y any) any {
	var v B
	var good bool
	two := len(dsl.SigArgs[l.Sig]) == 2
	switch xv := x.(type) {
	case int64:
		if two {
			v, good = dsl.Lam2[int64, int64, B](nil, l, xv, y.(int64))
		} else {
			v, good = dsl.Lam1[int64, B](nil, l, xv)
		}
	case float64:
		if two {
			v, good = dsl.Lam2[float64, float64, B](nil, l, xv, y.(float64))
		} else {
			v, good = dsl.Lam1[float64, B](nil, l, xv)
		}
	case string:
		v, good = dsl.Lam1[string, B](nil, l, xv)
	}
	if !good {
		return dsl.ErrV
	}
	return v
}
