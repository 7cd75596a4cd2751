package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/oracle"
	"github.com/reconstruct/reconstruct/task"
)

// intDomain lists the integers lo to hi (a Domain).
type intDomain struct{ lo, hi int }

func (d intDomain) Inputs(max int) ([]json.RawMessage, string, bool) {
	if d.hi-d.lo+1 > max {
		return nil, "", false
	}
	var out []json.RawMessage
	for x := d.lo; x <= d.hi; x++ {
		out = append(out, json.RawMessage(strconv.Itoa(x)))
	}
	return out, "task.domain", true
}

// poolGenerator draws the largest integers of lo to hi not in exclude:
// fewer than asked when fewer are left. mistake, when set, changes what
// it returns.
type poolGenerator struct {
	lo, hi  int
	calls   int
	mistake func(k int, out []json.RawMessage, exclude []json.RawMessage) []json.RawMessage
}

func (g *poolGenerator) Name() string { return "pool.py" }

func (g *poolGenerator) Generate(_ context.Context, k int, exclude []json.RawMessage, _ int64) ([]json.RawMessage, error) {
	g.calls++
	seen := map[string]bool{}
	for _, x := range exclude {
		seen[task.MustCanonical(x)] = true
	}
	var out []json.RawMessage
	for x := g.hi; x >= g.lo && len(out) < k; x-- {
		if raw := json.RawMessage(strconv.Itoa(x)); !seen[string(raw)] {
			out = append(out, raw)
		}
	}
	if g.mistake != nil {
		out = g.mistake(k, out, exclude)
	}
	return out, nil
}

// freshIn proposes the smallest integers of lo to hi not observed yet:
// fewer than asked when fewer are left.
func freshIn(lo, hi int) func(req agent.ProposeRequest) []json.RawMessage {
	return func(req agent.ProposeRequest) []json.RawMessage {
		seen := map[string]bool{}
		for _, ex := range req.Examples {
			seen[task.MustCanonical(ex.Input)] = true
		}
		var out []json.RawMessage
		for x := lo; x <= hi && len(out) < req.K; x++ {
			if raw := json.RawMessage(strconv.Itoa(x)); !seen[string(raw)] {
				out = append(out, raw)
			}
		}
		return out
	}
}

// digits are the inputs 0 to 9, as canonical texts.
func digits() []string {
	var out []string
	for x := 0; x <= 9; x++ {
		out = append(out, strconv.Itoa(x))
	}
	return out
}

// eventsOf decodes the data of every event of one type.
func eventsOf[T any](t *testing.T, rec *memRecorder, typ string) []T {
	t.Helper()
	var out []T
	for _, ev := range rec.events {
		if ev.Type != typ {
			continue
		}
		var d T
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatalf("%s event: %v", typ, err)
		}
		out = append(out, d)
	}
	return out
}

