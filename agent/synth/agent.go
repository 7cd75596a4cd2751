package synth

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"
)

// Defaults for Options.
const (
	DefaultTimeLimit   = 20 * time.Second
	DefaultMemoryBytes = 512 << 20
	// proposeShare is the part of the time limit a proposal may search.
	proposeShare   = 5
	maxProposeTime = 1500 * time.Millisecond
	// minSessionTime is the least a session searches once the run's time
	// is spent.
	minSessionTime = time.Second
)

// Options configure the synthesizer.
type Options struct {
	// Seed makes proposals reproducible.
	Seed int64
	// TimeLimit bounds the search of one session (default 20s).
	TimeLimit time.Duration
	// RunTimeLimit bounds the search time of all the sessions of the run
	// together (0: no bound); a session gets at most what is left, and at
	// least minSessionTime.
	RunTimeLimit time.Duration
	// MemoryBytes bounds the enumerator's bank of programs (default 512 MiB).
	MemoryBytes int64
	// MaxSize is the largest program size enumerated (default DefaultMaxSize).
	MaxSize int
	Log     *zap.Logger
}

// Agent is the enumerative synthesizer. It is safe for one workflow run at a
// time; it remembers searches that ran out of time so that a repeated
// session on the same examples does not redo them.
type Agent struct {
	opts Options
	log  *zap.Logger

	mu       sync.Mutex
	sessions map[string]*session
	// lessons hold what proposal rejections taught, per input description.
	lessons map[string]*lesson
	// searched is the search time of the run's sessions so far.
	searched time.Duration
	// last is the latest session that found a consistent program.
	last *session
}

// session is what a Write on one example set found.
type session struct {
	prog   Program
	types  []Type
	result searchResult
	spent  time.Duration
	notes  string
}

var _ agent.Agent = (*Agent)(nil)

// New returns a synthesizer with defaults filled in.
func New(opts Options) *Agent {
	if opts.TimeLimit <= 0 {
		opts.TimeLimit = DefaultTimeLimit
	}
	if opts.MemoryBytes <= 0 {
		opts.MemoryBytes = DefaultMemoryBytes
	}
	if opts.MaxSize <= 0 {
		opts.MaxSize = DefaultMaxSize
	}
	if opts.Log == nil {
		opts.Log = zap.NewNop()
	}
	return &Agent{opts: opts, log: opts.Log.With(zap.String("agent", "synth")), sessions: map[string]*session{}, lessons: map[string]*lesson{}}
}

func examplesKey(exs []task.Example) string {
	h := sha256.New()
	for _, ex := range exs {
		fmt.Fprintf(h, "%s\x00%s\x01", task.MustCanonical(ex.Input), task.MustCanonical(ex.Output))
	}
	return string(h.Sum(nil))
}

// sessionLimit is the search time of the next session: the per-session
// limit, cut to what is left of the run's.
func (a *Agent) sessionLimit() time.Duration {
	if a.opts.RunTimeLimit <= 0 {
		return a.opts.TimeLimit
	}
	a.mu.Lock()
	left := a.opts.RunTimeLimit - a.searched
	a.mu.Unlock()
	return max(min(a.opts.TimeLimit, left), minSessionTime)
}

func (a *Agent) deadline(ctx context.Context, limit time.Duration) time.Time {
	d := time.Now().Add(limit)
	if cd, ok := ctx.Deadline(); ok && cd.Before(d) {
		d = cd
	}
	return d
}

