package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/oracle"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

// An error of the agent's Propose is the agent's mistake: a rejected
// attempt with the error as its reason, never the end of the run — unless
// it is marked as an infrastructure failure.
func TestProposeErrorsAreRejections(t *testing.T) {
	cantDraw := errors.New("synth propose: only 1 fresh inputs of the 4 asked could be drawn")
	tests := []struct {
		name      string
		err       error
		fallback  string
		generator bool
		wantStop  string
		wantErr   error
	}{
		{name: "without a generator: proposer_failed", err: cantDraw, wantStop: StopProposerFailed},
		{name: "strict fallback: proposer_failed", err: cantDraw, fallback: FallbackStop, generator: true, wantStop: StopProposerFailed},
		{name: "with a generator: the batch comes from it", err: cantDraw, generator: true, wantStop: StopEarly},
		{name: "an infrastructure failure ends the run", err: fmt.Errorf("%w: endpoint down", ErrAgentInfrastructure), generator: true, wantStop: StopError, wantErr: ErrAgentInfrastructure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, "double")
			if !tt.generator {
				h.random = nil
			}
			h.progress = &strings.Builder{}
			h.agent.proposeErr = func(req agent.ProposeRequest) error {
				if req.K == 2 {
					return nil // the initial batch
				}
				return tt.err
			}
			s := settings(func(s *Settings) { s.ProposalFallback = tt.fallback })
			res, err := h.run(context.Background(), s, task.KindInt)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if res.StopReason != tt.wantStop {
				t.Fatalf("stop %s, want %s (%s)", res.StopReason, tt.wantStop, res.Error)
			}
			if tt.wantErr != nil {
				return
			}
			rejected := 0
			for _, ev := range h.rec.events {
				if ev.Type == EventProposalRejected && strings.Contains(string(ev.Data), "the agent could not propose: synth propose: only 1 fresh") {
					rejected++
				}
			}
			if rejected < 3 {
				t.Errorf("%d rejections carry the agent's error, want every attempt of the failed batch", rejected)
			}
			if !strings.Contains(h.progress.String(), "proposal 4 of 4 rejected: the agent could not propose") {
				t.Errorf("the progress output does not show the rejections:\n%s", h.progress.String())
			}
			if tt.wantStop == StopProposerFailed {
				if len(res.Rejections) != 4 || !strings.Contains(res.Rejections[3], cantDraw.Error()) {
					t.Errorf("result rejections = %q, want the 4 reasons of the failed batch (1 + propose_attempts)", res.Rejections)
				}
				return
			}
			fallbacks, random := 0, 0
			for _, ev := range h.rec.events {
				if ev.Type == EventProposalFallback {
					fallbacks++
				}
			}
			for _, ex := range res.Examples {
				if ex.Source == task.SourceRandom {
					random++
				}
			}
			if fallbacks != res.ProposalFallbacks || fallbacks != 4 || random != 4+6+8+10 || res.RandomInputs != random {
				t.Errorf("%d fallback events, result says %d, %d random examples (result %d); want 4 batches of 4, 6, 8, 10", fallbacks, res.ProposalFallbacks, random, res.RandomInputs)
			}
			if !strings.Contains(h.progress.String(), "inputs drawn from random_inputs instead") {
				t.Errorf("the progress output does not say the batch was drawn from random_inputs:\n%s", h.progress.String())
			}
		})
	}
}

