package workflow

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"time"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/internal/atomicfile"
	"github.com/reconstruct/reconstruct/internal/stamp"
	"github.com/reconstruct/reconstruct/judge"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

type jsonRaw = json.RawMessage

// ResultFile is the name of the result in the workspace.
const ResultFile = "result.json"

// Spec says what to run.
type Spec struct {
	Task     task.Task
	Settings Settings
	// Origins says where the settings whose default depends on the task
	// came from (key → "default", a file, a variable, a flag…), recorded
	// in the Result.
	Origins   map[string]string
	Workspace string
	RunID     string
	// Limits bound each candidate call.
	Limits sandbox.Limits
	Log    *zap.Logger
	// Progress gets one line per iteration (stderr); nil for none.
	Progress io.Writer
	// Resume, when set, continues a run from a recorded state.
	Resume *State
	// Fork marks Resume as the starting point of a new run forked from
	// another (its journal starts with run_started, not run_resumed).
	Fork bool
	// Finish, with Resume, is the stop of the protocol a run reached
	// without recording its final selection (PendingFinal): the resumed
	// run only selects and records its final program.
	Finish string
	// Started is recorded in the run_started event, its task, settings and
	// (for a fork) starting state filled in: the runner gives the
	// configuration and the bank workspace.
	Started RunStarted
}

// finalizeTimeout bounds the work done after cancellation.
const finalizeTimeout = 2 * time.Minute

// Run executes the workflow. The Result is returned (and written to the
// workspace) also when the run ends by cancellation or an infrastructure
// error; the error is then non-nil.
func Run(ctx context.Context, spec Spec, deps Deps) (*Result, error) {
	if spec.Log == nil {
		spec.Log = zap.NewNop()
	}
	if spec.RunID == "" {
		return nil, errors.New("workflow: empty run id")
	}
	if err := os.MkdirAll(spec.Workspace, 0o755); err != nil {
		return nil, fmt.Errorf("create workspace: %w", err)
	}
	e := &engine{spec: spec, deps: deps, log: spec.Log.With(zap.String("run", spec.RunID)), started: time.Now().UTC(),
		final: newFinalFile(spec.Workspace), stamp: stamp.New(Format, sandbox.HarnessSHA256())}
	var stop string
	var runErr error
	if spec.Resume != nil {
		e.st = *spec.Resume
		if r, ok := deps.Agent.(agent.Resumer); ok {
			r.Resume(e.st.AgentWrites, e.st.AgentProposes)
		}
	}
	e.openDomain()
	if spec.Resume != nil && !spec.Fork {
		runErr = e.event(ctx, EventRunResumed, e.st.Iteration, RunResumed{Known: len(e.st.Examples), Iteration: e.st.Iteration})
	} else {
		data := spec.Started
		data.Task, data.Settings = spec.Task, spec.Settings
		if spec.Resume != nil {
			// A fork starts from its parent's state: its journal carries the
			// inherited examples, so that the run can be shown and resumed
			// from its own journal.
			data.State, data.Examples = e.checkpoint().State, e.examples()
		}
		runErr = e.event(ctx, EventRunStarted, 0, data)
	}
	switch {
	case runErr != nil:
	case spec.Resume != nil && spec.Finish != "":
		// Killed during its final selection: the loop is over.
		stop = spec.Finish
	default:
		stop, runErr = e.loop(ctx)
	}
	if runErr != nil && ctx.Err() != nil {
		stop, runErr = StopCancelled, ctx.Err()
	}
	if runErr != nil && stop == "" {
		stop = StopError
	}
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finalizeTimeout)
	defer cancel()
	res, ferr := e.finalize(fctx, stop, runErr)
	if ferr != nil {
		return res, errors.Join(runErr, ferr)
	}
	return res, runErr
}

type engine struct {
	spec    Spec
	deps    Deps
	log     *zap.Logger
	st      State
	started time.Time
	final   *finalFile
	// stamp heads every event this run records.
	stamp stamp.Stamp
	// rejections are the reasons of the last proposal that failed every
	// attempt.
	rejections []string
	// dom lists the task's valid inputs when they are known to be few
	// (Deps.Domain); nil otherwise.
	dom *finiteDomain
	// repeats is the progress output's count of sessions not printed
	// because they repeated the one before (a stall).
	repeats progressRepeats
	// tainted holds the digests of programs whose re-scoring for the final
	// selection ended in an infrastructure error: never the final program,
	// whatever their archived evaluation says (a candidate may break the
	// sandbox that evaluates the next one, its own re-scoring included).
	tainted map[string]bool
	// rescored keeps the archived candidates' evaluations on the example
	// set of rescoredOn examples, for the final selection and the
	// selection gate (the examples only grow: a new count drops them).
	rescored   map[string]scored
	rescoredOn int
	// reach holds, on the same examples, the best evaluation a candidate
	// whose re-scoring was cut short could still have had (rescore).
	reach map[string]Evaluation
}

