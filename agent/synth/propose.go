package synth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"strings"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"

	"github.com/reconstruct/reconstruct/agent/synth/inputs"
)

// proposeShare bounds the search that finds the programs a proposal tells
// apart: it gets at most a proposeShare-th of the session's time limit (or
// of Options.MaxPrograms), and at most Options.ProposeTimeLimit.
const proposeShare = 5

// Propose chooses req.K new inputs: those on which the programs still
// consistent with the examples disagree most, then inputs covering the
// missing categories, then diverse random inputs. When fewer fresh inputs
// can be found (a small domain running out), it proposes every one it
// found, marked AllLeft; none at all is an error.
func (a *Agent) Propose(ctx context.Context, req agent.ProposeRequest) (agent.ProposeResult, error) {
	if err := ctx.Err(); err != nil {
		return agent.ProposeResult{}, fmt.Errorf("synth propose: %w", err)
	}
	if req.K <= 0 {
		return agent.ProposeResult{Inputs: []json.RawMessage{}}, nil
	}
	// Under the searches' memory limit for the whole proposal (see Write).
	holdGC(a.mem)
	defer releaseGC(a.mem)
	seed := a.opts.Seed*1_000_003 + int64(len(req.Examples))*7919 + int64(req.Attempt)*104729 + int64(req.K)
	rng := rand.New(rand.NewSource(seed))
	var observed []any
	seen := map[string]bool{}
	for _, ex := range req.Examples {
		if v, ok := dsl.DecodeRaw(ex.Input); ok {
			observed = append(observed, v)
		}
		seen[task.MustCanonical(ex.Input)] = true
	}
	b, berr := newBinding(req.Task, observed)
	tp := inputs.TemplateOf(req.Task)
	l := a.lessonFor(req, tp, observed)
	switch {
	case inputs.Structured(req.Task, tp):
		return a.proposeStructured(ctx, req, tp, l, observed, seen, rng, berr == nil)
	case berr == nil && (b.Shape == "tokens" || b.Shape == "record" || b.Shape == "tuple"):
		// Token lists, records and tuples of structures have no generator
		// of their kind: the description's template and mutations of the
		// observed inputs, told apart by the programs still consistent.
		return a.proposeStructured(ctx, req, tp, l, observed, seen, rng, true)
	case req.Task.Kind == task.KindOther && berr != nil && len(observed) > 0:
		// Inputs the DSL cannot bind and the description does not
		// structure: the observed inputs are the only model of validity.
		return a.proposeStructured(ctx, req, nil, l, observed, seen, rng, false)
	}
	shape := kindShape(req.Task.Kind)
	if berr == nil {
		shape = b.Shape
	}
	conservative := req.Rejection != "" && req.Attempt > 1
	lim := inputs.LimitsFor(req.Task, req.Domain, b, observed, conservative && req.Attempt > 2)
	if conservative && req.Attempt == 2 {
		// First rejection: keep away from the edges of lengths, and to the
		// characters already accepted.
		lim.MinLen = max(lim.MinLen, 1)
		lim.Alphabet = inputs.LimitsFor(req.Task, req.Domain, b, observed, true).Alphabet
	}
	if a, c, ok := inputs.LengthsFrom(req.Rejection); ok && req.Task.Kind != task.KindInt && req.Task.Kind != task.KindPair {
		// The oracle said which lengths it accepts.
		lim.MinLen, lim.MaxLen = a, c
	}
	g := &inputs.Generator{Rand: rng, Shape: shape, Limits: lim}
	built := a.probes(req, probeRand(req, a.opts.Seed), tupleInput(shape, tp), lim.MaxLen)
	pool, probes := a.pool(g, req, seen, inputs.Observe(observed, tp, l).Admissible, built, l)
	if len(pool) < req.K {
		// The kind's generator is exhausted: mutations of the observed
		// inputs and the description's template may still find fresh ones.
		// Else the proposal is every fresh input left.
		res, err := a.proposeStructured(ctx, req, tp, l, observed, seen, rng, berr == nil)
		switch {
		case err == nil && (!res.AllLeft || len(res.Inputs) >= len(pool)):
			return res, nil
		case len(pool) == 0 && err != nil:
			return agent.ProposeResult{}, fmt.Errorf("synth propose: no fresh %s input within %v, and no other source: %w", shape, lim, err)
		}
	}
	var chosen []int
	var split *rivalSplit
	if len(req.Examples) > 0 && berr == nil {
		chosen, split = a.distinguishing(ctx, req, pool, probes, distinguishingRoom(req), rng)
	} else {
		// No evidence yet: informative inputs, not tiny ones.
		idx := rng.Perm(len(pool))
		sort.SliceStable(idx, func(i, j int) bool { return inputs.ShapeLen(pool[idx[i]]) >= 4 && inputs.ShapeLen(pool[idx[j]]) < 4 })
		for _, i := range idx {
			if len(chosen) == req.K {
				break
			}
			chosen = append(chosen, i)
		}
	}
	chosen = fill(chosen, pool, req, rng)
	n := min(req.K, len(chosen))
	out := make([]json.RawMessage, 0, n)
	last := map[string]string{}
	for _, i := range chosen[:n] {
		raw := inputs.Encode(pool[i])
		out = append(out, raw)
		last[task.MustCanonical(raw)] = originKind
		if probes[i] != "" {
			last[task.MustCanonical(raw)] = originProbe + string(probes[i])
		}
	}
	a.remember(l, last)
	a.reportRivals(split, out, chosen[:n], probes)
	return agent.ProposeResult{Inputs: out, AllLeft: n < req.K}, nil
}

