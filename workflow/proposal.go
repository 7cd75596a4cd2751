package workflow

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/oracle"
	"github.com/reconstruct/reconstruct/task"
)

// ValidateProposal checks a proposal of k inputs: exact count, valid JSON,
// no repeats within the batch or against observed inputs, and, when domain
// is set, every number within it. It returns the rejection reason, or "".
func ValidateProposal(inputs []json.RawMessage, k int, observed map[string]bool, domain *task.Domain) string {
	if len(inputs) != k {
		return fmt.Sprintf("wrong count: proposed %s, exactly %d %s asked for", inputsCount(len(inputs)), k, map[bool]string{true: "was", false: "were"}[k == 1])
	}
	seen := map[string]int{}
	for i, in := range inputs {
		if d := task.Depth(in); d > task.MaxDepth {
			return fmt.Sprintf("input %d is nested %d levels deep, more than the %d an input may be", i+1, d, task.MaxDepth)
		}
		c, err := task.Canonical(in)
		if err != nil {
			return fmt.Sprintf("input %d is not valid JSON: %v", i+1, err)
		}
		if j, dup := seen[c]; dup {
			return fmt.Sprintf("repeat: inputs %d and %d are the same (%s)", j+1, i+1, c)
		}
		seen[c] = i
		if observed[c] {
			return fmt.Sprintf("repeat: input %d (%s) was already observed", i+1, c)
		}
		if domain != nil {
			v, _ := task.Decode(in)
			for _, x := range task.Numbers(v) {
				if !domain.Contains(x) {
					return fmt.Sprintf("out of domain: input %d (%s) has %g outside %s", i+1, c, x, domain)
				}
			}
		}
	}
	return ""
}

// acquire obtains a batch of k new observed examples: the random share from
// the task's generator, the rest from the agent's validated proposal. When
// every proposal attempt failed, the agent's part is drawn from the
// generator too, unless the settings say to stop or the task has none: it
// then reports false.
func (e *engine) acquire(ctx context.Context, k int, source task.Source) (bool, error) {
	s := e.settings()
	nRand := 0
	if s.RandomShare > 0 && e.deps.Random != nil {
		nRand = int(math.Round(s.RandomShare * float64(k)))
		nRand = min(max(nRand, 0), k)
	}
	nAgent := k - nRand
	e.st.Batches++
	batch := e.st.Batches
	observed := map[string]bool{}
	for _, ex := range e.st.Examples {
		observed[task.MustCanonical(ex.Input)] = true
	}
	var got []task.Example
	add := func(exs []task.Example) {
		got = append(got, exs...)
		for _, ex := range exs {
			observed[task.MustCanonical(ex.Input)] = true
		}
	}
	fallback := 0
	if nAgent > 0 {
		exs, ok, err := e.proposeAgent(ctx, nAgent, observed, source, batch)
		if err != nil {
			return false, err
		}
		if !ok {
			if s.ProposalFallback == FallbackStop || e.deps.Random == nil {
				return false, nil
			}
			if exs, err = e.randomBatch(ctx, nAgent, observed, got, batch, 1); err != nil {
				return false, err
			}
			fallback = len(exs)
			e.st.Fallbacks++
			e.st.RandomCount += len(exs)
			if err := e.event(ctx, EventProposalFallback, e.st.Iteration, ProposalFallback{
				Batch: batch, Size: len(exs), Rejections: e.rejections,
			}); err != nil {
				return false, err
			}
			e.progress("batch %d: every proposal was rejected; %s drawn from random_inputs instead", batch, inputsCount(len(exs)))
		}
		add(exs)
	}
	if nRand > 0 {
		exs, err := e.randomBatch(ctx, nRand, observed, got, batch, 0)
		if err != nil {
			return false, err
		}
		add(exs)
		e.st.RandomCount += len(exs)
	}
	if err := e.recheck(ctx, got, batch); err != nil {
		return false, err
	}
	e.st.Examples = append(e.st.Examples, got...)
	e.st.LastBatch = k
	e.st.InitialDone = true
	// One event holds the new examples and the state that includes them:
	// a crash can lose the batch or keep it, never half of it.
	if err := e.event(ctx, EventBatchGranted, e.st.Iteration, BatchGranted{
		Batch: batch, Size: k, FromAgent: nAgent - fallback, FromRandom: nRand + fallback, Known: len(e.st.Examples), Examples: got,
		Checkpoint: e.checkpoint(),
	}); err != nil {
		return false, err
	}
	return true, e.recordExamples(ctx, got)
}

