package sketch

import "github.com/reconstruct/reconstruct/agent/synth/dsl"

// The lists of a problem read position by position, and the windows of
// features over them, that the position-wise decomposition (window.go),
// the state machines (state.go, switch.go) and error diffusion
// (diffusion.go) learn from.

// maxWindowBack is the longest look-back tried: windows of up to 8
// elements.
const maxWindowBack = 7

// maxPointsSearched bounds the data points the scalar search runs on; the
// function is checked on every point, and the whole program on every
// example afterwards.
const maxPointsSearched = 150

// streams are the list inputs of a problem whose outputs are lists of the
// same length, the shape the position-wise and state strategies need.
type streams struct {
	// lists are the input variables' values per environment.
	lists [][][]any
	elem  []dsl.Type
	// outElem is the output element type; outs the outputs' elements per
	// example (nil for the extra environments).
	outElem dsl.Type
	outs    [][]any
	// bits says the outputs are all 0 or 1: the scalar function may be a
	// truth value, converted with int().
	bits bool
	// zip says two lists of different lengths are read up to the shorter
	// one's length, the outputs' length.
	zip bool
	// labels are the distinct outputs when they are a few strings, the
	// constants of the scalar function.
	labels []any
	// derive, when set, makes the two integer lists one, element by
	// element (their products, sums or differences): a window of those.
	derive *derivation
}

// derivation combines two integer lists into one element by element.
type derivation struct {
	name, py string
	f        func(a, b int64) (int64, bool)
}

var derivations = []derivation{
	{"products", "x * y", dsl.MulI},
	{"sums", "x + y", dsl.AddI},
	{"differences", "x - y", dsl.SubI},
}

// derived is the one-list reading of two integer lists of one length.
func (s *streams) derived(d derivation) *streams {
	if len(s.elem) != 2 || s.elem[0] != dsl.Int || s.elem[1] != dsl.Int || s.zip {
		return nil
	}
	out := *s
	out.elem, out.derive, out.lists = []dsl.Type{dsl.Int}, &d, nil
	for i, ls := range s.lists {
		z, ok := d.combine(ls)
		if !ok && i < len(s.outs) {
			return nil
		}
		out.lists = append(out.lists, [][]any{z})
	}
	return &out
}

// combine makes the derived list of two lists of one length.
func (d derivation) combine(ls [][]any) ([]any, bool) {
	if len(ls) != 2 || len(ls[0]) != len(ls[1]) {
		return nil, false
	}
	z := make([]any, len(ls[0]))
	for i := range z {
		v, ok := d.f(ls[0][i].(int64), ls[1][i].(int64))
		if !ok {
			return nil, false
		}
		z[i] = v
	}
	return z, true
}

// elemType is the element type of a list type, or false.
func elemType(t dsl.Type) (dsl.Type, bool) {
	switch t {
	case dsl.ListInt:
		return dsl.Int, true
	case dsl.ListStr:
		return dsl.Str, true
	case dsl.ListBool:
		return dsl.Bool, true
	}
	return 0, false
}

// listElems returns a list value's elements.
func listElems(v any) ([]any, bool) {
	switch x := v.(type) {
	case []int64:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out, true
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out, true
	case []bool:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out, true
	}
	return nil, false
}

// newStreams reads the problem as streams, or returns nil when its inputs
// are not one or two lists or some output is not as long as the inputs.
func newStreams(p *dsl.Problem, envs [][]any) *streams {
	if len(p.B.Types) == 0 || len(p.B.Types) > 2 || p.Nullable || len(p.Outs) == 0 {
		return nil
	}
	oe, good := elemType(p.Out)
	if !good {
		return nil
	}
	s := &streams{outElem: oe, bits: oe == dsl.Int}
	for _, t := range p.B.Types {
		e, good := elemType(t)
		if !good {
			return nil
		}
		s.elem = append(s.elem, e)
	}
	points := 0
	for i, env := range envs {
		var ls [][]any
		for _, v := range env {
			l, _ := listElems(v)
			ls = append(ls, l)
		}
		n := len(ls[0])
		if len(ls) > 1 && len(ls[1]) != n {
			n = min(n, len(ls[1]))
		}
		s.lists = append(s.lists, ls)
		if i >= len(p.Outs) {
			continue
		}
		out, good := listElems(p.Outs[i])
		if !good || len(out) != n {
			return nil
		}
		if len(ls) > 1 && len(ls[1]) != len(ls[0]) {
			s.zip = true
		}
		for _, o := range out {
			if b, isInt := o.(int64); !isInt || (b != 0 && b != 1) {
				s.bits = false
			}
			if str, isStr := o.(string); isStr && dsl.IndexOf(s.labels, str) < 0 && len(s.labels) <= dsl.MaxLabels {
				s.labels = append(s.labels, str)
			}
		}
		s.outs = append(s.outs, out)
		points += len(out)
	}
	if len(s.labels) > dsl.MaxLabels {
		s.labels = nil
	}
	if points < 4 {
		return nil
	}
	return s
}

// length is the number of positions of the lists of one environment.
func (s *streams) length(ls [][]any) int {
	n := len(ls[0])
	if len(ls) > 1 {
		n = min(n, len(ls[1]))
	}
	return n
}

