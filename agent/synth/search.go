package synth

import (
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// Default search bounds.
const (
	// defaultMaxSize is the largest program size enumerated.
	defaultMaxSize = 14
	// maxSurvivors bounds the consistent programs kept for proposals.
	maxSurvivors = 48
	// programsBoundedSketchTime is the time the sketches of a search
	// bounded by programs share out (see runSketches).
	programsBoundedSketchTime = 10 * time.Minute
	// loopDeferSize is the size after which a loop sketch's program
	// found earlier is taken (see strategies).
	loopDeferSize = 6
)

// searchResult is what one search found.
type searchResult struct {
	best      *dsl.Node
	passed    int
	solved    bool
	evaluated int64
	level     int
	timedOut  bool
	// memFull says the memory bound stopped the bank from growing, at
	// memBytes bytes of the search's own (memory.go).
	memFull  bool
	memBytes int64
	frozeAt  int
	// heapFull says it was the process's heap that passed its share
	// (heapLive of heapShare bytes, gc.go), not the search's own count.
	heapFull            bool
	heapLive, heapShare int64
	banked              int
	// survivors are consistent programs distinct on the extra inputs.
	survivors []*dsl.Entry
	// skipped are programs excluded as solutions.
	skipped map[string]bool
	// note says how a split searched the problem's parts (split.go).
	note string
	// sketched says a family's sketch found best (sketch.Families), which
	// the next session tries first (refit.go).
	sketched bool
}

// searchSpec bounds a search.
type searchSpec struct {
	// shared holds the lambda banks.
	shared *Shared
	// deadline ends the search (zero: none); maxPrograms, when set, bounds
	// it by the programs evaluated instead, and the strategies' shares are
	// then counted in programs too, so that its outcome does not depend on
	// the machine's load (a deadline still applies as well).
	deadline    time.Time
	maxPrograms int64
	// done, when closed, cancels the search.
	done <-chan struct{}
	// mem is the session's budget, of which the search takes a part of
	// memLimit bytes (nil: a budget of its own of memLimit bytes).
	mem      *memBudget
	memLimit int64
	maxSize  int
	// extra are environments without outputs (proposal candidates): programs
	// are kept apart by their values on them too.
	extra [][]any
	// collect keeps consistent programs (up to keep, default
	// maxSurvivors) instead of stopping at the first.
	collect bool
	keep    int
	// skip holds programs (by String) that must not be returned as solutions.
	skip map[string]bool
	// beyond is how many sizes past the first solution a collecting search
	// continues.
	beyond int
}

// searcher is one search in progress: the enumerator and what was found.
// A search stopped by its clock can be resumed (resume) with more time.
type searcher struct {
	p    *dsl.Problem
	spec searchSpec
	en   *enumerator
	res  searchResult
	// bestSize is the size of the best partial program.
	bestSize  int
	masks     map[string]*dsl.Entry
	maskOrder []string
	// loop is a loop sketch's program that fits, held back until the
	// levels up to loopDeferSize are done (see strategies).
	loop *dsl.Entry
	// swept says the strategies run after size 4 ran to their end
	// (within their shares of the time), so that a resumed search does
	// not run them again.
	swept bool
}

// search enumerates programs for the problem level by level (enum.go)
// until one is consistent with every example (or the limits stop it). On
// the way it names categorical outputs by a table over computed values
// (strategy_table.go), and at size 4 it runs the switch machines
// (sketch/switch.go), the walks (sketch/walk.go), the queues
// (sketch/queue.go) and the whole-list map (sketch/window.go), the
// loop sweep (strategy_loops.go), the staged sweep over the inputs
// (strategy_sweep_inputs.go) and the sweep over derived arguments
// (strategy_sweep_derived.go); after each size it tries conditionals that
// combine two partial programs (strategy_conditional.go) and programs
// reduced by a learned modulus (strategy_modulus.go). A search that
// ends with nothing consistent tries the last resorts
// (sketch/families.go). Its memory goes back to the session's budget
// when it returns (searcher.close).
func search(p *dsl.Problem, spec searchSpec) searchResult {
	s := newSearcher(p, spec)
	s.run()
	return s.close()
}

func newSearcher(p *dsl.Problem, spec searchSpec) *searcher {
	envs := p.Envs
	if len(spec.extra) > 0 {
		envs = append(append([][]any{}, p.Envs...), spec.extra...)
	}
	s := &searcher{p: p, spec: spec, masks: map[string]*dsl.Entry{}}
	lams, _ := spec.shared.lambdasFor(p.Mined, spec.done)
	s.en = newEnumerator(enumConfig{
		envs: envs, vars: p.B.Types, consts: topConsts(p), ops: dsl.Catalog.Top, lams: lams,
		deadline: spec.deadline, maxEval: spec.maxPrograms, done: spec.done, mem: spec.mem, memLimit: spec.memLimit,
	})
	s.en.onNew = s.onNew
	// Variables and constants were added before onNew was set (of every
	// type when labels name computed values).
	types := p.Ok
	if p.Labels != nil {
		types = nil
		for t := dsl.Type(0); t < dsl.NumTypes; t++ {
			types = append(types, t)
		}
	}
	for _, t := range types {
		for _, es := range s.en.bank[t] {
			for _, e := range es {
				if s.onNew(t, e) {
					s.en.stopped = true
				}
			}
		}
	}
	return s
}

// close ends the search: its memory goes back to the session's budget,
// and what its result keeps is copied out of its bank (a program or a
// value there would keep whole chunks of the bank alive).
func (s *searcher) close() searchResult {
	s.res = s.res.detached()
	s.en.release()
	return s.res
}

// run enumerates until a solution or a limit (run's result shares the
// bank's memory until close).
func (s *searcher) run() searchResult {
	if !s.en.stopped {
		s.en.interrupted()
	}
	if !s.en.stopped {
		s.en.grow(s.spec.maxSize, s.afterLevel)
	}
	if !s.res.solved && s.loop != nil && !s.en.cancelled {
		s.consider(s.loop.N, s.loop.BoxedVals)
	}
	if !s.res.solved && !s.spec.collect && !s.en.cancelled && s.sketches(func(r *sketch.Search) bool { return sketch.LastResort(r, s.p, s.consider) }) {
		s.en.stopped = true
	}
	if !s.res.solved && !s.spec.collect && !s.en.cancelled && s.orDefault() {
		s.en.stopped = true
	}
	return s.result()
}

// orDefault, a last resort, looks among the partial programs kept for the
// conditionals (the first of each set of examples it is right on, the
// smallest first) for one that is right wherever it does not raise, the
// examples where it raises all having one output: that output is then its
// default (dsl.OrDefaultOp) — the -1 of the index of no word, the 0 of
// the largest of no numbers. It reports whether the search can stop.
func (s *searcher) orDefault() bool {
	p := s.p
	if p.Nullable || p.Render != nil || p.Out == dsl.Tuple {
		return false
	}
	for _, k := range s.maskOrder {
		e := s.masks[k]
		vals := e.Values()
		var def any
		ok := true
		for i, v := range vals {
			switch {
			case p.MatchesAt(i, v):
			case dsl.IsErr(v) && (def == nil || dsl.EqualTo(p.Outs[i], def, 0)):
				def = p.Outs[i]
			default:
				ok = false
			}
			if !ok {
				break
			}
		}
		if !ok || def == nil {
			continue
		}
		t := nodeType(p, e.N)
		if t != p.Out {
			continue
		}
		n := &dsl.Node{Op: dsl.OrDefaultOp(t), Kids: []*dsl.Node{e.N, {Const: def, Var: -1, Size: 1}}, Var: -1, Size: e.N.Size + 2}
		out := make([]any, len(vals))
		for i, v := range vals {
			out[i] = v
			if dsl.IsErr(v) {
				out[i] = def
			}
		}
		if s.consider(n, out) {
			return true
		}
	}
	return false
}

// resumable reports whether the search stopped on its clock with nothing
// found and sizes left to enumerate.
func (s *searcher) resumable() bool {
	en := s.en
	return !s.res.solved && en.timedOut && !en.cancelled && en.level < s.spec.maxSize
}

// resume goes on with a search stopped by its clock, until a new deadline
// (or budget of programs): first the strategies after size 4 if the clock
// stopped them, then the level it was cut in, then larger sizes.
func (s *searcher) resume(deadline time.Time, maxPrograms int64, done <-chan struct{}) searchResult {
	s.spec.deadline, s.spec.maxPrograms, s.spec.done = deadline, maxPrograms, done
	s.en.resume(deadline, maxPrograms, done)
	if s.en.level >= 4 && !s.swept && s.strategies() {
		s.en.stopped = true
	}
	return s.run()
}

func (s *searcher) result() searchResult {
	en := s.en
	s.res.evaluated, s.res.level, s.res.timedOut = en.evaluated, en.level, en.timedOut
	s.res.memFull, s.res.memBytes, s.res.frozeAt = en.memFull, en.mem.peak.Load(), en.frozeAt
	s.res.heapFull, s.res.heapLive, s.res.heapShare = en.heapFull, en.heapLive, en.heapShare
	s.res.banked = 0
	for _, c := range en.perType {
		s.res.banked += c
	}
	return s.res
}

// consider records a program consistent with every example; it reports
// whether the search can stop.
func (s *searcher) consider(n *dsl.Node, vals []any) bool {
	p, res := s.p, &s.res
	if p.AllMatch(vals) {
		if s.spec.skip[n.String()] {
			return false
		}
		if s.en.transient {
			// A program of the full bank's (onNew), valid during the
			// call only.
			n, vals = n.Clone(), dsl.CloneValues(vals)
		}
		if !res.solved {
			res.best, res.passed, res.solved = n, len(p.Outs), true
		}
		res.survivors = append(res.survivors, &dsl.Entry{N: n, BoxedVals: vals})
		keep := s.spec.keep
		if keep <= 0 {
			keep = maxSurvivors
		}
		return !s.spec.collect || len(res.survivors) >= keep
	}
	return false
}

// onNew checks each new program of the enumerator. A program the full
// bank does not keep (transient) is copied before anything keeps it:
// consider copies what it keeps, the best partial program is copied here.
func (s *searcher) onNew(t dsl.Type, e *dsl.Entry) bool {
	p, res := s.p, &s.res
	if !p.OkType(t) {
		if p.Labels != nil {
			if n, vals := tabled(p, t, e); n != nil {
				return s.consider(n, vals)
			}
			return s.intervals(t, e)
		}
		return false
	}
	if p.AllMatchCol(e.Col) {
		return s.consider(e.N, e.Values())
	}
	if res.solved {
		return false
	}
	bits, n := p.MatchesCol(e.Col)
	if n > res.passed || res.best == nil || (n == res.passed && e.N.Size < s.bestSize) {
		res.best, res.passed, s.bestSize = e.N, n, e.N.Size
		if s.en.transient {
			res.best = e.N.Clone()
		}
	}
	if n > 0 && len(p.Outs) >= 3 {
		k := maskKey(bits)
		if _, have := s.masks[k]; !have {
			cost := maskBytes + int64(len(k))
			if s.en.transient {
				// The first program of its set of examples: kept, a copy,
				// as a branch for the conditionals (strategy_conditional.go).
				vals := dsl.CloneValues(e.Values())
				e = &dsl.Entry{N: e.N.Clone(), BoxedVals: vals}
				cost += boxedBytes*int64(len(vals)) + nodeBytes*int64(e.N.Size)
			}
			s.masks[k] = e
			s.maskOrder = append(s.maskOrder, k)
			s.en.mem.Charge(cost)
		}
	}
	return false
}

// afterLevel runs the strategies after each completed size; it reports
// whether the search can stop.
func (s *searcher) afterLevel(size int) bool {
	p, en, res, spec := s.p, s.en, &s.res, s.spec
	// Proposals look a little beyond the first consistent program.
	if spec.collect && res.solved && size >= res.best.Size+spec.beyond {
		return true
	}
	if !res.solved && !spec.collect && size >= 2 && modulusSketch(en, p, size, s.consider) {
		return true
	}
	if size == 4 && !res.solved && s.strategies() {
		return true
	}
	if size >= loopDeferSize && !res.solved && s.loop != nil {
		return s.consider(s.loop.N, s.loop.BoxedVals)
	}
	if res.solved || len(p.Outs) < 3 || size < 3 {
		return false
	}
	if n, vals := splitConditional(p, en, s.masks, s.maskOrder, 2*size+1); n != nil {
		return s.consider(n, vals)
	}
	return false
}

// strategies runs, after size 4, the strategies beyond the levels' reach;
// it reports whether the search can stop.
func (s *searcher) strategies() bool {
	en, p := s.en, s.p
	// Learners cheaper than the sweeps, which would leave them little
	// time: a machine switched by thresholds, a walk and a queue are
	// learned in one pass over the examples (and offer their rivals to
	// the search of a proposal, which is short); the whole-list map
	// searches four scalar variables up to size 4, bounded in programs.
	if s.sketches(func(r *sketch.Search) bool {
		return sketch.SwitchMachines(r, p, s.consider) || sketch.Walk(r, p, s.consider) || sketch.Queue(r, p, s.consider) ||
			sketch.WholeListMap(r, p, 0.25, s.consider)
	}) {
		return true
	}
	if loopSweep(en, p, 0.1, s.consider) {
		return true
	}
	// Loops over the inputs' numbers (sketch/loop_kit.go): accumulators
	// over a range, steps counted until a condition fails. A loop found
	// waits for the levels up to loopDeferSize, whose smaller programs
	// come first (with few examples a loop fits what a + (a - b) says);
	// a proposal's search takes it as a rival at once.
	s.sketches(func(r *sketch.Search) bool {
		return sketch.Loops(r, p, 0.25, func(n *dsl.Node, vals []any) bool {
			if s.spec.collect {
				return s.consider(n, vals)
			}
			if p.AllMatch(vals) && s.loop == nil {
				s.loop = &dsl.Entry{N: n, BoxedVals: vals}
			}
			return s.loop != nil
		})
	})
	if en.stopped {
		return true
	}
	sweepStaged(en, 0.5, p.Ok)
	if en.stopped {
		return true
	}
	// Lambdas over derived lists (cumsum(xs), split(s)...), then the
	// lambdas of size 5 over them (a score per run of equal letters,
	// x + x // 2) in a share of their own, which cuts only them: a tenth
	// of what is left, so that the levels and the families' sketches
	// after it keep the time they had (with three tenths a program of
	// size 6 the levels found in time, sum(cumsum(codes(s))) % 97, was
	// not reached).
	en.budgeted(0.3, func() { en.sweepArgs(2, 1, 4, false) })
	if en.stopped {
		return true
	}
	en.budgeted(0.1, func() { en.sweepArgs(2, 5, 5, true) })
	if en.stopped {
		return true
	}
	// The families' sketches (windows, state machines, digit loops,
	// stacks, recurrences) after the sweeps, which find the map or fold
	// a sketch could also express, and write it more plainly.
	if s.sketches(func(r *sketch.Search) bool { return sketch.Families(r, p, s.consider) }) {
		s.res.sketched = s.res.solved
		return true
	}
	s.swept = true
	return false
}

// sketches runs sketches on the search's enumerator: what they read of it
// (Search), and their holes filled by enumHoles; a cancellation they
// notice stops the search.
func (s *searcher) sketches(run func(r *sketch.Search) bool) bool {
	return runSketches(s.en, s.spec.shared, s.spec.collect, run)
}

// runSketches runs sketches on en (see searcher.sketches); collect says
// the search collects a proposal's rivals. A search bounded by programs
// (Options.MaxPrograms) has no deadline, and the sketches share out time:
// they get programsBoundedSketchTime, a bound they do not reach, and each
// of their holes at most the programs left in the search's budget, so
// that what they find does not depend on the machine's load either. The
// holes take their memory from the session's budget, beside the bank's.
func runSketches(en *enumerator, shared *Shared, collect bool, run func(r *sketch.Search) bool) bool {
	deadline, holes := en.deadline, enumHoles{shared: shared, mem: en.mem.root()}
	if en.maxEval > 0 && deadline.IsZero() {
		deadline = time.Now().Add(programsBoundedSketchTime)
		holes.maxEval = max(en.maxEval-en.evaluated, 1)
	}
	r := &sketch.Search{Envs: en.envs, Deadline: deadline, Done: en.done, MemLimit: en.memLimit, Lambdas: en.lams,
		Holes: holes, Stopped: en.stopped, Cancelled: en.cancelled, Collect: collect}
	if en.maxEval > 0 {
		r.MaxEval = max(en.maxEval-en.evaluated, 1)
	}
	found := run(r)
	en.stopped, en.cancelled = r.Stopped, r.Cancelled
	en.evaluated += r.Evaluated
	return found
}

// maskBytes is what a set of examples a partial program matches costs
// in a search's masks, besides its key's bytes; a program copied out of
// a full bank costs its boxed values and nodeBytes a node besides.
const (
	maskBytes = 64
	nodeBytes = 96
)

// detached returns r with its programs and values copied out of the
// bank's memory, which is garbage once the search ends.
func (r searchResult) detached() searchResult {
	r.best = r.best.Clone()
	if r.survivors != nil {
		out := make([]*dsl.Entry, len(r.survivors))
		for i, e := range r.survivors {
			out[i] = &dsl.Entry{N: e.N.Clone(), BoxedVals: dsl.CloneValues(e.Values())}
		}
		r.survivors = out
	}
	return r
}

// topConsts are the constants of whole programs.
func topConsts(p *dsl.Problem) []any {
	cs := withConsts([]any{int64(0), int64(1), int64(2), int64(3), int64(-1), int64(10)}, p.Mined)
	if p.B.Floats || p.Out == dsl.Float || p.Out == dsl.ListFloat {
		cs = append(cs, 0.0, 1.0)
	}
	if p.Out == dsl.Str || p.Out == dsl.ListStr {
		cs = append(cs, "", " ")
	}
	for _, c := range p.Consts {
		if dsl.IndexOf(cs, c) < 0 {
			cs = append(cs, c)
		}
	}
	return cs
}
