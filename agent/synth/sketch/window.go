package sketch

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Position-wise decomposition. When a task maps one list (or two lists of
// one length) to a list of the same length, every output position of every
// example is one data point of a scalar function of a few features of that
// position: the element itself, the element k places back (0 before the
// start), the window of the last k+1 elements (fewer at the start), the
// whole prefix, the index, and the same of the other list. The enumerator
// searches that scalar function on the data points (two examples of length
// 6 give 12), one window length at a time, optionally with a warm-up: the
// first k positions, where the window is not full, all give one constant.
// The program found is a loop over the positions.

// WholeListMap searches, within share of the time left, each element's
// output as a function of the element, the whole list's sum and length
// and the element's distance from the mean (times the length): an
// element above the mean, the sum of the others, the distance itself. A
// map with one scalar argument is an operator of the levels, but two
// aggregates are beyond their sizes, and the search of four scalar
// variables up to size 4 is cheap, so it runs before the sweeps; it
// reports whether consider accepted a program.
func WholeListMap(en *Search, p *dsl.Problem, share float64, consider func(*dsl.Node, []any) bool) bool {
	st := newStreams(p, en.Envs)
	if st == nil || len(st.elem) != 1 || st.elem[0] != dsl.Int || en.Stopped {
		return false
	}
	w := windowSpec{streams: 1, whole: true}
	until := time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * share))
	fn, _, good := searchPositionFunc(en, p, st, w, until, wholeMapPrograms, en.Done, wholeMapMax, en.MemLimit/4)
	if !good {
		return false
	}
	// A function of the element alone is a map the sweeps find and
	// write more plainly.
	used := make([]bool, 4)
	markVars(fn, used)
	return (used[1] || used[2] || used[3]) && offer(en, positionNode(p, st, w, fn, nil), consider)
}

// wholeMapMax is the size of the function of the element and the list's
// aggregates (dev > 0 is of size 3); wholeMapPrograms bounds each search
// of it in programs (all of size 4 are fewer), so that its cost and
// outcome do not depend on the machine's load.
const (
	wholeMapMax      = 4
	wholeMapPrograms = 200_000
)

// maxTrusted is the size of a position function taken as soon as it is
// found.
const maxTrusted = 9

// Positionwise tries every window choice in turn within share of the time
// left; it reports whether consider accepted a program.
func Positionwise(en *Search, p *dsl.Problem, share float64, consider func(*dsl.Node, []any) bool) bool {
	st := newStreams(p, en.Envs)
	if st == nil || en.Stopped {
		return false
	}
	until := time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * share))
	specs := windowSpecs(len(st.elem), !slices.ContainsFunc(st.elem, func(t dsl.Type) bool { return t != dsl.Int }))
	try := func(w windowSpec, fn *dsl.Node, warmVal any) bool {
		return offer(en, positionNode(p, st, w, fn, warmVal), consider)
	}
	// Small functions of every choice first, then larger ones. A large
	// conditional fits a choice easily, and may be the wrong choice's:
	// those are kept, and the smallest of all is taken at the end.
	type found struct {
		w       windowSpec
		fn      *dsl.Node
		warmVal any
	}
	var larger []found
	// Two integer lists read as one: a window over their products, sums
	// or differences (a sliding dot product), with small functions, after
	// the small functions of the lists as they are.
	derivedLists := func() bool {
		for _, d := range derivations {
			dst := st.derived(d)
			if dst == nil {
				break
			}
			for _, w := range windowSpecs(1, true) {
				left := time.Until(until)
				if left <= 0 || en.interrupted() {
					break
				}
				if w.prev {
					continue
				}
				fn, warmVal, good := searchPositionFunc(en, p, dst, w, time.Now().Add(left/16), 0, en.Done, 4, en.MemLimit/4)
				if good && fn.Size <= maxTrusted && offer(en, positionNode(p, dst, w, fn, warmVal), consider) {
					return true
				}
			}
		}
		return false
	}
	for pass, maxSize := range []int{4, 6} {
		if pass == 1 && derivedLists() {
			return true
		}
		for j, w := range specs {
			left := time.Until(until)
			if left <= 0 || en.interrupted() {
				break
			}
			// Each choice gets an equal part of what is left (of the
			// first third in the first pass).
			if pass == 0 {
				left /= 3
			}
			slice := left / time.Duration(len(specs)-j)
			fn, warmVal, good := searchPositionFunc(en, p, st, w, time.Now().Add(slice), 0, en.Done, maxSize, en.MemLimit/4)
			if !good {
				continue
			}
			if fn.Size > maxTrusted {
				larger = append(larger, found{w, fn, warmVal})
				continue
			}
			if try(w, fn, warmVal) {
				return true
			}
		}
	}
	sort.SliceStable(larger, func(i, j int) bool { return larger[i].fn.Size < larger[j].fn.Size })
	for _, f := range larger {
		if try(f.w, f.fn, f.warmVal) {
			return true
		}
	}
	return false
}