// A session that returns the same candidate on the same examples changes
// nothing: the program is archived once, the progress output does not
// repeat itself, and the run stops (stalled) at the stall limit.
func TestStalledRun(t *testing.T) {
	tests := []struct {
		limit     int
		wantStop  string
		wantIters int
	}{
		{limit: 3, wantStop: StopStalled, wantIters: 4},
		{limit: 0, wantStop: StopMaxIterations, wantIters: 12},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.limit), func(t *testing.T) {
			h := newHarness(t, "square")
			h.progress = &strings.Builder{}
			res, err := h.run(context.Background(), settings(func(s *Settings) { s.StallLimit = tt.limit; s.MaxIterations = 12 }), task.KindInt)
			if err != nil {
				t.Fatal(err)
			}
			if res.StopReason != tt.wantStop || res.Iterations != tt.wantIters {
				t.Fatalf("stop %s after %d iterations, want %s after %d", res.StopReason, res.Iterations, tt.wantStop, tt.wantIters)
			}
			var programs []string
			entries, _ := os.ReadDir(h.archive.Path())
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), ".py") {
					programs = append(programs, e.Name())
				}
			}
			if len(programs) != 1 {
				t.Errorf("archived programs %v, want the repeated one once", programs)
			}
			recs, _ := h.archive.Run("run-test-0001")
			if len(recs) != tt.wantIters || recs[len(recs)-1].SameAs != 1 {
				t.Errorf("%d records, the last same as %d; want one per session referring to iteration 1", len(recs), recs[len(recs)-1].SameAs)
			}
			if lines := strings.Count(h.progress.String(), "\n"); lines > 3 {
				t.Errorf("%d progress lines for one candidate repeated, want at most 3:\n%s", lines, h.progress.String())
			}
			for _, r := range res.Events[1:] {
				if r.Repeats != 1 {
					t.Errorf("iteration %d repeats %d, want 1", r.Iteration, r.Repeats)
				}
			}
		})
	}
}

// A session whose agent fails on its own (not its infrastructure) is a
// session that wrote nothing; the error reaches the agent as feedback.
func TestAgentSessionErrorIsAFailedSession(t *testing.T) {
	h := newHarness(t, "double")
	h.agent.writeErr = errors.New("the model answered without a program")
	res, err := h.run(context.Background(), settings(func(s *Settings) { s.MaxIterations = 2; s.StallLimit = 0 }), task.KindInt)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.StopReason != StopMaxIterations || res.Iterations != 2 || res.Events[0].Passed != 0 {
		t.Fatalf("stop %s after %d iterations, first passed %d", res.StopReason, res.Iterations, res.Events[0].Passed)
	}
	if fb := h.agent.feedbacks[1]; fb == nil || !strings.Contains(strings.Join(fb.Messages, "\n"), "the model answered without a program") {
		t.Errorf("feedback %+v does not carry the session's error", fb)
	}
}