// originKind marks inputs drawn by the kind's generator.
const originKind = "kind"

// lessonFor returns what earlier rejections taught about this task's
// inputs, updated with the rejection of the previous attempt.
func (a *Agent) lessonFor(req agent.ProposeRequest, tp *inputs.Template, observed []any) *inputs.Lesson {
	key := string(req.Task.Kind) + "\x00" + req.Task.InputType + "\x00" + req.Task.InputConstraints
	a.mu.Lock()
	defer a.mu.Unlock()
	l := a.lessons[key]
	if l == nil {
		l = inputs.NewLesson()
		a.lessons[key] = l
	}
	if req.Attempt <= 1 {
		// A new batch: the tokens refused where they stood come back,
		// away from the first positions.
		l.Waiting = nil
	}
	if req.Attempt > 1 && req.Rejection != "" {
		l.Learn(req.Rejection, tp, observed)
	}
	return l
}

// remember records where each proposed input came from, so that the next
// rejection can be blamed on its source.
func (a *Agent) remember(l *inputs.Lesson, last map[string]string) {
	a.mu.Lock()
	l.Last = last
	a.mu.Unlock()
}

// proposeStructured proposes inputs drawn from the description's template
// and mutated from the observed inputs, adapting to the rejection of the
// previous attempt. tp may be nil (mutations only).
func (a *Agent) proposeStructured(ctx context.Context, req agent.ProposeRequest, tp *inputs.Template, l *inputs.Lesson, observed []any, seen map[string]bool, rng *rand.Rand, bound bool) (agent.ProposeResult, error) {
	if tp != nil {
		l.ApplyTo(tp)
	}
	o := inputs.Observe(observed, tp, l)
	want := 48 + 3*req.K
	var pool []any
	var origin []string
	local := map[string]bool{}
	add := func(v any, from string) {
		raw := inputs.Encode(v)
		if raw == nil || !tp.SameLengths(v) || !tp.WellFormed(v) || !l.TokensPlaced(inputs.RoundTrip(v)) {
			return
		}
		c := task.MustCanonical(raw)
		if seen[c] || local[c] {
			return
		}
		local[c] = true
		pool = append(pool, inputs.RoundTrip(v))
		origin = append(origin, from)
	}
	if tp != nil {
		g := &inputs.TemplateGenerator{Rand: rng, Small: l.Strikes > 0}
		for tries := 0; len(pool) < want && tries < 20*want; tries++ {
			add(g.Draw(tp), inputs.OriginTemplate)
		}
	}
	var allowed []string
	for _, op := range inputs.MutationOps {
		if !l.Banned[op] {
			allowed = append(allowed, op)
		}
	}
	if len(observed) > 0 && len(allowed) > 0 {
		maxOps := 3
		if l.Strikes > 0 || req.Attempt > 1 {
			maxOps = 1
		}
		target := len(pool) + want/2
		if tp == nil || l.Banned[inputs.OriginTemplate] {
			target = len(pool) + want
		}
		for tries := 0; len(pool) < target && tries < 20*want; tries++ {
			if v, ops := o.Mutant(rng, observed, allowed, maxOps); v != nil {
				add(v, strings.Join(ops, "+"))
			}
		}
	}
	shape := ""
	if b, err := newBinding(req.Task, observed); err == nil {
		shape = b.Shape
	}
	for _, bt := range a.probes(req, probeRand(req, a.opts.Seed), tupleInput(shape, tp), 0) {
		if !l.Banned[originProbe+string(bt.Probe)] && o.Admissible(bt.Input) {
			add(bt.Input, originProbe+string(bt.Probe))
		}
	}
	if len(pool) == 0 {
		return agent.ProposeResult{}, errors.New("synth propose: no fresh input could be drawn from the description and the observed inputs")
	}
	probes := make([]inputs.Probe, len(pool))
	for i, from := range origin {
		probes[i] = probeOf(from)
	}
	var chosen []int
	var split *rivalSplit
	if bound && len(req.Examples) > 0 {
		chosen, split = a.distinguishing(ctx, req, pool, probes, distinguishingRoom(req), rng)
	}
	if req.Task.Kind != task.KindOther {
		// Kinds with coverage categories: cover the missing ones, then
		// vary the categories.
		chosen = fill(chosen, pool, req, rng)
	}
	used := map[int]bool{}
	for _, i := range chosen {
		used[i] = true
	}
	// Template draws come first unless a rejection was blamed on them;
	// with no evidence yet, larger inputs first.
	rank := func(i int) int {
		r := 0
		if origin[i] == inputs.OriginTemplate && l.Banned[inputs.OriginTemplate] {
			r += 2
		}
		if len(req.Examples) == 0 && inputs.LeafCount(pool[i]) < 4 {
			r++
		}
		return r
	}
	idx := rng.Perm(len(pool))
	sort.SliceStable(idx, func(x, y int) bool { return rank(idx[x]) < rank(idx[y]) })
	for _, i := range idx {
		if len(chosen) >= req.K {
			break
		}
		if !used[i] {
			used[i] = true
			chosen = append(chosen, i)
		}
	}
	// Fewer fresh inputs than asked: the proposal is every one of them.
	n := min(req.K, len(chosen))
	out := make([]json.RawMessage, 0, n)
	last := map[string]string{}
	for _, i := range chosen[:n] {
		raw := inputs.Encode(pool[i])
		out = append(out, raw)
		last[task.MustCanonical(raw)] = origin[i]
	}
	a.remember(l, last)
	a.reportRivals(split, out, chosen[:n], probes)
	return agent.ProposeResult{Inputs: out, AllLeft: n < req.K}, nil
}