// searchPositionFunc searches the scalar function of the features of w
// that gives every output position (after the warm-up), each search until
// the deadline and, when MaxEval is set, within MaxEval programs.
func searchPositionFunc(en *Search, p *dsl.Problem, st *streams, w windowSpec, deadline time.Time, maxEval int64, done <-chan struct{}, maxSize int,
	mem int64) (*dsl.Node, any, bool) {
	pt := st.prevType()
	all := &dsl.Problem{B: &dsl.Binding{Names: w.featureNames(), Types: w.featureTypes(st.elem, pt)}, Round: -1, Mined: p.Mined,
		Consts: st.labels}
	var warmVal any
	// byExample[e] are the points of example e, as indices into all.
	byExample := make([][]int, len(st.outs))
	for e, out := range st.outs {
		for i := range out {
			if i < w.warm {
				if warmVal == nil {
					warmVal = out[i]
				} else if !dsl.EqualTo(out[i], warmVal, 0) {
					return nil, nil, false
				}
				continue
			}
			prev := zeroOf(pt)
			if i > 0 {
				prev = st.asPrev(out[i-1])
			}
			byExample[e] = append(byExample[e], len(all.Envs))
			all.Envs = append(all.Envs, w.features(st.lists[e], st.elem, i, prev))
			all.Outs = append(all.Outs, st.asPrev(out[i]))
		}
	}
	if w.warm > 0 && warmVal == nil || len(all.Outs) < 3 {
		return nil, nil, false
	}
	if w.prev {
		all.Consts = append(slices.Clone(all.Consts), switchPoints(all, len(w.featureNames())-1)...)
	}
	all.Out = st.outElem
	if st.bits {
		all.Out = dsl.Bool
	}
	all.Ok = []dsl.Type{all.Out}
	// The search runs on a sample of the points, the first positions of
	// every example in turn, and the function found is checked on all of
	// them; the points it gets wrong join the sample and the search runs
	// again (counterexample-guided: the cost of a search grows with its
	// points, and most positions repeat what others show).
	var sample []int
	for j := 0; len(sample) < firstSample; j++ {
		added := false
		for _, pts := range byExample {
			if j < len(pts) && len(sample) < firstSample {
				sample, added = append(sample, pts[j]), true
			}
		}
		if !added {
			break
		}
	}
	in := make([]bool, len(all.Envs))
	for _, i := range sample {
		in[i] = true
	}
	for {
		sub := *all
		sub.Envs, sub.Outs = nil, nil
		for _, i := range sample {
			sub.Envs, sub.Outs = append(sub.Envs, all.Envs[i]), append(sub.Outs, all.Outs[i])
		}
		// A state changes only on some inputs: conditionals from the
		// first round on.
		fn := en.holeSearchBy(&sub, deadline, maxEval, done, maxSize, mem, maxSize > 5, maxSize > 5 || w.prev, nil)
		if fn == nil {
			return nil, nil, false
		}
		added := 0
		for i, env := range all.Envs {
			if !in[i] && !all.MatchesAt(i, dsl.EvalSafe(fn, env)) && added < sampleStep {
				sample, in[i] = append(sample, i), true
				added++
			}
		}
		if added == 0 {
			return fn, warmVal, true
		}
		if len(sample) > maxPointsSearched || time.Now().After(deadline) {
			return nil, nil, false
		}
	}
}

// The points a position function is first searched on, and how many of
// those it gets wrong join them for the next search.
const (
	firstSample = 40
	sampleStep  = 16
)