// A task whose valid inputs are the ten integers 0 to 9 — listed by its
// domain, or known only from a generator that runs out — is run to the
// end: every input is observed once, never asked of the hidden program
// twice but to check it answers the same, and the run ends exhausted on a
// program verified on the whole domain, with the defaults and with an
// early stop too large to be reached.
func TestSmallDomainIsExhausted(t *testing.T) {
	listed := intDomain{0, 9}
	tests := []struct {
		name      string
		domain    Domain
		generator bool
		settings  Settings
		wantFrom  string
		// wantProposals are the sizes the agent was asked for.
		wantProposals []int
	}{
		{name: "listed domain, defaults", domain: listed, settings: settings(nil),
			wantFrom: "task.domain", wantProposals: []int{2, 4}},
		{name: "listed domain, early stop 40", domain: listed, settings: settings(func(s *Settings) { s.EarlyStop = 40 }),
			wantFrom: "task.domain", wantProposals: []int{2, 4}},
		{name: "listed domain and a generator, its defaults", domain: listed, generator: true,
			settings: settings(func(s *Settings) { s.RandomShare, s.CoverageGate = GeneratorRandomShare, GeneratorCoverageGate }),
			wantFrom: "task.domain", wantProposals: []int{1, 2}},
		{name: "a generator that runs out, its defaults", generator: true,
			settings: settings(func(s *Settings) { s.RandomShare, s.CoverageGate = GeneratorRandomShare, GeneratorCoverageGate }),
			wantFrom: DomainFromGenerator, wantProposals: []int{1, 2, 3}},
		{name: "a generator that runs out, early stop 40", generator: true,
			settings: settings(func(s *Settings) {
				s.RandomShare, s.CoverageGate, s.EarlyStop = GeneratorRandomShare, GeneratorCoverageGate, 40
			}),
			wantFrom: DomainFromGenerator, wantProposals: []int{1, 2, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, "double")
			h.domain = tt.domain
			h.random = nil
			var gen *poolGenerator
			if tt.generator {
				gen = &poolGenerator{lo: 0, hi: 9}
			}
			h.agent.proposeFn, h.agent.allLeft = freshIn(0, 9), true
			d := h.deps()
			if gen != nil {
				d.Random = gen
			}
			spec := h.spec(tt.settings, task.KindInt)
			spec.Task.Domain = &task.Domain{Lo: 0, Hi: 9}
			res, err := Run(context.Background(), spec, d)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if res.StopReason != StopExhausted || !res.VerifiedExhaustively {
				t.Fatalf("stop %s, verified_exhaustively %v; want exhausted, true", res.StopReason, res.VerifiedExhaustively)
			}
			var inputs []string
			for _, ex := range res.Examples {
				inputs = append(inputs, task.MustCanonical(ex.Input))
			}
			slices.SortFunc(inputs, func(a, b string) int { x, _ := strconv.Atoi(a); y, _ := strconv.Atoi(b); return x - y })
			if diff := cmp.Diff(digits(), inputs); diff != "" {
				t.Errorf("observed inputs (-want +got):\n%s", diff)
			}
			if want := (FiniteDomain{From: tt.wantFrom, Inputs: 10}); res.Domain == nil || *res.Domain != want {
				t.Errorf("domain %+v, want %+v", res.Domain, want)
			}
			if res.FinalAccuracy != 1 || res.FinalKnown != 10 || progName(res.FinalProgram) != "double" {
				t.Errorf("final %q, accuracy %v on %d examples; want double, 1 on 10", res.FinalProgram, res.FinalAccuracy, res.FinalKnown)
			}
			var sizes []int
			for _, r := range h.agent.requests {
				sizes = append(sizes, r.K)
			}
			if diff := cmp.Diff(tt.wantProposals, sizes); diff != "" {
				t.Errorf("proposal sizes (-want +got):\n%s", diff)
			}
			if n := len(eventsOf[ProposalRejected](t, h.rec, EventProposalRejected)); n != 0 {
				t.Errorf("%d proposals rejected, want none", n)
			}
			// Every query asks only new inputs, or only observed ones (the
			// check that the hidden program answers the same).
			asked := map[string]bool{}
			for i, q := range h.oracle.asked {
				fresh := 0
				for _, c := range q {
					if !asked[c] {
						fresh++
					}
				}
				if fresh != 0 && fresh != len(q) {
					t.Errorf("query %d %v asks again for an input asked before", i+1, q)
				}
				for _, c := range q {
					asked[c] = true
				}
			}
			if len(asked) != 10 {
				t.Errorf("the hidden program was asked for %d distinct inputs, want 10", len(asked))
			}
			if _, err := StateFromEvents(h.rec.events); !errors.Is(err, ErrFinished) || !strings.Contains(err.Error(), StopExhausted) {
				t.Errorf("resume: %v, want the run finished (exhausted)", err)
			}
		})
	}
}