// Cancelling a run in the middle of a session that ignores its context
// does not wait for the session: the run ends, everything so far is
// written, and what the session writes after the end does not replace the
// final program.
func TestCancelDoesNotWaitForTheAgent(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := newHarness(t, "square", "double", "zero")
	release := make(chan struct{})
	var late sync.WaitGroup
	h.agent.onWrite = func(n int) {
		if n == 3 {
			h.agent.mu.Lock()
			h.agent.block = release
			h.agent.mu.Unlock()
			late.Add(1)
			cancel()
		}
	}
	res, err := h.run(ctx, settings(nil), task.KindInt)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// The session is still blocked: Run did not wait for it.
	if res.StopReason != StopCancelled || res.Iterations != 3 || progName(res.FinalProgram) != "double" {
		t.Fatalf("stop %s after %d iterations, final %q", res.StopReason, res.Iterations, res.FinalProgram)
	}
	final, _ := os.ReadFile(filepath.Join(h.dir, agent.CandidateFile))
	if progName(string(final)) != "double" {
		t.Fatalf("candidate.py = %q, want the final program", final)
	}
	// Let the abandoned session write its candidate ("zero") and return.
	close(release)
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, _ := os.ReadFile(filepath.Join(h.dir, agent.CandidateFile))
		if progName(string(got)) == "double" && !h.agent.writing() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("candidate.py = %q after the abandoned session returned, want the final program", got)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// failingEvaluator works for n calls, then fails like a sandbox whose
// engine went away.
type failingEvaluator struct {
	fakeEvaluator
	mu sync.Mutex
	n  int
}

var errEngineGone = errors.New("docker sandbox: the engine does not answer")

func (f *failingEvaluator) Call(ctx context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error) {
	f.mu.Lock()
	f.n--
	n := f.n
	f.mu.Unlock()
	if n < 0 {
		return nil, errEngineGone
	}
	return f.fakeEvaluator.Call(ctx, req)
}

// When the sandbox dies, the run ends with stop reason error and its final
// program is still chosen among what was archived.
func TestFinalProgramChosenWhenTheSandboxIsGone(t *testing.T) {
	h := newHarness(t, "square", "double")
	h.eval = &failingEvaluator{n: 2} // sessions 1 and 2 are evaluated, session 3 is not
	res, err := h.run(context.Background(), settings(nil), task.KindInt)
	if !errors.Is(err, errEngineGone) {
		t.Fatalf("err = %v, want the sandbox failure", err)
	}
	if res.StopReason != StopError {
		t.Fatalf("stop %s, want error", res.StopReason)
	}
	if progName(res.FinalProgram) != "double" || res.FinalAccuracy != 1 || res.FinalKnown != 2 || res.KnownExamples != 6 {
		t.Errorf("final %q accuracy %v on %d of %d examples; want double, chosen on its archived evaluation (2 examples)",
			res.FinalProgram, res.FinalAccuracy, res.FinalKnown, res.KnownExamples)
	}
	final, _ := os.ReadFile(filepath.Join(h.dir, agent.CandidateFile))
	if progName(string(final)) != "double" {
		t.Errorf("candidate.py = %q", final)
	}
}

// A hidden program that answers the same input differently is detected at
// the end of a batch and ends the run with an error.
func TestNondeterministicHiddenProgram(t *testing.T) {
	h := newHarness(t, "double")
	h.oracle.drift = true
	res, err := h.run(context.Background(), settings(nil), task.KindInt)
	if !errors.Is(err, oracle.ErrNondeterministic) {
		t.Fatalf("err = %v, want oracle.ErrNondeterministic", err)
	}
	if res.StopReason != StopError || res.KnownExamples != 0 || !strings.Contains(res.Error, "answered input 1 with") {
		t.Errorf("stop %s, %d examples, error %q", res.StopReason, res.KnownExamples, res.Error)
	}
}

// A deterministic hidden program is asked again for a few inputs per
// batch, and the run is unchanged.
func TestRecheckAsksAgainForASample(t *testing.T) {
	h := newHarness(t, "double")
	res, err := h.run(context.Background(), settings(nil), task.KindInt)
	if err != nil || res.StopReason != StopEarly {
		t.Fatalf("stop %v, err %v", res.StopReason, err)
	}
	// One query per batch, one re-check per batch.
	if h.oracle.queries != 2*5 {
		t.Errorf("%d oracle queries, want 10 (5 batches, each re-checked once)", h.oracle.queries)
	}
}

// A run cancelled, or ended by an infrastructure failure, is resumed from
// its last checkpoint and ends as if never interrupted; a finished one is
// refused.
func TestResumeAfterCancelOrError(t *testing.T) {
	programs := []string{"square", "double"}
	full := newHarness(t, programs...)
	full.agent.proposeFn = proposeAfter
	want, err := full.run(context.Background(), settings(nil), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		setup func(h *harness, cancel context.CancelFunc)
	}{
		{"cancelled during a session", func(h *harness, cancel context.CancelFunc) {
			h.agent.onWrite = func(n int) {
				if n == 4 {
					cancel()
				}
			}
		}},
		{"oracle gone after a few batches", func(h *harness, _ context.CancelFunc) {
			h.oracle.failAfter = 5
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			h := newHarness(t, programs...)
			h.agent.proposeFn = proposeAfter
			tt.setup(h, cancel)
			first, err := h.run(ctx, settings(nil), task.KindInt)
			if err == nil || !Resumable(first.StopReason) {
				t.Fatalf("first run: stop %s, err %v; want a resumable stop", first.StopReason, err)
			}
			st, err := StateFromEvents(h.rec.events)
			if err != nil {
				t.Fatalf("StateFromEvents: %v", err)
			}
			spec := h.spec(settings(nil), task.KindInt)
			spec.Resume = st
			h.oracle.failAfter = 0
			h2 := &harness{t: t, agent: &scriptAgent{programs: programs, proposeFn: proposeAfter}, oracle: h.oracle, rec: &memRecorder{}, dir: h.dir, archive: h.archive}
			h2.rec.events = append(h2.rec.events, h.rec.events...)
			got, err := Run(context.Background(), spec, h2.deps())
			if err != nil {
				t.Fatalf("resume: %v", err)
			}
			opts := cmpopts.IgnoreFields(Result{}, "StartedAt", "FinishedAt", "WallSeconds", "Workspace")
			if diff := cmp.Diff(want, got, opts); diff != "" {
				t.Errorf("resumed result differs from an uninterrupted run (-want +got):\n%s", diff)
			}
			if _, err := StateFromEvents(h2.rec.events); !errors.Is(err, ErrFinished) {
				t.Errorf("the resumed run, finished: StateFromEvents = %v, want ErrFinished", err)
			}
			if LastStop(h2.rec.events) != StopEarly {
				t.Errorf("LastStop = %q", LastStop(h2.rec.events))
			}
		})
	}
}

// A fork's journal carries the examples it inherited, so that it can be
// shown and resumed from its own events.
func TestForkJournalCarriesItsExamples(t *testing.T) {
	parent := newHarness(t, "square", "double")
	if _, err := parent.run(context.Background(), settings(func(s *Settings) { s.EarlyStop = 2 }), task.KindInt); err != nil {
		t.Fatal(err)
	}
	st, err := ForkState(parent.rec.events)
	if err != nil {
		t.Fatal(err)
	}
	inherited := len(st.Examples)
	h := newHarness(t, "double")
	spec := h.spec(settings(func(s *Settings) { s.EarlyStop = 1 }), task.KindInt)
	spec.Resume, spec.Fork, spec.RunID = st, true, "fork-1"
	// A fork killed right after it started still knows its examples.
	crash := &crashAt{n: 1}
	h.rec = &crash.memRecorder
	d := h.deps()
	d.Recorders = []Recorder{crash}
	if _, err := Run(context.Background(), spec, d); !errors.Is(err, errCrash) {
		t.Fatalf("err = %v", err)
	}
	got, err := StateFromEvents(crash.events)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Examples) != inherited || inherited == 0 {
		t.Errorf("a fork's own journal gives %d examples, want the %d inherited", len(got.Examples), inherited)
	}
	if got.Iteration != st.Iteration || got.Promotions != st.Promotions {
		t.Errorf("fork state: iteration %d promotions %d, want %d %d", got.Iteration, got.Promotions, st.Iteration, st.Promotions)
	}
}