// windowSpec is one choice of features: look-back k (0: the prefix is the
// window and there is no element k back) and warm-up (positions before
// warm output warmVal).
type windowSpec struct {
	k       int
	warm    int
	streams int
	// prev adds the previous output (prevFill before the start) as a
	// feature: the output is then a state the function updates.
	prev bool
	// diff adds, for two integer lists, the differences of the elements
	// and of the elements k back (d = x - y, d_back): which list leads.
	diff bool
	// whole makes the features of one integer list the element, the
	// whole list's sum and length, and the element's distance from the
	// mean times the length (x, total, n, dev = x * n - total, an
	// integer where the mean is not): an element above the mean is
	// dev > 0, the sum of the others total - x.
	whole bool
}

// featureNames are the Python names of the features, in variable order.
func (w windowSpec) featureNames() []string {
	names := []string{"x", "y", "x_back", "y_back", "win_x", "win_y", "i"}
	if w.whole {
		return []string{"x", "total", "n", "dev"}
	}
	if w.streams == 1 {
		names = []string{"x", "back", "window", "i"}
	}
	if w.diff {
		names = append(names, "d", "d_back")
	}
	if w.prev {
		names = append(names, "prev")
	}
	return names
}

// features returns the feature values at position i of the lists, in the
// order of featureNames; prev is the previous output (when w.prev).
func (w windowSpec) features(ls [][]any, elem []dsl.Type, i int, prev any) []any {
	if w.whole {
		// Sums beyond int64 wrap here where Python's integers grow:
		// lists of such numbers are not the tasks'.
		var total int64
		for _, v := range ls[0] {
			total += v.(int64)
		}
		x, n := ls[0][i].(int64), int64(len(ls[0]))
		return []any{x, total, n, x*n - total}
	}
	var cur, back, win []any
	for s := range w.streams {
		l := ls[s]
		cur = append(cur, l[i])
		var bk any = zeroOf(elem[s])
		if i-w.k >= 0 {
			bk = l[i-w.k]
		}
		back = append(back, bk)
		lo := 0
		if w.k > 0 {
			lo = max(0, i-w.k)
		}
		win = append(win, typedList(l[lo:i+1], elem[s]))
	}
	out := append(append(cur, back...), win...)
	out = append(out, int64(i))
	if w.diff {
		d, _ := dsl.SubI(cur[0].(int64), cur[1].(int64))
		db, _ := dsl.SubI(back[0].(int64), back[1].(int64))
		out = append(out, d, db)
	}
	if w.prev {
		out = append(out, prev)
	}
	return out
}

func (w windowSpec) featureTypes(elem []dsl.Type, prev dsl.Type) []dsl.Type {
	if w.whole {
		return []dsl.Type{dsl.Int, dsl.Int, dsl.Int, dsl.Int}
	}
	var cur, win []dsl.Type
	for s := range w.streams {
		cur = append(cur, elem[s])
		lt := dsl.ListInt
		switch elem[s] {
		case dsl.Str:
			lt = dsl.ListStr
		case dsl.Bool:
			lt = dsl.ListBool
		}
		win = append(win, lt)
	}
	out := append(append(append([]dsl.Type{}, cur...), cur...), win...)
	out = append(out, dsl.Int)
	if w.diff {
		out = append(out, dsl.Int, dsl.Int)
	}
	if w.prev {
		out = append(out, prev)
	}
	return out
}

func zeroOf(t dsl.Type) any {
	switch t {
	case dsl.Str:
		return ""
	case dsl.Bool:
		return false
	}
	return int64(0)
}

// typedList converts elements back to a list value of element type t.
func typedList(xs []any, t dsl.Type) any {
	switch t {
	case dsl.Str:
		out := make([]string, len(xs))
		for i, x := range xs {
			out[i] = x.(string)
		}
		return out
	case dsl.Bool:
		out := make([]bool, len(xs))
		for i, x := range xs {
			out[i] = x.(bool)
		}
		return out
	}
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[i] = x.(int64)
	}
	return out
}

// windowSpecs lists the feature choices in the order they are tried: one
// place back, then longer windows, then the prefix; each without a
// warm-up, then with one.
func windowSpecs(streams int, ints bool) []windowSpec {
	var out []windowSpec
	for k := 1; k <= maxWindowBack; k++ {
		out = append(out, windowSpec{k: k, streams: streams}, windowSpec{k: k, warm: k, streams: streams})
		if k == 1 {
			out = append(out, windowSpec{k: 0, streams: streams}, windowSpec{k: 1, streams: streams, prev: true})
		}
		if k == 2 {
			out = append(out, windowSpec{k: 2, streams: streams, prev: true})
		}
		if k == 1 && streams == 2 && ints {
			out = append(out, windowSpec{k: 1, streams: 2, diff: true}, windowSpec{k: 1, warm: 1, streams: 2, diff: true})
		}
	}
	return out
}

// prevType is the type of the scalar function's value and of the
// previous output as its feature: a truth value for 0/1 outputs.
func (s *streams) prevType() dsl.Type {
	if s.bits {
		return dsl.Bool
	}
	return s.outElem
}

// asPrev converts an output element to the scalar function's value.
func (s *streams) asPrev(o any) any {
	if s.bits {
		return o.(int64) == 1
	}
	return o
}

// typeOfElems converts elements to a list of type elem (checking them).
func typeOfElems(xs []any, elem dsl.Type) (any, bool) {
	for _, x := range xs {
		if t, _ := dsl.TypeOf(x); t != elem {
			return nil, false
		}
	}
	return typedList(xs, elem), true
}