func kindShape(k task.Kind) string {
	switch k {
	case task.KindList, task.KindTwoLists, task.KindInt, task.KindPair, task.KindString, task.KindPoints:
		return string(k)
	}
	return "pairs"
}

// pool generates fresh candidate inputs: edge cases first, witnesses of
// the missing categories, the probes built (and not banned by a
// rejection), an input of every category of the kind, near misses of the
// observed strings, then random ones. probes[i] names the probe that
// built pool[i] ("" for the others).
func (a *Agent) pool(g *inputs.Generator, req agent.ProposeRequest, seen map[string]bool, admissible func(any) bool, built []inputs.Built, l *inputs.Lesson) (out []any, probes []inputs.Probe) {
	local := map[string]bool{}
	addAs := func(v any, p inputs.Probe) {
		raw := inputs.Encode(v)
		if raw == nil || !inputs.Within(v, g.Limits, g.Shape) || !admissible(v) {
			return
		}
		c := task.MustCanonical(raw)
		if seen[c] || local[c] {
			return
		}
		local[c] = true
		out = append(out, v)
		probes = append(probes, p)
	}
	addIn := func(v any) { addAs(v, "") }
	for _, e := range g.Edges() {
		addIn(e)
	}
	// A witness of each category the workflow asks for, so that the
	// batch can cover it even where random draws rarely do.
	for _, c := range req.Missing {
		if w, ok := g.Witness(c); ok {
			addIn(w)
		}
	}
	for _, b := range built {
		if !l.Banned[originProbe+string(b.Probe)] {
			addAs(b.Input, b.Probe)
		}
	}
	if len(req.Examples) > 0 {
		dom := req.Domain
		if dom == nil {
			dom = req.Task.Domain
		}
		// With a generator of their own, so that the random inputs stay
		// those drawn without.
		gc := *g
		gc.Rand = probeRand(req, a.opts.Seed+1)
		for _, v := range gc.Covering(req.Task.Kind, dom, task.Categories(req.Task.Kind, dom), categoryTries) {
			addAs(v, inputs.ProbeCategory)
		}
	}
	// Near misses of the observed strings: programs that agree on every
	// observed input often part on one character changed.
	for _, v := range g.NearMisses(nearMissSources(req.Examples)) {
		addIn(v)
	}
	// As many random inputs as without the probes.
	want := 48 + 3*req.K
	for _, p := range probes {
		if p != "" {
			want++
		}
	}
	for tries := 0; len(out) < want && tries < 40*want; tries++ {
		addIn(g.Draw())
	}
	return out, probes
}

