package synth

import (
	"fmt"
	"time"
)

// State-machine search. A list transducer whose output at i is a small
// state updated by every element — a running total clamped at 0, the parity
// of a count, "seen a 1 yet" — is state = h(state, x) from a start value,
// the output being the state after each element. h ranges over the bank
// of binary integer lambdas (its first variable the state, its second the
// element), smallest first, and the start value over a few constants; each
// machine is checked against every prefix of every example and dropped at
// the first mismatch, so the whole bank costs about one pass per lambda.
// When no transition fits, the element is first mapped by a small unary
// lambda (x % 2, x > 0 as 0/1...): state = h(state, f(x)), with smaller h.

// stateStarts are the start values tried.
var stateStarts = []int64{0, 1, -1}

// stateMachine tries every transition of the lambda bank within share of
// the time left; it reports whether consider accepted a program.
func stateMachine(en *enumerator, p *problem, share float64, consider func(*node, []any) bool) bool {
	st := newStreams(p, en.envs)
	if st == nil || len(st.elem) != 1 || st.elem[0] != tInt || st.outElem != tInt || en.stopped {
		return false
	}
	until := time.Now().Add(time.Duration(float64(time.Until(en.deadline)) * share))
	found := false
	xs := make([][]int64, len(en.envs))
	for i, env := range en.envs {
		xs[i] = env[0].([]int64)
	}
	tried := 0
	try := func(tr transition) bool {
		for _, s0 := range stateStarts {
			if tried++; tried&255 == 0 && time.Now().After(until) {
				return true
			}
			if !stateFits(p, tr, s0, xs) {
				continue
			}
			n := stateNode(p, tr, s0)
			vals := make([]any, len(en.envs))
			for i := range en.envs {
				vals[i] = runState(tr, s0, xs[i])
			}
			if consider(n, vals) {
				found = true
				return true
			}
		}
		return false
	}
	for size := 1; size < len(en.lams.by[sigII][tInt]); size++ {
		for _, l := range en.lams.get(sigII, tInt, size) {
			if try(transition{h: l}) {
				return found
			}
		}
	}
	for fs := 2; fs <= maxStateFeature; fs++ {
		for hs := 3; hs <= maxStateStep; hs++ {
			for _, f := range en.lams.get(sigI, tInt, fs) {
				for _, h := range en.lams.get(sigII, tInt, hs) {
					if try(transition{h: h, f: f}) {
						return found
					}
				}
			}
		}
	}
	return false
}

// Sizes of the element's mapping and of the step over it.
const (
	maxStateFeature = 4
	maxStateStep    = 5
)

// transition is state = h(state, x), or h(state, f(x)) when f is set.
type transition struct{ h, f *lambda }

func (tr transition) step(s, x int64) (int64, bool) {
	var v any = x
	if tr.f != nil {
		if v = tr.f.call1(x); isErr(v) {
			return 0, false
		}
	}
	next, good := tr.h.call2(s, v).(int64)
	return next, good
}

func (tr transition) String() string {
	if tr.f == nil {
		return tr.h.String()
	}
	return tr.h.String() + " of " + tr.f.String()
}

// runState runs the machine on one list, returning the states after each
// element (or errV where the transition fails).
func runState(tr transition, s0 int64, xs []int64) (v any) {
	defer func() {
		if recover() != nil {
			v = errV
		}
	}()
	out := make([]int64, len(xs))
	s := s0
	for i, x := range xs {
		next, good := tr.step(s, x)
		if !good {
			return errV
		}
		s, out[i] = next, next
	}
	return out
}

// stateFits checks the machine position by position, stopping at the
// first wrong output.
func stateFits(p *problem, tr transition, s0 int64, xs [][]int64) (fits bool) {
	defer func() {
		if recover() != nil {
			fits = false
		}
	}()
	for i, o := range p.outs {
		want := o.([]int64)
		s := s0
		for j, x := range xs[i] {
			next, good := tr.step(s, x)
			if !good || next != want[j] {
				return false
			}
			s = next
		}
	}
	return true
}

// stateNode is the program of a state machine over the list variable.
func stateNode(p *problem, tr transition, s0 int64) *node {
	size := 3 + tr.h.Size
	if tr.f != nil {
		size += tr.f.Size
	}
	op := &operator{Name: fmt.Sprintf("state_machine[%d, %s]", s0, tr), Args: p.b.types, Ret: tListInt, Fam: famScan, Cost: 1,
		Eval: func(_ *lambda, a []any) any { return runState(tr, s0, a[0].([]int64)) },
		Py: func(e *emitter, _ *lambda, a []code) code {
			x := atom("x")
			if tr.f != nil {
				x = e.lam(tr.f, x)
			}
			body := fmt.Sprintf("    state, out = %d, []\n    for x in %s:\n        state = %s\n        out.append(state)\n    return out\n",
				s0, p.b.names[0], e.lam(tr.h, atom("state"), x).s)
			return call(e.loopHelper("state_machine", p.b.names, body), a...)
		}}
	return &node{Op: op, Kids: []*node{{Var: 0, Size: 1}}, Var: -1, Size: size}
}
