package sketch

import (
	"fmt"
	"math"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The parameters of a loop sketch: the numbers an input gives a loop —
// its bounds, its start, the constants of its rule. They are the
// problem's integer and float variables, and the positions of a list of
// numbers that has one length on every example: an input
// [balance, rate, years] is bound as one list xs (min and sorted see it
// whole), and a loop reads its three positions.
//
// A parameter whose values are all whole numbers on the examples is an
// integer (a count, a bound, a modulus): read from a float it is
// truncated, as Python's int() does, and the emitted program converts it
// with int() too, so that both compute the same on any input.

// loopParams says where a loop sketch's parameters come from.
type loopParams struct {
	names []string
	types []dsl.Type
	// vars is the variable each parameter is read from, pos its position
	// in that variable (a list), or -1 for the variable itself; trunc says
	// a float is read as an integer.
	vars, pos []int
	trunc     []bool
	// progNames are the program's variables, the helper's parameters.
	progNames []string
}

// maxLoopParams bounds the positions of a list read as parameters.
const maxLoopParams = 6

// newLoopParams reads the problem's inputs as parameters, or returns nil
// when some input is not a number or a list of numbers of one length.
func newLoopParams(p *dsl.Problem) *loopParams {
	if len(p.Envs) == 0 {
		return nil
	}
	lp := &loopParams{progNames: p.B.Names}
	for v, t := range p.B.Types {
		switch t {
		case dsl.Int, dsl.Float:
			lp.add(p, p.B.Names[v], t, v, -1)
		case dsl.ListInt, dsl.ListFloat:
			n := listLen(p.Envs[0][v])
			if n < 1 || n > maxLoopParams {
				return nil
			}
			for _, env := range p.Envs {
				if listLen(env[v]) != n {
					return nil
				}
			}
			for k := range n {
				name := fmt.Sprintf("%s%d", p.B.Names[v], k)
				if len(p.B.Parts) == n && len(p.B.Types) == 1 {
					name = p.B.Parts[k]
				}
				elem := dsl.Int
				if t == dsl.ListFloat {
					elem = dsl.Float
				}
				lp.add(p, name, elem, v, k)
			}
		default:
			return nil
		}
	}
	return lp
}

func listLen(v any) int {
	switch l := v.(type) {
	case []int64:
		return len(l)
	case []float64:
		return len(l)
	}
	return -1
}

// add appends a parameter, an integer when a float one is whole on every
// example.
func (lp *loopParams) add(p *dsl.Problem, name string, t dsl.Type, v, pos int) {
	trunc := false
	if t == dsl.Float {
		whole := true
		for _, env := range p.Envs {
			f, good := rawParam(env, v, pos).(float64)
			if !good || f != math.Trunc(f) || math.Abs(f) >= 1<<53 {
				whole = false
				break
			}
		}
		if whole {
			t, trunc = dsl.Int, true
		}
	}
	lp.names = append(lp.names, name)
	lp.types = append(lp.types, t)
	lp.vars = append(lp.vars, v)
	lp.pos = append(lp.pos, pos)
	lp.trunc = append(lp.trunc, trunc)
}

func rawParam(env []any, v, pos int) any {
	if pos < 0 {
		return env[v]
	}
	switch l := env[v].(type) {
	case []int64:
		if pos < len(l) {
			return l[pos]
		}
	case []float64:
		if pos < len(l) {
			return l[pos]
		}
	}
	return dsl.ErrV
}

// values returns the parameters' values on an environment (int64 or
// float64 by their types), false when the environment lacks one (a list
// of another length) or an integer read from a float is too large.
func (lp *loopParams) values(env []any) ([]any, bool) {
	out := make([]any, len(lp.names))
	for k := range lp.names {
		x := rawParam(env, lp.vars[k], lp.pos[k])
		switch v := x.(type) {
		case int64:
			if lp.types[k] == dsl.Float {
				x = float64(v)
			}
		case float64:
			if lp.trunc[k] {
				if math.IsNaN(v) || math.Abs(v) >= 1<<53 {
					return nil, false
				}
				x = int64(math.Trunc(v))
			}
		default:
			return nil, false
		}
		out[k] = x
	}
	return out, true
}

// unpack is the Python binding the parameters from the helper's own
// parameters (the program's variables), or "" when they are those.
func (lp *loopParams) unpack() string {
	same := len(lp.names) == len(lp.progNames)
	for k := range lp.names {
		if lp.pos[k] >= 0 || lp.trunc[k] || lp.names[k] != lp.progNames[lp.vars[k]] {
			same = false
		}
	}
	if same {
		return ""
	}
	parts := make([]string, len(lp.names))
	for k := range lp.names {
		src := lp.progNames[lp.vars[k]]
		if lp.pos[k] >= 0 {
			src = fmt.Sprintf("%s[%d]", src, lp.pos[k])
		}
		if lp.trunc[k] {
			src = "int(" + src + ")"
		}
		parts[k] = src
	}
	return "    " + strings.Join(lp.names, ", ") + " = " + strings.Join(parts, ", ") + "\n"
}

// codes are the parameters as Python names.
func (lp *loopParams) codes() []dsl.Code {
	out := make([]dsl.Code, len(lp.names))
	for k, n := range lp.names {
		out[k] = dsl.Atom(n)
	}
	return out
}

// ints lists the integer parameters.
func (lp *loopParams) ints() []int {
	var out []int
	for k, t := range lp.types {
		if t == dsl.Int {
			out = append(out, k)
		}
	}
	return out
}
