package workflow

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/internal/atomicfile"
	"github.com/reconstruct/reconstruct/task"
)

// iterate runs one agent session, judges its candidate and carries out
// what the rules (Decide) make of it.
func (e *engine) iterate(ctx context.Context) (string, error) {
	e.st.Iteration++
	it := e.st.Iteration
	if err := e.event(ctx, EventIterationStarted, it, IterationStarted{Known: len(e.st.Examples)}); err != nil {
		return "", err
	}
	wres, messages, err := e.session(ctx, it)
	if err != nil {
		return "", err
	}
	source, rerr := e.candidateOf(wres)
	if rerr != nil {
		source = nil
		messages = append(messages, rerr.Error())
	}
	ev, err := e.evaluate(ctx, string(source), e.st.Examples)
	if err != nil {
		return "", fmt.Errorf("evaluate candidate iter_%03d: %w", it, err)
	}
	memorised := e.embedded(ev.Analysis)
	rec, err := e.archive(ctx, it, source, ev, len(memorised), wres)
	if err != nil {
		return "", err
	}
	uncovered := task.Uncovered(e.spec.Task.Kind, e.spec.Task.Domain, e.st.inputs())
	left, account := e.searchLeft()
	rivals, rivalsWhy := e.rivalCheck(rec.SHA256)
	v := Verdict{
		FullPass: ev.FullPass(), Memorised: len(memorised), Complexity: ev.Analysis.Complexity,
		Uncovered: uncovered, Tokens: e.st.Tokens.Total(),
		Repeated:   rec.SHA256 == e.st.LastCandidate && ev.Total == e.st.LastKnown,
		SearchLeft: left, Rivals: rivals, Exhausted: e.exhausted(),
	}
	d := Decide(e.st.counters(), v, e.settings())
	var outrankedWhy string
	if d.Stop == StopEarly && e.settings().SelectionGate {
		// Only a pass that would end the run is worth the re-scoring.
		if outrankedWhy, err = e.outranked(ctx, rec, ev); err != nil {
			return "", err
		}
		if v.Outranked = outrankedWhy != ""; v.Outranked {
			d = Decide(e.st.counters(), v, e.settings())
		}
	}
	e.st.setCounters(d.Counters)
	e.st.StallDetail = ""
	if d.Counters.Stalled > 0 {
		e.st.StallDetail = account
	}
	e.st.LastCandidate, e.st.LastKnown = rec.SHA256, ev.Total
	ir := IterationRecord{Iteration: it, Judged: ev.judged(), Promoted: d.Promoted, Counted: d.Counted, Gate: d.Gate,
		Uncovered: nonNil(uncovered), Memorised: nonNilRaw(memorised), Tokens: wres.Usage, Candidate: rec.File}
	if d.Counters.Stalled > 0 {
		ir.Repeats = it - d.Counters.Stalled
	}
	if err := e.decisionEvents(ctx, it, d, ev, len(memorised), rivalsWhy, outrankedWhy); err != nil {
		return "", err
	}
	if d.Outranked {
		messages = append(messages, outrankedWhy+": the run cannot stop on this candidate. Write a program that passes every example with a better stage score (fewer literals that are observed values, a simpler program).")
	}
	e.st.Feedback = e.nextFeedback(it, ev, d, messages, memorised)
	e.commitRecord(ir)
	if d.Stop != "" {
		return d.Stop, nil
	}
	if d.Batch {
		added, ok, err := e.acquire(ctx, e.st.LastBatch+e.settings().BatchStep, task.SourceAgent)
		if err != nil {
			return "", err
		}
		if !ok {
			return StopProposerFailed, nil
		}
		if added == 0 && e.exhausted() {
			// The batch found nothing left: the candidate that earned it
			// already passed every valid input.
			return StopExhausted, nil
		}
	}
	return "", e.event(ctx, EventIterationFinished, it, IterationFinished{e.checkpoint()})
}

// candidateOf is the session's candidate: the program the agent handed
// over in memory (written to candidate.py for whoever watches the
// workspace), or candidate.py as the agent left it.
func (e *engine) candidateOf(wres agent.WriteResult) ([]byte, error) {
	if wres.Program == nil {
		return readCandidate(e.spec.Workspace)
	}
	if len(wres.Program) > MaxCandidateBytes {
		return nil, fmt.Errorf("the program handed over has %d bytes, more than the %d allowed", len(wres.Program), MaxCandidateBytes)
	}
	if err := atomicfile.Write(filepath.Join(e.spec.Workspace, agent.CandidateFile), wres.Program, 0o644); err != nil {
		e.log.Warn("candidate.py not written in the workspace (the program handed over is judged all the same)", zap.Error(err))
	}
	return wres.Program, nil
}

