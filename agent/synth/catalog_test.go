package synth

import (
	"slices"
	"testing"
)

// TestCatalog checks what the enumerator assumes of the catalogue: every
// operator complete and told apart by its name and argument types, each
// setting on operators where it takes effect, the orders the search relies
// on, and the operators the code refers to present.
func TestCatalog(t *testing.T) {
	seen := map[string]*operator{}
	all := slices.Concat(catalog.scalars, catalog.top, catalog.conds[:], catalog.holes)
	for _, o := range all {
		key := opSig(o)
		if prev := seen[key]; prev != nil && prev != o {
			t.Errorf("two operators %s", key)
		}
		seen[key] = o
		if o.Eval == nil || o.Py == nil || o.Cost < 1 || o.Ret >= numTypes {
			t.Errorf("%s: incomplete (eval %v, python %v, cost %d)", key, o.Eval != nil, o.Py != nil, o.Cost)
		}
		if o.Rare && !slices.Contains(catalog.scalars, o) {
			t.Errorf("%s is rare but not a scalar operator: the setting does nothing", key)
		}
		if o.Comprehension && (o.Sig == sigNone || len(o.Args) != 1 || o.Args[0] < tStr) {
			t.Errorf("%s is a comprehension without a lambda over one list or string", key)
		}
		if o.PyBuiltin != "" && (o.Sig != sigNone || len(o.Args) != 2 || o.Args[0] != o.Ret || o.Args[1] != o.Ret) {
			t.Errorf("%s is the builtin %s but not an operator of two arguments of its own type", key, o.PyBuiltin)
		}
		if o.Sig2 != sigNone && (o.Fam != famLoop || o.Sig == sigNone || o.LamRet2 != tBool) {
			t.Errorf("%s: a second lambda that is not a loop's stopping test", key)
		}
	}
	rareSeen := false
	for _, o := range catalog.scalars {
		if o.Sig != sigNone {
			t.Errorf("%s takes a lambda: not a lambda body", opSig(o))
		}
		if rareSeen && !o.Rare {
			t.Errorf("%s comes after a rare operator", opSig(o))
		}
		rareSeen = rareSeen || o.Rare
	}
	rank := -1
	for _, o := range catalog.top {
		r := int(o.Fam)
		if o.Fam == famLoop {
			r = int(famCond)
		}
		if o.Fam == famCond || r < rank {
			t.Errorf("%s (%s) out of the family order of whole programs", opSig(o), o.Fam)
		}
		rank = max(rank, r)
	}
	for _, o := range catalog.loops {
		if o.Fam != famLoop || !slices.Contains(catalog.top, o) {
			t.Errorf("loop %s: family %s, in top %v", opSig(o), o.Fam, slices.Contains(catalog.top, o))
		}
	}
	for typ, o := range catalog.conds {
		if o.Ret != valType(typ) || !o.Lazy || o.Fam != famCond {
			t.Errorf("conditional of %s: %s lazy %v", valType(typ), opSig(o), o.Lazy)
		}
	}
	for _, ref := range []struct {
		o    *operator
		in   []*operator
		want string
	}{
		{opAdd, catalog.scalars, "add(int, int) -> int"},
		{opFAdd, catalog.scalars, "fadd(float, float) -> float"},
		{opRecurrence, catalog.loops, "recurrence(int, int, int) -> int"},
		{opApplyTimes, catalog.loops, "apply_times(int, int) -> int"},
	} {
		if got := opSig(ref.o); got != ref.want || !slices.Contains(ref.in, ref.o) {
			t.Errorf("operator %s (want %s) in its list: %v", got, ref.want, slices.Contains(ref.in, ref.o))
		}
	}
}
