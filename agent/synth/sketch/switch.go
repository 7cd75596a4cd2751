package sketch

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Switch machines. A list transducer whose output is a state kept from one
// element to the next and switched by the element's value — a heater that
// turns on below one temperature and off above another, a latch set by a
// 1, a switch that every 0 flips — is learned from the examples directly
// instead of enumerated: every position is a point (state before, element)
// → state after, the state before being the previous output (a start
// value before the first). The elements are cut into the fewest intervals
// in each of which the machine sets one state or keeps the one it has, the
// same intervals for every state (hysteresis), or, when no such cut fits,
// a cut per state (a toggle). Each threshold lies where the examples leave
// it free: after the last element that must be below it and at most at the
// first that must be above it; the program takes the middle of that gap
// (the widest margin), and the other ends of the gap make rival programs,
// so that proposals probe the gap until it closes.
//
// The learner is exact and costs one pass over the points, so it runs
// before the sweeps: a threshold such as 18 is a constant the levels do
// not have, and the positions' enumeration (window.go) reaches
// such a function only late in a session.

// Bounds of a switch machine: the intervals of one cut, and the data
// points each interval needs on average (fewer points would let a cut fit
// by chance).
const (
	maxSwitchRegions   = 5
	switchPointsPerCut = 3
)

// switchAction is what the machine does with the elements of one
// interval: keep its state or set the state to.
type switchAction struct {
	keep bool
	to   int // index into the machine's states
}

// switchCut is a machine's actions over intervals of the element: act[r]
// applies to the elements x with bounds[r-1] <= x < bounds[r].
type switchCut struct {
	bounds []int64
	act    []switchAction
	// lo and hi are the range each bound may take on the examples.
	lo, hi []int64
}

// apply is the state after element x from state s.
func (c switchCut) apply(s int, x int64) int {
	r := 0
	for r < len(c.bounds) && x >= c.bounds[r] {
		r++
	}
	if c.act[r].keep {
		return s
	}
	return c.act[r].to
}

// switchMachine is a learned machine: a start state and either one cut
// for every state or a cut per state.
type switchMachine struct {
	states []any
	s0     int
	shared bool
	// cuts holds the shared cut, or one cut per state.
	cuts []switchCut
	elem dsl.Type
}

func (m switchMachine) cut(s int) switchCut {
	if m.shared {
		return m.cuts[0]
	}
	return m.cuts[s]
}

// run gives the states after each element of xs.
func (m switchMachine) run(xs []int64) any {
	out := make([]any, len(xs))
	s := m.s0
	for i, x := range xs {
		s = m.cut(s).apply(s, x)
		out[i] = m.states[s]
	}
	if t, good := typeOfElems(out, m.elem); good {
		return t
	}
	return dsl.ErrV
}

// switchPoint is one position of an example: the state before it (an
// index into the states), the element, the state after.
type switchPoint struct {
	x          int64
	prev, next int
}

// SwitchMachines tries the start values and offers the machine of fewest
// intervals that fits, then its rivals; it reports whether consider
// accepted a program.
func SwitchMachines(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	st := newStreams(p, en.Envs)
	if st == nil || len(st.elem) != 1 || st.elem[0] != dsl.Int || (st.outElem != dsl.Int && st.outElem != dsl.Str) || en.Stopped {
		return false
	}
	var labels []any
	points := 0
	for _, out := range st.outs {
		for _, o := range out {
			if dsl.IndexOf(labels, o) < 0 {
				if len(labels) == dsl.MaxLabels {
					return false
				}
				labels = append(labels, o)
			}
		}
		points += len(out)
	}
	if len(labels) < 2 || !needsState(st) {
		return false
	}
	starts := append([]any{zeroOf(st.outElem)}, labels...)
	var best *switchMachine
	for i, s0 := range starts {
		if i > 0 && dsl.IndexOf(starts[:i], s0) >= 0 {
			continue
		}
		m, good := learnSwitch(st, labels, s0)
		if good && m.intervals()*switchPointsPerCut <= points && (best == nil || m.intervals() < best.intervals()) {
			best = &m
		}
	}
	if best == nil {
		return false
	}
	for _, m := range best.variants() {
		if offer(en, switchNode(p, m), consider) {
			return true
		}
	}
	return false
}

