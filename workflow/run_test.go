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

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

func settings(mod func(*Settings)) Settings {
	s := DefaultSettings()
	if mod != nil {
		mod(&s)
	}
	return s
}

func TestRunStopReasons(t *testing.T) {
	tests := []struct {
		name       string
		programs   []string
		settings   Settings
		usage      task.Usage
		propose    func(req agent.ProposeRequest) []json.RawMessage
		wantStop   string
		wantIters  int
		wantPromos int
		wantKnown  int
		wantFinal  string
	}{
		{name: "right from the start", programs: []string{"double"}, settings: settings(nil),
			wantStop: StopEarly, wantIters: 5, wantPromos: 5, wantKnown: 2 + 4 + 6 + 8 + 10, wantFinal: "double"},
		{name: "wrong then right", programs: []string{"square", "double"}, settings: settings(nil),
			wantStop: StopEarly, wantIters: 6, wantPromos: 5, wantKnown: 30, wantFinal: "double"},
		{name: "never right", programs: []string{"square"}, settings: settings(func(s *Settings) { s.MaxIterations = 3 }),
			wantStop: StopMaxIterations, wantIters: 3, wantPromos: 0, wantKnown: 2, wantFinal: "square"},
		{name: "early stop after two", programs: []string{"double"}, settings: settings(func(s *Settings) { s.EarlyStop = 2; s.BatchStep = 3 }),
			wantStop: StopEarly, wantIters: 2, wantPromos: 2, wantKnown: 2 + 5, wantFinal: "double"},
		{name: "budget exhausted mid-run", programs: []string{"double"}, usage: task.Usage{PromptTokens: 70, CompletionTokens: 30},
			settings: settings(func(s *Settings) { s.TokenBudget = 250 }),
			wantStop: StopBudget, wantIters: 3, wantPromos: 3, wantKnown: 2 + 4 + 6, wantFinal: "double"},
		{name: "proposer fails the initial batch", programs: []string{"double"}, settings: settings(func(s *Settings) { s.ProposalFallback = FallbackStop }),
			propose:  func(req agent.ProposeRequest) []json.RawMessage { return []json.RawMessage{json.RawMessage("1")} },
			wantStop: StopProposerFailed, wantIters: 0, wantKnown: 0},
		{name: "proposer fails after a promotion", programs: []string{"double"}, settings: settings(func(s *Settings) { s.ProposalFallback = FallbackStop }),
			propose: func(req agent.ProposeRequest) []json.RawMessage {
				if req.K == 2 {
					return []json.RawMessage{json.RawMessage("1"), json.RawMessage("2")}
				}
				return []json.RawMessage{json.RawMessage("1")}
			},
			wantStop: StopProposerFailed, wantIters: 1, wantPromos: 1, wantKnown: 2, wantFinal: "double"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.programs...)
			h.agent.usage = tt.usage
			h.agent.proposeFn = tt.propose
			res, err := h.run(context.Background(), tt.settings, task.KindInt)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			got := []any{res.StopReason, res.Iterations, res.Promotions, res.KnownExamples, progName(res.FinalProgram)}
			want := []any{tt.wantStop, tt.wantIters, tt.wantPromos, tt.wantKnown, tt.wantFinal}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("stop, iterations, promotions, known, final (-want +got):\n%s", diff)
			}
			if len(res.Examples) != res.KnownExamples || len(h.rec.examples) != res.KnownExamples {
				t.Errorf("examples: result %d, recorded %d, want %d", len(res.Examples), len(h.rec.examples), res.KnownExamples)
			}
			if len(res.Events) != res.Iterations {
				t.Errorf("iteration records = %d, want %d", len(res.Events), res.Iterations)
			}
			if _, err := os.Stat(filepath.Join(h.dir, ResultFile)); err != nil {
				t.Errorf("result.json not written: %v", err)
			}
		})
	}
}

