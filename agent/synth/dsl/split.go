package dsl

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Component-wise outputs. When every output is a list of one fixed length
// (a pair, a triple: a string and a count, two lists, several counts),
// each position is a component: a problem of its own over the same
// examples, searched on its own, and the programs found are joined into
// one list. When the components' types differ (a string and an int) the
// outputs have no DSL type as a whole: the problem's type is Tuple and it
// is solved by its components only.

// recordRows returns the keys of records and each output's values in
// their order when every output is an object with the same 2 to
// MaxComponents keys (a distance beside an order, say), and nil rows
// otherwise: each key's value is then a component of its own.
func recordRows(outs []any) ([]string, []any) {
	var keys []string
	rows := make([]any, len(outs))
	for i, o := range outs {
		m, ok := o.(map[string]any)
		if !ok || len(m) < 2 || len(m) > MaxComponents {
			return nil, nil
		}
		if i == 0 {
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
		}
		if len(m) != len(keys) {
			return nil, nil
		}
		row := make([]any, len(keys))
		for j, k := range keys {
			v, ok := m[k]
			if !ok {
				return nil, nil
			}
			row[j] = v
		}
		rows[i] = row
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return keys, rows
}

// firstObject returns the first output that is an object when every
// output is one.
func firstObject(outs []any) (any, bool) {
	for _, o := range outs {
		if _, ok := o.(map[string]any); !ok {
			return nil, false
		}
	}
	if len(outs) == 0 {
		return nil, false
	}
	return outs[0], true
}

// objectPairs returns each output as the pair [its keys in sorted order,
// their values] when every output is a JSON object whose values are of
// one kind (numbers, strings, booleans or lists; nil otherwise): the
// object's keys and values are then two components, searched on their
// own, and joined as dict(zip(keys, values)). JSON objects compare as
// sets of keys, so the order chosen for the keys is the search's, not
// the hidden program's.
func objectPairs(outs []any) []any {
	if len(outs) == 0 {
		return nil
	}
	var vals []any
	pairs := make([]any, len(outs))
	for i, o := range outs {
		m, ok := o.(map[string]any)
		if !ok {
			return nil
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		ks, vs := make([]any, len(keys)), make([]any, len(keys))
		for j, k := range keys {
			ks[j], vs[j] = k, m[k]
			if m[k] == nil {
				return nil
			}
		}
		vals = append(vals, vs...)
		pairs[i] = []any{ks, vs}
	}
	if len(vals) > 0 && jsonKind(vals) == "" {
		return nil
	}
	return pairs
}

// Tuple is the type of a fixed-length list whose components have types of
// their own ([]any values). No operator of the catalogue returns it and no
// bank holds it: only the join of a problem's components (TupleOp) does.
const Tuple = NumTypes

// MaxComponents bounds the length of the lists split into components.
const MaxComponents = 8

// components returns the decoded outputs of each position when every
// output is a list of one length from 2 to MaxComponents (none null).
func components(outs []any) [][]any {
	k := -1
	for _, o := range outs {
		l, ok := o.([]any)
		if !ok || (k >= 0 && len(l) != k) {
			return nil
		}
		k = len(l)
	}
	if k < 2 || k > MaxComponents {
		return nil
	}
	comps := make([][]any, k)
	for _, o := range outs {
		for j, v := range o.([]any) {
			comps[j] = append(comps[j], v)
		}
	}
	return comps
}

// jsonKind classifies a component's decoded values: "int", "float" (some
// number written with a decimal point), "bool", "str", "list", or "" when
// they mix kinds (nulls are left out).
func jsonKind(vals []any) string {
	kind := ""
	for _, v := range vals {
		k := ""
		switch x := v.(type) {
		case nil:
			continue
		case json.Number:
			k = "int"
			if !IsIntNumber(x) {
				k = "float"
			}
		case bool:
			k = "bool"
		case string:
			k = "str"
		case []any:
			k = "list"
		default:
			return ""
		}
		switch {
		case kind == "" || kind == k:
			kind = k
		case kind == "int" && k == "float" || kind == "float" && k == "int":
			kind = "float"
		default:
			return ""
		}
	}
	return kind
}

// mixedComponents reports whether the components hold values of
// different kinds (a string beside a count, an int beside a float).
func mixedComponents(comps [][]any) bool {
	first := jsonKind(comps[0])
	for _, c := range comps {
		if k := jsonKind(c); k == "" || k != first {
			return true
		}
	}
	return false
}

// Components returns the problems of the outputs' components, each over
// the same examples, or nil when the outputs are not lists of one fixed
// length whose every position has one type.
func (p *Problem) Components() []*Problem {
	if p.Parts != nil || p.comps == nil {
		return p.Parts
	}
	parts := make([]*Problem, len(p.comps))
	for j, c := range p.comps {
		sub := &Problem{B: p.B, Envs: p.Envs, Round: -1, Mined: p.Mined}
		if err := sub.SetOutputs(c); err != nil {
			return nil
		}
		parts[j] = sub
	}
	p.Parts = parts
	return parts
}

// setTuple makes the problem one of components with types of their own:
// its outputs are the components' values side by side.
func (p *Problem) setTuple() error {
	parts := p.Components()
	if parts == nil {
		return fmt.Errorf("%w: outputs of mixed types", ErrUnsupported)
	}
	p.Out, p.Ok, p.Round, p.Nullable = Tuple, nil, -1, false
	p.Outs = make([]any, len(p.Envs))
	for i := range p.Outs {
		row := make([]any, len(parts))
		for j, sub := range parts {
			row[j] = sub.Outs[i]
		}
		p.Outs[i] = row
	}
	return nil
}

// Subset is the problem over the examples idx only, with the outputs
// given (decoded JSON, one per example of idx); the binding and the
// constants are p's.
func (p *Problem) Subset(idx []int, outs []any) (*Problem, error) {
	sub := &Problem{B: p.B, Round: -1, Mined: p.Mined, Consts: p.Consts}
	for _, i := range idx {
		sub.Envs = append(sub.Envs, p.Envs[i])
	}
	if err := sub.SetOutputs(outs); err != nil {
		return nil, err
	}
	return sub, nil
}

// tupleEqual compares a tuple (a component's failure standing for its
// null) with an expected list, component by component.
func tupleEqual(got []any, want any, atol float64) bool {
	ws := elements(want)
	if ws == nil || len(ws) != len(got) {
		return false
	}
	for i, g := range got {
		w := ws[i]
		if IsErr(w) || IsErr(g) {
			if !IsErr(w) || !IsErr(g) {
				return false
			}
			continue
		}
		if gl, ok := g.([]any); ok {
			if !tupleEqual(gl, w, atol) {
				return false
			}
			continue
		}
		if !EqualTo(g, w, atol) {
			return false
		}
	}
	return true
}

// elements lists a list value's elements as values (a pair as a list of
// two integers); nil when v is not a list.
func elements(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case []int64:
		return boxAll(x)
	case []float64:
		return boxAll(x)
	case []bool:
		return boxAll(x)
	case []string:
		return boxAll(x)
	case []Pair:
		out := make([]any, len(x))
		for i, p := range x {
			out[i] = []int64{p[0], p[1]}
		}
		return out
	}
	return nil
}

// TupleOp joins the programs of a problem's components into its output:
// [c0, c1, ...]. p is the whole problem and kids the components'
// programs (whose types are kinds). A component that fails fails the
// whole, except a nullable one, which gives None there (the emitted
// function asks or_none for it); a float component is rounded as its
// problem rounds. The value is a list of the whole's type when it has one
// (a pair of ints is a list[int]), a tuple otherwise.
func TupleOp(p *Problem, kinds []Type) *Operator {
	parts := p.Components()
	ret := p.Out
	switch ret {
	case ListInt, ListFloat, ListStr, ListBool:
	default:
		ret = Tuple
	}
	return &Operator{Name: "tuple", Fam: FamList, Args: kinds, Ret: ret, Cost: 1, Lazy: true,
		Eval: func(_ *Lambda, a []any) any {
			row := make([]any, len(a))
			for j, v := range a {
				switch {
				case IsErr(v) && parts[j].Nullable && ret == Tuple:
				case IsErr(v):
					return ErrV
				case ret == Tuple:
					v = parts[j].Rounded(v)
				}
				row[j] = v
			}
			if ret == Tuple {
				return row
			}
			return typedRow(row, ret)
		},
		Py: func(e *Emitter, _ *Lambda, a []Code) Code {
			items := make([]string, len(a))
			for j, c := range a {
				if ret == Tuple && parts[j].Round >= 0 && (kinds[j] == Float || kinds[j] == ListFloat) {
					if kinds[j] == Float {
						c = Call("round", c, Atom(fmt.Sprint(parts[j].Round)))
					} else {
						c = Atom(fmt.Sprintf("[round(v, %d) for v in %s]", parts[j].Round, c.S))
					}
				}
				if ret == Tuple && parts[j].Nullable {
					e.helper("or_none", pyOrNone)
					c = Atom("or_none(lambda: " + c.At(PTern) + ")")
				}
				items[j] = c.At(pLambda + 1)
			}
			if p.Object {
				return Call("dict", Call("zip", Atom(items[0]), Atom(items[1])))
			}
			if p.Keys != nil {
				for j, k := range p.Keys {
					items[j] = string(ToJSON(k)) + ": " + items[j]
				}
				return Atom("{" + strings.Join(items, ", ") + "}")
			}
			return Atom("[" + strings.Join(items, ", ") + "]")
		}}
}

// pyOrNone gives None where a component raises, as the synthesizer
// matched a null component with a program failing there.
const pyOrNone = `def or_none(part):
    try:
        return part()
    except (ArithmeticError, LookupError, ValueError):
        return None`

// typedRow makes a row of one element type the list of that type (ints
// among floats become floats); ErrV when an element does not fit.
func typedRow(row []any, ret Type) any {
	switch ret {
	case ListInt, ListFloat:
		ints := make([]int64, len(row))
		floats := make([]float64, len(row))
		isFloat := false
		for i, v := range row {
			switch x := v.(type) {
			case int64:
				ints[i], floats[i] = x, float64(x)
			case float64:
				floats[i], isFloat = x, true
			default:
				return ErrV
			}
		}
		if isFloat {
			return floats
		}
		return ints
	case ListStr:
		out := make([]string, len(row))
		for i, v := range row {
			s, ok := v.(string)
			if !ok {
				return ErrV
			}
			out[i] = s
		}
		return out
	case ListBool:
		out := make([]bool, len(row))
		for i, v := range row {
			b, ok := v.(bool)
			if !ok {
				return ErrV
			}
			out[i] = b
		}
		return out
	}
	return ErrV
}