func TestCheckWorkspace(t *testing.T) {
	home, _ := os.UserHomeDir()
	foreign := t.TempDir()
	os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o644)
	owned := t.TempDir()
	os.WriteFile(filepath.Join(owned, MarkerFile), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(owned, "scratch.txt"), []byte("the agent's"), 0o644)
	legacy := t.TempDir()
	os.MkdirAll(filepath.Join(legacy, ".oc_candidates"), 0o755)
	os.WriteFile(filepath.Join(legacy, ".oc_candidates", "manifest.json"), []byte("{}"), 0o644)
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	link := filepath.Join(t.TempDir(), "root")
	os.Symlink("/", link)
	tests := []struct {
		name  string
		dir   string
		force bool
		want  string // "" for accepted
	}{
		{"root", "/", false, "root directory"},
		{"root, forced", "/", true, "root directory"},
		{"a link to the root", link, true, "root directory"},
		{"home", home, true, "home directory"},
		{"a new directory", filepath.Join(t.TempDir(), "new"), false, ""},
		{"an empty directory", t.TempDir(), false, ""},
		{"someone's files", foreign, false, "notes.txt"},
		{"someone's files, forced", foreign, true, ""},
		{"a workspace of ours", owned, false, ""},
		{"a workspace of an earlier version", legacy, false, ""},
		{"a file", file, true, "not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckWorkspace(tt.dir, tt.force)
			if tt.want == "" {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrWorkspace) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want ErrWorkspace naming %q", err, tt.want)
			}
		})
	}
}

