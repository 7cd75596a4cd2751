package synth

import (
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Categories keyed by a number the text shows. A template whose one hole
// is a number and another a word from a few ("BMI 22.9: normal", "Score
// 87: good", "12 °C, cold") most often names the number's range by the
// word: the word is intervals of the number before it is formatted
// (below 18.5 "underweight", below 25 "normal"), judged on the unrounded
// value. Such a word hole is tried first as intervals of the program of
// each number hole of its template, found before it: when the words are
// runs of the number's values, the hole needs no search of its own (a
// search would find thresholds on some smaller value that happens to
// order the few examples seen, and miss the number, a larger program).

// categoryHole reports whether a hole's texts read as the names of
// categories: 2 to dsl.MaxCategories distinct words, none of which occurs
// in its example's input (a word the input holds is more likely taken
// from it than chosen by a condition).
func categoryHole(sub *dsl.Problem, f dsl.Format) bool {
	if f.Kind != dsl.FmtStr || sub.Out != dsl.Str || sub.Nullable {
		return false
	}
	var seen []any
	for i, o := range sub.Outs {
		s, ok := o.(string)
		if !ok || s == "" || inInput(sub.Envs[i], s) {
			return false
		}
		if dsl.IndexOf(seen, o) < 0 {
			seen = append(seen, o)
		}
	}
	return len(seen) >= 2 && len(seen) <= dsl.MaxCategories
}

// inInput reports whether the text s occurs, ignoring case, in a string
// of the input env (a variable, or an element of a list of strings).
func inInput(env []any, s string) bool {
	s = strings.ToLower(s)
	for _, v := range env {
		switch x := v.(type) {
		case string:
			if strings.Contains(strings.ToLower(x), s) {
				return true
			}
		case []string:
			for _, y := range x {
				if strings.Contains(strings.ToLower(y), s) {
					return true
				}
			}
		}
	}
	return false
}

// keyedCategory names sub's outputs (a category hole's words) by
// intervals of a number program's values on sub's examples: the first of
// keys (programs over the same variables, nil where none was found) whose
// values give each word one run, with the roundest thresholds in the
// gaps between runs (roundCut); nil when none does.
func keyedCategory(sub *dsl.Problem, keys []*dsl.Node) *dsl.Node {
	var labels []any
	labelOf := make([]int8, len(sub.Outs))
	for i, o := range sub.Outs {
		k := dsl.IndexOf(labels, o)
		if k < 0 {
			k = len(labels)
			labels = append(labels, o)
		}
		labelOf[i] = int8(k)
	}
	lp := &dsl.Problem{Labels: labels, LabelOf: labelOf}
	for _, key := range keys {
		if key == nil {
			continue
		}
		t := nodeType(sub, key)
		if t != dsl.Int && t != dsl.Float {
			continue
		}
		vals := make([]any, len(sub.Envs))
		for i, env := range sub.Envs {
			vals[i] = dsl.EvalSafe(key, env)
		}
		runs, lo, hi, ok := labelRuns(lp, &dsl.Entry{N: key, BoxedVals: vals})
		if !ok {
			continue
		}
		names := make([]any, len(runs))
		for i, l := range runs {
			names[i] = labels[l]
		}
		cuts, le := make([]float64, len(lo)), make([]bool, len(lo))
		for i := range cuts {
			cuts[i], le[i] = roundCut(lo[i], hi[i], t == dsl.Int)
		}
		n := &dsl.Node{Op: dsl.IntervalsOp(t, cuts, le, names), Kids: []*dsl.Node{key}, Var: -1, Size: key.Size + 1}
		out := make([]any, len(sub.Envs))
		for i, env := range sub.Envs {
			out[i] = dsl.EvalSafe(n, env)
		}
		if sub.AllMatch(out) {
			return n
		}
	}
	return nil
}
