package dsl

import (
	"slices"
	"testing"
)

// TestCatalog checks what the enumerator assumes of the catalogue: every
// operator complete and told apart by its name and argument types, each
// setting on operators where it takes effect, the orders the search relies
// on, and the operators the code refers to present.
func TestCatalog(t *testing.T) {
	seen := map[string]*Operator{}
	all := slices.Concat(Catalog.Scalars, Catalog.Top, Catalog.Conds[:], Catalog.Holes)
	for _, o := range all {
		key := opSig(o)
		if prev := seen[key]; prev != nil && prev != o {
			t.Errorf("two operators %s", key)
		}
		seen[key] = o
		if o.Eval == nil || o.Py == nil || o.Cost < 1 || o.Ret >= NumTypes {
			t.Errorf("%s: incomplete (eval %v, python %v, cost %d)", key, o.Eval != nil, o.Py != nil, o.Cost)
		}
		if o.Rare && !slices.Contains(Catalog.Scalars, o) {
			t.Errorf("%s is rare but not a scalar operator: the setting does nothing", key)
		}
		if o.Comprehension && (o.Sig == SigNone || len(o.Args) != 1 || o.Args[0] < Str) {
			t.Errorf("%s is a comprehension without a lambda over one list or string", key)
		}
		if o.PyBuiltin != "" && (o.Sig != SigNone || len(o.Args) != 2 || o.Args[0] != o.Ret || o.Args[1] != o.Ret) {
			t.Errorf("%s is the builtin %s but not an operator of two arguments of its own type", key, o.PyBuiltin)
		}
		if o.Sig2 != SigNone && (o.Fam != FamLoop || o.Sig == SigNone || o.LamRet2 != Bool) {
			t.Errorf("%s: a second lambda that is not a loop's stopping test", key)
		}
	}
	rareSeen := false
	for _, o := range Catalog.Scalars {
		if o.Sig != SigNone {
			t.Errorf("%s takes a lambda: not a lambda body", opSig(o))
		}
		if rareSeen && !o.Rare {
			t.Errorf("%s comes after a rare operator", opSig(o))
		}
		rareSeen = rareSeen || o.Rare
	}
	rank := -1
	for _, o := range Catalog.Top {
		r := int(o.Fam)
		if o.Fam == FamLoop {
			r = int(famCond)
		}
		if o.Fam == famCond || r < rank {
			t.Errorf("%s (%s) out of the family order of whole programs", opSig(o), o.Fam)
		}
		rank = max(rank, r)
	}
	for _, o := range Catalog.Loops {
		if o.Fam != FamLoop || !slices.Contains(Catalog.Top, o) {
			t.Errorf("loop %s: family %s, in top %v", opSig(o), o.Fam, slices.Contains(Catalog.Top, o))
		}
	}
	for typ, o := range Catalog.Conds {
		if o.Ret != Type(typ) || !o.Lazy || o.Fam != famCond {
			t.Errorf("conditional of %s: %s lazy %v", Type(typ), opSig(o), o.Lazy)
		}
	}
	for _, ref := range []struct {
		o    *Operator
		in   []*Operator
		want string
	}{
		{opAdd, Catalog.Scalars, "add(int, int) -> int"},
		{opFAdd, Catalog.Scalars, "fadd(float, float) -> float"},
		{OpRecurrence, Catalog.Loops, "recurrence(int, int, int) -> int"},
		{OpApplyTimes, Catalog.Loops, "apply_times(int, int) -> int"},
	} {
		if got := opSig(ref.o); got != ref.want || !slices.Contains(ref.in, ref.o) {
			t.Errorf("operator %s (want %s) in its list: %v", got, ref.want, slices.Contains(ref.in, ref.o))
		}
	}
}
