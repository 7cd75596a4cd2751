package synth

// labelStrings renders labels for notes.
func labelStrings(labels []any) []string {
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = string(toJSON(l))
	}
	return out
}

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
