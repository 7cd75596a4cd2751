package sketch

import (
	"fmt"
	"sort"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
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

// StateMachine tries every transition of the lambda bank within share of
// the time left; it reports whether consider accepted a program.
func StateMachine(en *Search, p *dsl.Problem, share float64, consider func(*dsl.Node, []any) bool) bool {
	st := newStreams(p, en.Envs)
	if st == nil || len(st.elem) != 1 || st.elem[0] != dsl.Int || st.outElem != dsl.Int || en.Stopped {
		return false
	}
	until := time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * share))
	found := false
	xs := make([][]int64, len(en.Envs))
	for i, env := range en.Envs {
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
				if len(hidden) < maxHiddenStates && st.outElem == dsl.Int {
					if states := outputsOfState(p, tr, s0, xs); states > 0 {
						hidden = append(hidden, mealy{tr: tr, s0: s0, states: states})
					}
				}
				continue
			}
			n := stateNode(p, tr, s0)
			vals := make([]any, len(en.Envs))
			for i := range en.Envs {
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
		for size := 1; size < len(en.Lambdas.By[dsl.SigII][dsl.Int]); size++ {
			for _, l := range en.Lambdas.Get(dsl.SigII, dsl.Int, size) {
				if try(transition{h: l}) {
					return true
				}
			}
		}
		for fs := 2; fs <= maxStateFeature; fs++ {
			for hs := 3; hs <= maxStateStep; hs++ {
				for _, f := range en.Lambdas.Get(dsl.SigI, dsl.Int, fs) {
					for _, h := range en.Lambdas.Get(dsl.SigII, dsl.Int, hs) {
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
	until = time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * share))
	for j, m := range hidden {
		left := time.Until(until)
		if left <= 0 || en.interrupted() {
			return false
		}
		g := mealyOutput(en, p, m, xs, time.Now().Add(left/time.Duration(len(hidden)-j)), en.Done, en.MemLimit/4)
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
	g  *dsl.Node
	// states is how many values the state took on the examples.
	states int
}

// outputsOfState returns how many values the state takes when the
// outputs are a function of (state after the element, element) on every
// position of every example, the state taking at most maxStateValues
// values and more than one, and the outputs not a function of the element
// alone; else 0.
func outputsOfState(p *dsl.Problem, tr transition, s0 int64, xs [][]int64) (n int) {
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
	for i, o := range p.Outs {
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
func mealyOutput(en *Search, p *dsl.Problem, m mealy, xs [][]int64, deadline time.Time, done <-chan struct{}, mem int64) *dsl.Node {
	sub := &dsl.Problem{B: &dsl.Binding{Names: []string{"state", "x"}, Types: []dsl.Type{dsl.Int, dsl.Int}}, Round: -1, Mined: p.Mined,
		Out: dsl.Int, Ok: []dsl.Type{dsl.Int}}
	for i, o := range p.Outs {
		want := o.([]int64)
		s := m.s0
		for j, x := range xs[i] {
			s, _ = m.tr.step(s, x)
			if len(sub.Envs) < maxPointsSearched {
				sub.Envs = append(sub.Envs, []any{s, x})
				sub.Outs = append(sub.Outs, want[j])
			}
		}
	}
	if len(sub.Outs) < 4 {
		return nil
	}
	return en.holeSearch(sub, deadline, done, 5, mem, false, false)
}

// runMealy runs the machine on one list, returning the outputs (or ErrV
// where the transition or the output fails).
func runMealy(m mealy, xs []int64) (v any) {
	defer func() {
		if recover() != nil {
			v = dsl.ErrV
		}
	}()
	out := make([]int64, len(xs))
	s := m.s0
	for i, x := range xs {
		next, good := m.tr.step(s, x)
		if !good {
			return dsl.ErrV
		}
		s = next
		o, good := dsl.EvalNode(m.g, []any{s, x}).(int64)
		if !good {
			return dsl.ErrV
		}
		out[i] = o
	}
	return out
}

// mealyNode is the program of a machine with a hidden state over the
// list variable.
func mealyNode(p *dsl.Problem, m mealy) *dsl.Node {
	size := 3 + m.tr.h.Size + m.g.Size
	if m.tr.f != nil {
		size += m.tr.f.Size
	}
	op := &dsl.Operator{Name: fmt.Sprintf("state_machine[%d, %s; out %s]", m.s0, m.tr, m.g), Args: p.B.Types, Ret: dsl.ListInt, Fam: dsl.FamScan, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return runMealy(m, a[0].([]int64)) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			x := dsl.Atom("x")
			if m.tr.f != nil {
				x = e.Lam(m.tr.f, x)
			}
			body := fmt.Sprintf("    state, out = %d, []\n    for x in %s:\n        state = %s\n        out.append(%s)\n    return out\n",
				m.s0, p.B.Names[0], e.Lam(m.tr.h, dsl.Atom("state"), x).S, e.Node(m.g, []dsl.Code{dsl.Atom("state"), dsl.Atom("x")}).S)
			return dsl.Call(e.LoopHelper("state_machine", p.B.Names, body), a...)
		}}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{{Var: 0, Size: 1}}, Var: -1, Size: size}
}

// Sizes of the element's mapping and of the step over it.
const (
	maxStateFeature = 4
	maxStateStep    = 5
)

// transition is state = h(state, x), or h(state, f(x)) when f is set.
type transition struct{ h, f *dsl.Lambda }

func (tr transition) step(s, x int64) (int64, bool) {
	v := x
	if tr.f != nil {
		var good bool
		if v, good = dsl.Lam1[int64, int64](nil, tr.f, x); !good {
			return 0, false
		}
	}
	return dsl.Lam2[int64, int64, int64](nil, tr.h, s, v)
}

func (tr transition) String() string {
	if tr.f == nil {
		return tr.h.String()
	}
	return tr.h.String() + " of " + tr.f.String()
}

// runState runs the machine on one list, returning the states after each
// element (or ErrV where the transition fails).
func runState(tr transition, s0 int64, xs []int64) (v any) {
	defer func() {
		if recover() != nil {
			v = dsl.ErrV
		}
	}()
	out := make([]int64, len(xs))
	s := s0
	for i, x := range xs {
		next, good := tr.step(s, x)
		if !good {
			return dsl.ErrV
		}
		s, out[i] = next, next
	}
	return out
}

// stateFits checks the machine position by position, stopping at the
// first wrong output.
func stateFits(p *dsl.Problem, tr transition, s0 int64, xs [][]int64) (fits bool) {
	defer func() {
		if recover() != nil {
			fits = false
		}
	}()
	for i, o := range p.Outs {
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
func stateNode(p *dsl.Problem, tr transition, s0 int64) *dsl.Node {
	size := 3 + tr.h.Size
	if tr.f != nil {
		size += tr.f.Size
	}
	op := &dsl.Operator{Name: fmt.Sprintf("state_machine[%d, %s]", s0, tr), Args: p.B.Types, Ret: dsl.ListInt, Fam: dsl.FamScan, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return runState(tr, s0, a[0].([]int64)) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			x := dsl.Atom("x")
			if tr.f != nil {
				x = e.Lam(tr.f, x)
			}
			body := fmt.Sprintf("    state, out = %d, []\n    for x in %s:\n        state = %s\n        out.append(state)\n    return out\n",
				s0, p.B.Names[0], e.Lam(tr.h, dsl.Atom("state"), x).S)
			return dsl.Call(e.LoopHelper("state_machine", p.B.Names, body), a...)
		}}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{{Var: 0, Size: 1}}, Var: -1, Size: size}
}