// When fewer inputs are left than a batch asks for, the batch takes them
// all, without a proposal; the next pass ends the run.
func TestBatchTakesWhatIsLeft(t *testing.T) {
	h := newHarness(t, "double")
	h.domain = intDomain{0, 9}
	h.agent.proposeFn = freshIn(0, 9)
	res, err := h.run(context.Background(), settings(nil), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	var got []BatchGranted
	for _, b := range eventsOf[BatchGranted](t, h.rec, EventBatchGranted) {
		b.Examples, b.Checkpoint = nil, Checkpoint{}
		got = append(got, b)
	}
	want := []BatchGranted{
		{Batch: 1, Size: 2, Asked: 2, FromAgent: 2, Known: 2},
		{Batch: 2, Size: 4, Asked: 4, FromAgent: 4, Known: 6},
		{Batch: 3, Size: 4, Asked: 6, FromDomain: 4, Known: 10},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("batches (-want +got):\n%s", diff)
	}
	if res.Iterations != 3 || res.StopReason != StopExhausted {
		t.Errorf("%d iterations, stop %s; want 3, exhausted", res.Iterations, res.StopReason)
	}
	if fb := h.agent.feedbacks[2]; fb == nil || !slices.Contains(fb.Messages, "the previous candidate passed all 6 examples; 4 new examples were added") {
		t.Errorf("the third session's feedback does not say 4 examples were added: %+v", fb)
	}
}

// Inputs of the listed domain that the hidden program rejects are not
// valid inputs: they leave the domain, and the run is exhausted without
// them.
func TestRejectedInputsLeaveTheDomain(t *testing.T) {
	h := newHarness(t, "double")
	h.domain = intDomain{0, 9}
	h.oracle.reject = 7 // 8 and 9 are invalid
	h.agent.proposeFn = freshIn(0, 9)
	res, err := h.run(context.Background(), settings(nil), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != StopExhausted || !res.VerifiedExhaustively || res.KnownExamples != 8 {
		t.Fatalf("stop %s, verified %v, %d examples; want exhausted, true, 8", res.StopReason, res.VerifiedExhaustively, res.KnownExamples)
	}
	if want := (FiniteDomain{From: "task.domain", Inputs: 8, Rejected: 2}); *res.Domain != want {
		t.Errorf("domain %+v, want %+v", *res.Domain, want)
	}
}

// An accepted input outside the listed domain proves the list wrong: the
// run forgets it and goes on as for any task.
func TestDomainForgottenWhenAnInputLiesOutside(t *testing.T) {
	h := newHarness(t, "double")
	h.domain = intDomain{0, 9}
	h.progress = &strings.Builder{}
	next := 20
	h.agent.proposeFn = func(req agent.ProposeRequest) []json.RawMessage {
		var out []json.RawMessage
		for range req.K {
			next++
			out = append(out, json.RawMessage(strconv.Itoa(next)))
		}
		return out
	}
	res, err := h.run(context.Background(), settings(nil), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != StopEarly || res.Domain != nil || res.VerifiedExhaustively {
		t.Errorf("stop %s, domain %+v, verified %v; want early_stop, none, false", res.StopReason, res.Domain, res.VerifiedExhaustively)
	}
	if !strings.Contains(h.progress.String(), "input 21 was accepted but is not among the 10 inputs of task.domain") {
		t.Errorf("the progress does not say why the domain was forgotten:\n%s", h.progress)
	}
}

// An agent that finds fewer fresh inputs than asked gives them with
// AllLeft: the batch takes them. That alone never ends a run exhausted:
// an agent that finds none fails its proposal, and without a generator or
// a listed domain the run stops with proposer_failed.
func TestAgentGivesWhatIsLeft(t *testing.T) {
	h := newHarness(t, "double")
	h.random = nil
	h.agent.proposeFn, h.agent.allLeft = freshIn(0, 4), true
	res, err := h.run(context.Background(), settings(nil), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != StopProposerFailed || res.KnownExamples != 5 || res.Domain != nil {
		t.Fatalf("stop %s with %d examples, domain %+v; want proposer_failed with 5, none", res.StopReason, res.KnownExamples, res.Domain)
	}
	acc := eventsOf[ProposalAccepted](t, h.rec, EventProposalAccepted)
	if len(acc) != 2 || len(acc[1].Inputs) != 3 || !acc[1].AllLeft {
		t.Errorf("accepted proposals %+v, want the second of 3 inputs, all left", acc)
	}
	if len(res.Rejections) == 0 || res.Rejections[0] != "the agent could not propose: it found no fresh input" {
		t.Errorf("rejections %q", res.Rejections)
	}
}

// With every proposal failing and no generator, the agent's part is drawn
// from the inputs the listed domain has left.
func TestFallbackDrawsFromTheDomain(t *testing.T) {
	h := newHarness(t, "double")
	h.random = nil
	h.domain = intDomain{0, 9}
	h.agent.proposeFn = func(req agent.ProposeRequest) []json.RawMessage { return nil }
	res, err := h.run(context.Background(), settings(nil), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != StopExhausted || !res.VerifiedExhaustively || res.KnownExamples != 10 {
		t.Fatalf("stop %s, verified %v, %d examples; want exhausted, true, 10", res.StopReason, res.VerifiedExhaustively, res.KnownExamples)
	}
	fb := eventsOf[ProposalFallback](t, h.rec, EventProposalFallback)
	if len(fb) == 0 || fb[0].From != "task.domain" {
		t.Errorf("fallbacks %+v, want drawn from the domain", fb)
	}
}

// A generator that gives more inputs than asked, or inputs that are not
// fresh, or inputs the hidden program rejects, is a mistake of the task
// (an error of the task, naming the generator); one that gives fewer is
// not.
func TestGeneratorMistakes(t *testing.T) {
	tests := []struct {
		name    string
		mistake func(k int, out, exclude []json.RawMessage) []json.RawMessage
		reject  int
		want    string
	}{
		{name: "more than asked", mistake: func(k int, out, _ []json.RawMessage) []json.RawMessage {
			return append(out, json.RawMessage("0"))
		}, want: "the generator pool.py returned 3 inputs when asked for 2"},
		{name: "an observed input", mistake: func(k int, out, exclude []json.RawMessage) []json.RawMessage {
			if len(exclude) > 0 {
				out[0] = exclude[0]
			}
			return out
		}, want: "the generator pool.py returned inputs that are not fresh (batch 2): repeat: input 1 (9) was already observed"},
		{name: "a repeat", mistake: func(k int, out, _ []json.RawMessage) []json.RawMessage {
			return []json.RawMessage{out[0], out[0]}
		}, want: "the generator pool.py returned inputs that are not fresh (batch 1): repeat: inputs 1 and 2 are the same (9)"},
		{name: "an input the hidden program rejects", reject: 8,
			want: "the generator pool.py produced input 9 that the hidden program rejects (batch 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, "double")
			h.oracle.reject = tt.reject
			d := h.deps()
			d.Random = &poolGenerator{lo: 0, hi: 9, mistake: tt.mistake}
			res, err := Run(context.Background(), h.spec(settings(func(s *Settings) { s.RandomShare = 1 }), task.KindInt), d)
			if !errors.Is(err, oracle.ErrTask) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want an error of the task saying %q", err, tt.want)
			}
			if !strings.Contains(err.Error(), generatorContract) && tt.reject == 0 {
				t.Errorf("the error does not say what the generator must do: %v", err)
			}
			if res.StopReason != StopError {
				t.Errorf("stop %s, want error", res.StopReason)
			}
		})
	}
}

// The generator's fewer inputs are a smaller batch, and are the last it
// is asked for.
func TestGeneratorThatRunsOutIsNotAskedAgain(t *testing.T) {
	h := newHarness(t, "double")
	gen := &poolGenerator{lo: 0, hi: 2}
	d := h.deps()
	d.Random = gen
	h.agent.proposeFn, h.agent.allLeft = freshIn(3, 9), true
	res, err := Run(context.Background(), h.spec(settings(func(s *Settings) { s.RandomShare = 0.5; s.EarlyStop = 40 }), task.KindInt), d)
	if err != nil {
		t.Fatal(err)
	}
	// Batches of 2 (1 + 1), 4 (2 + 2), 6 (3 + 0 of 3: the generator is
	// done): the generator was asked three times; the run then ends
	// exhausted by the generator's account.
	if gen.calls != 3 || res.StopReason != StopExhausted || res.KnownExamples != 9 {
		t.Errorf("generator asked %d times, stop %s with %d examples; want 3, exhausted with 9", gen.calls, res.StopReason, res.KnownExamples)
	}
	if got := fmt.Sprint(res.Domain); got != fmt.Sprint(&FiniteDomain{From: DomainFromGenerator, Inputs: 9}) {
		t.Errorf("domain %s", got)
	}
}