// Write synthesizes a program consistent with every example and writes its
// Python translation to candidate.py in the workspace.
func (a *Agent) Write(ctx context.Context, req agent.WriteRequest) (agent.WriteResult, error) {
	if err := ctx.Err(); err != nil {
		return agent.WriteResult{}, fmt.Errorf("synth write: %w", err)
	}
	// The lambda banks are built once per process; not on the session's clock.
	defaultLambdas()
	fname := req.Task.FunctionName
	if fname == "" {
		fname = "solve"
	}
	key := examplesKey(req.Examples)
	a.mu.Lock()
	prev := a.sessions[key]
	a.mu.Unlock()

	var notes strings.Builder
	var s *session
	failedOwn := prev != nil && req.Feedback != nil && req.Feedback.Passed < req.Feedback.Total && prev.result.solved
	switch {
	case prev != nil && !failedOwn:
		// The same evidence was searched already: the result cannot change.
		s = prev
		fmt.Fprintf(&notes, "Same %d examples as an earlier session: reusing its search (no new evidence).\n", len(req.Examples))
	default:
		p, err := newProblem(req.Task, req.Examples)
		if err != nil {
			if !errors.Is(err, errUnsupported) {
				return agent.WriteResult{}, fmt.Errorf("synth write: %w", err)
			}
			src := fallbackProgram(fname, req.Examples, err)
			if werr := writeAtomic(filepath.Join(req.Workspace, agent.CandidateFile), src); werr != nil {
				return agent.WriteResult{}, fmt.Errorf("synth write: %w", werr)
			}
			return agent.WriteResult{Notes: "The DSL cannot express this task's values (" + err.Error() + "); wrote the best constant program."}, nil
		}
		skip := map[string]bool{}
		if failedOwn {
			for k := range prev.result.skipKeys() {
				skip[k] = true
			}
			fmt.Fprintf(&notes, "The previous candidate failed %d of %d examples although the enumerator found it consistent; searching beyond it.\n",
				req.Feedback.Total-req.Feedback.Passed, req.Feedback.Total)
		}
		if !failedOwn {
			if s = a.stillConsistent(p, len(req.Examples)); s != nil {
				a.mu.Lock()
				a.sessions[key] = s
				a.mu.Unlock()
				break
			}
		}
		limit := a.sessionLimit()
		if limit < a.opts.TimeLimit {
			fmt.Fprintf(&notes, "The run's search time (%v) is nearly spent: this session searches for %v.\n", a.opts.RunTimeLimit, limit)
		}
		start := time.Now()
		res := search(p, searchSpec{deadline: a.deadline(ctx, limit), memLimit: a.opts.MemoryBytes, maxSize: a.opts.MaxSize, skip: skip})
		if !res.solved && p.relaxLabels() {
			r := search(p, searchSpec{deadline: a.deadline(ctx, minSessionTime), memLimit: a.opts.MemoryBytes, maxSize: a.opts.MaxSize, skip: skip})
			if r.solved {
				r.evaluated += res.evaluated
				res = r
				fmt.Fprintf(&notes, "Nothing fitted the %d examples as computed strings; read as the names of categories (%s), a table from a computed value fits.\n",
					len(req.Examples), strings.Join(labelStrings(p.labels), ", "))
			}
		}
		res.skipped = skip
		s = &session{result: res, spent: time.Since(start)}
		a.mu.Lock()
		a.searched += s.spent
		a.mu.Unlock()
		s.prog = Program{Root: res.best, Binding: p.b.line, Vars: p.b.names, Round: p.round, Nullable: p.nullable}
		s.types = p.b.types
		s.notes = describe(res, len(req.Examples), s.spent)
		a.mu.Lock()
		a.sessions[key] = s
		if res.solved {
			a.last = s
		}
		a.mu.Unlock()
	}
	notes.WriteString(s.notes)
	for _, m := range msgs(req.Feedback) {
		fmt.Fprintf(&notes, "Workflow message noted: %q (the synthesizer never embeds observed inputs and always returns the smallest program it found).\n", m)
	}
	var src string
	if s.prog.Root == nil {
		src = fallbackProgram(fname, req.Examples, errors.New("no program of the output type was enumerated"))
	} else {
		comment := "Synthesized by reconstruct's enumerative synthesizer: " + s.prog.Root.String()
		if !s.result.solved {
			comment = fmt.Sprintf("Best partial program (passes %d of %d examples): %s", s.result.passed, len(req.Examples), s.prog.Root.String())
		}
		if len(comment) > 300 {
			comment = comment[:300] + "..."
		}
		src = s.prog.Python(fname, comment)
	}
	if err := writeAtomic(filepath.Join(req.Workspace, agent.CandidateFile), src); err != nil {
		return agent.WriteResult{}, fmt.Errorf("synth write: %w", err)
	}
	a.log.Debug("write", zap.Int("examples", len(req.Examples)), zap.Bool("solved", s.result.solved),
		zap.Int64("evaluated", s.result.evaluated), zap.Duration("spent", s.spent))
	return agent.WriteResult{Notes: notes.String()}, nil
}