// session puts the previous candidate back in the workspace and runs one
// agent session on it. The agent's own failure is a session that left
// what it left, its error among the messages of the next feedback.
func (e *engine) session(ctx context.Context, it int) (agent.WriteResult, []string, error) {
	if err := e.restoreCandidate(); err != nil {
		return agent.WriteResult{}, nil, err
	}
	e.st.AgentWrites++
	req := agent.WriteRequest{
		Task: e.spec.Task, Iteration: it, Examples: e.examples(),
		Feedback: e.st.Feedback, Workspace: e.spec.Workspace,
	}
	wres, err := callAgent(ctx, func(ctx context.Context) (agent.WriteResult, error) {
		return e.deps.Agent.Write(ctx, req)
	}, e.final.restore)
	mistake, err := agentOutcome(ctx, err)
	if err != nil {
		return wres, nil, fmt.Errorf("agent session %d: %w", it, err)
	}
	var messages []string
	if mistake != "" {
		e.log.Info("agent session failed", zap.Int("iteration", it), zap.String("error", mistake))
		messages = append(messages, "the session ended with an error: "+mistake)
		wres = agent.WriteResult{Notes: "session failed: " + mistake}
	}
	e.st.Tokens = e.st.Tokens.Add(wres.Usage)
	return wres, messages, e.event(ctx, EventTokens, it, Tokens{Phase: "write", Usage: wres.Usage, Total: e.st.Tokens})
}

// restoreCandidate makes candidate.py the program this run's previous
// iteration archived (none before the first, or when that session wrote
// nothing): each session starts from the program the agent wrote last,
// whatever happened to the file since (a resumed run, a final program
// written by an earlier run).
func (e *engine) restoreCandidate() error {
	path := filepath.Join(e.spec.Workspace, agent.CandidateFile)
	var src []byte
	if n := len(e.st.Archived); n > 0 {
		var err error
		if src, err = e.deps.Archive.Source(e.st.Archived[n-1]); err != nil {
			return fmt.Errorf("restore the previous candidate: %w", err)
		}
	}
	if len(src) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("clear candidate.py: %w", err)
		}
		return nil
	}
	if err := atomicfile.Write(path, src, 0o644); err != nil {
		return fmt.Errorf("restore the previous candidate: %w", err)
	}
	return nil
}

// archive keeps the iteration's candidate and records it.
func (e *engine) archive(ctx context.Context, it int, source []byte, ev Evaluation, memorised int, wres agent.WriteResult) (candidates.Record, error) {
	rec, err := e.deps.Archive.Add(candidates.Record{
		RunID: e.spec.RunID, Iteration: it, Passed: ev.Passed, Known: ev.Total,
		Accuracy: ev.Accuracy(), Score: ev.Score(), Complexity: ev.Analysis.Complexity,
		Hardcoding: ev.Analysis.Hardcoding, Memorised: memorised, Tokens: wres.Usage, Notes: wres.Notes,
	}, source, wres.Transcript)
	if err != nil {
		return rec, err
	}
	e.st.Archived = append(e.st.Archived, rec)
	return rec, e.event(ctx, EventCandidateArchived, it, CandidateArchived{
		File: rec.File, SHA256: rec.SHA256, Judged: ev.judged(), Memorised: memorised, Notes: wres.Notes, SameAs: rec.SameAs,
	})
}

// decisionEvents records what the gates decided and the promotion;
// rivalsWhy is why the rivals gate held it (rivalCheck), outrankedWhy why
// the selection gate did (outranked).
func (e *engine) decisionEvents(ctx context.Context, it int, d Decision, ev Evaluation, memorised int, rivalsWhy, outrankedWhy string) error {
	var gates []Gate
	switch {
	case d.GateDecision == "rewrite":
		gates = append(gates, Gate{Gate: "memorisation", Decision: "rewrite", Embedded: memorised, Request: d.Counters.MemoRewrites})
	case d.GrantedAnyway:
		gates = append(gates, Gate{Gate: "memorisation", Decision: "granted_anyway"})
	}
	switch d.Gate {
	case "complexity":
		gates = append(gates, Gate{Gate: "complexity", Decision: d.GateDecision, Complexity: ev.Analysis.Complexity, Strike: d.Counters.ComplexityStrikes})
	case "coverage":
		gates = append(gates, Gate{Gate: "coverage", Decision: d.GateDecision, Missing: d.Missing})
	}
	if d.Unverified {
		gates = append(gates, Gate{Gate: "rivals", Decision: "not_counted", Candidate: e.st.LastCandidate, Reason: rivalsWhy})
	}
	if d.Outranked {
		gates = append(gates, Gate{Gate: "selection", Decision: "not_counted", Candidate: e.st.LastCandidate, Reason: outrankedWhy})
	}
	for _, g := range gates {
		if err := e.event(ctx, EventGate, it, g); err != nil {
			return err
		}
	}
	if !d.Promoted {
		return nil
	}
	return e.event(ctx, EventPromotion, it, Promotion{Counted: d.Counted, Consecutive: d.Counters.Consecutive, Promotions: d.Counters.Promotions})
}

// nextFeedback is what the next session is told of this one's candidate:
// its failures, or the gate's request; the batch it earned adds its own
// message once granted (grant).
func (e *engine) nextFeedback(it int, ev Evaluation, d Decision, messages []string, memorised []jsonRaw) *agent.Feedback {
	shown := make([]string, len(memorised))
	for i, m := range memorised {
		shown[i] = task.MustCanonical(m)
	}
	notes := d.Messages(shown, ev.Analysis.Complexity)
	if !d.Batch {
		return e.feedback(it, ev, append(messages, notes...))
	}
	return &agent.Feedback{Iteration: it, Passed: ev.Passed, Total: ev.Total, Messages: notes}
}
