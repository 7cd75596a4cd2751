package synth

import "strings"

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
func tabled(p *problem, t valType, e *entry) (*node, []any) {
	if t != tInt && t != tBool {
		return nil, nil
	}
	var keys [maxLabels]any
	for i, k := range p.labelOf {
		v := e.at(i)
		switch {
		case isErr(v):
			return nil, nil
		case keys[k] == nil:
			if indexOf(keys[:], v) >= 0 {
				return nil, nil // one value, two labels
			}
			keys[k] = v
		case keys[k] != v:
			return nil, nil // one label, two values
		}
	}
	op := tableOp(t, keys[:len(p.labels)], p.labels)
	vals := make([]any, len(e.values()))
	for i, v := range e.values() {
		vals[i] = op.Eval(nil, []any{v})
	}
	return &node{Op: op, Kids: []*node{e.n}, Var: -1, Size: e.n.Size + 1}, vals
}

// tableOp maps keys[i] to labels[i]; other values fail.
func tableOp(t valType, keys, labels []any) *operator {
	var name strings.Builder
	name.WriteString("table{")
	for i, k := range keys {
		if i > 0 {
			name.WriteString(", ")
		}
		name.WriteString(string(toJSON(k)) + ": " + string(toJSON(labels[i])))
	}
	name.WriteString("}")
	return &operator{Name: name.String(), Fam: famScalar, Args: ts(t), Ret: tStr, Cost: 1,
		Eval: func(_ *lambda, a []any) any {
			if i := indexOf(keys, a[0]); i >= 0 {
				return labels[i]
			}
			return errV
		},
		Py: func(_ *emitter, _ *lambda, a []code) code {
			if t == tBool && len(keys) == 2 {
				yes, no := labels[0], labels[1]
				if keys[0] == false {
					yes, no = no, yes
				}
				return code{constCode(yes).s + " if " + a[0].at(pOr) + " else " + constCode(no).at(pOr), pTern}
			}
			parts := make([]string, len(keys))
			for i, k := range keys {
				parts[i] = constCode(k).s + ": " + constCode(labels[i]).s
			}
			return atom("{" + strings.Join(parts, ", ") + "}[" + a[0].s + "]")
		}}
}
