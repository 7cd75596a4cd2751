package workflow

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"
)

// ValidateProposal checks a proposal of k inputs: exact count, valid JSON,
// no repeats within the batch or against observed inputs, and, when domain
// is set, every number within it. It returns the rejection reason, or "".
func ValidateProposal(inputs []json.RawMessage, k int, observed map[string]bool, domain *task.Domain) string {
	if len(inputs) != k {
		return fmt.Sprintf("wrong count: proposed %d inputs, exactly %d were asked for", len(inputs), k)
	}
	seen := map[string]int{}
	for i, in := range inputs {
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
// the task's generator, the rest from the agent's validated proposal. It
// reports false when the proposal failed every attempt.
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
	if nAgent > 0 {
		exs, ok, err := e.proposeAgent(ctx, nAgent, observed, source, batch)
		if err != nil || !ok {
			return false, err
		}
		got = append(got, exs...)
		for _, ex := range exs {
			observed[task.MustCanonical(ex.Input)] = true
		}
	}
	if nRand > 0 {
		exs, err := e.randomBatch(ctx, nRand, observed, batch)
		if err != nil {
			return false, err
		}
		got = append(got, exs...)
		e.st.RandomCount += len(exs)
	}
	e.st.Examples = append(e.st.Examples, got...)
	e.st.LastBatch = k
	e.st.InitialDone = true
	// One event holds the new examples and the state that includes them:
	// a crash can lose the batch or keep it, never half of it.
	if err := e.checkpoint(ctx, EventBatchGranted, map[string]any{
		"batch": batch, "size": k, "from_agent": nAgent, "from_random": nRand, "known": len(e.st.Examples), "examples": got,
	}); err != nil {
		return false, err
	}
	return true, e.recordExamples(ctx, got)
}

// proposeAgent asks the agent for n inputs, up to ProposeAttempts times.
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
	for attempt := 1; attempt <= s.ProposeAttempts; attempt++ {
		e.st.AgentProposes++
		res, err := e.deps.Agent.Propose(ctx, agent.ProposeRequest{
			Task: e.spec.Task, K: n, Examples: e.examples(), Missing: missing,
			Domain: domain, Attempt: attempt, Rejection: rejection, Workspace: e.spec.Workspace,
		})
		if err != nil {
			return nil, false, fmt.Errorf("agent proposal (batch %d, attempt %d): %w", batch, attempt, err)
		}
		e.st.Tokens = e.st.Tokens.Add(res.Usage)
		if res.Usage.Total() > 0 {
			if err := e.event(ctx, EventTokens, e.st.Iteration, map[string]any{"phase": "propose", "usage": res.Usage, "total": e.st.Tokens}); err != nil {
				return nil, false, err
			}
		}
		reason := ValidateProposal(res.Inputs, n, observed, domain)
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
			return exs, true, e.event(ctx, EventProposalAccepted, e.st.Iteration, map[string]any{"batch": batch, "attempt": attempt, "inputs": res.Inputs})
		}
		e.log.Info("proposal rejected", zap.String("reason", reason), zap.Int("attempt", attempt))
		if err := e.event(ctx, EventProposalRejected, e.st.Iteration, map[string]any{"batch": batch, "attempt": attempt, "reason": reason, "inputs": loggable(res.Inputs)}); err != nil {
			return nil, false, err
		}
		rejection = reason
	}
	return nil, false, nil
}

// randomBatch draws n inputs from the task's generator and queries them. A
// generator that repeats inputs or produces inputs the hidden program
// rejects is a broken task, reported as an error.
func (e *engine) randomBatch(ctx context.Context, n int, observed map[string]bool, batch int) ([]task.Example, error) {
	exclude := make([]json.RawMessage, 0, len(e.st.Examples))
	for _, ex := range e.st.Examples {
		exclude = append(exclude, ex.Input)
	}
	seed := e.settings().Seed*1_000_003 + int64(batch)
	inputs, err := e.deps.Random.Generate(ctx, n, exclude, seed)
	if err != nil {
		return nil, fmt.Errorf("random_inputs generator (batch %d): %w", batch, err)
	}
	if reason := ValidateProposal(inputs, n, observed, nil); reason != "" {
		return nil, fmt.Errorf("random_inputs generator (batch %d): %s", batch, reason)
	}
	answers, err := e.deps.Oracle.Query(ctx, inputs)
	if err != nil {
		return nil, fmt.Errorf("query hidden program (random batch %d): %w", batch, err)
	}
	exs := make([]task.Example, len(inputs))
	for i, a := range answers {
		if a.Invalid != "" {
			return nil, fmt.Errorf("random_inputs generator (batch %d) produced input %s that the hidden program rejects: %s", batch, task.MustCanonical(inputs[i]), a.Invalid)
		}
		exs[i] = task.Example{Input: inputs[i], Output: a.Output, Source: task.SourceRandom}
	}
	return exs, nil
}

// loggable keeps a proposal recordable: an input that is not valid JSON is
// recorded as a string of its text.
func loggable(inputs []json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, len(inputs))
	for i, in := range inputs {
		if json.Valid(in) {
			out[i] = in
			continue
		}
		s, _ := json.Marshal(string(in))
		out[i] = s
	}
	return out
}