// scored is a candidate's evaluation on the current examples, with its
// source.
type scored struct {
	ev  Evaluation
	src []byte
}

// taint marks a program whose re-scoring ended in an infrastructure error.
func (e *engine) taint(source []byte) {
	if e.tainted == nil {
		e.tainted = map[string]bool{}
	}
	sum := sha256.Sum256(source)
	e.tainted[hex.EncodeToString(sum[:])] = true
}

// progressRepeats collapses the progress lines of sessions that repeat
// the previous one.
type progressRepeats struct {
	first, last, of int
}

func (e *engine) settings() Settings { return e.spec.Settings }

// loop runs iterations until a stop reason; an error is an infrastructure
// failure or cancellation.
func (e *engine) loop(ctx context.Context) (string, error) {
	s := e.settings()
	if !e.st.InitialDone {
		_, ok, err := e.acquire(ctx, s.InitialBatch, task.SourceInitial)
		if err != nil {
			return "", err
		}
		if !ok {
			return StopProposerFailed, nil
		}
	}
	defer e.flushRepeats()
	for {
		if err := ctx.Err(); err != nil {
			return StopCancelled, err
		}
		if e.st.Iteration >= s.MaxIterations {
			return StopMaxIterations, nil
		}
		stop, err := e.iterate(ctx)
		if err != nil || stop != "" {
			return stop, err
		}
	}
}

// commitRecord stores the iteration record and prints the progress line:
// a session that repeats the one before is announced once, and the rest
// of the streak in one line when it ends.
func (e *engine) commitRecord(ir IterationRecord) {
	e.st.Records = append(e.st.Records, ir)
	if e.spec.Progress == nil {
		return
	}
	if ir.Repeats != 0 {
		r := &e.repeats
		if r.of != ir.Repeats {
			e.flushRepeats()
			*r = progressRepeats{first: ir.Iteration, last: ir.Iteration, of: ir.Repeats}
			fmt.Fprintf(e.spec.Progress, "iter %3d  same candidate as iter %d on the same %d examples: nothing changed\n", ir.Iteration, ir.Repeats, ir.Known)
			return
		}
		r.last = ir.Iteration
		return
	}
	e.flushRepeats()
	mark := "no"
	switch {
	case ir.Counted:
		mark = "yes"
	case ir.Promoted:
		mark = "yes (not counted: " + ir.Gate + ")"
	case ir.Gate != "":
		mark = "no (" + ir.Gate + ")"
	}
	fmt.Fprintf(e.spec.Progress, "iter %3d  known %4d  passed %4d/%-4d  score %.3f  promoted %s  tokens %d\n",
		ir.Iteration, ir.Known, ir.Passed, ir.Known, ir.Score, mark, e.st.Tokens.Total())
}

// flushRepeats prints the end of a streak of repeated sessions.
func (e *engine) flushRepeats() {
	r := e.repeats
	e.repeats = progressRepeats{}
	if e.spec.Progress == nil || r.last <= r.first {
		return
	}
	fmt.Fprintf(e.spec.Progress, "iter %3d  … to iter %d: the same candidate again (%d sessions changed nothing)\n", r.first+1, r.last, r.last-r.of)
}

// progress prints one line of progress, if progress is shown.
func (e *engine) progress(format string, args ...any) {
	if e.spec.Progress != nil {
		e.flushRepeats()
		fmt.Fprintf(e.spec.Progress, format+"\n", args...)
	}
}

func (e *engine) feedback(it int, ev Evaluation, messages []string) *agent.Feedback {
	fb := &agent.Feedback{Iteration: it, Passed: ev.Passed, Total: ev.Total, Messages: messages}
	if n := min(len(ev.Failures), max(0, e.settings().MaxFailures)); n > 0 {
		fb.Failures = append([]judge.Failure(nil), ev.Failures[:n]...)
	}
	if !ev.Analysis.DefinesFunc && ev.Analysis.Parses {
		fb.Messages = append(fb.Messages, fmt.Sprintf("candidate.py does not define %s(input_data)", e.spec.Task.FunctionName))
	}
	if !ev.Analysis.Parses && ev.Analysis.ParseError != "" {
		fb.Messages = append(fb.Messages, "candidate.py does not parse: "+ev.Analysis.ParseError)
	}
	return fb
}

