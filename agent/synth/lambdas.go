package synth

import (
	"context"
	"fmt"
	"sync"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
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

func lamSpecs() [dsl.NumSigs]lamSpec {
	var specs [dsl.NumSigs]lamSpec
	ints := []int64{-7, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 12, 15, 16, 25, 64, 99, 100}
	for _, x := range ints {
		specs[dsl.SigI].probes = append(specs[dsl.SigI].probes, []any{x})
	}
	specs[dsl.SigI].consts = intConsts
	specs[dsl.SigI].maxSize, specs[dsl.SigI].maxPer = 7, 8000

	pairsII := [][2]int64{{0, 0}, {1, 0}, {0, 1}, {2, 3}, {3, 2}, {-1, 4}, {5, -2}, {7, 7}, {-3, -5}, {10, 3}, {4, 12}, {1, 1}, {6, 9}, {-4, 2}, {13, 5}, {2, 2}, {8, -8}, {0, 5}, {-6, 0}, {9, 4}, {3, 15}, {100, 7}}
	for _, p := range pairsII {
		specs[dsl.SigII].probes = append(specs[dsl.SigII].probes, []any{p[0], p[1]})
	}
	specs[dsl.SigII].consts = intConsts
	specs[dsl.SigII].maxSize, specs[dsl.SigII].maxPer = 6, 4000

	floats := []float64{-2.5, -1, 0, 0.5, 1, 1.5, 2, 3.75, 10, -0.25, 7.1, 2.345, 100.5}
	for _, f := range floats {
		specs[dsl.SigF].probes = append(specs[dsl.SigF].probes, []any{f})
	}
	fconsts := []any{0.0, 0.5, 1.0, 1.5, 2.0, 2.5, int64(0), int64(1), int64(2), int64(3), int64(10), int64(100)}
	specs[dsl.SigF].consts = fconsts
	specs[dsl.SigF].maxSize, specs[dsl.SigF].maxPer = 5, 5000

	for i, f := range floats {
		g := floats[(i*5+3)%len(floats)]
		specs[dsl.SigFF].probes = append(specs[dsl.SigFF].probes, []any{f, g})
	}
	specs[dsl.SigFF].consts = fconsts
	specs[dsl.SigFF].maxSize, specs[dsl.SigFF].maxPer = 5, 6000

	words := []string{"a", "B", "z", "Z", "0", "7", " ", "!", "e", "U", "m", "hello", "World", "ab1", "A b", "", "racecar", "Python3", "XYZ"}
	for _, w := range words {
		specs[dsl.SigS].probes = append(specs[dsl.SigS].probes, []any{w})
	}
	specs[dsl.SigS].consts = []any{int64(0), int64(1), int64(2), int64(3), int64(13), int64(-1), "", " "}
	specs[dsl.SigS].maxSize, specs[dsl.SigS].maxPer = 5, 3000
	return specs
}

// DefaultTaskBanks is how many sets of task-specific lambda banks a
// Shared keeps by default, besides the default banks.
const DefaultTaskBanks = 2

// SharedOptions bound what a Shared keeps.
type SharedOptions struct {
	// TaskBanks bounds the lambda banks kept for tasks whose text names
	// constants, the oldest dropped first (default DefaultTaskBanks); the
	// default banks, which every task uses, are always kept.
	TaskBanks int
}

// Shared is what the searches of several runs share: the lambda banks,
// built once per set of constants mined from a task's text (a second or
// two of CPU each) and never changed after. Whoever runs the searches
// owns one and passes it in Options: the runner for one run, a sweep for
// all its tasks, a worker for the tasks it runs. It is safe for
// concurrent use; a bank is built by the first search that needs it,
// within that search's call.
type Shared struct {
	opts SharedOptions
	mu   sync.Mutex
	// banks holds the default banks and the banks of the last
	// opts.TaskBanks constant sets (order, oldest first).
	banks map[string]*dsl.Lambdas
	order []string
}

// NewShared returns an empty Shared with defaults filled in.
func NewShared(opts SharedOptions) *Shared {
	if opts.TaskBanks <= 0 {
		opts.TaskBanks = DefaultTaskBanks
	}
	return &Shared{opts: opts, banks: map[string]*dsl.Lambdas{}}
}

// Prepare builds the default lambda banks, which every task uses, unless
// they are built or ctx is done first: a runner calls it while its
// sandboxes start.
func (s *Shared) Prepare(ctx context.Context) {
	s.lambdasFor(nil, ctx.Done())
}

// defaults returns the lambda banks that do not depend on the task.
func (s *Shared) defaults() *dsl.Lambdas {
	b, _ := s.lambdasFor(nil, nil)
	return b
}

// lambdasFor returns the lambda banks of a task whose text names the
// constants mined: the default banks (no constant), or the default banks
// with those constants added to the integer pools and anchored lambdas
// (anchoredLambdas) around them. The banks are bounded by their sizes and
// counts, never by the clock, so that a loaded machine builds the same
// banks (a second or two of work, once per constant set). Closing done
// stops the build: the banks are then incomplete, not kept, and ok is
// false.
func (s *Shared) lambdasFor(mined []int64, done <-chan struct{}) (b *dsl.Lambdas, ok bool) {
	key := fmt.Sprint(mined)
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, have := s.banks[key]; have {
		return b, true
	}
	specs := lamSpecs()
	if len(mined) > 0 {
		for sig := dsl.SigI; sig < dsl.SigGeo; sig++ {
			specs[sig].consts = withConsts(specs[sig].consts, mined)
		}
	}
	b, ok = buildLambdas(specs, mined, done)
	if !ok {
		return b, false
	}
	if len(mined) > 0 {
		if len(s.order) >= s.opts.TaskBanks {
			delete(s.banks, s.order[0])
			s.order = s.order[1:]
		}
		s.order = append(s.order, key)
	}
	s.banks[key] = b
	return b, true
}

// buildLambdas enumerates every signature's lambdas; anchors are constants
// that anchoredLambdas combines with the small integer lambdas. It reports
// whether the build completed (done was not closed).
func buildLambdas(specs [dsl.NumSigs]lamSpec, anchors []int64, done <-chan struct{}) (*dsl.Lambdas, bool) {
	b := &dsl.Lambdas{}
	complete := true
	for sig := dsl.SigI; sig < dsl.SigGeo && complete; sig++ {
		sp := specs[sig]
		// The builder's bank is bounded by its caps, not by memory; it is
		// garbage once the lambdas' bodies are copied out of it.
		en := newEnumerator(enumConfig{
			envs: sp.probes, vars: dsl.SigArgs[sig], consts: sp.consts, ops: dsl.Catalog.Scalars,
			done: done, maxPerTyp: sp.maxPer,
		})
		memo := map[*dsl.Node]*dsl.Node{}
		en.grow(sp.maxSize, nil)
		if sig == dsl.SigI {
			conditionalLambdas(en)
		}
		if sig == dsl.SigII {
			keyedLambdas(en)
		}
		if len(anchors) > 0 && (sig == dsl.SigI || sig == dsl.SigII) {
			anchoredLambdas(en, anchors)
		}
		complete = !en.cancelled
		for t := dsl.Type(0); t < dsl.NumTypes; t++ {
			for size, es := range en.bank[t] {
				for _, e := range es {
					if !usesVar(e.N) {
						continue
					}
					for len(b.By[sig][t]) <= size {
						b.By[sig][t] = append(b.By[sig][t], nil)
					}
					b.By[sig][t][size] = append(b.By[sig][t][size], dsl.NewLambda(sig, t, e.N.CloneWith(memo)))
				}
			}
		}
		en.release()
	}
	for _, t := range []dsl.Type{dsl.Int, dsl.Float} {
		b.By[dsl.SigGeo][t] = [][]*dsl.Lambda{nil, dsl.GeoLambdas(t)}
	}
	return b, complete
}

func usesVar(n *dsl.Node) bool {
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
	var preds []*dsl.Entry
	for size := 2; size <= 3 && size < len(en.bank[dsl.Bool]); size++ {
		preds = append(preds, en.bank[dsl.Bool][size]...)
	}
	for _, t := range []dsl.Type{dsl.Int} {
		var small, medium []*dsl.Entry
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
		var x *dsl.Entry
		for _, e := range en.bank[t][1] {
			if e.N.Var == 0 {
				x = e
			}
		}
		op := dsl.Catalog.Conds[t]
		en.maxPerType = en.perType[t] + maxSmallCondLambdas
		// Small branches first: "x*x if x % 2 == 0 else 0" must not wait
		// behind the thousands of medium branches beside x.
		for _, p := range preds {
			for _, f := range small {
				for _, g := range small {
					en.try(op, nil, []*dsl.Entry{p, f, g}, 1+p.N.Size+f.N.Size+g.N.Size)
				}
			}
		}
		if x != nil {
			en.maxPerType = en.perType[t] + maxCondLambdas
			for _, p := range preds {
				for _, f := range medium {
					en.try(op, nil, []*dsl.Entry{p, f, x}, 1+p.N.Size+f.N.Size+1)
					en.try(op, nil, []*dsl.Entry{p, x, f}, 1+p.N.Size+f.N.Size+1)
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
	var bodies [maxAnchoredBody + 1][]*dsl.Entry
	for size := 1; size <= maxAnchoredBody && size < len(en.bank[dsl.Int]); size++ {
		for _, e := range en.bank[dsl.Int][size] {
			if usesVar(e.N) {
				bodies[size] = append(bodies[size], e)
			}
		}
	}
	var ops []*dsl.Operator
	for _, op := range dsl.Catalog.Scalars {
		if len(op.Args) == 2 && op.Args[0] == dsl.Int && op.Args[1] == dsl.Int && op.Sig == dsl.SigNone && !op.Rare {
			ops = append(ops, op)
		}
	}
	for _, c := range anchors[:min(len(anchors), maxAnchors)] {
		var k *dsl.Entry
		for _, e := range en.bank[dsl.Int][1] {
			if e.N.Op == nil && e.N.Var < 0 && e.N.Const == any(c) {
				k = e
			}
		}
		if k == nil {
			continue
		}
		en.maxPerType = max(en.perType[dsl.Int], en.perType[dsl.Bool]) + maxPerAnchor
		for _, bs := range bodies {
			for _, op := range ops {
				for _, f := range bs {
					size := op.Cost + 1 + f.N.Size
					en.try(op, nil, []*dsl.Entry{k, f}, size)
					en.try(op, nil, []*dsl.Entry{f, k}, size)
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
	if len(en.bank[dsl.Int]) <= 2 {
		return
	}
	type key struct{ x, y *dsl.Entry }
	keys := map[*dsl.Operator]*key{}
	var order []*dsl.Operator
	for _, e := range en.bank[dsl.Int][2] {
		n := e.N
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
	en.maxPerType = max(en.perType[dsl.Int], en.perType[dsl.Bool]) + maxKeyed
	for _, op := range dsl.Catalog.Scalars {
		if len(op.Args) != 2 || op.Args[0] != dsl.Int || op.Args[1] != dsl.Int || op.Sig != dsl.SigNone || op.Rare {
			continue
		}
		for _, f := range order {
			if k := keys[f]; k.x != nil && k.y != nil {
				en.try(op, nil, []*dsl.Entry{k.x, k.y}, op.Cost+k.x.N.Size+k.y.N.Size)
			}
		}
	}
}
