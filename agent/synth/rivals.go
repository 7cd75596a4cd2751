package synth

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// rivalSteps is how many sizes past the smallest program consistent with
// the examples a proposal looks for its rivals: a program consistent with
// thirty examples that is wrong on held-out tests usually had a rival
// within two sizes, and proposals split such rivals until none is left.
const rivalSteps = 2

// maxRivals bounds the rivals kept: the smallest programs fill the first
// maxSurvivors places, the rivals two sizes further need more.
const maxRivals = 4 * maxSurvivors

// rivals returns the programs consistent with p's examples, from the
// smallest up to rivalSteps sizes past it (at most maxRivals), kept
// apart by their values on the proposal candidates extra (environments of
// p's binding): any two of them disagree on some candidate. The search
// gets a proposeShare-th of the session's time (at most
// Options.ProposeTimeLimit), or of Options.MaxPrograms, and stops with ctx.
// When cand, the candidate the proposal tests, is not among them (a
// strategy found it, beyond the short search's sizes), its own near
// misses are rivals too: programs of its size one change away.
func (a *Agent) rivals(ctx context.Context, p *dsl.Problem, extra [][]any, cand *dsl.Node) []*dsl.Entry {
	limit := a.proposeLimit()
	spec := a.spec(ctx, limit, proposeShare)
	spec.extra, spec.collect, spec.beyond, spec.keep = extra, true, rivalSteps, maxRivals
	res := search(p, spec)
	if res.memFull {
		a.mu.Lock()
		a.proposalsFull++
		a.mu.Unlock()
	}
	surv := res.survivors
	// The near misses get a quarter of the search's time more (with
	// Options.MaxPrograms, only their count bounds them).
	bounds := func() neighbourBounds {
		var deadline time.Time
		if a.opts.MaxPrograms <= 0 {
			deadline = time.Now().Add(limit / 4)
		}
		lams, _ := a.opts.Shared.lambdasFor(p.Mined, ctx.Done())
		return neighbourBounds{lams: lams, consts: topConsts(p), deadline: deadline, done: ctx.Done()}
	}
	surv = withNeighbours(p, surv, extra, bounds())
	if cand == nil || len(surv) >= maxRivals || slices.ContainsFunc(surv, func(e *dsl.Entry) bool { return e.N.String() == cand.String() }) {
		return surv
	}
	envs := append(append([][]any{}, p.Envs...), extra...)
	vals, ok := consistentOn(p, cand, envs)
	if !ok {
		return surv
	}
	// The candidate's near misses that part from every rival on the pool.
	key := func(vals []any) dsl.Hasher {
		h := dsl.FnvOffset
		for _, v := range vals[len(p.Envs):] {
			h = h.Value(p.Rounded(v))
		}
		return h
	}
	seen := map[dsl.Hasher]bool{}
	for _, e := range surv {
		seen[key(e.Values())] = true
	}
	for _, e := range withNeighbours(p, []*dsl.Entry{{N: cand, BoxedVals: vals}}, extra, bounds())[1:] {
		if k := key(e.Values()); !seen[k] && len(surv) < maxRivals {
			seen[k] = true
			surv = append(surv, e)
		}
	}
	return surv
}

// proposeLimit is the search time of a proposal's rivals: a
// proposeShare-th of the session's limit, at most Options.ProposeTimeLimit.
func (a *Agent) proposeLimit() time.Duration {
	return min(a.opts.TimeLimit/proposeShare, a.opts.ProposeTimeLimit)
}

// maxNeighbours bounds the programs one change away from the smallest
// rivals that a proposal evaluates.
const maxNeighbours = 3000