// needsState reports whether some element value gives different outputs:
// otherwise the output is a function of the element alone, a map.
func needsState(st *streams) bool {
	seen := map[int64]any{}
	for e, out := range st.outs {
		for i, o := range out {
			x := st.lists[e][0][i].(int64)
			if v, had := seen[x]; had && !dsl.EqualTo(v, o, 0) {
				return true
			}
			seen[x] = o
		}
	}
	return false
}

// intervals counts the machine's intervals, its size.
func (m switchMachine) intervals() int {
	n := 0
	for _, c := range m.cuts {
		n += len(c.act)
	}
	return n
}

// learnSwitch learns the machine starting from s0: one cut for every state
// when one fits, else one per state.
func learnSwitch(st *streams, labels []any, s0 any) (switchMachine, bool) {
	states := slices.Clone(labels)
	start := dsl.IndexOf(states, s0)
	if start < 0 {
		start = len(states)
		states = append(states, s0)
	}
	var pts []switchPoint
	for e, out := range st.outs {
		prev := start
		for i, o := range out {
			next := dsl.IndexOf(states, o)
			pts = append(pts, switchPoint{x: st.lists[e][0][i].(int64), prev: prev, next: next})
			prev = next
		}
	}
	m := switchMachine{states: states, s0: start, elem: st.outElem}
	if c, good := learnCut(pts, len(states)); good {
		m.shared, m.cuts = true, []switchCut{c}
		return m, true
	}
	for s := range states {
		var mine []switchPoint
		for _, pt := range pts {
			if pt.prev == s {
				mine = append(mine, pt)
			}
		}
		c, good := learnCut(mine, len(states))
		if !good {
			return switchMachine{}, false
		}
		m.cuts = append(m.cuts, c)
	}
	return m, true
}

// learnCut finds the fewest intervals of the elements, each with one
// action that every point in it allows (a point allows setting its next
// state, and keeping when the state did not change). The actions are bits
// of a mask: bit s sets state s, bit n keeps.
func learnCut(pts []switchPoint, n int) (switchCut, bool) {
	keepBit := n
	if len(pts) == 0 {
		return switchCut{act: []switchAction{{keep: true}}}, true
	}
	allowed := map[int64]uint{}
	for _, pt := range pts {
		m := uint(1) << pt.next
		if pt.next == pt.prev {
			m |= 1 << keepBit
		}
		if old, seen := allowed[pt.x]; seen {
			m &= old
		}
		if m == 0 {
			return switchCut{}, false
		}
		allowed[pt.x] = m
	}
	xs := make([]int64, 0, len(allowed))
	for x := range allowed {
		xs = append(xs, x)
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	// cost[i][a] is the fewest intervals covering xs[:i+1], the last with
	// action a (keep, then the states in order, on ties).
	actions := append([]int{keepBit}, func() []int {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}()...)
	const none = 1 << 30
	cost := make([][]int, len(xs))
	for i, x := range xs {
		cost[i] = make([]int, n+1)
		for _, a := range actions {
			cost[i][a] = none
			if allowed[x]&(1<<a) == 0 {
				continue
			}
			if i == 0 {
				cost[i][a] = 1
				continue
			}
			c := cost[i-1][a]
			for _, b := range actions {
				c = min(c, cost[i-1][b]+1)
			}
			cost[i][a] = c
		}
	}
	last := len(xs) - 1
	a := -1
	for _, b := range actions {
		if cost[last][b] < none && (a < 0 || cost[last][b] < cost[last][a]) {
			a = b
		}
	}
	if a < 0 || cost[last][a] > maxSwitchRegions {
		return switchCut{}, false
	}
	// Back from the last element: stay in an interval while that costs
	// nothing more, so that the intervals are the widest on the right.
	region := make([]int, len(xs))
	var acts []int
	acts = append(acts, a)
	for i := last; i > 0; i-- {
		region[i] = len(acts) - 1
		if cost[i-1][a] == cost[i][a] {
			continue
		}
		for _, b := range actions {
			if cost[i-1][b]+1 == cost[i][a] {
				a = b
				break
			}
		}
		acts = append(acts, a)
	}
	region[0] = len(acts) - 1
	slices.Reverse(acts)
	for i := range region {
		region[i] = len(acts) - 1 - region[i]
	}
	c := switchCut{}
	for _, a := range acts {
		c.act = append(c.act, switchAction{keep: a == keepBit, to: a})
	}
	// The bound between intervals r and r+1 lies above every element of
	// the two that does not allow r+1's action, and at most at the first
	// that does not allow r's (of interval r+1: every element of r allows
	// r's action).
	for r := 0; r+1 < len(acts); r++ {
		lo, hi := int64(0), int64(0)
		haveLo, haveHi := false, false
		for i, x := range xs {
			if region[i] != r && region[i] != r+1 {
				continue
			}
			if allowed[x]&(1<<acts[r+1]) == 0 {
				lo, haveLo = x+1, true
			}
			if allowed[x]&(1<<acts[r]) == 0 && !haveHi {
				hi, haveHi = x, true
			}
		}
		if !haveLo || !haveHi || lo > hi {
			return switchCut{}, false
		}
		c.lo, c.hi = append(c.lo, lo), append(c.hi, hi)
		c.bounds = append(c.bounds, lo+(hi-lo+1)/2)
	}
	return c, true
}

// variants are the machine (each bound midway in its gap), then the
// machines with one bound at either end of its gap: rivals that proposals
// tell apart.
func (m switchMachine) variants() []switchMachine {
	out := []switchMachine{m}
	for ci, c := range m.cuts {
		for b := range c.bounds {
			for _, v := range []int64{c.lo[b], c.hi[b]} {
				if v == c.bounds[b] {
					continue
				}
				alt := m
				alt.cuts = slices.Clone(m.cuts)
				nc := c
				nc.bounds = slices.Clone(c.bounds)
				nc.bounds[b] = v
				alt.cuts[ci] = nc
				out = append(out, alt)
			}
		}
	}
	return out
}

// String writes the machine for names and notes.
func (m switchMachine) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "start %s", dsl.ConstCode(m.states[m.s0]).S)
	for ci, c := range m.cuts {
		if !m.shared {
			fmt.Fprintf(&sb, "; from %s:", dsl.ConstCode(m.states[ci]).S)
		}
		for r, a := range c.act {
			if r > 0 {
				fmt.Fprintf(&sb, " | %d", c.bounds[r-1])
			}
			if a.keep {
				sb.WriteString(" keep")
			} else {
				fmt.Fprintf(&sb, " %s", dsl.ConstCode(m.states[a.to]).S)
			}
		}
	}
	return sb.String()
}