// proposeAgent asks the agent for n inputs: once, and again after each
// rejection up to ProposeAttempts times (docs/workflow.md: a rejected
// proposal is retried up to propose_attempts times). A
// proposal that fails validation, that the hidden program rejects, or that
// the agent could not make (an error that is not an infrastructure
// failure) is a rejected attempt; the reasons of the last batch that
// failed every attempt are kept in e.rejections.
func (e *engine) proposeAgent(ctx context.Context, n int, observed map[string]bool, source task.Source, batch int) ([]task.Example, bool, error) {
	s := e.settings()
	var domain *task.Domain
	if s.DomainCheck && e.spec.Task.Domain != nil && e.spec.Task.Kind != task.KindOther {
		domain = e.spec.Task.Domain
	}
	var missing []string
	if s.CoverageGate {
		missing = task.Uncovered(e.spec.Task.Kind, e.spec.Task.Domain, e.st.inputs())
	}
	rejection := ""
	var reasons []string
	tries := s.Tries()
	for attempt := 1; attempt <= tries; attempt++ {
		e.st.AgentProposes++
		req := agent.ProposeRequest{
			Task: e.spec.Task, K: n, Examples: e.examples(), Missing: missing,
			Domain: domain, Attempt: attempt, Rejection: rejection, Workspace: e.spec.Workspace,
		}
		res, err := callAgent(ctx, func(ctx context.Context) (agent.ProposeResult, error) {
			return e.deps.Agent.Propose(ctx, req)
		}, nil)
		mistake, err := agentOutcome(ctx, err)
		if err != nil {
			return nil, false, fmt.Errorf("agent proposal (batch %d, attempt %d): %w", batch, attempt, err)
		}
		e.st.Tokens = e.st.Tokens.Add(res.Usage)
		if res.Usage.Total() > 0 {
			if err := e.event(ctx, EventTokens, e.st.Iteration, Tokens{Phase: "propose", Usage: res.Usage, Total: e.st.Tokens}); err != nil {
				return nil, false, err
			}
		}
		reason := ""
		if mistake != "" {
			reason = "the agent could not propose: " + mistake
		} else {
			reason = ValidateProposal(res.Inputs, n, observed, domain)
		}
		var exs []task.Example
		if reason == "" {
			answers, err := e.deps.Oracle.Query(ctx, res.Inputs)
			if err != nil {
				return nil, false, fmt.Errorf("query hidden program (batch %d): %w", batch, err)
			}
			for i, a := range answers {
				if a.Invalid != "" {
					reason = fmt.Sprintf("oracle-rejected: the hidden program rejected input %d (%s): %s", i+1, task.MustCanonical(res.Inputs[i]), a.Invalid)
					break
				}
				exs = append(exs, task.Example{Input: res.Inputs[i], Output: a.Output, Source: source})
			}
		}
		if reason == "" {
			return exs, true, e.event(ctx, EventProposalAccepted, e.st.Iteration, ProposalAccepted{Batch: batch, Attempt: attempt, Inputs: res.Inputs})
		}
		e.log.Info("proposal rejected", zap.String("reason", reason), zap.Int("attempt", attempt))
		e.progress("batch %d: proposal %d of %d rejected: %s", batch, attempt, tries, firstLineOf(reason, 300))
		if err := e.event(ctx, EventProposalRejected, e.st.Iteration, ProposalRejected{Batch: batch, Attempt: attempt, Reason: reason, Inputs: loggable(res.Inputs)}); err != nil {
			return nil, false, err
		}
		rejection = reason
		reasons = append(reasons, reason)
	}
	e.rejections = reasons
	return nil, false, nil
}

// randomBatch draws n inputs from the task's generator, excluding every
// observed input and those of the batch so far (pending), and queries
// them. A generator that repeats inputs or produces inputs the hidden
// program rejects is a broken task, reported as an error. draw separates
// the draws of one batch (the random share, a fallback).
func (e *engine) randomBatch(ctx context.Context, n int, observed map[string]bool, pending []task.Example, batch, draw int) ([]task.Example, error) {
	exclude := make([]json.RawMessage, 0, len(e.st.Examples)+len(pending))
	for _, ex := range append(e.examples(), pending...) {
		exclude = append(exclude, ex.Input)
	}
	seed := e.settings().Seed*1_000_003 + int64(batch) + int64(draw)*7_919_000_003
	inputs, err := e.deps.Random.Generate(ctx, n, exclude, seed)
	if err != nil {
		return nil, fmt.Errorf("random_inputs generator (batch %d): %w", batch, err)
	}
	if reason := ValidateProposal(inputs, n, observed, nil); reason != "" {
		return nil, fmt.Errorf("%w: random_inputs generator (batch %d): %s", oracle.ErrTask, batch, reason)
	}
	answers, err := e.deps.Oracle.Query(ctx, inputs)
	if err != nil {
		return nil, fmt.Errorf("query hidden program (random batch %d): %w", batch, err)
	}
	exs := make([]task.Example, len(inputs))
	for i, a := range answers {
		if a.Invalid != "" {
			return nil, fmt.Errorf("%w: random_inputs generator (batch %d) produced input %s that the hidden program rejects: %s", oracle.ErrTask, batch, task.MustCanonical(inputs[i]), a.Invalid)
		}
		exs[i] = task.Example{Input: inputs[i], Output: a.Output, Source: task.SourceRandom}
	}
	return exs, nil
}

// firstLineOf is s's first line, cut to at most n bytes.
func firstLineOf(s string, n int) string {
	line, _, _ := strings.Cut(s, "\n")
	if len(line) > n {
		line = line[:n] + "…"
	}
	return line
}

// loggable keeps a proposal recordable: an input that is not valid JSON,
// or nested deeper than a record can hold, is recorded as a string of (the
// start of) its text.
func loggable(inputs []json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, len(inputs))
	for i, in := range inputs {
		if json.Valid(in) && task.Depth(in) <= task.MaxDepth {
			out[i] = in
			continue
		}
		s, _ := json.Marshal(firstLineOf(string(in), 300))
		out[i] = s
	}
	return out
}

// inputsCount is "1 input", "3 inputs".
func inputsCount(n int) string {
	if n == 1 {
		return "1 input"
	}
	return fmt.Sprintf("%d inputs", n)
}
