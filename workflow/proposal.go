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

// acquire obtains a batch of k new observed examples, or of fewer when
// fewer are left: the random share from the task's generator, the rest
// from the agent's validated proposal. When the task's finite domain has
// no more inputs left than k, the batch is every one of them, without a
// proposal: there is nothing to choose. When every proposal attempt
// failed, the agent's part is drawn from the generator, or else from the
// inputs the finite domain has left, unless the settings say to stop or
// there is neither: it then reports false. It returns how many examples
// the batch added.
func (e *engine) acquire(ctx context.Context, k int, source task.Source) (int, bool, error) {
	s := e.settings()
	if left, ok := e.left(); ok && len(left) <= k {
		return e.takeLeft(ctx, left, k, source)
	}
	nRand := 0
	if s.RandomShare > 0 && e.generator() {
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
	counts := batchCounts{rivalsFor: rivalsRandomBatch}
	if nAgent > 0 {
		exs, rep, ok, err := e.proposeAgent(ctx, nAgent, observed, source, batch)
		if err != nil {
			return 0, false, err
		}
		counts.rivalsFor, counts.rivalsWhy = batchRivals(rep, ok, e.st.LastCandidate != "")
		if ok {
			counts.agent = len(exs)
		} else {
			var from string
			if exs, from, err = e.fallback(ctx, nAgent, observed, got, batch); err != nil || from == "" {
				return 0, false, err
			}
			counts.random += len(exs)
			e.st.Fallbacks++
			e.st.RandomCount += len(exs)
			if err := e.event(ctx, EventProposalFallback, e.st.Iteration, ProposalFallback{
				Batch: batch, Size: len(exs), From: from, Rejections: e.rejections,
			}); err != nil {
				return 0, false, err
			}
			e.progress("batch %d: every proposal was rejected; %s drawn from %s instead", batch, inputsCount(len(exs)), from)
		}
		add(exs)
	}
	if nRand > 0 && e.generator() {
		exs, err := e.randomBatch(ctx, nRand, observed, got, batch, 0)
		if err != nil {
			return 0, false, err
		}
		add(exs)
		counts.random += len(exs)
		e.st.RandomCount += len(exs)
	}
	return len(got), true, e.grant(ctx, batch, k, got, counts, source)
}

// batchCounts say where a batch's examples came from, and what they verify
// of the candidate whose rivals the agent's part was chosen to split
// (State.RivalsFor, State.RivalsWhy).
type batchCounts struct {
	agent, random, domain int
	rivalsFor, rivalsWhy  string
}

// generator reports whether the task's generator may be asked for inputs:
// there is one, and it has not said it has no more.
func (e *engine) generator() bool {
	return e.deps.Random != nil && !e.st.GeneratorDone
}

// takeLeft makes a batch of every input the finite domain has left, no
// more than the k a batch asks for. The inputs the hidden program rejects
// are recorded as invalid; the others are the batch, of the batch's source.
func (e *engine) takeLeft(ctx context.Context, left []json.RawMessage, k int, source task.Source) (int, bool, error) {
	e.st.Batches++
	batch := e.st.Batches
	exs, err := e.queryDomain(ctx, left, source, batch)
	if err != nil {
		return 0, false, err
	}
	e.progress("batch %d: %d asked, %s of the domain left (%s): the batch takes them all", batch, k, inputsCount(len(left)), e.dom.from)
	return len(exs), true, e.grant(ctx, batch, k, exs, batchCounts{domain: len(exs), rivalsFor: rivalsRandomBatch}, source)
}

// fallback draws the agent's part of a batch, n inputs, when every
// proposal attempt failed: from the task's generator, or else at random
// from the inputs the finite domain has left. from names where they came
// from (random_inputs, or where the domain is known from), "" when the
// run stops instead (proposal_fallback stop, or neither source).
func (e *engine) fallback(ctx context.Context, n int, observed map[string]bool, pending []task.Example, batch int) ([]task.Example, string, error) {
	if e.settings().ProposalFallback == FallbackStop {
		return nil, "", nil
	}
	if e.generator() {
		exs, err := e.randomBatch(ctx, n, observed, pending, batch, 1)
		return exs, "random_inputs", err
	}
	left, ok := e.left()
	if !ok || len(left) == 0 {
		return nil, "", nil
	}
	var fresh []json.RawMessage
	for _, in := range left {
		if !observed[task.MustCanonical(in)] {
			fresh = append(fresh, in)
		}
	}
	if len(fresh) == 0 {
		return nil, "", nil
	}
	// Drawn at random, independent of the agent, like the generator's.
	exs, err := e.queryDomain(ctx, e.sampleLeft(fresh, n, batch), task.SourceRandom, batch)
	return exs, e.dom.from, err
}

// grant records a batch: the hidden program asked again for a sample,
// the examples added, the next feedback told of them, and one event
// holding the new examples and the state that includes them, so that a
// crash can lose the batch or keep it, never half of it.
func (e *engine) grant(ctx context.Context, batch, k int, got []task.Example, c batchCounts, source task.Source) error {
	if err := e.recheck(ctx, got, batch); err != nil {
		return err
	}
	e.st.Examples = append(e.st.Examples, got...)
	e.st.LastBatch = k
	e.st.RivalsFor, e.st.RivalsWhy = c.rivalsFor, c.rivalsWhy
	e.st.InitialDone = true
	if fb := e.st.Feedback; source == task.SourceAgent && fb != nil {
		fb.Messages = append(fb.Messages, fmt.Sprintf("the previous candidate passed all %d examples; %d new examples were added", fb.Total, len(got)))
	}
	if err := e.event(ctx, EventBatchGranted, e.st.Iteration, BatchGranted{
		Batch: batch, Size: len(got), Asked: k, FromAgent: c.agent, FromRandom: c.random, FromDomain: c.domain,
		Known: len(e.st.Examples), Examples: got, Checkpoint: e.checkpoint(),
	}); err != nil {
		return err
	}
	return e.recordExamples(ctx, got)
}

// proposeAgent asks the agent for n inputs: once, and again after each
// rejection up to ProposeAttempts times (docs/workflow.md: a rejected
// proposal is retried up to propose_attempts times). A
// proposal that fails validation, that the hidden program rejects, or that
// the agent could not make (an error that is not an infrastructure
// failure) is a rejected attempt; the reasons of the last batch that
// failed every attempt are kept in e.rejections. The accepted proposal's
// rival report (RivalSearcher agents) is recorded with it and returned.
func (e *engine) proposeAgent(ctx context.Context, n int, observed map[string]bool, source task.Source, batch int) ([]task.Example, *agent.RivalReport, bool, error) {
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
			return nil, nil, false, fmt.Errorf("agent proposal (batch %d, attempt %d): %w", batch, attempt, err)
		}
		e.st.Tokens = e.st.Tokens.Add(res.Usage)
		if res.Usage.Total() > 0 {
			if err := e.event(ctx, EventTokens, e.st.Iteration, Tokens{Phase: "propose", Usage: res.Usage, Total: e.st.Tokens}); err != nil {
				return nil, nil, false, err
			}
		}
		reason := ""
		short := res.AllLeft && mistake == "" && len(res.Inputs) < n
		switch {
		case mistake != "":
			reason = "the agent could not propose: " + mistake
		case short && len(res.Inputs) == 0:
			reason = "the agent could not propose: it found no fresh input"
		case short:
			// Fewer inputs are every fresh one the agent can find: the
			// batch takes them.
			reason = ValidateProposal(res.Inputs, len(res.Inputs), observed, domain)
		default:
			reason = ValidateProposal(res.Inputs, n, observed, domain)
		}
		var exs []task.Example
		if reason == "" {
			answers, err := e.deps.Oracle.Query(ctx, res.Inputs)
			if err != nil {
				return nil, nil, false, fmt.Errorf("query hidden program (batch %d): %w", batch, err)
			}
			for i, a := range answers {
				if a.Invalid == "" {
					exs = append(exs, task.Example{Input: res.Inputs[i], Output: a.Output, Source: source})
					continue
				}
				e.noteInvalid(res.Inputs[i])
				if reason == "" {
					reason = fmt.Sprintf("oracle-rejected: the hidden program rejected input %d (%s): %s", i+1, task.MustCanonical(res.Inputs[i]), a.Invalid)
				}
			}
		}
		if reason == "" {
			if short {
				e.progress("batch %d: the agent found %s of the %d asked, every fresh one it can: the batch takes them", batch, inputsCount(len(exs)), n)
			}
			rep := e.rivalsOf(res.Inputs)
			return exs, rep, true, e.event(ctx, EventProposalAccepted, e.st.Iteration, ProposalAccepted{Batch: batch, Attempt: attempt, Inputs: res.Inputs, AllLeft: short, Rivals: rep})
		}
		e.log.Info("proposal rejected", zap.String("reason", reason), zap.Int("attempt", attempt))
		e.progress("batch %d: proposal %d of %d rejected: %s", batch, attempt, tries, firstLineOf(reason, 300))
		if err := e.event(ctx, EventProposalRejected, e.st.Iteration, ProposalRejected{Batch: batch, Attempt: attempt, Reason: reason, Inputs: loggable(res.Inputs)}); err != nil {
			return nil, nil, false, err
		}
		rejection = reason
		reasons = append(reasons, reason)
	}
	e.rejections = reasons
	return nil, nil, false, nil
}

