package inputs

import (
	"encoding/json"
	"math"
	"math/rand"
	"slices"
	"strconv"

	"github.com/reconstruct/reconstruct/task"
)

// Inputs built to probe a candidate rather than drawn at random: a wrong
// program that fits every example usually tests something the examples
// never made it test — two arguments equal but not the same list, a
// permutation, an element one past a bound — and random inputs seldom
// hold such a relation. Each input built says which probe built it, so
// that a proposal can say why it chose it.

// Probe names one construction.
type Probe string

// The probes Construct builds, each from the observed inputs.
const (
	// ProbeEqual: two arguments equal (a list, a string, a number).
	ProbeEqual Probe = "equal"
	// ProbeReversed: one argument the other reversed.
	ProbeReversed Probe = "reversed"
	// ProbePermuted: one argument a permutation of the other (sorted,
	// shuffled, rotated).
	ProbePermuted Probe = "permuted"
	// ProbeContained: one argument within the other (a slice, an element,
	// a list one element longer).
	ProbeContained Probe = "contained"
	// ProbeOrdered: two numbers one apart either way, two lists sorted.
	ProbeOrdered Probe = "ordered"
	// ProbeBoundary: a number or a length one below, at or one above a
	// constant of the candidate, or from 0 up to a small one.
	ProbeBoundary Probe = "boundary"
	// ProbeCategory: an input of a coverage category.
	ProbeCategory Probe = "category"
)

// Built is one constructed input and the probe that built it.
type Built struct {
	Input any
	Probe Probe
}

// Construction is what Construct builds from.
type Construction struct {
	Rand *rand.Rand
	// Sources are the inputs relations and boundaries are built from (the
	// observed inputs, the latest first).
	Sources []any
	// Tuple: an input is a tuple of arguments (two lists, a pair, several
	// arguments), whose relations are probed; otherwise one value.
	Tuple bool
	// Consts are the integers the candidate computes with or compares
	// against; their boundaries are probed.
	Consts []int64
	// MaxLen bounds the lengths of lists and strings built (0: 40).
	MaxLen int
	// Max bounds the inputs built (0: no bound), taken from each probe in
	// turn, boundaries first.
	Max int
}

// Bounds of Construct.
const (
	// constructSources is how many source inputs relations are built from.
	constructSources = 4
	// maxBoundaryConsts is how many of the candidate's constants are
	// probed.
	maxBoundaryConsts = 8
)

// Construct builds inputs that probe relations between the arguments of
// the sources (equal, reversed, permuted, contained, ordered) and the
// boundaries of the constants. The inputs keep the sources' structure; a
// value a relation puts in an argument's place looks like the values
// observed there (fit.go). They may still break the task's constraints
// (a boundary's length or number): callers filter them as they filter
// drawn inputs.
func Construct(c Construction) []Built {
	if c.MaxLen <= 0 {
		c.MaxLen = 40
	}
	var out []Built
	add := func(v any, p Probe) {
		if v != nil {
			out = append(out, Built{Input: v, Probe: p})
		}
	}
	srcs := c.Sources[:min(len(c.Sources), constructSources)]
	if c.Tuple {
		places := profile(c.Sources)
		for _, src := range srcs {
			args, ok := src.([]any)
			if !ok {
				continue
			}
			for i := range args {
				for j := range args {
					if i != j {
						for _, r := range relations(c.Rand, args[i], args[j]) {
							if j < len(places) && places[j].fits(r.v) {
								add(replaceAt(args, j, r.v), r.p)
							}
						}
					}
				}
			}
		}
	}
	consts := boundaryConsts(c.Consts)
	for k, x := range consts {
		for _, b := range boundaryValues(x) {
			if len(srcs) == 0 {
				add(b, ProbeBoundary)
				continue
			}
			src := srcs[k%len(srcs)]
			add(withNumber(c.Rand, src, b), ProbeBoundary)
			if b >= 0 && int(b) <= c.MaxLen {
				add(withLength(src, int(b), c.Tuple), ProbeBoundary)
			}
		}
	}
	if c.Max > 0 {
		out = inTurn(out, c.Max)
	}
	return out
}

// inTurn keeps at most n of built, taking one of each probe in turn (the
// boundaries first, then the relations in the order built).
func inTurn(built []Built, n int) []Built {
	if len(built) <= n {
		return built
	}
	var probes []Probe
	byProbe := map[Probe][]Built{}
	for _, b := range built {
		if byProbe[b.Probe] == nil {
			probes = append(probes, b.Probe)
		}
		byProbe[b.Probe] = append(byProbe[b.Probe], b)
	}
	slices.SortStableFunc(probes, func(a, b Probe) int {
		switch {
		case a == b:
			return 0
		case a == ProbeBoundary:
			return -1
		case b == ProbeBoundary:
			return 1
		}
		return 0
	})
	var out []Built
	for k := 0; len(out) < n; k++ {
		added := false
		for _, p := range probes {
			if k < len(byProbe[p]) && len(out) < n {
				out, added = append(out, byProbe[p][k]), true
			}
		}
		if !added {
			break
		}
	}
	return out
}

