package synth

import (
	"fmt"
	"sync"
)

// lamSpec says how a signature's lambdas are enumerated: over which probe
// values (observational equivalence is judged on them), with which
// constants, up to which size and how many per result type.
type lamSpec struct {
	probes  [][]any
	consts  []any
	maxSize int
	maxPer  int
}

var intConsts = []any{int64(0), int64(1), int64(2), int64(3), int64(4), int64(5), int64(6), int64(7), int64(8), int64(9), int64(10), int64(-1)}

func lamSpecs() [numSigs]lamSpec {
	var specs [numSigs]lamSpec
	ints := []int64{-7, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 12, 15, 16, 25, 64, 99, 100}
	for _, x := range ints {
		specs[sigI].probes = append(specs[sigI].probes, []any{x})
	}
	specs[sigI].consts = intConsts
	specs[sigI].maxSize, specs[sigI].maxPer = 7, 8000

	pairsII := [][2]int64{{0, 0}, {1, 0}, {0, 1}, {2, 3}, {3, 2}, {-1, 4}, {5, -2}, {7, 7}, {-3, -5}, {10, 3}, {4, 12}, {1, 1}, {6, 9}, {-4, 2}, {13, 5}, {2, 2}, {8, -8}, {0, 5}, {-6, 0}, {9, 4}, {3, 15}, {100, 7}}
	for _, p := range pairsII {
		specs[sigII].probes = append(specs[sigII].probes, []any{p[0], p[1]})
	}
	specs[sigII].consts = intConsts
	specs[sigII].maxSize, specs[sigII].maxPer = 6, 4000

	floats := []float64{-2.5, -1, 0, 0.5, 1, 1.5, 2, 3.75, 10, -0.25, 7.1, 2.345, 100.5}
	for _, f := range floats {
		specs[sigF].probes = append(specs[sigF].probes, []any{f})
	}
	fconsts := []any{0.0, 0.5, 1.0, 1.5, 2.0, 2.5, int64(0), int64(1), int64(2), int64(3), int64(10), int64(100)}
	specs[sigF].consts = fconsts
	specs[sigF].maxSize, specs[sigF].maxPer = 5, 5000

	for i, f := range floats {
		g := floats[(i*5+3)%len(floats)]
		specs[sigFF].probes = append(specs[sigFF].probes, []any{f, g})
	}
	specs[sigFF].consts = fconsts
	specs[sigFF].maxSize, specs[sigFF].maxPer = 5, 6000

	words := []string{"a", "B", "z", "Z", "0", "7", " ", "!", "e", "U", "m", "hello", "World", "ab1", "A b", "", "racecar", "Python3", "XYZ"}
	for _, w := range words {
		specs[sigS].probes = append(specs[sigS].probes, []any{w})
	}
	specs[sigS].consts = []any{int64(0), int64(1), int64(2), int64(3), int64(13), int64(-1), "", " "}
	specs[sigS].maxSize, specs[sigS].maxPer = 5, 3000
	return specs
}

// maxTaskBanks bounds the task-specific banks kept in memory.
const maxTaskBanks = 2

var (
	lamMu sync.Mutex
	// lamCache holds the default banks and the banks of the last
	// maxTaskBanks constant sets (lamOrder, oldest first).
	lamCache = map[string]*lamBanks{}
	lamOrder []string
)

// defaultLambdas returns the lambda banks that do not depend on the task,
// built once per process.
func defaultLambdas() *lamBanks {
	b, _ := lambdasFor(nil, nil)
	return b
}