// randomBatch draws at most n inputs from the task's generator,
// excluding every observed input and those of the batch so far (pending),
// and queries them. A generator that gives fewer than n has no more: every
// input it can make is then observed (State.GeneratorDone). One that
// gives more, repeats inputs or produces inputs the hidden program rejects
// is a mistake of the task, reported as an error naming it. draw
// separates the draws of one batch (the random share, a fallback).
func (e *engine) randomBatch(ctx context.Context, n int, observed map[string]bool, pending []task.Example, batch, draw int) ([]task.Example, error) {
	exclude := make([]json.RawMessage, 0, len(e.st.Examples)+len(pending))
	for _, ex := range append(e.examples(), pending...) {
		exclude = append(exclude, ex.Input)
	}
	seed := e.settings().Seed*1_000_003 + int64(batch) + int64(draw)*7_919_000_003
	name := e.deps.Random.Name()
	inputs, err := e.deps.Random.Generate(ctx, n, exclude, seed)
	if err != nil {
		return nil, fmt.Errorf("random_inputs generator (batch %d): %w", batch, err)
	}
	if len(inputs) > n {
		return nil, fmt.Errorf("%w: the generator %s returned %d inputs when asked for %d (batch %d): %s", oracle.ErrTask, name, len(inputs), n, batch, generatorContract)
	}
	if reason := ValidateProposal(inputs, len(inputs), observed, nil); reason != "" {
		return nil, fmt.Errorf("%w: the generator %s returned inputs that are not fresh (batch %d): %s; %s", oracle.ErrTask, name, batch, reason, generatorContract)
	}
	if len(inputs) < n {
		e.st.GeneratorDone = true
		e.progress("batch %d: the generator gave %s of the %d asked: it has no more", batch, inputsCount(len(inputs)), n)
	}
	if len(inputs) == 0 {
		return nil, nil
	}
	answers, err := e.deps.Oracle.Query(ctx, inputs)
	if err != nil {
		return nil, fmt.Errorf("query hidden program (random batch %d): %w", batch, err)
	}
	exs := make([]task.Example, len(inputs))
	for i, a := range answers {
		if a.Invalid != "" {
			return nil, fmt.Errorf("%w: the generator %s produced input %s that the hidden program rejects (batch %d): %s", oracle.ErrTask, name, task.MustCanonical(inputs[i]), batch, a.Invalid)
		}
		exs[i] = task.Example{Input: inputs[i], Output: a.Output, Source: task.SourceRandom}
	}
	return exs, nil
}

// generatorContract is what a task's generator must do, for its errors.
const generatorContract = "generate(k, exclude, rng) must return at most k valid inputs, none of them in exclude nor repeated (fewer only when no more exist)"

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