// nearMissSources picks the observed inputs whose near misses the pool
// holds: the latest of each output in turn, so that the inputs of a rare
// output (the palindromes among random strings) are mutated too.
func nearMissSources(exs []task.Example) []any {
	var outs []string
	byOut := map[string][]any{}
	for i := len(exs) - 1; i >= 0; i-- {
		v, ok := dsl.DecodeRaw(exs[i].Input)
		if !ok {
			continue
		}
		o := task.MustCanonical(exs[i].Output)
		if byOut[o] == nil {
			outs = append(outs, o)
		}
		byOut[o] = append(byOut[o], v)
	}
	var out []any
	for k := 0; len(out) < inputs.MaxNearMissSources; k++ {
		added := false
		for _, o := range outs {
			if k < len(byOut[o]) && len(out) < inputs.MaxNearMissSources {
				out, added = append(out, byOut[o][k]), true
			}
		}
		if !added {
			break
		}
	}
	return out
}

// distinguishing enumerates programs consistent with the examples, keeping
// apart those that differ on the pool, and picks up to room pool inputs:
// first, greedily, those that split the most rivals from the candidate the
// last Write wrote, until every rival is split; then half of the room left
// to the pool's probes (withProbes); then those that split the most pairs
// of surviving programs. The split it returns (nil without a candidate to
// report on) says which rivals the chosen inputs split.
func (a *Agent) distinguishing(ctx context.Context, req agent.ProposeRequest, pool []any, probes []inputs.Probe, room int, rng *rand.Rand) ([]int, *rivalSplit) {
	p, err := newProblem(req.Task, req.Examples)
	if err != nil {
		return nil, nil
	}
	a.opts.Shared.defaults()
	var extra [][]any
	var idx []int
	extraOf := map[int]int{}
	for i, v := range pool {
		env, err := p.B.Env(inputs.RoundTrip(v))
		if err != nil {
			continue
		}
		extraOf[i] = len(extra)
		extra = append(extra, env)
		idx = append(idx, i)
	}
	cand, sha := a.candidateOn(p)
	surv := a.rivals(ctx, p, extra, cand)
	nObs := len(p.Envs)
	// keys[j][s] is survivor s's output class on pool input j.
	keys := make([][]dsl.Hasher, len(extra))
	for j := range extra {
		keys[j] = make([]dsl.Hasher, len(surv))
		for s, e := range surv {
			keys[j][s] = dsl.FnvOffset.Value(p.Rounded(e.Values()[nObs+j]))
		}
	}
	var rs *rivalSplit
	if cand != nil {
		rs = &rivalSplit{p: p, surv: surv, keys: keys, sha: sha, extraOf: extraOf, cancelled: ctx.Err() != nil}
		rs.cand = make([]dsl.Hasher, len(extra))
		for j, env := range extra {
			rs.cand[j] = dsl.FnvOffset.Value(p.Rounded(dsl.EvalSafe(cand, env)))
		}
	}
	order := rng.Perm(len(extra))
	var chosen []int
	class := make([]int, len(surv)) // current partition of survivors
	used := map[int]bool{}
	take := func(i int) {
		chosen = append(chosen, i)
		j, ok := extraOf[i]
		if !ok {
			return
		}
		used[j] = true
		ids := map[[2]uint64]int{}
		for s := range class {
			k := [2]uint64{uint64(class[s]), uint64(keys[j][s])}
			if _, ok := ids[k]; !ok {
				ids[k] = len(ids)
			}
			class[s] = ids[k]
		}
	}
	if rs != nil {
		for _, j := range rs.splitCandidate(room, order) {
			take(idx[j])
		}
	}
	n := len(chosen)
	for _, i := range withProbes(slices.Clone(chosen), probes, (room-n+1)/2, inputs.Shown(probeSources(req.Examples), tupleInput(p.B.Shape, inputs.TemplateOf(req.Task))))[n:] {
		take(i)
	}
	for len(chosen) < room && len(surv) >= 2 {
		best, bestScore := -1, 0
		for _, j := range order {
			if used[j] {
				continue
			}
			if score := splitPairs(class, keys[j]); score > bestScore {
				best, bestScore = j, score
			}
		}
		if best < 0 {
			break
		}
		take(idx[best])
	}
	return chosen, rs
}