// switchPoints are the thresholds a state changes at, constants of the
// scalar function (the task's text seldom states them). For each value o
// the output switches to, the elements where it does (the output was
// not o before and is o now) and the elements where it could have but
// did not (not o before, not o now) are apart when all of one lie below
// all of the other; the threshold is then the one midway between the
// nearest of each, the widest margin: a heater seen turning on at 16 and
// staying off at 18 gets x <= 17. Elsewhere the least and the greatest
// switching element are the constants.
func switchPoints(sub *dsl.Problem, prevVar int) []any {
	type bounds struct {
		lo, hi, stayLo, stayHi int64
		stayed                 bool
	}
	by := map[any]*bounds{}
	var order []any
	for i, env := range sub.Envs {
		x, isInt := env[0].(int64)
		if !isInt || dsl.EqualTo(sub.Outs[i], env[prevVar], 0) {
			continue
		}
		b := by[sub.Outs[i]]
		if b == nil {
			if len(order) == dsl.MaxLabels {
				continue
			}
			b = &bounds{lo: x, hi: x}
			by[sub.Outs[i]] = b
			order = append(order, sub.Outs[i])
		}
		b.lo, b.hi = min(b.lo, x), max(b.hi, x)
	}
	for i, env := range sub.Envs {
		x, isInt := env[0].(int64)
		if !isInt || !dsl.EqualTo(sub.Outs[i], env[prevVar], 0) {
			continue
		}
		// The output stayed: it did not switch to any other value.
		for _, o := range order {
			if dsl.EqualTo(o, sub.Outs[i], 0) {
				continue
			}
			b := by[o]
			if !b.stayed {
				b.stayLo, b.stayHi, b.stayed = x, x, true
			}
			b.stayLo, b.stayHi = min(b.stayLo, x), max(b.stayHi, x)
		}
	}
	var out []any
	add := func(c int64) {
		if dsl.IndexOf(out, c) < 0 && (c < -1 || c > 3) {
			out = append(out, c)
		}
	}
	for _, o := range order {
		b := by[o]
		switch {
		case b.stayed && b.hi < b.stayLo:
			add(b.hi + (b.stayLo-b.hi)/2)
		case b.stayed && b.lo > b.stayHi:
			add(b.lo - (b.lo-b.stayHi)/2)
		default:
			add(b.lo)
			add(b.hi)
		}
	}
	return out
}

// positionNode is the whole program: the loop over the positions applying
// fn to the features of w.
func positionNode(p *dsl.Problem, st *streams, w windowSpec, fn *dsl.Node, warmVal any) *dsl.Node {
	name := fmt.Sprintf("positionwise[k=%d,warm=%d:%s]", w.k, w.warm, fn)
	if w.prev {
		name = fmt.Sprintf("positionwise[k=%d,warm=%d,prev:%s]", w.k, w.warm, fn)
	}
	if w.whole {
		name = fmt.Sprintf("positionwise[whole:%s]", fn)
	}
	bits, zip, derive := st.bits, st.zip, st.derive
	if derive != nil {
		name = fmt.Sprintf("positionwise[%s,k=%d,warm=%d:%s]", derive.name, w.k, w.warm, fn)
	}
	elem, outElem := st.elem, st.outElem
	prevFill := zeroOf(st.prevType())
	op := &dsl.Operator{Name: name, Args: p.B.Types, Ret: p.Out, Fam: dsl.FamScan, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any {
			var ls [][]any
			for _, v := range a {
				l, _ := listElems(v)
				if len(ls) > 0 && len(l) != len(ls[0]) && !zip {
					return dsl.ErrV
				}
				ls = append(ls, l)
			}
			if derive != nil {
				z, ok := derive.combine(ls)
				if !ok {
					return dsl.ErrV
				}
				ls = [][]any{z}
			}
			n := len(ls[0])
			if len(ls) > 1 {
				n = min(n, len(ls[1]))
			}
			out := make([]any, n)
			prev := prevFill
			for i := range out {
				if i < w.warm {
					out[i] = warmVal
					continue
				}
				v := dsl.EvalSafe(fn, w.features(ls, elem, i, prev))
				prev = v
				if dsl.IsErr(v) {
					return dsl.ErrV
				}
				if bits {
					b, good := v.(bool)
					if !good {
						return dsl.ErrV
					}
					v = int64(0)
					if b {
						v = int64(1)
					}
				}
				out[i] = v
			}
			if t, good := typeOfElems(out, outElem); good {
				return t
			}
			return dsl.ErrV
		},
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			lists, head := p.B.Names, ""
			if derive != nil {
				lists = []string{"zs"}
				head = fmt.Sprintf("    zs = [%s for x, y in zip(%s, %s)]\n", derive.py, p.B.Names[0], p.B.Names[1])
			}
			return dsl.Call(e.LoopHelper("positionwise", p.B.Names, head+positionLoop(e, w, fn, warmVal, prevFill, bits, zip, lists, elem)), a...)
		}}
	return overVars(p, op, 2+fn.Size+min(w.k, 2))
}