// evaluate runs a candidate on examples and analyses it against them.
func (e *engine) evaluate(ctx context.Context, source string, examples []task.Example) (Evaluation, error) {
	ev, err := e.analyse(ctx, source, examples)
	if err != nil || len(examples) == 0 {
		return ev, err
	}
	return ev, e.run(ctx, source, examples, &ev)
}

// analyse is the evaluation of source on examples before any is run.
func (e *engine) analyse(ctx context.Context, source string, examples []task.Example) (Evaluation, error) {
	inputs, outputs := make([]json.RawMessage, len(examples)), make([]json.RawMessage, len(examples))
	for i, ex := range examples {
		inputs[i], outputs[i] = ex.Input, ex.Output
	}
	an, err := e.deps.Evaluator.Analyse(ctx, sandbox.AnalyseRequest{Source: source, FunctionName: e.spec.Task.FunctionName, Inputs: inputs, Outputs: outputs})
	var refused *sandbox.RemoteError
	switch {
	case errors.As(err, &refused) && ctx.Err() == nil:
		// The harness gave up on this source (a literal too large to parse in
		// time, say): that is the candidate's outcome, not a broken sandbox.
		an = sandbox.Analysis{ParseError: "analysis failed: " + refused.Message, Complexity: 1}
	case err != nil:
		return Evaluation{}, fmt.Errorf("analyse: %w", err)
	}
	return Evaluation{Total: len(examples), Analysis: an}, nil
}

// run runs source on examples, adding to ev's passes and failures.
func (e *engine) run(ctx context.Context, source string, examples []task.Example, ev *Evaluation) error {
	inputs := make([]json.RawMessage, len(examples))
	for i, ex := range examples {
		inputs[i] = ex.Input
	}
	req := sandbox.CallRequest{
		Program: sandbox.Program{Source: source, Function: e.spec.Task.FunctionName},
		Inputs:  inputs, Limits: e.spec.Limits,
	}
	outcomes, err := e.deps.Evaluator.Call(ctx, req)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if e.deps.Hook != nil && len(outcomes) == len(inputs) {
		ev.Disagreements += e.checkHook(ctx, req, outcomes)
	}
	v := judge.Compare(examples, outcomes, e.settings().Atol)
	ev.Passed += v.Passed
	ev.Failures = append(ev.Failures, v.Failures...)
	return nil
}

// firstRescore is how many examples a re-scoring that may be cut runs
// first; each later part is twice the one before.
const firstRescore = 4

// rescore evaluates source on the run's examples for the final selection.
// It runs them in parts of growing size and stops (cut) as soon as
// chosen says no to the best the candidate could still reach — every
// example not yet run passing —, returning that reach; chosen is asked
// before any is run too, on the analysis alone. A candidate run on them
// all is returned in full, chosen or not.
func (e *engine) rescore(ctx context.Context, source string, chosen func(Evaluation) bool) (Evaluation, bool, error) {
	examples := e.st.Examples
	ev, err := e.analyse(ctx, source, examples)
	if err != nil {
		return Evaluation{}, false, err
	}
	reach := func(done int) Evaluation {
		r := ev
		r.Passed += len(examples) - done
		return r
	}
	for done, part := 0, firstRescore; ; done, part = done+part, 2*part {
		if done >= len(examples) {
			return ev, false, nil
		}
		if r := reach(done); !chosen(r) {
			return r, true, nil
		}
		if err := e.run(ctx, source, examples[done:min(done+part, len(examples))], &ev); err != nil {
			return Evaluation{}, false, err
		}
	}
}

// HookDisagrees is the failure of an example on which the task's evaluate
// hook and the candidate's own evaluation disagree. It says nothing of
// what the hook returned: the candidate ran in the hook's care, and what
// it made the hook return must not reach the agent.
const HookDisagrees = "the task's evaluate hook disagrees with the candidate's own run on this input; the candidate is not promoted on it"

