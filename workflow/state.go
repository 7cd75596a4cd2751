package workflow

import (
	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/task"
)

// State is everything a run has learnt so far. It is plain data so that a
// run can be resumed from a recorded copy.
type State struct {
	// Examples are kept out of checkpoints: each batch_granted event holds
	// its own examples.
	Examples    []task.Example `json:"examples,omitempty"`
	InitialDone bool           `json:"initial_done"`
	Iteration   int            `json:"iteration"`
	Consecutive int            `json:"consecutive"`
	Promotions  int            `json:"promotions"`
	LastBatch   int            `json:"last_batch"`
	Batches     int            `json:"batches"`
	Tokens      task.Usage     `json:"tokens"`
	RandomCount int            `json:"random_count"`
	// CoverageKey is the missing-category set the last batches were granted
	// on, CoverageBatches how many in a row.
	CoverageKey       string              `json:"coverage_key"`
	CoverageBatches   int                 `json:"coverage_batches"`
	MemoRewrites      int                 `json:"memo_rewrites"`
	ComplexityStrikes int                 `json:"complexity_strikes"`
	Feedback          *agent.Feedback     `json:"feedback,omitempty"`
	Records           []IterationRecord   `json:"records"`
	Archived          []candidates.Record `json:"archived"`
	Seq               int                 `json:"seq"`
	// AgentWrites and AgentProposes count the agent's calls, so a resumed
	// run can tell a replaying agent where it was.
	AgentWrites   int `json:"agent_writes"`
	AgentProposes int `json:"agent_proposes"`
	// Fallbacks counts batches drawn from random_inputs after every
	// proposal attempt failed.
	Fallbacks int `json:"fallbacks,omitempty"`
	// LastCandidate and LastKnown are the previous session's candidate
	// (sha256) and the examples it saw; Stalled counts the sessions in a
	// row that repeated them.
	LastCandidate string `json:"last_candidate,omitempty"`
	LastKnown     int    `json:"last_known,omitempty"`
	Stalled       int    `json:"stalled,omitempty"`
	// RivalsFor is the candidate (sha256) whose rivals the last batch's
	// proposal was chosen to split (RivalSearcher agents; "" for none,
	// rivalsRandomBatch after a batch the agent had no part in), and
	// RivalsWhy, when that batch cannot verify it, why not (rivalCheck).
	RivalsFor string `json:"rivals_for,omitempty"`
	RivalsWhy string `json:"rivals_why,omitempty"`
	// StallDetail is the agent's account of its search when the last
	// session repeated the one before with nothing left to try.
	StallDetail string `json:"stall_detail,omitempty"`
	// Invalid are the inputs of the task's finite domain the hidden
	// program rejected (canonical JSON): they are not among those left.
	Invalid []string `json:"invalid,omitempty"`
	// GeneratorDone: the generator gave fewer inputs than asked, so every
	// input it can make has been observed; it is not asked again.
	GeneratorDone bool `json:"generator_done,omitempty"`
}

func (s *State) inputs() []jsonRaw {
	out := make([]jsonRaw, len(s.Examples))
	for i, e := range s.Examples {
		out[i] = e.Input
	}
	return out
}

// counters are the state's counters that the rules of an iteration read.
func (s *State) counters() Counters {
	return Counters{Consecutive: s.Consecutive, Promotions: s.Promotions, MemoRewrites: s.MemoRewrites,
		ComplexityStrikes: s.ComplexityStrikes, CoverageKey: s.CoverageKey, CoverageBatches: s.CoverageBatches, Stalled: s.Stalled}
}

// setCounters stores the counters an iteration's decision left.
func (s *State) setCounters(c Counters) {
	s.Consecutive, s.Promotions, s.MemoRewrites, s.ComplexityStrikes = c.Consecutive, c.Promotions, c.MemoRewrites, c.ComplexityStrikes
	s.CoverageKey, s.CoverageBatches, s.Stalled = c.CoverageKey, c.CoverageBatches, c.Stalled
}