// positionLoop renders the body of the position-wise helper: the features
// fn uses, then the output at each position.
func positionLoop(e *dsl.Emitter, w windowSpec, fn *dsl.Node, warmVal, prevFill any, bits, zip bool, lists []string, elem []dsl.Type) string {
	names := w.featureNames()
	used := make([]bool, len(names))
	markVars(fn, used)
	vars := make([]dsl.Code, len(names))
	for i, n := range names {
		vars[i] = dsl.Atom(n)
	}
	expr := e.Node(fn, vars)
	if bits {
		expr = dsl.Call("int", expr)
	}
	if w.warm > 0 {
		expr = dsl.Code{S: dsl.ConstCode(warmVal).S + " if i < " + fmt.Sprint(w.warm) + " else " + expr.At(dsl.PTern), P: dsl.PTern}
	}
	var sb strings.Builder
	if w.whole {
		// The list's sum and length before the loop, the distance from
		// the mean in it.
		if used[1] || used[3] {
			fmt.Fprintf(&sb, "    total = sum(%s)\n", lists[0])
		}
		if used[2] || used[3] {
			fmt.Fprintf(&sb, "    n = len(%s)\n", lists[0])
		}
		fmt.Fprintf(&sb, "    out = []\n    for x in %s:\n", lists[0])
		if used[3] {
			sb.WriteString("        dev = x * n - total\n")
		}
		fmt.Fprintf(&sb, "        out.append(%s)\n", expr.S)
		sb.WriteString("    return out\n")
		return sb.String()
	}
	sb.WriteString("    out = []\n")
	if zip {
		fmt.Fprintf(&sb, "    for i in range(min(len(%s), len(%s))):\n", lists[0], lists[1])
	} else {
		fmt.Fprintf(&sb, "    for i in range(len(%s)):\n", lists[0])
	}
	ns := w.streams
	if w.diff {
		// d and d_back are written from the elements.
		used[0], used[1] = used[0] || used[3*ns+1], used[1] || used[3*ns+1]
		used[ns], used[ns+1] = used[ns] || used[3*ns+2], used[ns+1] || used[3*ns+2]
	}
	for s := range ns {
		if used[s] {
			fmt.Fprintf(&sb, "        %s = %s[i]\n", names[s], lists[s])
		}
	}
	for s := range ns {
		if used[ns+s] {
			fmt.Fprintf(&sb, "        %s = %s[i - %d] if i >= %d else %s\n", names[ns+s], lists[s], w.k, w.k, dsl.ConstCode(zeroOf(elem[s])).S)
		}
	}
	for s := range ns {
		if used[2*ns+s] {
			if w.k == 0 {
				fmt.Fprintf(&sb, "        %s = %s[:i + 1]\n", names[2*ns+s], lists[s])
			} else {
				fmt.Fprintf(&sb, "        %s = %s[max(0, i - %d):i + 1]\n", names[2*ns+s], lists[s], w.k)
			}
		}
	}
	if w.diff && used[3*ns+1] {
		sb.WriteString("        d = x - y\n")
	}
	if w.diff && used[3*ns+2] {
		sb.WriteString("        d_back = x_back - y_back\n")
	}
	if w.prev && used[len(names)-1] {
		fill := dsl.ConstCode(prevFill).S
		if bits {
			sb.WriteString("        prev = out[-1] == 1 if out else False\n")
		} else {
			fmt.Fprintf(&sb, "        prev = out[-1] if out else %s\n", fill)
		}
	}
	fmt.Fprintf(&sb, "        out.append(%s)\n", expr.S)
	sb.WriteString("    return out\n")
	return sb.String()
}

// markVars marks the variables a program (and its lambdas' bodies do not
// see them) uses.
func markVars(n *dsl.Node, used []bool) {
	if n.Op == nil {
		if n.Var >= 0 && n.Var < len(used) {
			used[n.Var] = true
		}
		return
	}
	for _, k := range n.Kids {
		markVars(k, used)
	}
}