func TestBudgetCheckedAfterArchiving(t *testing.T) {
	h := newHarness(t, "square")
	h.agent.usage = task.Usage{PromptTokens: 500}
	res, err := h.run(context.Background(), settings(func(s *Settings) { s.TokenBudget = 100 }), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != StopBudget || res.Iterations != 1 {
		t.Fatalf("stop %s after %d iterations, want budget_exhausted after 1", res.StopReason, res.Iterations)
	}
	recs, _ := h.archive.Run("run-test-0001")
	if len(recs) != 1 {
		t.Fatalf("archived %d candidates, want the one written before the budget ran out", len(recs))
	}
	if res.Tokens.Total() != 500 {
		t.Errorf("tokens = %d, want 500", res.Tokens.Total())
	}
}

// Tokens spent on proposals count towards the budget as a session's do.
func TestProposalTokensCountTowardsTheBudget(t *testing.T) {
	h := newHarness(t, "double")
	h.agent.usage = task.Usage{CompletionTokens: 10}
	h.agent.proposeUsage = task.Usage{PromptTokens: 50, CompletionTokens: 10}
	res, err := h.run(context.Background(), settings(func(s *Settings) { s.TokenBudget = 100 }), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	// initial proposal 60, session 10 (70), proposal 60 (130), session 10
	// (140): the budget is spent after the second session, whose pass
	// still counts.
	got := []any{res.StopReason, res.Iterations, res.Promotions, res.Tokens.Total()}
	if diff := cmp.Diff([]any{StopBudget, 2, 2, 140}, got); diff != "" {
		t.Errorf("stop, iterations, promotions, tokens (-want +got):\n%s", diff)
	}
}

// Each session starts with the program the agent wrote last in the
// workspace; a session that writes nothing is judged on it.
func TestSessionStartsFromThePreviousCandidate(t *testing.T) {
	h := newHarness(t, "square", "", "double")
	var found []string
	h.agent.onWrite = func(int) {
		b, err := os.ReadFile(filepath.Join(h.dir, agent.CandidateFile))
		if err != nil {
			b = []byte("(none)")
		}
		found = append(found, string(b))
	}
	// A file an earlier run left is not the first session's.
	if err := os.WriteFile(filepath.Join(h.dir, agent.CandidateFile), []byte("zero"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := h.run(context.Background(), settings(func(s *Settings) { s.EarlyStop = 1 }), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"(none)", "square", "square"}, found); diff != "" {
		t.Errorf("candidate.py at the start of each session (-want +got):\n%s", diff)
	}
	if res.StopReason != StopEarly || res.Iterations != 3 || progName(res.FinalProgram) != "double" {
		t.Errorf("stop %s after %d iterations, final %q", res.StopReason, res.Iterations, res.FinalProgram)
	}
	first, second := h.agent.feedbacks[1], h.agent.feedbacks[2]
	if second == nil || second.Passed != first.Passed || len(second.Failures) == 0 || strings.Contains(strings.Join(second.Messages, " "), "not written") {
		t.Errorf("feedback on the session that wrote nothing = %+v, want the previous program's failures", second)
	}
	if res.Events[1].Candidate != res.Events[0].Candidate {
		t.Errorf("the second session's candidate %s, want the first's %s (the same program)", res.Events[1].Candidate, res.Events[0].Candidate)
	}
}

func TestProposalValidation(t *testing.T) {
	observed := map[string]bool{"5": true}
	dom := &task.Domain{Lo: 0, Hi: 10}
	raw := func(ss ...string) []json.RawMessage {
		out := make([]json.RawMessage, len(ss))
		for i, s := range ss {
			out[i] = json.RawMessage(s)
		}
		return out
	}
	tests := []struct {
		name   string
		inputs []json.RawMessage
		k      int
		domain *task.Domain
		want   string
	}{
		{"valid", raw("1", "2"), 2, dom, ""},
		{"too few", raw("1"), 2, nil, "wrong count"},
		{"too many", raw("1", "2", "3"), 2, nil, "wrong count"},
		{"repeat within batch", raw("1", "1"), 2, nil, "repeat"},
		{"repeat after normalisation", raw(`{"a":1,"b":2}`, `{"b":2, "a":1}`), 2, nil, "repeat"},
		{"repeat of observed", raw("5", "6"), 2, nil, "already observed"},
		{"out of domain", raw("1", "[3, 11]"), 2, dom, "out of domain"},
		{"domain ignored without check", raw("1", "[3, 11]"), 2, nil, ""},
		{"invalid JSON", raw("1", "[3,"), 2, nil, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ValidateProposal(tt.inputs, tt.k, observed, tt.domain)
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("ValidateProposal = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestProposalRetriesCarryTheReason(t *testing.T) {
	tests := []struct {
		name       string
		reject     int
		domain     bool
		first      []json.RawMessage
		wantReason string
	}{
		{name: "oracle rejected", reject: 50, first: []json.RawMessage{json.RawMessage("60"), json.RawMessage("1")}, wantReason: "oracle-rejected"},
		{name: "repeat", first: []json.RawMessage{json.RawMessage("3"), json.RawMessage("3")}, wantReason: "repeat"},
		{name: "out of domain", domain: true, first: []json.RawMessage{json.RawMessage("-5000"), json.RawMessage("1")}, wantReason: "out of domain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, "double")
			h.oracle.reject = tt.reject
			calls := 0
			h.agent.proposeFn = func(req agent.ProposeRequest) []json.RawMessage {
				calls++
				if calls == 1 {
					return tt.first
				}
				out := make([]json.RawMessage, req.K)
				for i := range out {
					v := calls*100 + i%40
					if tt.reject != 0 {
						// Below the oracle's rejection threshold.
						v = calls + len(h.agent.requests)*20 + i
					}
					out[i] = json.RawMessage(fmt.Sprint(v))
				}
				return out
			}
			res, err := h.run(context.Background(), settings(func(s *Settings) { s.EarlyStop = 1; s.DomainCheck = tt.domain }), task.KindInt)
			if err != nil {
				t.Fatal(err)
			}
			if res.StopReason != StopEarly {
				t.Fatalf("stop = %s, want early_stop", res.StopReason)
			}
			if len(h.agent.requests) < 2 {
				t.Fatalf("agent asked %d times, want a retry", len(h.agent.requests))
			}
			second := h.agent.requests[1]
			if second.Attempt != 2 || !strings.Contains(second.Rejection, tt.wantReason) {
				t.Errorf("retry request: attempt %d, rejection %q; want attempt 2 with %q", second.Attempt, second.Rejection, tt.wantReason)
			}
			if tt.domain && (second.Domain == nil || second.Domain.Hi != 100000) {
				t.Errorf("domain not stated in the request: %+v", second.Domain)
			}
			rejected := 0
			for _, ev := range h.rec.events {
				if ev.Type == EventProposalRejected {
					rejected++
				}
			}
			if rejected != 1 {
				t.Errorf("proposal_rejected events = %d, want 1", rejected)
			}
		})
	}
}

// A rejected proposal is retried up to propose_attempts times: 1 +
// propose_attempts tries in all.
func TestProposerFailedAfterAllAttempts(t *testing.T) {
	for _, tt := range []struct{ attempts, wantTries int }{{0, 1}, {1, 2}, {3, 4}, {4, 5}} {
		t.Run(fmt.Sprint(tt.attempts), func(t *testing.T) {
			h := newHarness(t, "double")
			h.agent.proposeFn = func(req agent.ProposeRequest) []json.RawMessage { return nil }
			res, err := h.run(context.Background(), settings(func(s *Settings) { s.ProposeAttempts = tt.attempts; s.ProposalFallback = FallbackStop }), task.KindInt)
			if err != nil {
				t.Fatal(err)
			}
			if res.StopReason != StopProposerFailed || len(h.agent.requests) != tt.wantTries || len(res.Rejections) != tt.wantTries {
				t.Fatalf("stop %s after %d proposals (%d rejections), want proposer_failed after %d", res.StopReason, len(h.agent.requests), len(res.Rejections), tt.wantTries)
			}
			if res.FinalProgram != "" {
				t.Errorf("final program %q, want none (no session ran)", res.FinalProgram)
			}
		})
	}
}

func TestRandomShare(t *testing.T) {
	h := newHarness(t, "double")
	res, err := h.run(context.Background(), settings(func(s *Settings) { s.RandomShare = 0.5; s.EarlyStop = 2 }), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	// Batches of 2 and 4: one and two random inputs.
	if res.RandomInputs != 3 {
		t.Errorf("random inputs = %d, want 3", res.RandomInputs)
	}
	var sources []task.Source
	for _, ex := range res.Examples {
		sources = append(sources, ex.Source)
	}
	want := []task.Source{"initial", "random", "agent", "agent", "random", "random"}
	if diff := cmp.Diff(want, sources); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
	if got := h.agent.requests[0].K; got != 1 {
		t.Errorf("agent asked for %d initial inputs, want 1", got)
	}
}

func TestCoverageGate(t *testing.T) {
	h := newHarness(t, "double")
	res, err := h.run(context.Background(), settings(func(s *Settings) { s.CoverageGate = true }), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	// Proposals 1, 2, 3, … never cover zero, negative or large (≥ 100): the
	// first three passes, each granted a batch on that missing set, do not count; then it stops
	// blocking and five counted promotions end the run.
	if res.StopReason != StopEarly {
		t.Fatalf("stop = %s", res.StopReason)
	}
	var counted []bool
	for _, r := range res.Events {
		counted = append(counted, r.Counted)
	}
	want := []bool{false, false, false, true, true, true, true, true}
	if diff := cmp.Diff(want, counted); diff != "" {
		t.Errorf("counted per iteration (-want +got):\n%s", diff)
	}
	if res.Promotions != 8 {
		t.Errorf("promotions = %d, want 8", res.Promotions)
	}
	if got := h.agent.requests[1].Missing; !cmp.Equal(got, []string{"zero", "negative", "large"}) {
		t.Errorf("missing named in the proposal request = %v", got)
	}
	if diff := cmp.Diff([]string{"zero", "negative", "large"}, res.CoverageUncoveredAtEnd); diff != "" {
		t.Errorf("uncovered at end (-want +got):\n%s", diff)
	}
}

func TestCoverageGateCoveredCountsAtOnce(t *testing.T) {
	h := newHarness(t, "double")
	inputs := []string{"0", "1", "-3", "250", "2", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31", "32", "33", "34", "35", "36", "37", "38", "39", "40"}
	next := 0
	h.agent.proposeFn = func(req agent.ProposeRequest) []json.RawMessage {
		out := make([]json.RawMessage, req.K)
		for i := range out {
			out[i] = json.RawMessage(inputs[next])
			next++
		}
		return out
	}
	res, err := h.run(context.Background(), settings(func(s *Settings) { s.CoverageGate = true; s.EarlyStop = 3 }), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	var counted []bool
	for _, r := range res.Events {
		counted = append(counted, r.Counted)
	}
	// After the first batch (0, 1) negative and large are missing; after the
	// second (-3, 250, 2, 7) everything is covered.
	if diff := cmp.Diff([]bool{false, true, true, true}, counted); diff != "" {
		t.Errorf("counted (-want +got):\n%s", diff)
	}
}

func TestMemorisationGate(t *testing.T) {
	h := newHarness(t, "double#embed:3")
	res, err := h.run(context.Background(), settings(func(s *Settings) {
		s.MemorisationGate = true
		s.InitialBatch = 3
		s.MaxIterations = 6
	}), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	var gates []string
	var promoted []bool
	for _, r := range res.Events {
		gates = append(gates, r.Gate)
		promoted = append(promoted, r.Promoted)
	}
	// Two rewrites on the same evidence, then the batch is granted anyway;
	// the counter starts again for the next evidence, and a rewrite request
	// resets the consecutive count, so a memorising agent never stops early.
	if diff := cmp.Diff([]string{"memorisation", "memorisation", "", "memorisation", "memorisation", ""}, gates); diff != "" {
		t.Errorf("gates (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]bool{false, false, true, false, false, true}, promoted); diff != "" {
		t.Errorf("promoted (-want +got):\n%s", diff)
	}
	if res.StopReason != StopMaxIterations {
		t.Errorf("stop = %s, want max_iterations", res.StopReason)
	}
	if res.Events[1].Known != 3 {
		t.Errorf("rewrite got %d examples, want the same 3", res.Events[1].Known)
	}
	fb := h.agent.feedbacks[1]
	if fb == nil || len(fb.Messages) == 0 || !strings.Contains(fb.Messages[0], "Rewrite") {
		t.Errorf("second session feedback %+v, want a rewrite request", fb)
	}
	if len(res.Events[0].Memorised) != 3 {
		t.Errorf("memorised inputs recorded = %d, want 3", len(res.Events[0].Memorised))
	}
}

func TestComplexityGate(t *testing.T) {
	h := newHarness(t, "double#complexity:0.9")
	res, err := h.run(context.Background(), settings(func(s *Settings) { s.ComplexityGate = true }), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != StopEarly || res.Iterations != 8 || res.Promotions != 5 {
		t.Fatalf("stop %s iterations %d promotions %d, want early_stop 8 5", res.StopReason, res.Iterations, res.Promotions)
	}
	// Every pass was granted its batch: 2 + 4 + 6 + 8 + 10 + 12 + 14 + 16.
	if res.KnownExamples != 72 {
		t.Errorf("known = %d, want 72", res.KnownExamples)
	}
	for i, r := range res.Events {
		if wantGate := i < 3; (r.Gate == "complexity") != wantGate {
			t.Errorf("iteration %d gate %q", r.Iteration, r.Gate)
		}
	}
}

// TestGateBelowThreshold: a candidate under a gate's threshold is promoted
// every time.
func TestGateBelowThreshold(t *testing.T) {
	tests := []struct {
		name, agent string
		gate        func(*Settings)
	}{
		// Two embedded inputs are allowed.
		{"memorisation", "double#embed:2", func(s *Settings) { s.MemorisationGate = true }},
		{"complexity", "double#complexity:0.79", func(s *Settings) { s.ComplexityGate = true }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.agent)
			res, err := h.run(context.Background(), settings(tt.gate), task.KindInt)
			if err != nil {
				t.Fatal(err)
			}
			if res.Iterations != 5 || res.Promotions != 5 {
				t.Errorf("iterations %d promotions %d, want 5 and 5", res.Iterations, res.Promotions)
			}
		})
	}
}

func TestFloatTolerance(t *testing.T) {
	tests := []struct {
		atol     float64
		wantStop string
	}{
		{1e-9, StopEarly},
		{1e-15, StopMaxIterations},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.atol), func(t *testing.T) {
			h := newHarness(t, "float")
			// The tolerance applies when both sides are floats (an integer
			// never equals a float that is not exactly it).
			h.oracle.floats = true
			res, err := h.run(context.Background(), settings(func(s *Settings) { s.Atol = tt.atol; s.MaxIterations = 6; s.StallLimit = 0 }), task.KindInt)
			if err != nil {
				t.Fatal(err)
			}
			if res.StopReason != tt.wantStop {
				t.Errorf("stop = %s, want %s", res.StopReason, tt.wantStop)
			}
		})
	}
}

// An in-process agent hands its program over in memory: the workflow
// judges and archives it, and writes candidate.py itself; a program
// larger than a candidate may be is refused as the file would be.
func TestProgramHandedOverInMemory(t *testing.T) {
	tests := []struct {
		name      string
		programs  []string
		wantStop  string
		wantFinal string
		wantMsg   string // in the second session's feedback
	}{
		{name: "judged without a file", programs: []string{"double"}, wantStop: StopEarly, wantFinal: "double"},
		{name: "too large", programs: []string{"double #" + strings.Repeat("x", MaxCandidateBytes)}, wantStop: StopMaxIterations,
			wantMsg: "more than the 1048576 allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.programs...)
			h.agent.inMemory = true
			res, err := h.run(context.Background(), settings(func(s *Settings) { s.MaxIterations = 5 }), task.KindInt)
			if err != nil {
				t.Fatal(err)
			}
			if res.StopReason != tt.wantStop || progName(res.FinalProgram) != tt.wantFinal {
				t.Errorf("stop %s, final %q; want %s, %q", res.StopReason, progName(res.FinalProgram), tt.wantStop, tt.wantFinal)
			}
			if tt.wantMsg != "" {
				fb := h.agent.feedbacks[1]
				if fb == nil || !strings.Contains(strings.Join(fb.Messages, "\n"), tt.wantMsg) {
					t.Errorf("feedback of session 2 = %+v, want %q", fb, tt.wantMsg)
				}
				return
			}
			got, err := os.ReadFile(filepath.Join(h.dir, agent.CandidateFile))
			if err != nil || string(got) != res.FinalProgram {
				t.Errorf("candidate.py = %q (%v), want the final program %q", got, err, res.FinalProgram)
			}
			if len(res.Events) == 0 || res.Events[0].Candidate == "" {
				t.Errorf("the program handed over was not archived: %+v", res.Events)
			}
		})
	}
}

// cancellingEvaluator cancels the run at its at-th Call, which then fails
// with the cancellation.
type cancellingEvaluator struct {
	fakeEvaluator
	mu     sync.Mutex
	calls  int
	at     int
	cancel context.CancelFunc
}

func (c *cancellingEvaluator) Call(ctx context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error) {
	c.mu.Lock()
	c.calls++
	n := c.calls
	c.mu.Unlock()
	if n == c.at {
		c.cancel()
		return nil, ctx.Err()
	}
	return c.fakeEvaluator.Call(ctx, req)
}

// A run stopped while the selection gate re-scores an earlier candidate
// does not hold that against the candidate: the final selection re-scores
// it and chooses it when its score is the best.
func TestSelectionGateCutShortTaintsNothing(t *testing.T) {
	h := newHarness(t, "almost", "double#hardcoding:1")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Calls 1-3 judge the sessions; the 4th is the gate's re-score of
	// "almost" on 12 examples.
	h.eval = &cancellingEvaluator{at: 4, cancel: cancel}
	res, err := Run(ctx, h.spec(settings(func(s *Settings) { s.EarlyStop = 3 }), task.KindInt), h.deps())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v, want the cancellation", err)
	}
	if res == nil || progName(res.FinalProgram) != "almost" || res.FinalKnown != 12 {
		t.Fatalf("final = %+v, want almost (11 of 12, the best stage score)", res)
	}
}

// TestSelectionGate: a run whose final selection would be an earlier
// candidate failing an observed example (its stage score better than the
// passing candidate's, which pays a hard-coding penalty) never ends with
// early_stop; an agent that writes a program outranking it stops the run,
// one that cannot ends stalled. Without the gate the run claims early_stop
// on the failing program.
func TestSelectionGate(t *testing.T) {
	// "almost" fails input 3 (observed from the second batch on); with 12
	// examples it scores 11/12 ≈ 0.917, above the 0.9 of "double" with
	// hard-coding penalty 1.
	tests := []struct {
		name      string
		programs  []string
		gate      bool
		wantStop  string
		wantIters int
		wantFinal string
		wantHeld  int // selection gate events
	}{
		{name: "no gate: early_stop on a program failing an example", gate: false,
			programs: []string{"almost", "double#hardcoding:1"},
			wantStop: StopEarly, wantIters: 3, wantFinal: "almost"},
		{name: "gate: an agent that cannot outrank it stalls", gate: true,
			programs: []string{"almost", "double#hardcoding:1"},
			wantStop: StopStalled, wantIters: 5, wantFinal: "almost", wantHeld: 3},
		{name: "gate: a program that outranks it stops the run", gate: true,
			programs: []string{"almost", "double#hardcoding:1", "double#hardcoding:1", "double"},
			wantStop: StopEarly, wantIters: 4, wantFinal: "double", wantHeld: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.programs...)
			res, err := h.run(context.Background(), settings(func(s *Settings) {
				s.EarlyStop, s.StallLimit, s.SelectionGate = 3, 2, tt.gate
			}), task.KindInt)
			if err != nil {
				t.Fatal(err)
			}
			got := []any{res.StopReason, res.Iterations, progName(res.FinalProgram), res.KnownExamples}
			want := []any{tt.wantStop, tt.wantIters, tt.wantFinal, 12}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("stop, iterations, final, known (-want +got):\n%s", diff)
			}
			if res.StopReason == StopEarly && res.FinalAccuracy < 1 && tt.gate {
				t.Errorf("early_stop with a final program failing %v of its examples", 1-res.FinalAccuracy)
			}
			var held []Gate
			for _, ev := range h.rec.events {
				var g Gate
				if ev.Type == EventGate && jsonUnmarshal(ev.Data, &g) == nil && g.Gate == "selection" {
					held = append(held, g)
				}
			}
			if len(held) != tt.wantHeld {
				t.Fatalf("%d selection gate events, want %d", len(held), tt.wantHeld)
			}
			if tt.wantHeld == 0 {
				return
			}
			if g := held[0]; g.Decision != "not_counted" || !strings.Contains(g.Reason, "iteration 1") || !strings.Contains(g.Reason, "passes 11 of 12") {
				t.Errorf("gate event = %+v, want not_counted naming iteration 1 passing 11 of 12", g)
			}
			// The next session is told why, on the same evidence.
			fb := h.agent.feedbacks[3]
			if fb == nil || !strings.Contains(strings.Join(fb.Messages, "\n"), "cannot stop on this candidate") {
				t.Errorf("feedback of session 4 = %+v, want the selection gate's request", fb)
			}
		})
	}
}

func TestFinalSelectionIgnoresEarlierRuns(t *testing.T) {
	h := newHarness(t, "zero", "square")
	// A perfect program left by an earlier run in the same workspace.
	if _, err := h.archive.Add(candidates.Record{RunID: "earlier-run", Iteration: 1}, []byte("double"), nil); err != nil {
		t.Fatal(err)
	}
	res, err := h.run(context.Background(), settings(func(s *Settings) { s.MaxIterations = 2 }), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	if got := progName(res.FinalProgram); got == "double" {
		t.Fatalf("final program came from an earlier run")
	}
	got, _ := os.ReadFile(filepath.Join(h.dir, agent.CandidateFile))
	if string(got) != res.FinalProgram {
		t.Errorf("candidate.py = %q, want the final program %q", got, res.FinalProgram)
	}
}

func TestFinalSelectionBestScoreLaterWinsTies(t *testing.T) {
	// Iteration 1 passes (double), 2 fails, 3 passes again with the same
	// score: the later one wins the tie.
	h := newHarness(t, "double", "zero", "double")
	h.agent.proposeFn = nil
	res, err := h.run(context.Background(), settings(func(s *Settings) { s.MaxIterations = 3 }), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	if res.FinalIteration != 3 || progName(res.FinalProgram) != "double" {
		t.Errorf("final = iteration %d %q, want iteration 3 double", res.FinalIteration, res.FinalProgram)
	}
	if res.FinalScore != 1 {
		t.Errorf("final score = %v, want 1", res.FinalScore)
	}
}

// countingEvaluator is the fake evaluator, counting the evaluations (one
// Analyse and one Call or more each) and the inputs of each Call.
type countingEvaluator struct {
	fakeEvaluator
	mu     sync.Mutex
	calls  int
	inputs []int
}

func (c *countingEvaluator) Call(ctx context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error) {
	c.mu.Lock()
	c.calls++
	c.inputs = append(c.inputs, len(req.Inputs))
	c.mu.Unlock()
	return c.fakeEvaluator.Call(ctx, req)
}

// The final program is chosen without evaluating again a program that was
// evaluated on the final example set: the same program archived by earlier
// sessions on fewer examples keeps that evaluation. Another program is
// re-scored on the final set only while it could still be chosen: not at
// all when its analysis alone keeps it below the best, and only on its
// first examples when it fails them.
func TestFinalSelectionReusesTheEvaluationOnTheFinalSet(t *testing.T) {
	tests := []struct {
		name      string
		programs  []string
		wantCalls int // Calls: one per session, plus the re-scores
		// wantRescored is how many inputs the re-scores ran (-1: all the
		// examples, once).
		wantRescored int
		wantIter     int
		sessions     int
	}{
		{name: "the same program every session", programs: []string{"double"}, wantCalls: 3, wantIter: 3, sessions: 3},
		{name: "a more complex program first", programs: []string{"double#complexity:0.5", "double"}, wantCalls: 3, wantIter: 3, sessions: 3},
		{name: "a simpler program first", programs: []string{"double", "double#complexity:0.5"}, wantCalls: 5, wantRescored: -1, wantIter: 1, sessions: 3},
		{name: "a simpler wrong program first", programs: []string{"square", "double#complexity:0.05"}, wantCalls: 5, wantRescored: firstRescore, wantIter: 4, sessions: 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.programs...)
			ev := &countingEvaluator{}
			h.eval = ev
			res, err := h.run(context.Background(), settings(func(s *Settings) { s.EarlyStop = 3 }), task.KindInt)
			if err != nil {
				t.Fatal(err)
			}
			if res.StopReason != StopEarly || res.Iterations != tt.sessions {
				t.Fatalf("stop %s after %d iterations, want early_stop after %d", res.StopReason, res.Iterations, tt.sessions)
			}
			if ev.calls != tt.wantCalls {
				t.Errorf("%d evaluations, want %d", ev.calls, tt.wantCalls)
			}
			rescored := 0
			for _, n := range ev.inputs[tt.sessions:] {
				rescored += n
			}
			if want := tt.wantRescored; want == -1 && rescored != res.KnownExamples || want >= 0 && rescored != want {
				t.Errorf("the re-scores ran %d inputs (calls %v), want %d of %d examples", rescored, ev.inputs, want, res.KnownExamples)
			}
			if res.FinalIteration != tt.wantIter || res.FinalKnown != res.KnownExamples {
				t.Errorf("final = iteration %d on %d of %d examples; want iteration %d on all",
					res.FinalIteration, res.FinalKnown, res.KnownExamples, tt.wantIter)
			}
		})
	}
}

func TestFailureFeedbackIsCapped(t *testing.T) {
	h := newHarness(t, "square", "double")
	res, err := h.run(context.Background(), settings(func(s *Settings) { s.MaxFailures = 1; s.InitialBatch = 4 }), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	fb := h.agent.feedbacks[1]
	if fb == nil || len(fb.Failures) != 1 || fb.Passed+3 != fb.Total && fb.Passed+4 != fb.Total {
		t.Fatalf("feedback %+v, want one failure shown", fb)
	}
	if string(fb.Failures[0].Expected) == "" || string(fb.Failures[0].Actual) == "" {
		t.Errorf("failure lacks expected or actual: %+v", fb.Failures[0])
	}
	_ = res
}

func TestMissingCandidate(t *testing.T) {
	h := newHarness(t, "", "double")
	res, err := h.run(context.Background(), settings(nil), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Events[0].Passed != 0 {
		t.Errorf("a session that wrote nothing passed %d examples", res.Events[0].Passed)
	}
	fb := h.agent.feedbacks[1]
	if fb == nil || !strings.Contains(strings.Join(fb.Messages, "\n"), "not written") {
		t.Errorf("feedback %+v, want 'candidate.py was not written'", fb)
	}
}

func TestCancellationWritesEverything(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := newHarness(t, "square")
	h.agent.onWrite = func(n int) {
		if n == 3 {
			cancel()
		}
	}
	res, err := h.run(ctx, settings(nil), task.KindInt)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if res.StopReason != StopCancelled || res.Iterations != 3 {
		t.Errorf("stop %s iterations %d, want cancelled at 3", res.StopReason, res.Iterations)
	}
	var onDisk Result
	data, rerr := os.ReadFile(filepath.Join(h.dir, ResultFile))
	if rerr != nil {
		t.Fatal(rerr)
	}
	if err := json.Unmarshal(data, &onDisk); err != nil {
		t.Fatal(err)
	}
	if onDisk.StopReason != StopCancelled || len(onDisk.Examples) != 2 {
		t.Errorf("result.json: stop %s, %d examples", onDisk.StopReason, len(onDisk.Examples))
	}
	if progName(onDisk.FinalProgram) != "square" {
		t.Errorf("result.json final program %q, want the archived square", onDisk.FinalProgram)
	}
	if end := h.rec.types()[len(h.rec.events)-3:]; !cmp.Equal(end, []string{EventStop, EventFinal, EventRunFinished}) {
		t.Errorf("events end with %v", end)
	}
}

func TestInfrastructureErrors(t *testing.T) {
	tests := []struct {
		name  string
		setup func(h *harness)
	}{
		{"oracle down", func(h *harness) { h.oracle.infra = errInfra }},
		{"agent endpoint down", func(h *harness) { h.agent.writeErr = fmt.Errorf("%w: %w", ErrAgentInfrastructure, errInfra) }},
		{"recorder failing", func(h *harness) { h.rec.fail = errInfra }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, "double")
			tt.setup(h)
			res, err := h.run(context.Background(), settings(nil), task.KindInt)
			if !errors.Is(err, errInfra) {
				t.Fatalf("err = %v, want the infrastructure error", err)
			}
			if res == nil || res.StopReason != StopError || res.Error == "" {
				t.Fatalf("result %+v, want stop_reason error with the message", res)
			}
			if _, err := os.Stat(filepath.Join(h.dir, ResultFile)); err != nil {
				t.Errorf("result.json not written after the failure: %v", err)
			}
		})
	}
}

func TestEventsAndResultJSON(t *testing.T) {
	h := newHarness(t, "square", "double")
	res, err := h.run(context.Background(), settings(func(s *Settings) { s.EarlyStop = 1 }), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{EventRunStarted, EventProposalAccepted, EventBatchGranted,
		EventIterationStarted, EventTokens, EventCandidateArchived, EventIterationFinished,
		EventIterationStarted, EventTokens, EventCandidateArchived, EventPromotion,
		EventStop, EventFinal, EventRunFinished}
	if diff := cmp.Diff(want, h.rec.types()); diff != "" {
		t.Errorf("event types (-want +got):\n%s", diff)
	}
	for i, ev := range h.rec.events {
		if ev.Seq != i+1 || ev.RunID != "run-test-0001" {
			t.Errorf("event %d: seq %d run %q", i, ev.Seq, ev.RunID)
		}
	}
	data, _ := json.Marshal(res)
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"stop_reason", "iterations", "promotions", "known_examples", "random_inputs", "examples", "events", "final_program", "final_score", "coverage_uncovered_at_end", "tokens"} {
		if _, ok := m[k]; !ok {
			t.Errorf("result JSON lacks %q", k)
		}
	}
	var ex [][3]json.RawMessage
	if err := json.Unmarshal(m["examples"], &ex); err != nil || len(ex) != 2 || string(ex[0][2]) != `"initial"` {
		t.Errorf("examples = %s, want [input, output, source] triples", m["examples"])
	}
	var back Result
	if err := json.Unmarshal(data, &back); err != nil || len(back.Examples) != 2 {
		t.Errorf("round trip: %v, %d examples", err, len(back.Examples))
	}
}

func TestStageScore(t *testing.T) {
	tests := []struct{ acc, c, h, want float64 }{
		{1, 0, 0, 1},
		{1, 1, 1, 0.8},
		{0.5, 0.2, 0.3, 0.45},
		{0.05, 1, 1, 0},
	}
	for _, tt := range tests {
		if got := StageScore(tt.acc, tt.c, tt.h); fmt.Sprintf("%.9f", got) != fmt.Sprintf("%.9f", tt.want) {
			t.Errorf("StageScore(%v, %v, %v) = %v, want %v", tt.acc, tt.c, tt.h, got, tt.want)
		}
	}
}

// Finding 10 of the security issue: a run killed during its final
// selection left no final event, no final program and no result.json, yet
// counted as finished, and resume refused it. It is not finished until its
// final selection is recorded (run_finished), and resuming it does only
// that: no session, no query, the stop it reached kept.
func TestResumeCompletesAnInterruptedFinalSelection(t *testing.T) {
	h := newHarness(t, "square", "double")
	h.rec.killedAt = EventFinal
	s := settings(func(s *Settings) { s.EarlyStop = 1 })
	if _, err := h.run(context.Background(), s, task.KindInt); err == nil {
		t.Fatal("the killed run reported no error")
	}
	events := h.rec.events
	if events[len(events)-1].Type != EventStop || Finished(events) {
		t.Fatalf("journal ends with %v, finished %v; want a stop and not finished", h.rec.types()[len(events)-1:], Finished(events))
	}
	if got := PendingFinal(events); got != StopEarly {
		t.Fatalf("PendingFinal = %q, want %s", got, StopEarly)
	}
	st, err := StateFromEvents(events)
	if err != nil {
		t.Fatalf("StateFromEvents: %v (a run killed during its final selection must resume)", err)
	}
	os.Remove(filepath.Join(h.dir, ResultFile))
	h.rec = &memRecorder{events: events}
	queries, sessions := h.oracle.queries, h.agent.writes
	spec := h.spec(s, task.KindInt)
	spec.Resume, spec.Finish = st, PendingFinal(events)
	res, err := Run(context.Background(), spec, h.deps())
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	if res.StopReason != StopEarly || progName(res.FinalProgram) != "double" || res.Iterations != 2 {
		t.Errorf("resumed result: stop %s, final %q, %d iterations", res.StopReason, progName(res.FinalProgram), res.Iterations)
	}
	if h.oracle.queries != queries || h.agent.writes != sessions {
		t.Errorf("the resume queried or ran sessions")
	}
	if _, err := os.Stat(filepath.Join(h.dir, ResultFile)); err != nil {
		t.Errorf("no result.json after the resume: %v", err)
	}
	added := h.rec.types()[len(events):]
	if !cmp.Equal(added, []string{EventRunResumed, EventStop, EventFinal, EventRunFinished}) {
		t.Errorf("the resume recorded %v", added)
	}
	if !Finished(h.rec.events) {
		t.Error("the resumed run is not finished")
	}
	if _, err := StateFromEvents(h.rec.events); !errors.Is(err, ErrFinished) {
		t.Errorf("resume of the finished run: %v, want ErrFinished", err)
	}
}

// brokenAfter is fakeEvaluator whose calls fail, as a broken sandbox's do,
// once a program named poison has been evaluated: what a candidate that
// breaks the sandbox for the next evaluation leaves.
type brokenAfter struct {
	fakeEvaluator
	mu     sync.Mutex
	broken bool
}

func (b *brokenAfter) Call(ctx context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.broken {
		return nil, errInfra
	}
	if progName(req.Program.Source) == "poison" {
		b.broken = true
	}
	return b.fakeEvaluator.Call(ctx, req)
}

// Finding 5 of the security issue: a candidate that broke the sandbox for
// the next evaluation ended the run with an infrastructure error and was
// chosen as its final program. The final selection re-scores it on the
// examples it has not seen; that ending in an infrastructure error, it is
// not chosen on its archived evaluation.
func TestNoFinalProgramFromAFailedEvaluation(t *testing.T) {
	// poison is double that breaks the sandbox: it passes, is promoted,
	// and the next session's evaluation fails.
	programs["poison"] = programs["double"]
	t.Cleanup(func() { delete(programs, "poison") })
	h := newHarness(t, "poison", "double")
	h.eval = &brokenAfter{}
	res, err := h.run(context.Background(), settings(nil), task.KindInt)
	if !errors.Is(err, errInfra) || res.StopReason != StopError {
		t.Fatalf("run: %v, stop %s; want the infrastructure error", err, res.StopReason)
	}
	if res.FinalProgram != "" {
		t.Errorf("final program %q: a program whose re-scoring failed was chosen", res.FinalProgram)
	}
}