// switchNode is the program of a switch machine over the list variable.
func switchNode(p *dsl.Problem, m switchMachine) *dsl.Node {
	op := &dsl.Operator{Name: "switch_machine[" + m.String() + "]", Args: p.B.Types, Ret: p.Out, Fam: dsl.FamScan, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return m.run(a[0].([]int64)) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("switch_machine", p.B.Names, switchLoop(m, p.B.Names[0])), a...)
		}}
	return overVars(p, op, 3+2*m.intervals())
}

// switchLoop renders the machine's helper: a loop with an if chain over
// the intervals that set a state (those that keep it are left out).
func switchLoop(m switchMachine, xs string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "    state, out = %s, []\n    for x in %s:\n", dsl.ConstCode(m.states[m.s0]).S, xs)
	chain := func(c switchCut, indent string) {
		kw := "if"
		for r, a := range c.act {
			if a.keep {
				continue
			}
			var cond string
			switch {
			case len(c.act) == 1:
				fmt.Fprintf(&sb, "%sstate = %s\n", indent, dsl.ConstCode(m.states[a.to]).S)
				return
			case r == 0:
				cond = fmt.Sprintf("x < %d", c.bounds[0])
			case r == len(c.act)-1:
				cond = fmt.Sprintf("x >= %d", c.bounds[r-1])
			default:
				cond = fmt.Sprintf("%d <= x < %d", c.bounds[r-1], c.bounds[r])
			}
			fmt.Fprintf(&sb, "%s%s %s:\n%s    state = %s\n", indent, kw, cond, indent, dsl.ConstCode(m.states[a.to]).S)
			kw = "elif"
		}
	}
	if m.shared {
		chain(m.cuts[0], "        ")
	} else {
		kw := "if"
		for s, c := range m.cuts {
			if len(c.act) == 1 && c.act[0].keep {
				continue
			}
			fmt.Fprintf(&sb, "        %s state == %s:\n", kw, dsl.ConstCode(m.states[s]).S)
			chain(c, "            ")
			kw = "elif"
		}
	}
	sb.WriteString("        out.append(state)\n    return out\n")
	return sb.String()
}
