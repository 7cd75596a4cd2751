package sketch

import (
	"fmt"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
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
func (f firstIndex) featureNames(p *dsl.Problem) []string {
	names := []string{"pre", "rest", "i"}
	if !f.split {
		names = append([]string{"x"}, names...)
	}
	for _, v := range f.ints {
		names = append(names, p.B.Names[v])
	}
	return names
}

func (f firstIndex) featureTypes() []dsl.Type {
	types := []dsl.Type{dsl.ListInt, dsl.ListInt, dsl.Int}
	if !f.split {
		types = append([]dsl.Type{dsl.Int}, types...)
	}
	for range f.ints {
		types = append(types, dsl.Int)
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
func (f firstIndex) run(fn *dsl.Node, env []any) any {
	xs := env[f.list].([]int64)
	for i := range f.positions(len(xs)) {
		b, isBool := dsl.EvalSafe(fn, f.features(env, i)).(bool)
		if !isBool {
			return dsl.ErrV
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
func newFirstIndex(p *dsl.Problem) (firstIndex, bool) {
	f := firstIndex{list: -1}
	if p.Out != dsl.Int || p.Nullable || len(p.Outs) < 2 {
		return f, false
	}
	for v, t := range p.B.Types {
		switch {
		case t == dsl.ListInt && f.list < 0:
			f.list = v
		case t == dsl.Int:
			f.ints = append(f.ints, v)
		default:
			return f, false
		}
	}
	if f.list < 0 {
		return f, false
	}
	found := false
	for e, o := range p.Outs {
		n := int64(len(p.Envs[e][f.list].([]int64)))
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

// FirstIndex searches the function within its share of the
// time left; it reports whether consider accepted a program.
func FirstIndex(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	f, good := newFirstIndex(p)
	if !good || en.Stopped {
		return false
	}
	sub := &dsl.Problem{B: &dsl.Binding{Names: f.featureNames(p), Types: f.featureTypes()}, Round: -1, Mined: p.Mined, Out: dsl.Bool, Ok: []dsl.Type{dsl.Bool}}
	for e, o := range p.Outs {
		env := p.Envs[e]
		at := int(o.(int64))
		last := at
		if at < 0 {
			last = f.positions(len(env[f.list].([]int64))) - 1
		}
		for i := 0; i <= last && len(sub.Outs) < maxPointsSearched; i++ {
			sub.Envs = append(sub.Envs, f.features(env, i))
			sub.Outs = append(sub.Outs, i == at)
		}
	}
	if len(sub.Outs) < 4 {
		return false
	}
	until := time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * firstShare))
	fn := en.holeSearch(sub, until, en.Done, firstMaxSize, en.MemLimit/4, false, false)
	if fn == nil {
		return false
	}
	return offer(en, firstIndexNode(p, f, fn), consider)
}

// firstIndexNode is the program: the loop over the positions.
func firstIndexNode(p *dsl.Problem, f firstIndex, fn *dsl.Node) *dsl.Node {
	op := &dsl.Operator{Name: fmt.Sprintf("first_index[split=%v:%s]", f.split, fn), Args: p.B.Types, Ret: dsl.Int, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return f.run(fn, a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("first_index", p.B.Names, f.python(e, p, fn)), a...)
		}}
	return overVars(p, op, 3+fn.Size)
}

// python renders the helper's body.
func (f firstIndex) python(e *dsl.Emitter, p *dsl.Problem, fn *dsl.Node) string {
	names := f.featureNames(p)
	used := make([]bool, len(names))
	markVars(fn, used)
	vars := make([]dsl.Code, len(names))
	for i, n := range names {
		vars[i] = dsl.Atom(n)
	}
	xs := p.B.Names[f.list]
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
	fmt.Fprintf(&sb, "        if %s:\n            return i\n", e.Node(fn, vars).S)
	sb.WriteString("    return -1\n")
	return sb.String()
}
