package sketch

import (
	"fmt"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Learned thresholds. A condition that is a number compared with a bound
// ("a word of more than four letters") needs the bound as a constant,
// which the enumerator has only when the task's text writes it. The
// threshold hole searches the integer programs f of a sub-problem whose
// outputs are truth values for one that splits them — every point where
// the condition holds above (or below) every point where it does not —
// and puts the bound in the middle of the gap the examples leave; its
// rivals put it at either end of the gap, so that proposals probe the
// gap until it closes (as the switch machines' bounds do).

// thresholdMaxSize bounds the integer program compared.
const thresholdMaxSize = 3

// threshold is a learned condition f > bound (or f < bound when below);
// lo and hi are the ends of the gap the bound may lie in.
type threshold struct {
	f      *dsl.Node
	bound  int64
	below  bool
	lo, hi int64
}

// withRivals returns the condition and the same with the bound at either
// end of its gap.
func (t threshold) withRivals() []threshold {
	out := []threshold{t}
	for _, b := range []int64{t.lo, t.hi} {
		if b != t.bound && (len(out) == 1 || out[1].bound != b) {
			r := t
			r.bound = b
			out = append(out, r)
		}
	}
	return out
}

// holds evaluates the condition on env.
func (t threshold) holds(env []any) any {
	v, isInt := dsl.EvalSafe(t.f, env).(int64)
	if !isInt {
		return dsl.ErrV
	}
	if t.below {
		return v < t.bound
	}
	return v > t.bound
}

// node is the condition as a program.
func (t threshold) node() *dsl.Node {
	sym := ">"
	if t.below {
		sym = "<"
	}
	op := &dsl.Operator{Name: fmt.Sprintf("threshold[%s %d]", sym, t.bound), Args: []dsl.Type{dsl.Int}, Ret: dsl.Bool, Fam: dsl.FamScalar, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any {
			v, isInt := a[0].(int64)
			if !isInt {
				return dsl.ErrV
			}
			if t.below {
				return v < t.bound
			}
			return v > t.bound
		},
		Py: func(_ *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Compare(a[0], sym, dsl.ConstCode(t.bound))
		}}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{t.f}, Var: -1, Size: t.f.Size + 2}
}

// thresholdHole searches an integer program of sub's variables whose
// values split sub's truth values by a bound, until the deadline; it
// returns the condition with the bound in the middle of the gap, then
// its rivals with the bound at either end, or nil. sub.Out is Bool.
func (r *Search) thresholdHole(sub *dsl.Problem, deadline time.Time) []threshold {
	var found []threshold
	ints := *sub
	ints.Ok = []dsl.Type{dsl.Int}
	accept := func(e *dsl.Entry) bool {
		if e.Type() != dsl.Int {
			return false
		}
		t, good := splitByBound(sub, e.Values())
		if !good {
			return false
		}
		t.f = e.N
		found = t.withRivals()
		return true
	}
	r.holeSearchBy(&ints, deadline, 0, r.Done, thresholdMaxSize, r.MemLimit/8, false, false, accept)
	return found
}

// splitByBound finds the bound that splits outs (truth values) by vals:
// the largest value where the condition fails below the smallest where it
// holds (or the other way round). It needs both outcomes, each at two
// points at least, and one of them two values of f (a single value on
// either side splits by chance).
func splitByBound(sub *dsl.Problem, vals []any) (threshold, bool) {
	var loT, hiT, loF, hiF int64
	nT, nF := 0, 0
	seenT, seenF := map[int64]bool{}, map[int64]bool{}
	for i, o := range sub.Outs {
		v, isInt := vals[i].(int64)
		if !isInt {
			return threshold{}, false
		}
		if o.(bool) {
			if nT == 0 || v < loT {
				loT = v
			}
			if nT == 0 || v > hiT {
				hiT = v
			}
			nT++
			seenT[v] = true
		} else {
			if nF == 0 || v < loF {
				loF = v
			}
			if nF == 0 || v > hiF {
				hiF = v
			}
			nF++
			seenF[v] = true
		}
	}
	if nT < 2 || nF < 2 || len(seenT) < 2 && len(seenF) < 2 {
		return threshold{}, false
	}
	switch {
	case hiF < loT:
		// Holds above: f > bound for bound in [hiF, loT-1].
		return threshold{bound: hiF + (loT-1-hiF)/2, lo: hiF, hi: loT - 1}, true
	case hiT < loF:
		// Holds below: f < bound for bound in [hiT+1, loF].
		return threshold{bound: hiT + 1 + (loF-hiT-1)/2, below: true, lo: hiT + 1, hi: loF}, true
	}
	return threshold{}, false
}
