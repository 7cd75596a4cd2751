package synth

import (
	"fmt"
	"sort"
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
//
// The output may also be a function of the state rather than the state
// itself (a switch that masks the elements, a parity that picks a sign):
// out = g(state, x). The state is then hidden, and a transition is kept
// when the outputs are a function of (state, element) on every position —
// a cheap check that most transitions fail — and the state takes a few
// values; g is searched by the enumerator as a hole on those positions.

// stateStarts are the start values tried.
var stateStarts = []int64{0, 1, -1}

// stateMachine tries every transition of the lambda bank within share of
// the time left; it reports whether consider accepted a program.
func stateMachine(en *sketchRun, p *problem, share float64, consider func(*node, []any) bool) bool {
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
	var hidden []mealy
	expired := false
	try := func(tr transition) bool {
		for _, s0 := range stateStarts {
			if tried++; tried&255 == 0 && time.Now().After(until) {
				expired = true
				return true
			}
			if !stateFits(p, tr, s0, xs) {
				if len(hidden) < maxHiddenStates && st.outElem == tInt {
					if states := outputsOfState(p, tr, s0, xs); states > 0 {
						hidden = append(hidden, mealy{tr: tr, s0: s0, states: states})
					}
				}
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
	search := func() bool {
		for size := 1; size < len(en.lams.by[sigII][tInt]); size++ {
			for _, l := range en.lams.get(sigII, tInt, size) {
				if try(transition{h: l}) {
					return true
				}
			}
		}
		for fs := 2; fs <= maxStateFeature; fs++ {
			for hs := 3; hs <= maxStateStep; hs++ {
				for _, f := range en.lams.get(sigI, tInt, fs) {
					for _, h := range en.lams.get(sigII, tInt, hs) {
						if try(transition{h: h, f: f}) {
							return true
						}
					}
				}
			}
		}
		return false
	}
	if search() && !expired {
		return found
	}
	// Hidden states, those taking fewer values first (a switch before a
	// counter whose parity would do), then in the order their
	// transitions were found.
	sort.SliceStable(hidden, func(i, j int) bool { return hidden[i].states < hidden[j].states })
	until = time.Now().Add(time.Duration(float64(time.Until(en.deadline)) * share))
	for j, m := range hidden {
		left := time.Until(until)
		if left <= 0 || en.interrupted() {
			return false
		}
		g := mealyOutput(en, p, m, xs, time.Now().Add(left/time.Duration(len(hidden)-j)), en.done, en.memLimit/4)
		if g == nil {
			continue
		}
		m.g = g
		if offer(en, mealyNode(p, m), consider) {
			return true
		}
	}
	return false
}

// maxHiddenStates bounds the transitions whose output function is
// searched; maxStateValues the values a hidden state may take.
const (
	maxHiddenStates = 48
	maxStateValues  = 6
)

// mealy is a machine whose output g(state, x) is a function of its state
// after each element and of the element.
type mealy struct {
	tr transition
	s0 int64
	g  *node
	// states is how many values the state took on the examples.
	states int
}

// outputsOfState returns how many values the state takes when the
// outputs are a function of (state after the element, element) on every
// position of every example, the state taking at most maxStateValues
// values and more than one, and the outputs not a function of the element
// alone; else 0.
func outputsOfState(p *problem, tr transition, s0 int64, xs [][]int64) (n int) {
	defer func() {
		if recover() != nil {
			n = 0
		}
	}()
	type key struct{ s, x int64 }
	byKey := map[key]int64{}
	byX := map[int64]int64{}
	states := map[int64]bool{}
	ofX := true
	for i, o := range p.outs {
		want := o.([]int64)
		s := s0
		for j, x := range xs[i] {
			next, good := tr.step(s, x)
			if !good {
				return 0
			}
			s = next
			if states[s] = true; len(states) > maxStateValues {
				return 0
			}
			k := key{s, x}
			if v, seen := byKey[k]; seen && v != want[j] {
				return 0
			}
			byKey[k] = want[j]
			if v, seen := byX[x]; seen && v != want[j] {
				ofX = false
			}
			byX[x] = want[j]
		}
	}
	if len(states) < 2 || ofX {
		return 0
	}
	return len(states)
}

// mealyOutput searches g(state, x) on every position.
func mealyOutput(en *sketchRun, p *problem, m mealy, xs [][]int64, deadline time.Time, done <-chan struct{}, mem int64) *node {
	sub := &problem{b: &binding{names: []string{"state", "x"}, types: []valType{tInt, tInt}}, round: -1, mined: p.mined,
		out: tInt, ok: []valType{tInt}}
	for i, o := range p.outs {
		want := o.([]int64)
		s := m.s0
		for j, x := range xs[i] {
			s, _ = m.tr.step(s, x)
			if len(sub.envs) < maxPointsSearched {
				sub.envs = append(sub.envs, []any{s, x})
				sub.outs = append(sub.outs, want[j])
			}
		}
	}
	if len(sub.outs) < 4 {
		return nil
	}
	return en.holeSearch(sub, deadline, done, 5, mem, false, false)
}

// runMealy runs the machine on one list, returning the outputs (or errV
// where the transition or the output fails).
func runMealy(m mealy, xs []int64) (v any) {
	defer func() {
		if recover() != nil {
			v = errV
		}
	}()
	out := make([]int64, len(xs))
	s := m.s0
	for i, x := range xs {
		next, good := m.tr.step(s, x)
		if !good {
			return errV
		}
		s = next
		o, good := evalNode(m.g, []any{s, x}).(int64)
		if !good {
			return errV
		}
		out[i] = o
	}
	return out
}

// mealyNode is the program of a machine with a hidden state over the
// list variable.
func mealyNode(p *problem, m mealy) *node {
	size := 3 + m.tr.h.Size + m.g.Size
	if m.tr.f != nil {
		size += m.tr.f.Size
	}
	op := &operator{Name: fmt.Sprintf("state_machine[%d, %s; out %s]", m.s0, m.tr, m.g), Args: p.b.types, Ret: tListInt, Fam: famScan, Cost: 1,
		Eval: func(_ *lambda, a []any) any { return runMealy(m, a[0].([]int64)) },
		Py: func(e *emitter, _ *lambda, a []code) code {
			x := atom("x")
			if m.tr.f != nil {
				x = e.lam(m.tr.f, x)
			}
			body := fmt.Sprintf("    state, out = %d, []\n    for x in %s:\n        state = %s\n        out.append(%s)\n    return out\n",
				m.s0, p.b.names[0], e.lam(m.tr.h, atom("state"), x).s, e.node(m.g, []code{atom("state"), atom("x")}).s)
			return call(e.loopHelper("state_machine", p.b.names, body), a...)
		}}
	return &node{Op: op, Kids: []*node{{Var: 0, Size: 1}}, Var: -1, Size: size}
}

// Sizes of the element's mapping and of the step over it.
const (
	maxStateFeature = 4
	maxStateStep    = 5
)

// transition is state = h(state, x), or h(state, f(x)) when f is set.
type transition struct{ h, f *lambda }

func (tr transition) step(s, x int64) (int64, bool) {
	v := x
	if tr.f != nil {
		var good bool
		if v, good = lam1[int64, int64](nil, tr.f, x); !good {
			return 0, false
		}
	}
	return lam2[int64, int64, int64](nil, tr.h, s, v)
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