// stillConsistent returns a session keeping the last consistent program
// when it passes every example of p too: the programs searched before it
// failed on some of the earlier examples, so they fail on these, and the
// new evidence only confirms it. A new search would mostly find it again,
// at the cost of a whole session.
func (a *Agent) stillConsistent(p *problem, n int) (s *session) {
	a.mu.Lock()
	last := a.last
	a.mu.Unlock()
	if last == nil || last.prog.Root == nil || last.prog.Binding != p.b.line || !slices.Equal(last.types, p.b.types) ||
		last.prog.Round != p.round || last.prog.Nullable != p.nullable {
		return nil
	}
	// An operator panicking on an extreme value makes the program fail.
	defer func() {
		if recover() != nil {
			s = nil
		}
	}()
	vals := make([]any, len(p.envs))
	for i, env := range p.envs {
		vals[i] = evalNode(last.prog.Root, env)
	}
	if !p.allMatch(vals) {
		return nil
	}
	res := last.result
	res.passed = n
	return &session{prog: last.prog, types: last.types, result: res,
		notes: fmt.Sprintf("The previous program passes all %d examples: kept without a new search.\n", n)}
}

func msgs(f *agent.Feedback) []string {
	if f == nil {
		return nil
	}
	return f.Messages
}

func (r searchResult) skipKeys() map[string]bool {
	out := map[string]bool{}
	for k := range r.skipped {
		out[k] = true
	}
	if r.solved && r.best != nil {
		out[r.best.String()] = true
	}
	return out
}

func describe(res searchResult, n int, spent time.Duration) string {
	var sb strings.Builder
	fams := map[Family]bool{}
	if res.best != nil {
		res.best.families(fams)
	}
	var used []string
	for f := FamConst; f < numFamilies; f++ {
		if fams[f] {
			used = append(used, f.String())
		}
	}
	fmt.Fprintf(&sb, "Enumerated %d candidate programs bottom-up by size (sizes 1..%d complete, %d kept after observational-equivalence pruning) in %s, over the families constants, scalar, conditionals, lists, windows/scans, loops/recursion.\n",
		res.evaluated, res.level, res.banked, spent.Round(time.Millisecond))
	switch {
	case res.solved:
		fmt.Fprintf(&sb, "Found a program of size %d consistent with all %d examples: %s (families: %s).\n", res.best.Size, n, res.best, strings.Join(used, ", "))
	case res.best != nil:
		why := "the size bound"
		if res.timedOut {
			why = "the time limit"
		}
		if res.memFull {
			why = "the memory bound"
		}
		fmt.Fprintf(&sb, "No consistent program within %s; wrote the best partial program, passing %d of %d examples: %s.\n", why, res.passed, n, res.best)
	default:
		sb.WriteString("No program of the output type was found.\n")
	}
	return sb.String()
}

// fallbackProgram is written when the DSL cannot represent the task: the
// best constant program, returning the most frequent observed output.
func fallbackProgram(fname string, exs []task.Example, why error) string {
	ret, note := "None", ""
	if v, n := modeOutput(exs); n > 0 {
		ret = pyLiteral(v)
		note = fmt.Sprintf("# Best constant: the most frequent observed output (%d of %d examples).\n", n, len(exs))
	}
	return fmt.Sprintf("# The synthesizer's DSL could not express this task: %s\n%s\n\ndef %s(input_data):\n    return %s\n",
		strings.ReplaceAll(why.Error(), "\n", " "), note, fname, ret)
}

// modeOutput returns the most frequent output (the earliest among ties)
// and how many examples have it.
func modeOutput(exs []task.Example) (any, int) {
	count := map[string]int{}
	var best any
	bestN := 0
	for _, ex := range exs {
		c, err := task.Canonical(ex.Output)
		if err != nil {
			continue
		}
		count[c]++
		if count[c] > bestN {
			if v, ok := decodeRaw(ex.Output); ok {
				best, bestN = v, count[c]
			}
		}
	}
	return best, bestN
}