// checkHook has the task's evaluate hook judge the candidate too and fails,
// in own, every example on which the two disagree: both returned the same
// value (within atol), or both failed. It returns how many failed so. A
// hook that fails is logged; the candidate's own evaluation stands.
func (e *engine) checkHook(ctx context.Context, req sandbox.CallRequest, own []sandbox.Outcome) int {
	hook, err := e.deps.Hook.Evaluate(ctx, req)
	if err == nil && len(hook) != len(own) {
		err = fmt.Errorf("%d outcomes for %d inputs", len(hook), len(own))
	}
	if err != nil {
		e.log.Warn("hook evaluate failed; the candidate's own evaluation stands", zap.Error(err))
		return 0
	}
	n := 0
	for i, h := range hook {
		o := own[i]
		agree := h.OK() == o.OK() && (!o.OK() || task.Equal(h.Output, o.Output, e.settings().Atol))
		if !agree {
			own[i] = sandbox.Outcome{Status: sandbox.StatusError, Error: HookDisagrees, Seconds: o.Seconds}
			n++
		}
	}
	if n > 0 {
		e.log.Warn("hook evaluate disagrees with the candidate's own evaluation", zap.Int("examples", n), zap.Int("of", len(own)))
	}
	return n
}

// embedded returns the distinct observed inputs the analysis found embedded.
func (e *engine) embedded(an sandbox.Analysis) []json.RawMessage {
	var out []json.RawMessage
	seen := map[string]bool{}
	for _, i := range an.Embedded {
		if i < 0 || i >= len(e.st.Examples) {
			continue
		}
		c := task.MustCanonical(e.st.Examples[i].Input)
		if !seen[c] {
			seen[c] = true
			out = append(out, e.st.Examples[i].Input)
		}
	}
	return out
}

func (e *engine) examples() []task.Example {
	return append([]task.Example(nil), e.st.Examples...)
}

// event appends one journal entry to every recorder.
func (e *engine) event(ctx context.Context, typ string, it int, data any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("encode %s event: %w", typ, err)
	}
	e.st.Seq++
	ev := Event{Stamp: e.stamp, Seq: e.st.Seq, Time: time.Now().UTC(), RunID: e.spec.RunID, Type: typ, Iteration: it, Data: raw}
	for _, r := range e.deps.Recorders {
		if err := r.RecordEvent(context.WithoutCancel(ctx), ev); err != nil {
			return fmt.Errorf("record %s event: %w", typ, err)
		}
	}
	return nil
}

func (e *engine) recordExamples(ctx context.Context, exs []task.Example) error {
	for _, r := range e.deps.Recorders {
		if err := r.RecordExamples(context.WithoutCancel(ctx), e.spec.RunID, exs); err != nil {
			return fmt.Errorf("record examples: %w", err)
		}
	}
	return nil
}

// finalize selects the final program among this run's candidates on the
// final example set, records it (the final event, after the program is in
// the bank), writes candidate.py and result.json, and ends the journal
// with run_finished: a run killed before that is not finished, and its
// resume completes the selection (Spec.Finish), recording its stop again
// after the run_resumed event.
func (e *engine) finalize(ctx context.Context, stop string, runErr error) (*Result, error) {
	s := e.settings()
	res := &Result{
		RunID: e.spec.RunID, Task: e.spec.Task.Name, StopReason: stop,
		Iterations: e.st.Iteration, Promotions: e.st.Promotions,
		KnownExamples: len(e.st.Examples), RandomInputs: e.st.RandomCount,
		Examples: e.examples(), Events: e.st.Records, Tokens: e.st.Tokens,
		CoverageUncoveredAtEnd: nonNil(task.Uncovered(e.spec.Task.Kind, e.spec.Task.Domain, e.st.inputs())),
		Settings:               s, Origins: e.spec.Origins, Workspace: e.spec.Workspace, StartedAt: e.started,
		Stamp: e.stamp,
	}
	if res.Events == nil {
		res.Events = []IterationRecord{}
	}
	if runErr != nil {
		res.Error = runErr.Error()
	}
	if stop == StopProposerFailed {
		res.Rejections = e.rejections
	}
	res.Domain = e.domainSummary()
	res.ProposalFallbacks = e.st.Fallbacks
	var ferr error
	if stop == StopStalled {
		res.StopDetail = e.st.StallDetail
	}
	stopData := Stop{Reason: stop, Detail: res.StopDetail, Error: res.Error, Rejections: res.Rejections, Checkpoint: e.checkpoint()}
	if err := e.event(ctx, EventStop, e.st.Iteration, stopData); err != nil {
		ferr = err
	}
	best, bestEval, bestSrc, err := e.selectFinal(ctx)
	if err != nil {
		ferr = errors.Join(ferr, fmt.Errorf("select final program: %w", err))
	}
	var finalSrc []byte
	if best != nil {
		finalSrc = bestSrc
		res.FinalProgram = string(bestSrc)
		res.FinalCandidate = best.File
		res.FinalIteration = best.Iteration
		res.FinalScore = bestEval.Score()
		res.FinalAccuracy = bestEval.Accuracy()
		res.FinalKnown = bestEval.Total
		// Every valid input is an observed example: a program that passes
		// them all is right on the whole domain.
		res.VerifiedExhaustively = stop == StopExhausted && res.FinalKnown == res.KnownExamples && bestEval.Passed == bestEval.Total
		if err := e.event(ctx, EventFinal, e.st.Iteration, Final{
			Candidate: best.File, Iteration: best.Iteration, Score: res.FinalScore,
			Accuracy: res.FinalAccuracy, Known: res.FinalKnown, SHA256: best.SHA256,
			Function: e.spec.Task.FunctionName, Source: res.FinalProgram,
		}); err != nil {
			ferr = errors.Join(ferr, err)
		}
	}
	if err := e.final.set(finalSrc); err != nil {
		ferr = errors.Join(ferr, err)
	}
	res.FinishedAt = time.Now().UTC()
	res.WallSeconds = res.FinishedAt.Sub(e.started).Seconds()
	data, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return res, errors.Join(ferr, err)
	}
	if err := atomicfile.Write(filepath.Join(e.spec.Workspace, ResultFile), append(data, '\n'), JournalPerm); err != nil {
		ferr = errors.Join(ferr, err)
	}
	if ferr == nil {
		if err := e.event(ctx, EventRunFinished, e.st.Iteration, RunFinished{StopReason: stop, FinalCandidate: res.FinalCandidate}); err != nil {
			ferr = err
		}
	}
	return res, ferr
}