// boundaryConsts are the constants probed: distinct, small first, at most
// maxBoundaryConsts.
// boundaryValues are the numbers that probe a constant x: one below, x and
// one above; and for a small positive x (at most smallConst) every number
// from 0 up to it. A program that divides by x, steps by x or compares
// with x is most often wrong, if at all, on the few numbers below it
// (ceil(n/4) counts the fewest coins of 1, 3 and 4 for every amount but
// 2), which a random draw from a large domain seldom hits.
func boundaryValues(x int64) []int64 {
	out := []int64{x - 1, x, x + 1}
	if x > 2 && x <= smallConst {
		for b := int64(0); b < x-1; b++ {
			out = append(out, b)
		}
	}
	return out
}

// smallConst is the largest constant whose numbers below are all probed.
const smallConst = 12

func boundaryConsts(cs []int64) []int64 {
	var out []int64
	for _, x := range cs {
		if x > -1e9 && x < 1e9 && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	slices.SortStableFunc(out, func(a, b int64) int { return int(abs64(a) - abs64(b)) })
	return out[:min(len(out), maxBoundaryConsts)]
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

type related struct {
	v any
	p Probe
}

// relations are the values the argument at j may take to stand in a
// relation with a, the argument at i (b is its current value).
func relations(rng *rand.Rand, a, b any) []related {
	switch x := a.(type) {
	case []any:
		if _, ok := b.([]any); ok {
			return listRelations(rng, x)
		}
	case string:
		if _, ok := b.(string); ok {
			return stringRelations(rng, x)
		}
	}
	fa, okA := numberOf(a)
	if !okA {
		return nil
	}
	if _, ok := numberOf(b); ok {
		n := numberLike(a)
		return []related{{n(fa), ProbeEqual}, {n(fa + 1), ProbeOrdered}, {n(fa - 1), ProbeOrdered}, {n(-fa), ProbeReversed}}
	}
	return nil
}

// listRelations: the list equal, reversed, sorted, shuffled, rotated,
// without its first or last element, with one element more.
func listRelations(rng *rand.Rand, xs []any) []related {
	out := []related{{slices.Clone(xs), ProbeEqual}}
	if len(xs) < 2 {
		return append(out, related{append(slices.Clone(xs), firstNumber(xs)), ProbeContained})
	}
	rev := slices.Clone(xs)
	slices.Reverse(rev)
	sorted := slices.Clone(xs)
	slices.SortStableFunc(sorted, compareValues)
	shuffled := slices.Clone(xs)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	k := 1 + rng.Intn(len(xs)-1)
	rotated := append(slices.Clone(xs[k:]), xs[:k]...)
	out = append(out, related{rev, ProbeReversed}, related{sorted, ProbePermuted}, related{shuffled, ProbePermuted},
		related{rotated, ProbePermuted}, related{slices.Clone(xs[1:]), ProbeContained},
		related{slices.Clone(xs[:len(xs)-1]), ProbeContained}, related{append(slices.Clone(xs), xs[rng.Intn(len(xs))]), ProbeContained})
	return out
}

// stringRelations: the same for a string's characters.
func stringRelations(rng *rand.Rand, s string) []related {
	rs := []rune(s)
	out := []related{{s, ProbeEqual}}
	if len(rs) < 2 {
		return append(out, related{s + s, ProbeContained})
	}
	rev := slices.Clone(rs)
	slices.Reverse(rev)
	sorted := slices.Clone(rs)
	slices.Sort(sorted)
	shuffled := slices.Clone(rs)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	k := 1 + rng.Intn(len(rs)-1)
	return append(out, related{string(rev), ProbeReversed}, related{string(sorted), ProbePermuted},
		related{string(shuffled), ProbePermuted}, related{string(rs[k:]) + string(rs[:k]), ProbePermuted},
		related{string(rs[1:]), ProbeContained}, related{string(rs[:len(rs)-1]), ProbeContained},
		related{s + string(rs[rng.Intn(len(rs))]), ProbeContained})
}

// replaceAt is a copy of args with the argument at j replaced by v.
func replaceAt(args []any, j int, v any) any {
	out := slices.Clone(args)
	out[j] = v
	return out
}

// withNumber is src with one number (chosen at random) replaced by b, or
// b itself when src is a number; nil when src holds no integer.
func withNumber(rng *rand.Rand, src any, b int64) any {
	if _, ok := numberOf(src); ok {
		return b
	}
	var paths [][]int
	var walk func(v any, path []int)
	walk = func(v any, path []int) {
		switch x := v.(type) {
		case []any:
			for i, e := range x {
				walk(e, append(slices.Clone(path), i))
			}
		default:
			if f, ok := numberOf(v); ok && f == math.Trunc(f) {
				paths = append(paths, path)
			}
		}
	}
	walk(src, nil)
	if len(paths) == 0 {
		return nil
	}
	out := deepCopy(src)
	set(&out, paths[rng.Intn(len(paths))], b)
	return out
}

// set writes v at path within *root.
func set(root *any, path []int, v any) {
	if len(path) == 0 {
		*root = v
		return
	}
	xs := (*root).([]any)
	set(&xs[path[0]], path[1:], v)
}

// withLength is src (a list or a string, or in a tuple its first list or
// string) cut or extended cyclically to n elements; nil when src has no
// such part.
func withLength(src any, n int, tuple bool) any {
	if tuple {
		args, ok := src.([]any)
		if !ok {
			return nil
		}
		for i, a := range args {
			if r := resized(a, n); r != nil {
				return replaceAt(args, i, r)
			}
		}
		return nil
	}
	return resized(src, n)
}

// resized is a list or string cut or extended cyclically to n, nil for
// other values or an empty one to extend.
func resized(v any, n int) any {
	switch x := v.(type) {
	case []any:
		if len(x) == 0 && n > 0 {
			return nil
		}
		out := make([]any, n)
		for i := range out {
			out[i] = deepCopy(x[i%len(x)])
		}
		return out
	case string:
		rs := []rune(x)
		if len(rs) == 0 && n > 0 {
			return nil
		}
		out := make([]rune, n)
		for i := range out {
			out[i] = rs[i%len(rs)]
		}
		return string(out)
	}
	return nil
}

// numberLike returns a maker of numbers of a's sort: integers stay
// integers.
func numberLike(a any) func(float64) any {
	isInt := false
	switch x := a.(type) {
	case int64:
		isInt = true
	case json.Number:
		_, err := strconv.ParseInt(string(x), 10, 64)
		isInt = err == nil
	}
	return func(f float64) any {
		if isInt {
			return int64(f)
		}
		return f
	}
}

// firstNumber is a list's first element, or 0 for an empty one.
func firstNumber(xs []any) any {
	if len(xs) > 0 {
		return deepCopy(xs[0])
	}
	return int64(0)
}

// Covering draws, for each category of cats that Witness cannot build, up
// to tries inputs until one covers it (task.CategoriesOf).
func (g *Generator) Covering(kind task.Kind, dom *task.Domain, cats []string, tries int) []any {
	var out []any
	for _, c := range cats {
		if w, ok := g.Witness(c); ok {
			out = append(out, w)
			continue
		}
		for range tries {
			v := g.Draw()
			if v != nil && slices.Contains(task.CategoriesOf(kind, dom, Encode(v)), c) {
				out = append(out, v)
				break
			}
		}
	}
	return out
}

// Shown returns the relations between arguments that some of the inputs
// (tuples of arguments when tuple is set; otherwise they have none)
// already show: a probe of a relation no observed input shows is the
// likelier to split a candidate from its rivals.
func Shown(inputs []any, tuple bool) map[Probe]bool {
	out := map[Probe]bool{}
	if !tuple {
		return out
	}
	for _, in := range inputs {
		args, ok := in.([]any)
		if !ok {
			continue
		}
		for i := range args {
			for j := range args {
				if i != j {
					for _, p := range relationsOf(args[i], args[j]) {
						out[p] = true
					}
				}
			}
		}
	}
	return out
}

// relationsOf are the relations b stands in with a.
func relationsOf(a, b any) []Probe {
	if fa, ok := numberOf(a); ok {
		fb, ok := numberOf(b)
		switch {
		case !ok:
			return nil
		case fa == fb:
			return []Probe{ProbeEqual}
		case fb == -fa:
			return []Probe{ProbeReversed}
		case math.Abs(fa-fb) == 1:
			return []Probe{ProbeOrdered}
		}
		return nil
	}
	xs, ys := elementsOf(a), elementsOf(b)
	if xs == nil || ys == nil {
		return nil
	}
	key := func(v any) string { return string(Encode(v)) }
	ka, kb := make([]string, len(xs)), make([]string, len(ys))
	for i, x := range xs {
		ka[i] = key(x)
	}
	for i, y := range ys {
		kb[i] = key(y)
	}
	if slices.Equal(ka, kb) {
		return []Probe{ProbeEqual}
	}
	var out []Probe
	if rev := slices.Clone(ka); len(rev) > 1 {
		slices.Reverse(rev)
		if slices.Equal(rev, kb) {
			out = append(out, ProbeReversed)
		}
	}
	sa, sb := slices.Clone(ka), slices.Clone(kb)
	slices.Sort(sa)
	slices.Sort(sb)
	if slices.Equal(sa, sb) {
		out = append(out, ProbePermuted)
	}
	if len(kb) > 0 && len(kb) < len(ka) {
		for i := 0; i+len(kb) <= len(ka); i++ {
			if slices.Equal(ka[i:i+len(kb)], kb) {
				out = append(out, ProbeContained)
				break
			}
		}
	}
	return out
}

// elementsOf is a list's elements or a string's characters (nil for other
// values).
func elementsOf(v any) []any {
	switch x := v.(type) {
	case []any:
		if x == nil {
			return []any{}
		}
		return x
	case string:
		out := []any{}
		for _, r := range x {
			out = append(out, string(r))
		}
		return out
	}
	return nil
}
