package dsl

// Categorical outputs: when the outputs are a few repeated strings, they
// are labels, and a program computing a small number or a truth value
// that names them one to one fits under a table (the table is built by
// the search, package synth).

// LabelStrings renders labels for notes.
func LabelStrings(labels []any) []string {
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = string(ToJSON(l))
	}
	return out
}

// MaxLabels is the most labels a table names (one computed value each).
const MaxLabels = 4

// MaxCategories is the most distinct outputs treated as labels: more than
// a table names, as intervals of a number may (the grades "A" to "F").
const MaxCategories = 8

// setLabels records the outputs as labels when they are 2 to
// MaxCategories distinct strings, each seen at least twice on average.
func (p *Problem) setLabels() { p.labelOutputs(2) }

// RelaxLabels records the outputs as labels even when they barely repeat
// (two examples, two strings), reporting whether that made labels of
// them. It is the last resort of a search that found nothing: the
// workflow adds examples only once a candidate passes, and a few distinct
// strings are most often category names.
func (p *Problem) RelaxLabels() bool {
	if p.Labels != nil {
		return false
	}
	p.labelOutputs(1)
	return p.Labels != nil
}

// labelOutputs sets the labels when the outputs are 2 to MaxCategories
// distinct strings and each is seen repeat times on average.
func (p *Problem) labelOutputs(repeat int) {
	if p.Out != Str || p.Nullable {
		return
	}
	var labels []any
	idx := make([]int8, len(p.Outs))
	for i, o := range p.Outs {
		k := IndexOf(labels, o)
		if k < 0 {
			if len(labels) == MaxCategories {
				return
			}
			k = len(labels)
			labels = append(labels, o)
		}
		idx[i] = int8(k)
	}
	if len(labels) < 2 || len(p.Outs) < repeat*len(labels) {
		return
	}
	p.Labels, p.LabelOf = labels, idx
}

// IndexOf is the position of v in vs (compared with ==), or -1.
func IndexOf(vs []any, v any) int {
	for i, w := range vs {
		if w == v {
			return i
		}
	}
	return -1
}