// selectFinal scores every candidate archived by this run on the final
// example set; the best stage score wins, ties going to the later one. A
// candidate archived with an evaluation on that very set keeps it, and so
// does the same program (by its digest) archived earlier on fewer
// examples: a run that ends with an early stop has written the same
// program session after session, and evaluating it again would only
// repeat the last evaluation. The others are re-scored after those, in
// the order of their iterations, and a re-scoring stops as soon as the
// candidate could no longer be chosen over the best found so far, even
// passing every example not yet run (rescore): a slow program that fails
// example after example on its time limit costs a few of them, not all.
// The choice is the one scoring them all in full would make. When
// re-scoring fails (the sandbox is gone: Docker stopped, say), the
// candidates are ranked on their archived evaluations instead — those on
// the final set first, then those on the most examples — and the error
// is returned beside the choice. A program whose re-scoring ended in an
// infrastructure error is never chosen (tainted); nor is the candidate of
// an iteration whose evaluation did, which is not archived.
func (e *engine) selectFinal(ctx context.Context) (*candidates.Record, Evaluation, []byte, error) {
	n := len(e.st.Examples)
	if e.rescored == nil || e.rescoredOn != n {
		e.rescored, e.rescoredOn, e.reach = map[string]scored{}, n, map[string]Evaluation{}
	}
	recs := append([]candidates.Record(nil), e.st.Archived...)
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Iteration < recs[j].Iteration })
	onFinal := map[string]candidates.Record{}
	for _, rec := range recs {
		if rec.Known == n {
			onFinal[rec.SHA256] = rec
		}
	}
	// ranked[i] is recs[i]'s evaluation when it is in the running; the
	// choice is the greatest (ahead), the later of two equal ones.
	ranked := make([]*scored, len(recs))
	best := -1
	ahead := func(ev Evaluation, i int) bool {
		if best < 0 {
			return true
		}
		bev := ranked[best].ev
		if (ev.Total == n) != (bev.Total == n) {
			return ev.Total == n
		}
		if ev.Total != bev.Total {
			return ev.Total > bev.Total
		}
		if s, bs := ev.Score(), bev.Score(); s != bs {
			return s > bs
		}
		return i > best
	}
	enter := func(i int, sc scored) {
		ranked[i] = &sc
		if ahead(sc.ev, i) {
			best = i
		}
	}
	var later []int
	for i, rec := range recs {
		if e.tainted[rec.SHA256] {
			continue
		}
		if sc, ok := e.rescored[rec.SHA256]; ok {
			enter(i, sc)
			continue
		}
		if rec.Known != n {
			if _, ok := onFinal[rec.SHA256]; !ok {
				later = append(later, i)
				continue
			}
		}
		src, err := e.deps.Archive.Source(rec)
		if err != nil {
			return nil, Evaluation{}, nil, err
		}
		sc := scored{archivedEvaluation(onFinal[rec.SHA256]), src}
		e.rescored[rec.SHA256] = sc
		enter(i, sc)
	}
	var rescoreErr error
	for _, i := range later {
		rec := recs[i]
		if e.tainted[rec.SHA256] {
			continue
		}
		if sc, ok := e.rescored[rec.SHA256]; ok { // the same program archived twice
			enter(i, sc)
			continue
		}
		if r, ok := e.reach[rec.SHA256]; ok && !ahead(r, i) {
			continue
		}
		src, err := e.deps.Archive.Source(rec)
		if err != nil {
			return nil, Evaluation{}, nil, err
		}
		if rescoreErr != nil {
			// An archived evaluation on fewer examples is not kept: the
			// next selection tries again.
			enter(i, scored{archivedEvaluation(rec), src})
			continue
		}
		ev, cut, err := e.rescore(ctx, string(src), func(ev Evaluation) bool { return ahead(ev, i) })
		switch {
		case err != nil:
			rescoreErr = fmt.Errorf("re-score %s: %w", rec.File, err)
			e.log.Warn("the final program is chosen on the archived evaluations, without the one whose re-scoring failed", zap.Error(rescoreErr))
			if ctx.Err() == nil {
				// A re-scoring cut short by the run's end (the
				// selection gate's) says nothing of the program.
				e.taint(src)
			}
		case cut:
			e.reach[rec.SHA256] = ev
		default:
			sc := scored{ev, src}
			e.rescored[rec.SHA256] = sc
			enter(i, sc)
		}
	}
	if best < 0 {
		return nil, Evaluation{}, nil, rescoreErr
	}
	r := recs[best]
	return &r, ranked[best].ev, ranked[best].src, rescoreErr
}