// pyLiteral writes a decoded JSON value as a Python expression.
func pyLiteral(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case json.Number:
		return x.String()
	case string:
		b, _ := json.Marshal(x)
		return string(b)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = pyLiteral(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = pyLiteral(k) + ": " + pyLiteral(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "None"
}

// writeAtomic writes a file through a temporary file and a rename.
func writeAtomic(path, content string) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".candidate-*.py")
	if err != nil {
		return fmt.Errorf("create temporary candidate in %s: %w", dir, err)
	}
	tmp := f.Name()
	if _, err := f.WriteString(content); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("sync %s: %w", tmp, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("close %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("rename candidate to %s: %w", path, err)
	}
	return nil
}

// Propose chooses exactly req.K new inputs: those on which the programs
// still consistent with the examples disagree most, then inputs covering
// the missing categories, then diverse random inputs.
func (a *Agent) Propose(ctx context.Context, req agent.ProposeRequest) (agent.ProposeResult, error) {
	if err := ctx.Err(); err != nil {
		return agent.ProposeResult{}, fmt.Errorf("synth propose: %w", err)
	}
	if req.K <= 0 {
		return agent.ProposeResult{Inputs: []json.RawMessage{}}, nil
	}
	seed := a.opts.Seed*1_000_003 + int64(len(req.Examples))*7919 + int64(req.Attempt)*104729 + int64(req.K)
	rng := rand.New(rand.NewSource(seed))
	var observed []any
	seen := map[string]bool{}
	for _, ex := range req.Examples {
		if v, ok := decodeRaw(ex.Input); ok {
			observed = append(observed, v)
		}
		seen[task.MustCanonical(ex.Input)] = true
	}
	b, berr := newBinding(req.Task, observed)
	tp := inputTemplate(req.Task)
	l := a.lessonFor(req, tp, observed)
	switch {
	case structuredInputs(req.Task, tp):
		return a.proposeStructured(ctx, req, tp, l, observed, seen, rng, berr == nil)
	case req.Task.Kind == task.KindOther && berr != nil && len(observed) > 0:
		// Inputs the DSL cannot bind and the description does not
		// structure: the observed inputs are the only model of validity.
		return a.proposeStructured(ctx, req, nil, l, observed, seen, rng, false)
	}
	shape := kindShape(req.Task.Kind)
	if berr == nil {
		shape = b.shape
	}
	conservative := req.Rejection != "" && req.Attempt > 1
	lim := limitsFor(req.Task, req.Domain, b, observed, conservative && req.Attempt > 2)
	if conservative && req.Attempt == 2 {
		// First rejection: keep away from the edges of lengths, and to the
		// characters already accepted.
		lim.minLen = max(lim.minLen, 1)
		lim.alphabet = limitsFor(req.Task, req.Domain, b, observed, true).alphabet
	}
	if a, c, ok := lengthsFrom(req.Rejection); ok && req.Task.Kind != task.KindInt && req.Task.Kind != task.KindPair {
		// The oracle said which lengths it accepts.
		lim.minLen, lim.maxLen = a, c
	}
	g := &generator{rng: rng, shape: shape, lim: lim}
	pool := a.pool(g, req, seen, observe(observed, tp, l).admissible)
	if len(pool) < req.K {
		// The kind's generator is exhausted: mutations of the observed
		// inputs and the description's template may still find fresh ones.
		res, err := a.proposeStructured(ctx, req, tp, l, observed, seen, rng, berr == nil)
		if err != nil {
			return agent.ProposeResult{}, fmt.Errorf("synth propose: %d fresh %s inputs within %v, and no other source: %w", len(pool), shape, lim, err)
		}
		return res, nil
	}
	var chosen []int
	if len(req.Examples) > 0 && berr == nil {
		chosen = a.distinguishing(ctx, req, pool, rng)
	} else {
		// No evidence yet: informative inputs, not tiny ones.
		idx := rng.Perm(len(pool))
		sort.SliceStable(idx, func(i, j int) bool { return shapeLen(pool[idx[i]]) >= 4 && shapeLen(pool[idx[j]]) < 4 })
		for _, i := range idx {
			if len(chosen) == req.K {
				break
			}
			chosen = append(chosen, i)
		}
	}
	chosen = fill(chosen, pool, req, rng)
	if len(chosen) < req.K {
		return agent.ProposeResult{}, fmt.Errorf("synth propose: only %d fresh inputs of the %d asked could be generated", len(chosen), req.K)
	}
	out := make([]json.RawMessage, 0, req.K)
	last := map[string]string{}
	for _, i := range chosen[:req.K] {
		raw := encode(pool[i])
		out = append(out, raw)
		last[task.MustCanonical(raw)] = originKind
	}
	a.remember(l, last)
	return agent.ProposeResult{Inputs: out}, nil
}

// originKind marks inputs drawn by the kind's generator.
const originKind = "kind"

// lessonFor returns what earlier rejections taught about this task's
// inputs, updated with the rejection of the previous attempt.
func (a *Agent) lessonFor(req agent.ProposeRequest, tp *tnode, observed []any) *lesson {
	key := string(req.Task.Kind) + "\x00" + req.Task.InputType + "\x00" + req.Task.InputConstraints
	a.mu.Lock()
	defer a.mu.Unlock()
	l := a.lessons[key]
	if l == nil {
		l = newLesson()
		a.lessons[key] = l
	}
	if req.Attempt > 1 && req.Rejection != "" {
		l.learn(req.Rejection, tp, observed)
	}
	return l
}

// remember records where each proposed input came from, so that the next
// rejection can be blamed on its source.
func (a *Agent) remember(l *lesson, last map[string]string) {
	a.mu.Lock()
	l.last = last
	a.mu.Unlock()
}

// structuredInputs decides whether proposals come from the description's
// template rather than the kind's generator: for inputs of kind other whose
// description shows more structure than a list of numbers or pairs, and for
// strings of a stated unit format.
func structuredInputs(t task.Task, tp *tnode) bool {
	switch {
	case tp == nil:
		return false
	case t.Kind == task.KindOther:
		return tp.rich(t.Domain)
	case t.Kind == task.KindString:
		return tp.kind == tUnits
	}
	return false
}

// proposeStructured proposes inputs drawn from the description's template
// and mutated from the observed inputs, adapting to the rejection of the
// previous attempt. tp may be nil (mutations only).
func (a *Agent) proposeStructured(ctx context.Context, req agent.ProposeRequest, tp *tnode, l *lesson, observed []any, seen map[string]bool, rng *rand.Rand, bound bool) (agent.ProposeResult, error) {
	if tp != nil {
		l.applyTo(tp)
	}
	o := observe(observed, tp, l)
	want := 48 + 3*req.K
	var pool []any
	var origin []string
	local := map[string]bool{}
	add := func(v any, from string) {
		raw := encode(v)
		if raw == nil {
			return
		}
		c := task.MustCanonical(raw)
		if seen[c] || local[c] {
			return
		}
		local[c] = true
		pool = append(pool, roundTrip(v))
		origin = append(origin, from)
	}
	if tp != nil {
		g := &tgen{rng: rng, small: l.strikes > 0}
		for tries := 0; len(pool) < want && tries < 20*want; tries++ {
			add(g.draw(tp), originTemplate)
		}
	}
	var allowed []string
	for _, op := range mutationOps {
		if !l.banned[op] {
			allowed = append(allowed, op)
		}
	}
	if len(observed) > 0 && len(allowed) > 0 {
		maxOps := 3
		if l.strikes > 0 || req.Attempt > 1 {
			maxOps = 1
		}
		target := len(pool) + want/2
		if tp == nil || l.banned[originTemplate] {
			target = len(pool) + want
		}
		for tries := 0; len(pool) < target && tries < 20*want; tries++ {
			if v, ops := o.mutant(rng, observed, allowed, maxOps); v != nil {
				add(v, strings.Join(ops, "+"))
			}
		}
	}
	if len(pool) < req.K {
		return agent.ProposeResult{}, fmt.Errorf("synth propose: only %d fresh inputs of the %d asked could be drawn from the description and the observed inputs", len(pool), req.K)
	}
	var chosen []int
	if bound && len(req.Examples) > 0 {
		chosen = a.distinguishing(ctx, req, pool, rng)
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
		if origin[i] == originTemplate && l.banned[originTemplate] {
			r += 2
		}
		if len(req.Examples) == 0 && leafCount(pool[i]) < 4 {
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
	out := make([]json.RawMessage, 0, req.K)
	last := map[string]string{}
	for _, i := range chosen[:req.K] {
		raw := encode(pool[i])
		out = append(out, raw)
		last[task.MustCanonical(raw)] = origin[i]
	}
	a.remember(l, last)
	return agent.ProposeResult{Inputs: out}, nil
}

func kindShape(k task.Kind) string {
	switch k {
	case task.KindList, task.KindTwoLists, task.KindInt, task.KindPair, task.KindString, task.KindPoints:
		return string(k)
	}
	return "pairs"
}

// pool generates fresh candidate inputs: edge cases first, then random.
func (a *Agent) pool(g *generator, req agent.ProposeRequest, seen map[string]bool, admissible func(any) bool) []any {
	var out []any
	local := map[string]bool{}
	addIn := func(v any) {
		raw := encode(v)
		if raw == nil || !withinLimits(v, g.lim, g.shape) || !admissible(v) {
			return
		}
		c := task.MustCanonical(raw)
		if seen[c] || local[c] {
			return
		}
		local[c] = true
		out = append(out, v)
	}
	for _, e := range g.edges() {
		addIn(e)
	}
	want := 48 + 3*req.K
	for tries := 0; len(out) < want && tries < 40*want; tries++ {
		addIn(g.draw())
	}
	return out
}

// distinguishing enumerates programs consistent with the examples, keeping
// apart those that differ on the pool, and greedily picks pool inputs that
// split the most pairs of surviving programs.
func (a *Agent) distinguishing(ctx context.Context, req agent.ProposeRequest, pool []any, rng *rand.Rand) []int {
	p, err := newProblem(req.Task, req.Examples)
	if err != nil {
		return nil
	}
	defaultLambdas()
	var extra [][]any
	var idx []int
	for i, v := range pool {
		env, err := p.b.env(roundTrip(v))
		if err != nil {
			continue
		}
		extra = append(extra, env)
		idx = append(idx, i)
	}
	limit := min(a.opts.TimeLimit/proposeShare, maxProposeTime)
	res := search(p, searchSpec{deadline: a.deadline(ctx, limit), memLimit: a.opts.MemoryBytes, maxSize: a.opts.MaxSize, extra: extra, collect: true, beyond: 1})
	surv := res.survivors
	if len(surv) < 2 {
		return nil
	}
	nObs := len(p.envs)
	// keys[j][s] is survivor s's output class on pool input j.
	keys := make([][]hasher, len(extra))
	for j := range extra {
		keys[j] = make([]hasher, len(surv))
		for s, e := range surv {
			keys[j][s] = fnvOffset.value(p.rounded(e.vals[nObs+j]))
		}
	}
	class := make([]int, len(surv)) // current partition of survivors
	var chosen []int
	used := map[int]bool{}
	order := rng.Perm(len(extra))
	for len(chosen) < req.K {
		best, bestScore := -1, 0
		for _, j := range order {
			if used[j] {
				continue
			}
			score := splitPairs(class, keys[j])
			if score > bestScore {
				best, bestScore = j, score
			}
		}
		if best < 0 {
			break
		}
		used[best] = true
		chosen = append(chosen, idx[best])
		// Refine the partition.
		ids := map[[2]uint64]int{}
		for s := range class {
			k := [2]uint64{uint64(class[s]), uint64(keys[best][s])}
			if _, ok := ids[k]; !ok {
				ids[k] = len(ids)
			}
			class[s] = ids[k]
		}
	}
	return chosen
}

// splitPairs counts pairs of survivors in one class that the key separates.
func splitPairs(class []int, key []hasher) int {
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
		cats[i] = task.CategoriesOf(req.Task.Kind, dom, encode(v))
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

// roundTrip converts a generated value to its decoded JSON form.
func roundTrip(v any) any {
	d, _ := task.Decode(encode(v))
	return d
}
