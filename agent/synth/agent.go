package synth

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"

	"github.com/reconstruct/reconstruct/agent/synth/inputs"
)

// Defaults for Options.
const (
	DefaultTimeLimit = 20 * time.Second
	// DefaultProposeTimeLimit bounds the search for the rival programs
	// a proposal tells apart; it is the configuration's
	// agent.synth.propose_time_limit default.
	DefaultProposeTimeLimit = 400 * time.Millisecond
	// DefaultMemoryBytes bounds the memory of a session's searches; it is
	// the configuration's agent.synth.memory_mb default (1,024 MiB).
	DefaultMemoryBytes = 1024 << 20
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
	// ProposeTimeLimit bounds a proposal's search for rival programs
	// (default DefaultProposeTimeLimit); it gets at most a fifth of
	// TimeLimit as well.
	ProposeTimeLimit time.Duration
	// MemoryBytes bounds the memory the agent's searches hold at once
	// (default DefaultMemoryBytes): program banks, their arenas and hash
	// sets, the searches of sketches' holes and of proposals' rivals, a
	// search kept to be resumed, and the room the garbage collector
	// leaves them for garbage (memory.go). A search at the bound stops
	// growing its bank and says so in its notes.
	MemoryBytes int64
	// MaxSize is the largest program size enumerated (default 14).
	MaxSize int
	// MaxPrograms, when set, bounds each session's search by the
	// programs it evaluates instead of by time (TimeLimit and
	// RunTimeLimit are then ignored; the context's deadline still
	// applies): the same examples then give the same program on any
	// machine, however loaded. A proposal's search gets a fifth of it.
	MaxPrograms int64
	// Shared holds the lambda banks this agent shares with the agents of
	// other runs (a sweep's, a worker's); nil: the agent makes its own.
	Shared *Shared
	Log    *zap.Logger
}

// Agent is the enumerative synthesizer. It is safe for one workflow run at a
// time; it remembers searches that ran out of time so that a repeated
// session on the same examples does not redo them.
type Agent struct {
	opts Options
	log  *zap.Logger
	// mem is the budget of all the agent's searches (Options.MemoryBytes).
	mem *memBudget

	mu       sync.Mutex
	sessions map[string]*session
	// lessons hold what proposal rejections taught, per input description.
	lessons map[string]*inputs.Lesson
	// searched is the search time of the run's sessions so far.
	searched time.Duration
	// last is the latest session that found a consistent program.
	last *session
	// stuck is the search of the latest session that found nothing
	// before its clock ran out, kept to go on with while the examples do
	// not change (stuckKey); stuckP is its problem, stuckEvaluated the
	// programs its calls evaluated so far (a solver counts them all).
	stuck          solver
	stuckP         *dsl.Problem
	stuckEvaluated int64
	stuckKey       string
	// written is the session whose program the last Write wrote (nil for
	// a program no search made) and writtenSHA the digest of that
	// candidate.py: the candidate the next proposal's rivals are
	// searched for (verify.go).
	written    *session
	writtenSHA string
	// reports are the rival searches of the latest proposals, by
	// proposal (reportOrder, oldest first).
	reports     map[string]agent.RivalReport
	reportOrder []string
	// programs counts the programs the run's sessions evaluated (the
	// run's budget with MaxPrograms); left and account are what the last
	// session's search left (searchleft.go).
	programs int64
	left     bool
	account  string
	// proposalsFull counts the proposals' searches the memory bound
	// stopped since the last session's notes said so.
	proposalsFull int
}

// session is what a Write on one example set found.
type session struct {
	prog   dsl.Program
	types  []dsl.Type
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
	if opts.ProposeTimeLimit <= 0 {
		opts.ProposeTimeLimit = DefaultProposeTimeLimit
	}
	if opts.MemoryBytes <= 0 {
		opts.MemoryBytes = DefaultMemoryBytes
	}
	if opts.MaxSize <= 0 {
		opts.MaxSize = defaultMaxSize
	}
	if opts.Log == nil {
		opts.Log = zap.NewNop()
	}
	if opts.Shared == nil {
		opts.Shared = NewShared(SharedOptions{})
	}
	return &Agent{opts: opts, log: opts.Log.With(zap.String("agent", "synth")), mem: sessionBudget(opts.MemoryBytes),
		sessions: map[string]*session{}, lessons: map[string]*inputs.Lesson{}}
}

