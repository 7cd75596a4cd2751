package sketch

import (
	"fmt"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The orbit sketch: an integer iterated under a map that depends on its
// parity — halved when even, a·n + b when odd (the Collatz map is a = 3,
// b = 1) — until it reaches 1. Its holes are a and b, and what the program
// returns: the number of steps, the largest value reached, or, over the
// integers between two inputs, the one whose orbit takes the most steps
// (the smallest on ties). Orbits are bounded; one that does not reach 1
// within the bound fails. Such loops are programs of size 15 and more,
// beyond the levels: the sketch tries a few dozen fillings, each checked
// against the examples.

// orbitOut is what an orbit program returns.
type orbitOut uint8

const (
	orbitSteps orbitOut = iota
	orbitPeak
	orbitRecord // over a range given by two integers
)

var orbitOutNames = []string{"steps", "peak", "record"}

// orbitMap is one filling.
type orbitMap struct {
	a, b int64
	out  orbitOut
}

// maxOrbitSteps bounds an orbit; maxOrbitRange the integers a record
// program runs over.
const (
	maxOrbitSteps = 10_000
	maxOrbitRange = 5_000
)

// orbit returns the steps to reach 1 from n and the largest value on the
// way, or false when n < 1, the orbit overflows or it takes too long.
func (o orbitMap) orbit(n int64) (steps, peak int64, ok bool) {
	if n < 1 {
		return 0, 0, false
	}
	peak = n
	for n != 1 {
		if steps++; steps > maxOrbitSteps {
			return 0, 0, false
		}
		if n%2 == 0 {
			n /= 2
		} else {
			var good bool
			if n, good = dsl.MulI(o.a, n); !good {
				return 0, 0, false
			}
			if n, good = dsl.AddI(n, o.b); !good || n < 1 {
				return 0, 0, false
			}
		}
		peak = max(peak, n)
	}
	return steps, peak, true
}

// run evaluates the program on its inputs (n, or the two ends of a
// range).
func (o orbitMap) run(env []any) any {
	if o.out == orbitRecord {
		lo, hi := env[0].(int64), env[1].(int64)
		lo, hi = min(lo, hi), max(lo, hi)
		if hi-lo > maxOrbitRange {
			return dsl.ErrV
		}
		best, bestSteps := int64(0), int64(-1)
		for n := lo; n <= hi; n++ {
			s, _, ok := o.orbit(n)
			if !ok {
				return dsl.ErrV
			}
			if s > bestSteps {
				best, bestSteps = n, s
			}
		}
		return best
	}
	steps, peak, ok := o.orbit(env[0].(int64))
	switch {
	case !ok:
		return dsl.ErrV
	case o.out == orbitPeak:
		return peak
	}
	return steps
}

// orbitFills lists the fillings for the inputs (one integer or two).
func orbitFills(inputs int) []orbitMap {
	outs := []orbitOut{orbitSteps, orbitPeak}
	if inputs == 2 {
		outs = []orbitOut{orbitRecord}
	}
	var out []orbitMap
	for _, o := range outs {
		for _, a := range []int64{3, 1, 5} {
			for _, b := range []int64{1, -1, 3} {
				out = append(out, orbitMap{a: a, b: b, out: o})
			}
		}
	}
	return out
}

// Orbit tries the sketch on one positive integer (or two) and an
// integer output, from two examples on: a run whose first candidate fails
// its first two examples gets no more, and its 27 fillings are too few
// to fit two of them by chance often (a filling that does is refuted by
// the next examples like any candidate).
func Orbit(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if p.Out != dsl.Int || p.Nullable || len(p.Outs) < 2 || len(p.B.Types) > 2 {
		return false
	}
	for _, t := range p.B.Types {
		if t != dsl.Int {
			return false
		}
	}
	return fillSketch(en, p, orbitFills(len(p.B.Types)), func(o orbitMap, env []any) any { return o.run(env) },
		func(o orbitMap) *dsl.Node { return orbitNode(p, o) }, consider)
}

// orbitNode is the program of a filled orbit sketch.
func orbitNode(p *dsl.Problem, o orbitMap) *dsl.Node {
	op := &dsl.Operator{Name: fmt.Sprintf("orbit[%dn%+d:%s]", o.a, o.b, orbitOutNames[o.out]), Args: p.B.Types, Ret: dsl.Int, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return o.run(a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("parity_orbit", p.B.Names, o.python(p.B.Names)), a...)
		}}
	return overVars(p, op, 10)
}

// stepPy is the map in Python, of m.
func (o orbitMap) stepPy() string {
	odd := "m"
	if o.a != 1 {
		odd = fmt.Sprintf("%d * m", o.a)
	}
	switch {
	case o.b > 0:
		odd += fmt.Sprintf(" + %d", o.b)
	case o.b < 0:
		odd += fmt.Sprintf(" - %d", -o.b)
	}
	return "m // 2 if m % 2 == 0 else " + odd
}

// python renders the helper's body: the orbit bounded as in Go.
func (o orbitMap) python(names []string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "    def orbit_of(m):\n")
	sb.WriteString("        if m < 1:\n            raise ValueError(\"an orbit starts at a positive integer\")\n")
	sb.WriteString("        count, peak = 0, m\n")
	fmt.Fprintf(&sb, "        while m != 1:\n            if count == %d:\n                raise ValueError(\"the orbit does not reach 1\")\n", maxOrbitSteps)
	fmt.Fprintf(&sb, "            m = %s\n            count += 1\n            peak = max(peak, m)\n", o.stepPy())
	sb.WriteString("        return count, peak\n")
	switch o.out {
	case orbitRecord:
		fmt.Fprintf(&sb, "    lo, hi = min(%s, %s), max(%s, %s)\n", names[0], names[1], names[0], names[1])
		sb.WriteString("    return max(range(lo, hi + 1), key=lambda m: (orbit_of(m)[0], -m))\n")
	case orbitPeak:
		fmt.Fprintf(&sb, "    return orbit_of(%s)[1]\n", names[0])
	default:
		fmt.Fprintf(&sb, "    return orbit_of(%s)[0]\n", names[0])
	}
	return sb.String()
}