// lambdasFor returns the lambda banks of a task whose text names the
// constants mined: the default banks (no constant), or the default banks
// with those constants added to the integer pools and anchored lambdas
// (anchoredLambdas) around them. The banks are bounded by their sizes and
// counts, never by the clock, so that a loaded machine builds the same
// banks (a second or two of work, once per constant set). Closing done
// stops the build: the banks are then incomplete, not cached, and ok is
// false.
func lambdasFor(mined []int64, done <-chan struct{}) (b *lamBanks, ok bool) {
	key := fmt.Sprint(mined)
	lamMu.Lock()
	defer lamMu.Unlock()
	if b, have := lamCache[key]; have {
		return b, true
	}
	specs := lamSpecs()
	if len(mined) > 0 {
		for sig := sigI; sig < sigGeo; sig++ {
			specs[sig].consts = withConsts(specs[sig].consts, mined)
		}
	}
	b, ok = buildLambdas(specs, mined, done)
	if !ok {
		return b, false
	}
	if len(mined) > 0 {
		if len(lamOrder) >= maxTaskBanks {
			delete(lamCache, lamOrder[0])
			lamOrder = lamOrder[1:]
		}
		lamOrder = append(lamOrder, key)
	}
	lamCache[key] = b
	return b, true
}

// buildLambdas enumerates every signature's lambdas; anchors are constants
// that anchoredLambdas combines with the small integer lambdas. It reports
// whether the build completed (done was not closed).
func buildLambdas(specs [numSigs]lamSpec, anchors []int64, done <-chan struct{}) (*lamBanks, bool) {
	b := &lamBanks{}
	complete := true
	for sig := sigI; sig < sigGeo && complete; sig++ {
		sp := specs[sig]
		en := newEnumerator(enumConfig{
			envs: sp.probes, vars: sigArgs[sig], consts: sp.consts, ops: catalog.scalars,
			done: done, maxPerTyp: sp.maxPer,
		})
		en.grow(sp.maxSize, nil)
		if sig == sigI {
			conditionalLambdas(en)
		}
		if sig == sigII {
			keyedLambdas(en)
		}
		if len(anchors) > 0 && (sig == sigI || sig == sigII) {
			anchoredLambdas(en, anchors)
		}
		complete = !en.cancelled
		for t := valType(0); t < numTypes; t++ {
			for size, es := range en.bank[t] {
				for _, e := range es {
					if !usesVar(e.n) {
						continue
					}
					for len(b.by[sig][t]) <= size {
						b.by[sig][t] = append(b.by[sig][t], nil)
					}
					b.by[sig][t][size] = append(b.by[sig][t][size], newLambda(sig, t, e.n))
				}
			}
		}
	}
	for _, t := range []valType{tInt, tFloat} {
		b.by[sigGeo][t] = [][]*lambda{nil, geoLambdas(t)}
	}
	return b, complete
}

func usesVar(n *node) bool {
	if n.Op == nil {
		return n.Var >= 0
	}
	for _, k := range n.Kids {
		if usesVar(k) {
			return true
		}
	}
	return false
}

// conditionalLambdas adds "f(x) if p(x) else g(x)" for small predicates and
// branches (one branch may be larger when the other is x itself): the
// size-ordered enumeration reaches these only after thousands of
// unconditional lambdas, which the per-type cap cuts off.
// maxCondLambdas caps the conditional lambdas with a medium branch beside
// x, maxSmallCondLambdas those with two small branches.
const (
	maxCondLambdas      = 6000
	maxSmallCondLambdas = 3000
)

func conditionalLambdas(en *enumerator) {
	en.stopped = false
	var preds []*entry
	for size := 2; size <= 3 && size < len(en.bank[tBool]); size++ {
		preds = append(preds, en.bank[tBool][size]...)
	}
	for _, t := range []valType{tInt} {
		var small, medium []*entry
		for size := 1; size < len(en.bank[t]) && size <= 4; size++ {
			if size <= 2 {
				small = append(small, en.bank[t][size]...)
			} else {
				medium = append(medium, en.bank[t][size]...)
			}
		}
		if len(small) == 0 {
			continue
		}
		var x *entry
		for _, e := range en.bank[t][1] {
			if e.n.Var == 0 {
				x = e
			}
		}
		op := catalog.conds[t]
		en.maxPerType = en.perType[t] + maxSmallCondLambdas
		// Small branches first: "x*x if x % 2 == 0 else 0" must not wait
		// behind the thousands of medium branches beside x.
		for _, p := range preds {
			for _, f := range small {
				for _, g := range small {
					en.try(op, nil, []*entry{p, f, g}, 1+p.n.Size+f.n.Size+g.n.Size)
				}
			}
		}
		if x != nil {
			en.maxPerType = en.perType[t] + maxCondLambdas
			for _, p := range preds {
				for _, f := range medium {
					en.try(op, nil, []*entry{p, f, x}, 1+p.n.Size+f.n.Size+1)
					en.try(op, nil, []*entry{p, x, f}, 1+p.n.Size+f.n.Size+1)
				}
			}
		}
	}
}

