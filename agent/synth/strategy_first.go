package synth

import (
	"fmt"
	"strings"
	"time"
)

// First-index decomposition. When the output is the first position of a
// list at which something holds ("the smallest i with sum(xs[:i]) ==
// sum(xs[i:])", "the first element above both neighbours"), or -1 when
// none does, every position up to the output is a data point of a truth
// function of that position — false before it, true at it, false
// everywhere when the output is -1 — over the element, the prefix before
// it, the rest from it, the index and the integer inputs. The enumerator
// searches that function; the program is the loop returning the first
// position where it holds. Positions run over the elements, or also one
// past the last when some output says so (a split point).

// firstIndex is one reading of the problem: the list variable, the
// integer variables, and whether positions go one past the last.
type firstIndex struct {
	list  int
	ints  []int
	split bool
}

// featureNames are the function's variables in order.
func (f firstIndex) featureNames(p *problem) []string {
	names := []string{"pre", "rest", "i"}
	if !f.split {
		names = append([]string{"x"}, names...)
	}
	for _, v := range f.ints {
		names = append(names, p.b.names[v])
	}
	return names
}

func (f firstIndex) featureTypes() []valType {
	types := []valType{tListInt, tListInt, tInt}
	if !f.split {
		types = append([]valType{tInt}, types...)
	}
	for range f.ints {
		types = append(types, tInt)
	}
	return types
}

// features are the variables' values at position i.
func (f firstIndex) features(env []any, i int) []any {
	xs := env[f.list].([]int64)
	out := []any{xs[:i:i], xs[i:], int64(i)}
	if !f.split {
		out = append([]any{xs[i]}, out...)
	}
	for _, v := range f.ints {
		out = append(out, env[v])
	}
	return out
}

// positions is how many positions a list of n elements has.
func (f firstIndex) positions(n int) int {
	if f.split {
		return n + 1
	}
	return n
}

// run returns the first position where fn holds, or -1.
func (f firstIndex) run(fn *node, env []any) any {
	xs := env[f.list].([]int64)
	for i := range f.positions(len(xs)) {
		b, isBool := evalSafe(fn, f.features(env, i)).(bool)
		if !isBool {
			return errV
		}
		if b {
			return int64(i)
		}
	}
	return int64(-1)
}

// newFirstIndex reads a problem as a first index, or returns false when
// its output is not an integer, its inputs not one integer list and
// integers, or some output not a position of its list (or -1) or every
// output -1.
func newFirstIndex(p *problem) (firstIndex, bool) {
	f := firstIndex{list: -1}
	if p.out != tInt || p.nullable || len(p.outs) < 2 {
		return f, false
	}
	for v, t := range p.b.types {
		switch {
		case t == tListInt && f.list < 0:
			f.list = v
		case t == tInt:
			f.ints = append(f.ints, v)
		default:
			return f, false
		}
	}
	if f.list < 0 {
		return f, false
	}
	found := false
	for e, o := range p.outs {
		n := int64(len(p.envs[e][f.list].([]int64)))
		i := o.(int64)
		switch {
		case i < -1 || i > n:
			return f, false
		case i == n:
			f.split = true
		}
		found = found || i >= 0
	}
	return f, found
}

// Bounds of the decomposition: the size of the function searched and the
// share of the time left it may take.
const (
	firstMaxSize = 6
	firstShare   = 0.3
)

// firstIndexDecomposition searches the function within its share of the
// time left; it reports whether consider accepted a program.
func firstIndexDecomposition(en *sketchRun, p *problem, consider func(*node, []any) bool) bool {
	f, good := newFirstIndex(p)
	if !good || en.stopped {
		return false
	}
	sub := &problem{b: &binding{names: f.featureNames(p), types: f.featureTypes()}, round: -1, mined: p.mined, out: tBool, ok: []valType{tBool}}
	for e, o := range p.outs {
		env := p.envs[e]
		at := int(o.(int64))
		last := at
		if at < 0 {
			last = f.positions(len(env[f.list].([]int64))) - 1
		}
		for i := 0; i <= last && len(sub.outs) < maxPointsSearched; i++ {
			sub.envs = append(sub.envs, f.features(env, i))
			sub.outs = append(sub.outs, i == at)
		}
	}
	if len(sub.outs) < 4 {
		return false
	}
	until := time.Now().Add(time.Duration(float64(time.Until(en.deadline)) * firstShare))
	fn := en.holeSearch(sub, until, en.done, firstMaxSize, en.memLimit/4, false, false)
	if fn == nil {
		return false
	}
	return offer(en, firstIndexNode(p, f, fn), consider)
}

// firstIndexNode is the program: the loop over the positions.
func firstIndexNode(p *problem, f firstIndex, fn *node) *node {
	op := &operator{Name: fmt.Sprintf("first_index[split=%v:%s]", f.split, fn), Args: p.b.types, Ret: tInt, Fam: famLoop, Cost: 1,
		Eval: func(_ *lambda, a []any) any { return f.run(fn, a) },
		Py: func(e *emitter, _ *lambda, a []code) code {
			return call(e.loopHelper("first_index", p.b.names, f.python(e, p, fn)), a...)
		}}
	return overVars(p, op, 3+fn.Size)
}

// python renders the helper's body.
func (f firstIndex) python(e *emitter, p *problem, fn *node) string {
	names := f.featureNames(p)
	used := make([]bool, len(names))
	markVars(fn, used)
	vars := make([]code, len(names))
	for i, n := range names {
		vars[i] = atom(n)
	}
	xs := p.b.names[f.list]
	var sb strings.Builder
	if f.split {
		fmt.Fprintf(&sb, "    for i in range(len(%s) + 1):\n", xs)
	} else {
		fmt.Fprintf(&sb, "    for i in range(len(%s)):\n", xs)
	}
	lines := map[string]string{"x": xs + "[i]", "pre": xs + "[:i]", "rest": xs + "[i:]"}
	for i, n := range names {
		if rhs, ok := lines[n]; ok && used[i] {
			fmt.Fprintf(&sb, "        %s = %s\n", n, rhs)
		}
	}
	fmt.Fprintf(&sb, "        if %s:\n            return i\n", e.node(fn, vars).s)
	sb.WriteString("    return -1\n")
	return sb.String()
}
