package sketch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The map with a running state over a list, its last state appended:
//
//	state = amount
//	out = []
//	for item in notes:
//	    out.append(emit(state, item))
//	    state = update(state, item)
//	out.append(state)
//	return out
//
// A greedy decomposition of an amount into notes (emit state // item,
// update state % item, the rest appended), change given coin by coin.
// The state starts as an integer input; the update is a small program
// of the state and the item (the enumerator's, kept apart on the
// examples' pairs), and each is checked by running the states over the
// examples: the last state must be each output's last number. The
// emitted value is then a hole over the states and items met, searched
// by the enumerator, for the few updates that pass.

// Bounds of the state map: the updates' size and number, and the updates
// whose emitted value is searched.
const (
	stateUpdateSize  = 3
	maxStateUpdates  = 3000
	maxStateEmits    = 6
	stateEmitMaxSize = 5
)

// stateMap is one filled map.
type stateMap struct {
	init, list   int // the variables the state starts as and the list read
	update, emit *dsl.Node
	names        []string
}

func (m *stateMap) run(env []any) any {
	s, good := env[m.init].(int64)
	xs, isList := env[m.list].([]int64)
	if !good || !isList {
		return dsl.ErrV
	}
	out := make([]int64, 0, len(xs)+1)
	senv := []any{s, int64(0)}
	for _, x := range xs {
		senv[0], senv[1] = s, x
		v, good := dsl.EvalSafe(m.emit, senv).(int64)
		if !good {
			return dsl.ErrV
		}
		out = append(out, v)
		if s, good = dsl.EvalSafe(m.update, senv).(int64); !good {
			return dsl.ErrV
		}
	}
	return append(out, s)
}

func (m *stateMap) python(e *dsl.Emitter) string {
	vars := []dsl.Code{dsl.Atom("state"), dsl.Atom("item")}
	var sb strings.Builder
	fmt.Fprintf(&sb, "    state = %s\n    out = []\n    for item in %s:\n", m.names[m.init], m.names[m.list])
	fmt.Fprintf(&sb, "        out.append(%s)\n", e.Node(m.emit, vars).S)
	fmt.Fprintf(&sb, "        state = %s\n", e.Node(m.update, vars).S)
	sb.WriteString("    out.append(state)\n    return out\n")
	return sb.String()
}

func (m *stateMap) node(p *dsl.Problem) *dsl.Node {
	op := &dsl.Operator{Name: fmt.Sprintf("state_map[%s from %s over %s: %s; %s]", "state", m.names[m.init], m.names[m.list], m.emit, m.update),
		Args: p.B.Types, Ret: dsl.ListInt, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return m.run(a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("running_state", m.names, m.python(e)), a...)
		}}
	return overVars(p, op, 6+m.update.Size+m.emit.Size)
}

// StateMap searches the maps with a running state whose list is every
// example's output, within share of the search's budget; it reports
// whether consider accepted one.
func StateMap(en *Search, p *dsl.Problem, share float64, consider func(*dsl.Node, []any) bool) bool {
	if en.Stopped || p.Out != dsl.ListInt || len(p.Outs) == 0 || slices.ContainsFunc(p.B.Names, func(n string) bool {
		return n == "state" || n == "item" || n == "out"
	}) {
		return false
	}
	list := -1
	var inits []int
	for v, t := range p.B.Types {
		switch t {
		case dsl.ListInt:
			if list >= 0 {
				return false
			}
			list = v
		case dsl.Int:
			inits = append(inits, v)
		}
	}
	if list < 0 || len(inits) == 0 {
		return false
	}
	outs := make([][]int64, len(p.Outs))
	long := false
	for e, o := range p.Outs {
		l, isList := o.([]int64)
		xs, _ := p.Envs[e][list].([]int64)
		if !isList || len(l) != len(xs)+1 {
			return false
		}
		outs[e] = l
		long = long || len(xs) >= 2
	}
	if !long {
		return false
	}
	lk := &loopKit{en: en, p: p, budget: budgetOf(en, share)}
	lk.phase(0.3)
	// The updates, kept apart on the pairs (state, item) the examples
	// show: each input number as a state with each item, and each output's
	// last number with its list's last item.
	var envs [][]any
	for e, o := range outs {
		xs := p.Envs[e][list].([]int64)
		for _, x := range xs {
			for _, v := range inits {
				envs = append(envs, []any{p.Envs[e][v], x})
			}
			envs = append(envs, []any{o[len(o)-1], x})
		}
	}
	deadline, n := lk.share(1)
	updates := collectTerms(en, p, termHole{names: []string{"state", "item"}, types: []dsl.Type{dsl.Int, dsl.Int}, envs: envs, out: dsl.Float,
		maxSize: stateUpdateSize, maxTerms: maxStateUpdates, keep: func(n *dsl.Node) bool { return readsVar(n, 0) }, deadline: deadline, maxEval: n})
	lk.spend(int64(len(updates)))
	lk.phase(1)
	emits := 0
	for _, init := range inits {
		for _, u := range updates {
			if u.typ != dsl.Int || !lk.spend(1) {
				continue
			}
			states, good := runStates(p, init, list, u.n, outs)
			if !good {
				continue
			}
			m := &stateMap{init: init, list: list, update: u.n, names: p.B.Names}
			sub := &dsl.Problem{B: &dsl.Binding{Names: []string{"state", "item"}, Types: []dsl.Type{dsl.Int, dsl.Int}}, Round: -1, Mined: p.Mined,
				Out: dsl.Int, Ok: []dsl.Type{dsl.Int}}
			for e, o := range outs {
				xs := p.Envs[e][list].([]int64)
				for k, x := range xs {
					sub.Envs = append(sub.Envs, []any{states[e][k], x})
					sub.Outs = append(sub.Outs, o[k])
				}
			}
			deadline, n := lk.share(1 / float64(maxStateEmits-emits))
			m.emit = en.holeSearchBy(sub, deadline, n, en.Done, stateEmitMaxSize, en.MemLimit/4, false, false, nil)
			lk.spend(n)
			if m.emit != nil && offer(en, m.node(p), consider) {
				return true
			}
			if emits++; emits == maxStateEmits || lk.spent() {
				return false
			}
		}
	}
	return false
}

// runStates runs an update over the examples from input init; it reports
// the states before each item, false when the last one is not each
// output's last number.
func runStates(p *dsl.Problem, init, list int, update *dsl.Node, outs [][]int64) ([][]int64, bool) {
	states := make([][]int64, len(outs))
	for e, o := range outs {
		s, good := p.Envs[e][init].(int64)
		if !good {
			return nil, false
		}
		senv := []any{s, int64(0)}
		for _, x := range p.Envs[e][list].([]int64) {
			states[e] = append(states[e], s)
			senv[0], senv[1] = s, x
			if s, good = dsl.EvalSafe(update, senv).(int64); !good {
				return nil, false
			}
		}
		if s != o[len(o)-1] {
			return nil, false
		}
	}
	return states, true
}