// Bounds of anchoredLambdas: the anchors used (the first mined), the
// largest body combined with an anchor, and the lambdas each anchor may add
// per result type.
const (
	maxAnchors      = 4
	maxAnchoredBody = 3
	maxPerAnchor    = 5000
)

// anchoredLambdas adds "op(c, f)" and "op(f, c)" for the first anchor
// constants c, every binary integer operator (arithmetic, min/max,
// comparisons) and every small lambda body f, smallest bodies first:
// "min(10, max(0, x))", "(x + y) % 1000" are one step from a body the
// size-ordered enumeration reached, but past the per-type caps that cut it.
func anchoredLambdas(en *enumerator, anchors []int64) {
	en.stopped = false
	var bodies [maxAnchoredBody + 1][]*entry
	for size := 1; size <= maxAnchoredBody && size < len(en.bank[tInt]); size++ {
		for _, e := range en.bank[tInt][size] {
			if usesVar(e.n) {
				bodies[size] = append(bodies[size], e)
			}
		}
	}
	var ops []*operator
	for _, op := range catalog.scalars {
		if len(op.Args) == 2 && op.Args[0] == tInt && op.Args[1] == tInt && op.Sig == sigNone && !op.Rare {
			ops = append(ops, op)
		}
	}
	for _, c := range anchors[:min(len(anchors), maxAnchors)] {
		var k *entry
		for _, e := range en.bank[tInt][1] {
			if e.n.Op == nil && e.n.Var < 0 && e.n.Const == any(c) {
				k = e
			}
		}
		if k == nil {
			continue
		}
		en.maxPerType = max(en.perType[tInt], en.perType[tBool]) + maxPerAnchor
		for _, bs := range bodies {
			for _, op := range ops {
				for _, f := range bs {
					size := op.Cost + 1 + f.n.Size
					en.try(op, nil, []*entry{k, f}, size)
					en.try(op, nil, []*entry{f, k}, size)
				}
			}
		}
	}
}

// maxKeyed caps the lambdas keyedLambdas adds per result type.
const maxKeyed = 1500

// keyedLambdas adds "f(x) op f(y)" for every one-argument integer function
// f and every binary integer operator (arithmetic, min/max, comparisons):
// the same key applied to both arguments ("abs(x) == abs(y)", "x % 2 ==
// y % 2" spelled with even, "abs(x) + abs(y)") is a common shape that the
// per-type cap of two-argument lambdas cuts at size 5.
func keyedLambdas(en *enumerator) {
	en.stopped = false
	if len(en.bank[tInt]) <= 2 {
		return
	}
	type key struct{ x, y *entry }
	keys := map[*operator]*key{}
	var order []*operator
	for _, e := range en.bank[tInt][2] {
		n := e.n
		if n.Op == nil || len(n.Kids) != 1 || n.Lam != nil || n.Kids[0].Op != nil || n.Kids[0].Var < 0 {
			continue
		}
		k := keys[n.Op]
		if k == nil {
			k = &key{}
			keys[n.Op] = k
			order = append(order, n.Op)
		}
		if n.Kids[0].Var == 0 {
			k.x = e
		} else {
			k.y = e
		}
	}
	en.maxPerType = max(en.perType[tInt], en.perType[tBool]) + maxKeyed
	for _, op := range catalog.scalars {
		if len(op.Args) != 2 || op.Args[0] != tInt || op.Args[1] != tInt || op.Sig != sigNone || op.Rare {
			continue
		}
		for _, f := range order {
			if k := keys[f]; k.x != nil && k.y != nil {
				en.try(op, nil, []*entry{k.x, k.y}, op.Cost+k.x.n.Size+k.y.n.Size)
			}
		}
	}
}