// Close drops the search the agent kept to resume and gives its memory
// back: the run is over. The agent must not be used after.
func (a *Agent) Close() error {
	a.mu.Lock()
	stuck := a.stuck
	a.stuck = nil
	a.mu.Unlock()
	if stuck != nil {
		stuck.close()
	}
	a.mem.close()
	return nil
}

// MemoryPeak is the most memory the agent's searches held at once, by
// their own count (memory.go), and the bound they had.
func (a *Agent) MemoryPeak() (peak, bound int64) {
	return a.mem.peak.Load(), a.opts.MemoryBytes
}

// dropStuck drops the search kept to resume (the caller holds a.mu).
func (a *Agent) dropStuck() {
	if a.stuck != nil {
		a.stuck.close()
		a.stuck = nil
	}
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

// spec bounds a search of limit (or, with Options.MaxPrograms, of the
// programs budget divided by div), cancelled with ctx.
func (a *Agent) spec(ctx context.Context, limit time.Duration, div int64) searchSpec {
	s := searchSpec{shared: a.opts.Shared, done: ctx.Done(), mem: a.mem, memLimit: int64(float64(a.mem.limit) * mainShare), maxSize: a.opts.MaxSize}
	if a.opts.MaxPrograms > 0 {
		s.maxPrograms = max(a.opts.MaxPrograms/div, 1)
		if d, ok := ctx.Deadline(); ok {
			s.deadline = d
		}
		return s
	}
	s.deadline = a.deadline(ctx, limit)
	return s
}

// runTimeLeft reports whether the run's search time is not spent yet.
func (a *Agent) runTimeLeft() bool {
	if a.opts.RunTimeLimit <= 0 || a.opts.MaxPrograms > 0 {
		return true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.searched < a.opts.RunTimeLimit
}

// Write synthesizes a program consistent with every example and writes its
// Python translation to candidate.py in the workspace.
func (a *Agent) Write(ctx context.Context, req agent.WriteRequest) (agent.WriteResult, error) {
	if err := ctx.Err(); err != nil {
		return agent.WriteResult{}, fmt.Errorf("synth write: %w", err)
	}
	// The collector runs under the searches' memory limit for the whole
	// session, not only while a bank grows: the sketches and last resorts
	// between two grows make garbage beside a bank of up to the bound,
	// which the collector's own target (twice the heap alive) would let
	// reach twice the bound (gc.go).
	holdGC(a.mem)
	defer releaseGC(a.mem)
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
	a.mu.Lock()
	stuck, stuckP, stuckEvaluated := a.stuck, a.stuckP, a.stuckEvaluated
	if a.stuckKey != key {
		// New evidence: the stuck search is of no further use.
		a.dropStuck()
		stuck = nil
	}
	a.mu.Unlock()
	switch {
	case prev != nil && stuck != nil && a.runBudgetLeft():
		// Nothing fitted these examples before the clock ran out: the
		// session goes on with that search (the level it was cut in, then
		// larger sizes) instead of returning the same partial program.
		var err error
		if s, err = a.goOn(ctx, stuck, stuckP, stuckEvaluated, prev, len(req.Examples)); err != nil {
			return agent.WriteResult{}, err
		}
		if s.result.solved {
			notes.WriteString("Nothing fitted the examples within the previous sessions' time: this session went on with their search.\n")
		} else {
			fmt.Fprintf(&notes, "Nothing fitted the examples yet: this session went on with the search where the previous one stopped (sizes 1..%d complete).\n", s.result.level)
		}
		a.mu.Lock()
		a.sessions[key] = s
		kept := a.stuck
		a.mu.Unlock()
		a.setLeft(s, kept, len(req.Examples))
	case prev != nil && !failedOwn:
		// The same evidence was searched already: the result cannot change.
		s = prev
		fmt.Fprintf(&notes, "Same %d examples as an earlier session: reusing its search (no new evidence).\n", len(req.Examples))
		a.setLeft(s, stuck, len(req.Examples))
		if _, account := a.SearchLeft(); account != "" {
			notes.WriteString("The search has nothing left to try on these examples: " + account + ".\n")
		}
	default:
		p, err := newProblem(req.Task, req.Examples)
		if err != nil {
			if !errors.Is(err, dsl.ErrUnsupported) {
				return agent.WriteResult{}, fmt.Errorf("synth write: %w", err)
			}
			if err := ctx.Err(); err != nil {
				return agent.WriteResult{}, fmt.Errorf("synth write: %w", err)
			}
			src := fallbackProgram(fname, req.Examples, err)
			a.wrote(nil, src)
			a.setUnsupported(err)
			return agent.WriteResult{Notes: "The DSL cannot express this task's values (" + err.Error() + "); wrote the best constant program.", Program: []byte(src)}, nil
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
			// The last program kept as it is (its session, with the same
			// program and result, becomes the last), or a sketch's learned
			// again.
			if s = a.stillConsistent(p, len(req.Examples)); s == nil {
				s = a.refit(ctx, p, len(req.Examples), skip)
			}
			if s != nil {
				a.mu.Lock()
				a.sessions[key] = s
				a.last = s
				a.mu.Unlock()
				a.setLeft(s, nil, len(req.Examples))
				break
			}
		}
		// The lambda banks are built once per Shared (and per set of
		// constants mined from the task's text), not on the session's clock.
		if _, ok := a.opts.Shared.lambdasFor(p.Mined, ctx.Done()); !ok {
			return agent.WriteResult{}, fmt.Errorf("synth write: %w", ctx.Err())
		}
		limit := a.sessionLimit()
		if limit < a.opts.TimeLimit && a.opts.MaxPrograms <= 0 {
			fmt.Fprintf(&notes, "The run's search time (%v) is nearly spent: this session searches for %v.\n", a.opts.RunTimeLimit, limit)
		}
		start := time.Now()
		spec := a.spec(ctx, limit, 1)
		spec.skip = skip
		sr := plan(p, spec, 0)
		res := sr.solve(budgetOf(spec)).detached()
		if !res.solved && ctx.Err() == nil && p.RelaxLabels() {
			spec := a.spec(ctx, minSessionTime, 20)
			spec.skip = skip
			r := search(p, spec)
			if r.solved {
				r.evaluated += res.evaluated
				res = r
				fmt.Fprintf(&notes, "Nothing fitted the %d examples as computed strings; read as the names of categories (%s), a table from a computed value fits.\n",
					len(req.Examples), strings.Join(dsl.LabelStrings(p.Labels), ", "))
			}
		}
		if err := ctx.Err(); err != nil {
			// A search cut short by a cancellation is not a result.
			sr.close()
			return agent.WriteResult{}, fmt.Errorf("synth write: %w", err)
		}
		res.skipped = skip
		s = &session{result: res, spent: time.Since(start)}
		a.spend(s.spent, res.evaluated)
		var kept solver
		if !res.solved && sr.resumable() {
			// Also after a relaxed search that found nothing: the next
			// session on these examples goes on with sr (which reads the
			// outputs as categories too from now on).
			kept = sr
		} else {
			// Its memory goes back to the session's budget.
			sr.close()
		}
		a.mu.Lock()
		a.dropStuck()
		a.stuck, a.stuckP, a.stuckEvaluated, a.stuckKey = kept, p, res.evaluated, key
		a.mu.Unlock()
		s.prog = dsl.Program{Root: res.best, Binding: p.B.Line, BindingHelper: p.B.Helper, Vars: p.B.Names, Round: roundFor(p, res.best), Nullable: p.Nullable}
		s.types = p.B.Types
		s.notes = describe(res, len(req.Examples), s.spent, a.opts.MemoryBytes)
		a.mu.Lock()
		a.sessions[key] = s
		if res.solved {
			a.last = s
		}
		a.mu.Unlock()
		a.setLeft(s, kept, len(req.Examples))
		if _, account := a.SearchLeft(); account != "" {
			notes.WriteString("The search has nothing left to try on these examples: " + account + ".\n")
		}
	}
	notes.WriteString(s.notes)
	a.mu.Lock()
	if n := a.proposalsFull; n > 0 {
		a.proposalsFull = 0
		fmt.Fprintf(&notes, "%d %s for rival programs reached the memory bound (agent.synth.memory_mb = %d MiB): %s stopped growing there.\n",
			n, plural(n, "proposal's search", "proposals' searches"), a.opts.MemoryBytes>>20, plural(n, "its bank", "their banks"))
	}
	a.mu.Unlock()
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
	if err := ctx.Err(); err != nil {
		return agent.WriteResult{}, fmt.Errorf("synth write: %w", err)
	}
	if s.prog.Root == nil {
		a.wrote(nil, src)
	} else {
		a.wrote(s, src)
	}
	a.log.Debug("write", zap.Int("examples", len(req.Examples)), zap.Bool("solved", s.result.solved),
		zap.Int64("evaluated", s.result.evaluated), zap.Duration("spent", s.spent))
	return agent.WriteResult{Notes: notes.String(), Program: []byte(src)}, nil
}

// goOn continues a stuck search of p with the session's time and returns the
// session it makes; the stuck search is dropped once it found a program,
// ran out of sizes or was cancelled.
func (a *Agent) goOn(ctx context.Context, sr solver, p *dsl.Problem, before int64, prev *session, n int) (*session, error) {
	start := time.Now()
	spec := a.spec(ctx, a.sessionLimit(), 1)
	res := sr.solve(budgetOf(spec))
	if err := ctx.Err(); err != nil {
		a.mu.Lock()
		a.dropStuck()
		a.mu.Unlock()
		return nil, fmt.Errorf("synth write: %w", err)
	}
	res = res.detached()
	keep := sr.resumable()
	if !keep {
		sr.close()
	}
	res.skipped = prev.result.skipped
	spent := time.Since(start)
	s := &session{result: res, spent: prev.spent + spent, types: prev.types, prog: prev.prog}
	s.prog.Root, s.prog.Round = res.best, roundFor(p, res.best)
	s.notes = describe(res, n, s.spent, a.opts.MemoryBytes)
	a.spend(spent, res.evaluated-before)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.stuckEvaluated = res.evaluated
	if res.solved {
		a.last = s
	}
	if !keep && a.stuck == sr {
		// Closed above.
		a.stuck = nil
	}
	return s, nil
}

// roundFor is the rounding the program n is emitted with on problem p
// (dsl.Problem.RoundFor): none when its values on the examples are the
// outputs as they are.
func roundFor(p *dsl.Problem, n *dsl.Node) int {
	if n == nil || p.Round < 0 {
		return p.Round
	}
	vals := make([]any, len(p.Outs))
	for i := range vals {
		vals[i] = dsl.EvalSafe(n, p.Envs[i])
	}
	return p.RoundFor(vals)
}

// stillConsistent returns a session keeping the last consistent program
// when it passes every example of p too: the programs searched before it
// failed on some of the earlier examples, so they fail on these, and the
// new evidence only confirms it. A new search would mostly find it again,
// at the cost of a whole session.
func (a *Agent) stillConsistent(p *dsl.Problem, n int) (s *session) {
	a.mu.Lock()
	last := a.last
	a.mu.Unlock()
	if last == nil || last.prog.Root == nil || last.prog.Binding != p.B.Line || !slices.Equal(last.types, p.B.Types) ||
		last.prog.Nullable != p.Nullable {
		return nil
	}
	// An operator panicking on an extreme value makes the program fail.
	defer func() {
		if recover() != nil {
			s = nil
		}
	}()
	vals := make([]any, len(p.Envs))
	for i, env := range p.Envs {
		vals[i] = dsl.EvalNode(last.prog.Root, env)
	}
	// The rounding is the new examples' own: a program kept unrounded
	// must still match them as it is.
	if !p.AllMatch(vals) || last.prog.Round != p.RoundFor(vals) {
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

func describe(res searchResult, n int, spent time.Duration, bound int64) string {
	var sb strings.Builder
	fams := map[dsl.Family]bool{}
	if res.best != nil {
		res.best.Families(fams)
	}
	var used []string
	for f := dsl.FamConst; f < dsl.NumFamilies; f++ {
		if fams[f] {
			used = append(used, f.String())
		}
	}
	sb.WriteString(res.note)
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
		fmt.Fprintf(&sb, "No consistent program within %s; wrote the best partial program, passing %d of %d examples: %s.\n", why, res.passed, n, res.best)
	default:
		sb.WriteString("No program of the output type was found.\n")
	}
	switch {
	case res.heapFull:
		fmt.Fprintf(&sb, "The process's memory reached its bound (about %d MiB of heap alive, of %d MiB for the runs searching in it, agent.synth.memory_mb = %d MiB each), although the search counted %d MiB of programs of its own: its bank stopped growing in size %d, and the larger programs built from what it held were checked against the examples without being kept.\n",
			res.heapLive>>20, res.heapShare>>20, bound>>20, res.memBytes>>20, res.frozeAt)
	case res.memFull:
		fmt.Fprintf(&sb, "The search's memory reached its bound (%d MiB of programs, of agent.synth.memory_mb = %d MiB for all the run's searches): its bank stopped growing in size %d, and the larger programs built from what it held were checked against the examples without being kept.\n",
			res.memBytes>>20, bound>>20, res.frozeAt)
	}
	return sb.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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
			if v, ok := dsl.DecodeRaw(ex.Output); ok {
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