// distinguishingRoom is how many of a batch's inputs may be chosen to split
// rival programs: the rest is left to the categories the workflow reports
// missing (see fill), or half the batch when they are more than that.
func distinguishingRoom(req agent.ProposeRequest) int {
	if r := req.K - len(req.Missing); r > 0 {
		return r
	}
	return req.K / 2
}

// splitPairs counts pairs of survivors in one class that the key separates.
func splitPairs(class []int, key []dsl.Hasher) int {
	n := 0
	for s := range class {
		for t := s + 1; t < len(class); t++ {
			if class[s] == class[t] && key[s] != key[t] {
				n++
			}
		}
	}
	return n
}

// fill completes a choice with inputs covering missing categories, then
// inputs covering categories the choice lacks, then random ones.
func fill(chosen []int, pool []any, req agent.ProposeRequest, rng *rand.Rand) []int {
	used := map[int]bool{}
	for _, i := range chosen {
		used[i] = true
	}
	dom := req.Domain
	if dom == nil {
		dom = req.Task.Domain
	}
	cats := make([][]string, len(pool))
	for i, v := range pool {
		cats[i] = task.CategoriesOf(req.Task.Kind, dom, inputs.Encode(v))
	}
	need := map[string]bool{}
	for _, m := range req.Missing {
		need[m] = true
	}
	for _, i := range chosen {
		for _, c := range cats[i] {
			delete(need, c)
		}
	}
	order := rng.Perm(len(pool))
	for len(chosen) < req.K && len(need) > 0 {
		best, bestN := -1, 0
		for _, i := range order {
			if used[i] {
				continue
			}
			n := 0
			for _, c := range cats[i] {
				if need[c] {
					n++
				}
			}
			if n > bestN {
				best, bestN = i, n
			}
		}
		if best < 0 {
			break
		}
		used[best] = true
		chosen = append(chosen, best)
		for _, c := range cats[best] {
			delete(need, c)
		}
	}
	// Then variety: prefer inputs adding categories not yet in the batch.
	have := map[string]bool{}
	for _, i := range chosen {
		for _, c := range cats[i] {
			have[c] = true
		}
	}
	for len(chosen) < req.K {
		best, bestN := -1, -1
		for _, i := range order {
			if used[i] {
				continue
			}
			n := 0
			for _, c := range cats[i] {
				if !have[c] {
					n++
				}
			}
			if n > bestN {
				best, bestN = i, n
			}
		}
		if best < 0 {
			break
		}
		used[best] = true
		chosen = append(chosen, best)
		for _, c := range cats[best] {
			have[c] = true
		}
	}
	return chosen
}
