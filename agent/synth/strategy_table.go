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

// maxLabels is the most distinct outputs treated as labels.
const maxLabels = 4

// setLabels records the outputs as labels when they are 2 to maxLabels
// distinct strings, each seen at least twice on average.
func (p *problem) setLabels() { p.labelOutputs(2) }

// relaxLabels records the outputs as labels even when they barely repeat
// (two examples, two strings), reporting whether that made labels of
// them. It is the last resort of a search that found nothing: the
// workflow adds examples only once a candidate passes, and a few distinct
// strings are most often category names.
func (p *problem) relaxLabels() bool {
	if p.labels != nil {
		return false
	}
	p.labelOutputs(1)
	return p.labels != nil
}

// labelOutputs sets the labels when the outputs are 2 to maxLabels
// distinct strings and each is seen repeat times on average.
func (p *problem) labelOutputs(repeat int) {
	if p.out != tStr || p.nullable {
		return
	}
	var labels []any
	idx := make([]int8, len(p.outs))
	for i, o := range p.outs {
		k := indexOf(labels, o)
		if k < 0 {
			if len(labels) == maxLabels {
				return
			}
			k = len(labels)
			labels = append(labels, o)
		}
		idx[i] = int8(k)
	}
	if len(labels) < 2 || len(p.outs) < repeat*len(labels) {
		return
	}
	p.labels, p.labelOf = labels, idx
}

func indexOf(vs []any, v any) int {
	for i, w := range vs {
		if w == v {
			return i
		}
	}
	return -1
}

// tabled returns the program that names e's values by the labels, with its
// values, when e's values correspond one to one with the labels on the
// examples; nil otherwise.
func (p *problem) tabled(t valType, e *entry) (*node, []any) {
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

// labelStrings renders labels for notes.
func labelStrings(labels []any) []string {
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = string(toJSON(l))
	}
	return out
}