// withNeighbours adds to surv the programs one change away from its
// smallest members that are consistent with p's examples and part from
// every program of surv on the proposal candidates extra: an operator
// replaced by another of the same signature, a lambda by another of the
// same signature and result (its size, one less or one more), a constant
// by another of its type, a variable by another of its type. Such near
// misses (isalpha for isalnum, < for <=, floor for round) are rivals of
// the candidate's own size, which a proposal's short search may cut
// before it reaches them. It keeps at most maxRivals programs in all.
func withNeighbours(p *dsl.Problem, surv []*dsl.Entry, extra [][]any, nb neighbourBounds) []*dsl.Entry {
	if len(surv) == 0 || len(extra) == 0 || len(surv) >= maxRivals {
		return surv
	}
	nObs := len(p.Envs)
	key := func(vals []any) dsl.Hasher {
		h := dsl.FnvOffset
		for _, v := range vals[nObs:] {
			h = h.Value(p.Rounded(v))
		}
		return h
	}
	seen := map[dsl.Hasher]bool{}
	smallest := surv[0].N.Size
	for _, e := range surv {
		seen[key(e.Values())] = true
		smallest = min(smallest, e.N.Size)
	}
	envs := append(append([][]any{}, p.Envs...), extra...)
	out := surv
	tried := 0
	for _, e := range surv {
		if e.N.Size != smallest {
			continue
		}
		for _, m := range append(cutNeighbours(e.N, p.Envs), neighbours(e.N, p.B.Types, nb.lams, nb.consts)...) {
			if tried == maxNeighbours || len(out) == maxRivals {
				return out
			}
			tried++
			if tried%32 == 0 && nb.over() {
				return out
			}
			vals, ok := consistentOn(p, m, envs)
			if !ok {
				continue
			}
			if k := key(vals); !seen[k] {
				seen[k] = true
				out = append(out, &dsl.Entry{N: m, BoxedVals: vals})
			}
		}
	}
	return out
}

// consistentOn evaluates n on envs, whose first ones are p's examples',
// stopping at the first example it gets wrong.
func consistentOn(p *dsl.Problem, n *dsl.Node, envs [][]any) ([]any, bool) {
	vals := make([]any, len(envs))
	for i, env := range envs {
		vals[i] = dsl.EvalSafe(n, env)
		if i < len(p.Outs) && !p.MatchesAt(i, vals[i]) {
			return nil, false
		}
	}
	return vals, true
}

// neighbourBounds are what withNeighbours draws from and when it stops.
type neighbourBounds struct {
	lams   *dsl.Lambdas
	consts []any
	// deadline (zero: none) and done stop it.
	deadline time.Time
	done     <-chan struct{}
}

func (nb neighbourBounds) over() bool {
	if !nb.deadline.IsZero() && time.Now().After(nb.deadline) {
		return true
	}
	select {
	case <-nb.done:
		return true
	default:
		return false
	}
}

// neighbours returns the programs one change away from n (see
// withNeighbours); vars are the types of the input variables.
func neighbours(n *dsl.Node, vars []dsl.Type, lams *dsl.Lambdas, consts []any) []*dsl.Node {
	// Lambdas are many: they come after the other changes.
	var out, byLambda []*dsl.Node
	var walk func(m *dsl.Node, replace func(*dsl.Node) *dsl.Node)
	walk = func(m *dsl.Node, replace func(*dsl.Node) *dsl.Node) {
		switch {
		case m.Op == nil && m.Var >= 0:
			for j, t := range vars {
				if j != m.Var && t == vars[m.Var] {
					out = append(out, replace(&dsl.Node{Var: j, Size: m.Size}))
				}
			}
			return
		case m.Op == nil:
			for _, c := range constNeighbours(m.Const, consts) {
				out = append(out, replace(&dsl.Node{Var: -1, Const: c, Size: m.Size}))
			}
			return
		}
		for _, o := range sameSignature(m.Op) {
			c := *m
			c.Op = o
			out = append(out, replace(&c))
		}
		if l := m.Lam; l != nil && l.Next == nil && l.Geo == nil && lams != nil {
			for size := max(l.Size-1, 1); size <= l.Size+1; size++ {
				for _, l2 := range lams.Get(l.Sig, l.Ret, size) {
					if l2 != l {
						c := *m
						c.Lam = l2
						c.Size = m.Size - l.Size + l2.Size
						byLambda = append(byLambda, replace(&c))
					}
				}
			}
		}
		for i, k := range m.Kids {
			walk(k, func(r *dsl.Node) *dsl.Node {
				c := *m
				c.Kids = append([]*dsl.Node{}, m.Kids...)
				c.Kids[i] = r
				c.Size = m.Size - k.Size + r.Size
				return replace(&c)
			})
		}
	}
	walk(n, func(r *dsl.Node) *dsl.Node { return r })
	return append(out, byLambda...)
}