// outranked says why the final selection on the current examples would
// not be rec, the candidate just evaluated (ev), but an archived one that
// fails some of them ("" when it would be rec, or a program passing them
// all): the selection gate then holds the early stop rec's pass would
// make. An infrastructure error while re-scoring leaves the program
// concerned out of the choice (tainted), as the final selection does.
func (e *engine) outranked(ctx context.Context, rec candidates.Record, ev Evaluation) (string, error) {
	best, bestEv, _, err := e.selectFinal(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		e.log.Warn("the selection gate ranks the candidates without one whose re-scoring failed", zap.Error(err))
	}
	if best == nil || best.SHA256 == rec.SHA256 || bestEv.FullPass() {
		return "", nil
	}
	return fmt.Sprintf("candidate %s (iteration %d) passes %d of %d examples but its stage score %.4f beats this candidate's %.4f (complexity %.3f, hardcoding %.3f), so it would be the final program",
		best.File, best.Iteration, bestEv.Passed, bestEv.Total, bestEv.Score(), ev.Score(), ev.Analysis.Complexity, ev.Analysis.Hardcoding), nil
}

// archivedEvaluation is a candidate's evaluation as its record keeps it.
func archivedEvaluation(rec candidates.Record) Evaluation {
	return Evaluation{Passed: rec.Passed, Total: rec.Known,
		Analysis: sandbox.Analysis{Complexity: rec.Complexity, Hardcoding: rec.Hardcoding}}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilRaw(s []json.RawMessage) []json.RawMessage {
	if s == nil {
		return []json.RawMessage{}
	}
	return s
}

// MaxCandidateBytes bounds the candidate.py the workflow reads.
const MaxCandidateBytes = 1 << 20

// readCandidate reads the workspace's candidate.py, which must be a regular
// file inside the workspace: an agent with a shell must not make the
// workflow read another file through a symbolic link leading out of the
// workspace, or hang it on a FIFO.
func readCandidate(workspace string) ([]byte, error) {
	root, err := os.OpenRoot(workspace)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.OpenFile(agent.CandidateFile, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, errors.New("candidate.py was not written in the workspace")
	}
	if err != nil {
		return nil, fmt.Errorf("candidate.py cannot be read (it must be a regular file, not a link): %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("candidate.py is a %s, not a regular file", st.Mode().Type())
	}
	if st.Size() > MaxCandidateBytes {
		return nil, fmt.Errorf("candidate.py has %d bytes, more than the %d allowed", st.Size(), MaxCandidateBytes)
	}
	return io.ReadAll(io.LimitReader(f, MaxCandidateBytes))
}
