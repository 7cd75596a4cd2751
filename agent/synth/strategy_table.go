package synth

import (
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Categorical outputs. When the outputs are a few repeated strings ("ccw",
// "cw", "degenerate"), the function usually computes a small number or a
// truth value and names it. A program of integer or boolean type whose
// values and the outputs determine each other on every example (a one-to-one
// correspondence) is then a solution under a table from its values to the
// labels: {1: "ccw", -1: "cw", 0: "degenerate"}[sign(area)]. The table maps
// computed values, never inputs, and a value the examples did not show
// raises.

// tabled returns the program that names e's values by the labels, with its
// values, when e's values correspond one to one with the labels on the
// examples; nil otherwise.
func tabled(p *dsl.Problem, t dsl.Type, e *dsl.Entry) (*dsl.Node, []any) {
	if t != dsl.Int && t != dsl.Bool || len(p.Labels) > dsl.MaxLabels {
		return nil, nil
	}
	var keys [dsl.MaxLabels]any
	for i, k := range p.LabelOf {
		v := e.At(i)
		switch {
		case dsl.IsErr(v):
			return nil, nil
		case keys[k] == nil:
			if dsl.IndexOf(keys[:], v) >= 0 {
				return nil, nil // one value, two labels
			}
			keys[k] = v
		case keys[k] != v:
			return nil, nil // one label, two values
		}
	}
	op := tableOp(t, keys[:len(p.Labels)], p.Labels)
	vals := make([]any, len(e.Values()))
	for i, v := range e.Values() {
		vals[i] = op.Eval(nil, []any{v})
	}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{e.N}, Var: -1, Size: e.N.Size + 1}, vals
}

// tableOp maps keys[i] to labels[i]; other values fail.
func tableOp(t dsl.Type, keys, labels []any) *dsl.Operator {
	var name strings.Builder
	name.WriteString("table{")
	for i, k := range keys {
		if i > 0 {
			name.WriteString(", ")
		}
		name.WriteString(string(dsl.ToJSON(k)) + ": " + string(dsl.ToJSON(labels[i])))
	}
	name.WriteString("}")
	return &dsl.Operator{Name: name.String(), Fam: dsl.FamScalar, Args: dsl.Types(t), Ret: dsl.Str, Cost: 1,
		Choice: &dsl.Choice{Keys: keys, Labels: labels},
		Eval: func(_ *dsl.Lambda, a []any) any {
			if i := dsl.IndexOf(keys, a[0]); i >= 0 {
				return labels[i]
			}
			return dsl.ErrV
		},
		Py: func(_ *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			if t == dsl.Bool && len(keys) == 2 {
				yes, no := labels[0], labels[1]
				if keys[0] == false {
					yes, no = no, yes
				}
				return dsl.Code{S: dsl.ConstCode(yes).S + " if " + a[0].At(dsl.POr) + " else " + dsl.ConstCode(no).At(dsl.POr), P: dsl.PTern}
			}
			parts := make([]string, len(keys))
			for i, k := range keys {
				parts[i] = dsl.ConstCode(k).S + ": " + dsl.ConstCode(labels[i]).S
			}
			return dsl.Atom("{" + strings.Join(parts, ", ") + "}[" + a[0].S + "]")
		}}
}