// cutNeighbours are the programs with one threshold of n's intervals
// moved to an end of its gap: to the largest value of its interval's
// side seen on envs (the observed examples), "v <= lo", or to the
// smallest beyond, "v < hi". The threshold a program takes is the
// roundest number of the gap (roundCut); these rivals, consistent with
// the examples too, make proposals probe the gap until it closes, as the
// intervals strategy's own rivals do (an intervals program made outside
// a search, in a template's hole, has no others).
func cutNeighbours(n *dsl.Node, envs [][]any) []*dsl.Node {
	var out []*dsl.Node
	var walk func(m *dsl.Node, replace func(*dsl.Node) *dsl.Node)
	walk = func(m *dsl.Node, replace func(*dsl.Node) *dsl.Node) {
		if m.Op == nil {
			return
		}
		if c := m.Op.Choice; c != nil && c.Cuts != nil && len(m.Kids) == 1 {
			for _, moved := range movedCuts(c, m.Kids[0], envs) {
				r := *m
				r.Op = dsl.IntervalsOp(m.Op.Args[0], moved.Cuts, moved.Le, c.Labels)
				out = append(out, replace(&r))
			}
		}
		for i, k := range m.Kids {
			walk(k, func(r *dsl.Node) *dsl.Node {
				c := *m
				c.Kids = append([]*dsl.Node{}, m.Kids...)
				c.Kids[i] = r
				return replace(&c)
			})
		}
	}
	walk(n, func(r *dsl.Node) *dsl.Node { return r })
	return out
}

// movedCuts are the choices c with one threshold moved to an end of its
// gap among key's values on envs (see cutNeighbours).
func movedCuts(c *dsl.Choice, key *dsl.Node, envs [][]any) []*dsl.Choice {
	var vals []float64
	for _, env := range envs {
		switch x := dsl.EvalSafe(key, env).(type) {
		case int64:
			vals = append(vals, float64(x))
		case float64:
			if x == x {
				vals = append(vals, x)
			}
		}
	}
	var out []*dsl.Choice
	for i, cut := range c.Cuts {
		// lo: the largest value named by label i, hi: the smallest named
		// by label i+1.
		lo, hi, haveLo, haveHi := 0.0, 0.0, false, false
		for _, v := range vals {
			switch c.Index(v) {
			case i:
				if !haveLo || v > lo {
					lo, haveLo = v, true
				}
			case i + 1:
				if !haveHi || v < hi {
					hi, haveHi = v, true
				}
			}
		}
		move := func(to float64, le bool) {
			if to == cut && le == c.Le[i] {
				return
			}
			m := &dsl.Choice{Cuts: append([]float64{}, c.Cuts...), Le: append([]bool{}, c.Le...), Labels: c.Labels}
			m.Cuts[i], m.Le[i] = to, le
			out = append(out, m)
		}
		if haveLo {
			move(lo, true)
		}
		if haveHi {
			move(hi, false)
		}
	}
	return out
}

// constNeighbours are the constants that may replace c: the other
// constants of its type among consts, and an integer's neighbours.
func constNeighbours(c any, consts []any) []any {
	var out []any
	for _, d := range consts {
		if reflect.TypeOf(d) == reflect.TypeOf(c) && !reflect.DeepEqual(d, c) {
			out = append(out, d)
		}
	}
	if x, ok := c.(int64); ok {
		for _, d := range []int64{x - 1, x + 1} {
			if !slices.Contains(out, any(d)) {
				out = append(out, d)
			}
		}
	}
	return out
}

// signature names an operator's argument, lambda and result types.
func signature(o *dsl.Operator) string {
	return fmt.Sprint(o.Args, o.Sig, o.LamRet, o.Sig2, o.LamRet2, o.Ret)
}

// bySignature groups the whole-program operators by signature.
var bySignature = sync.OnceValue(func() map[string][]*dsl.Operator {
	m := map[string][]*dsl.Operator{}
	for _, c := range dsl.Catalog.Top {
		m[signature(c)] = append(m[signature(c)], c)
	}
	return m
})

// sameSignature returns the whole-program operators with o's argument,
// lambda and result types, o excluded.
func sameSignature(o *dsl.Operator) []*dsl.Operator {
	same := bySignature()[signature(o)]
	out := make([]*dsl.Operator, 0, len(same))
	for _, c := range same {
		if c != o {
			out = append(out, c)
		}
	}
	return out
}