func TestPrepareWorkspaceMovesEarlierRunsAside(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ws")
	created, err := PrepareWorkspace(dir, "run-1")
	if err != nil || created != dir {
		t.Fatalf("PrepareWorkspace = %q, %v", created, err)
	}
	write := func(run string) {
		os.WriteFile(filepath.Join(dir, agent.CandidateFile), []byte("# "+run), 0o644)
		os.WriteFile(filepath.Join(dir, ResultFile), []byte(`{"run_id": "`+run+`"}`), 0o600)
		ev, _ := json.Marshal(Event{Seq: 1, RunID: run, Type: EventRunStarted})
		os.WriteFile(filepath.Join(dir, EventsFile), append(ev, '\n'), 0o600)
		os.WriteFile(filepath.Join(dir, ExamplesFile), nil, 0o600)
		os.WriteFile(filepath.Join(dir, BindingLogFile), nil, 0o600)
	}
	write("run-1")
	// The same run (resumed) keeps its files.
	if _, err := PrepareWorkspace(dir, "run-1"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, agent.CandidateFile)); string(got) != "# run-1" {
		t.Errorf("resume moved its own files: candidate.py = %q", got)
	}
	// Another run moves them aside, every one, and they stay apart.
	if _, err := PrepareWorkspace(dir, "run-2"); err != nil {
		t.Fatal(err)
	}
	for _, f := range runFiles {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s left at the top for the next run", f)
		}
		if _, err := os.Stat(filepath.Join(dir, PreviousDir, "run-1", f)); err != nil {
			t.Errorf("%s of run-1 not kept: %v", f, err)
		}
	}
	// A killed run's journal without result.json still names its run.
	os.Remove(filepath.Join(dir, ResultFile))
	write("run-2")
	os.Remove(filepath.Join(dir, ResultFile))
	if _, err := PrepareWorkspace(dir, "run-3"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, PreviousDir, "run-2", agent.CandidateFile)); string(got) != "# run-2" {
		t.Errorf("run-2's candidate.py = %q", got)
	}
	if !Owned(dir) {
		t.Error("the workspace is not marked")
	}
	// The directories made for a run that failed to start are removed
	// again, parents included.
	top := t.TempDir()
	fresh := filepath.Join(top, "runs", "task")
	created, err = PrepareWorkspace(fresh, "run-4")
	if err != nil || created != filepath.Join(top, "runs") {
		t.Fatalf("PrepareWorkspace = %q, %v", created, err)
	}
	DiscardWorkspace(fresh, created)
	if entries, _ := os.ReadDir(top); len(entries) != 0 {
		t.Errorf("discarded workspace left %v", entries)
	}
}

// fakeHook is a task's evaluate hook: it answers every input with answer,
// or fails with err.
type fakeHook struct {
	answer string
	err    error
	calls  int
}

func (h *fakeHook) Evaluate(_ context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error) {
	h.calls++
	if h.err != nil {
		return nil, h.err
	}
	out := make([]sandbox.Outcome, len(req.Inputs))
	for i := range out {
		out[i] = sandbox.Outcome{Status: sandbox.StatusOK, Output: json.RawMessage(h.answer)}
	}
	return out, nil
}

// A task's evaluate hook can hold a candidate back, never pass it: where
// it disagrees with the candidate's own evaluation the example fails, the
// disagreement is recorded, and the feedback says nothing of what the hook
// returned. A hook that fails leaves the candidate's own evaluation.
func TestHookIsNeverAuthoritative(t *testing.T) {
	tests := []struct {
		name     string
		program  string
		hook     *fakeHook
		wantStop string
		wantDis  bool
	}{
		{"a hook that passes a wrong candidate", "zero", &fakeHook{answer: `"leaked-987654321"`}, StopMaxIterations, true},
		{"a hook that fails a right candidate", "double", &fakeHook{answer: `-1`}, StopMaxIterations, true},
		{"a hook that fails itself", "double", &fakeHook{err: errors.New("the hook broke")}, StopEarly, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.program)
			d := h.deps()
			d.Hook = tt.hook
			res, err := Run(context.Background(), h.spec(settings(func(s *Settings) { s.MaxIterations = 3; s.EarlyStop = 2 }), task.KindInt), d)
			if err != nil {
				t.Fatal(err)
			}
			if res.StopReason != tt.wantStop || tt.hook.calls == 0 {
				t.Fatalf("stop %s after %d hook calls, want %s", res.StopReason, tt.hook.calls, tt.wantStop)
			}
			for _, r := range res.Events {
				if (r.Disagreements > 0) != tt.wantDis || (tt.wantDis && r.Promoted) {
					t.Errorf("iteration %d: %d disagreements, promoted %v", r.Iteration, r.Disagreements, r.Promoted)
				}
			}
			for _, fb := range h.agent.feedbacks[1:] {
				text, _ := json.Marshal(fb)
				if strings.Contains(string(text), "987654321") {
					t.Errorf("the feedback shows what the hook returned: %s", text)
				}
				if tt.wantDis && !strings.Contains(string(text), "evaluate hook disagrees") {
					t.Errorf("the feedback does not say the hook disagreed: %s", text)
				}
			}
		})
	}
}
