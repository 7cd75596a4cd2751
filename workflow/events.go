package workflow

import (
	"encoding/json"
	"fmt"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"
)

// Format is the major version of the formats this build writes and reads
// of the journal (every events.jsonl line, checkpoints included) and of
// result.json. Records written before formats were stamped are format 1.
const Format = 1

// The data of each event type, one struct each. An event written by an
// earlier build decodes into them: fields are only ever added.

// RunStarted is the data of a run_started event.
type RunStarted struct {
	Task     task.Task `json:"task"`
	Settings Settings  `json:"settings"`
	// Config is the run's whole configuration as the runner recorded it
	// (a config.Config; read back by config.Recorded).
	Config json.RawMessage `json:"config,omitempty"`
	// BankWorkspace is the run's workspace in the bank.
	BankWorkspace string `json:"bank_workspace,omitempty"`
	// ForkedFrom is the run id a fork started from.
	ForkedFrom string `json:"forked_from,omitempty"`
	// State and Examples are a fork's starting point (its inherited
	// examples), so that the run can be shown and resumed from its own
	// journal.
	State    *State         `json:"state,omitempty"`
	Examples []task.Example `json:"examples,omitempty"`
}

// RunResumed is the data of a run_resumed event.
type RunResumed struct {
	Known     int `json:"known"`
	Iteration int `json:"iteration"`
}

// IterationStarted is the data of an iteration_started event.
type IterationStarted struct {
	Known int `json:"known"`
}

// Tokens is the data of a tokens event: one call's usage and the run's total.
type Tokens struct {
	// Phase is "write" (a session) or "propose".
	Phase string     `json:"phase"`
	Usage task.Usage `json:"usage"`
	Total task.Usage `json:"total"`
}

// CandidateArchived is the data of a candidate_archived event.
type CandidateArchived struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
	Judged
	Memorised int    `json:"memorised"`
	Notes     string `json:"notes"`
	// SameAs is the iteration whose identical program the archive kept.
	SameAs int `json:"same_as,omitempty"`
}

// Gate is the data of a gate event: which gate decided what.
type Gate struct {
	// Gate is memorisation, complexity, coverage or rivals.
	Gate     string `json:"gate"`
	Decision string `json:"decision"`
	// Embedded and Request: the memorisation gate's rewrite requests.
	Embedded int `json:"embedded,omitempty"`
	Request  int `json:"request,omitempty"`
	// Complexity and Strike: the complexity gate's.
	Complexity float64 `json:"complexity,omitempty"`
	Strike     int     `json:"strike,omitempty"`
	// Missing: the coverage categories still unobserved.
	Missing []string `json:"missing,omitempty"`
	// Candidate: the candidate (sha256) the rivals gate held, and Reason
	// why the batch it passed does not verify it.
	Candidate string `json:"candidate,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// Promotion is the data of a promotion event.
type Promotion struct {
	Counted     bool `json:"counted"`
	Consecutive int  `json:"consecutive"`
	Promotions  int  `json:"promotions"`
}

// ProposalAccepted is the data of a proposal_accepted event.
type ProposalAccepted struct {
	Batch   int               `json:"batch"`
	Attempt int               `json:"attempt"`
	Inputs  []json.RawMessage `json:"inputs"`
	// Rivals is the rival search behind the proposal (RivalSearcher
	// agents): which rivals of the candidate which inputs split.
	Rivals *agent.RivalReport `json:"rivals,omitempty"`
	// AllLeft: fewer inputs than asked, every fresh one the agent could
	// find (agent.ProposeResult.AllLeft).
	AllLeft bool `json:"all_left,omitempty"`
}

// ProposalRejected is the data of a proposal_rejected event; Inputs are
// cut to what a log can hold.
type ProposalRejected struct {
	Batch   int    `json:"batch"`
	Attempt int    `json:"attempt"`
	Reason  string `json:"reason"`
	Inputs  any    `json:"inputs"`
}

// ProposalFallback is the data of a proposal_fallback event.
type ProposalFallback struct {
	Batch int `json:"batch"`
	Size  int `json:"size"`
	// From is where the batch was drawn from: random_inputs, or the inputs
	// the task's finite domain had left (where it is known from:
	// task.domain, task.input_constraints).
	From       string   `json:"from,omitempty"`
	Rejections []string `json:"rejections"`
}

// Checkpoint is the state a checkpoint event (batch_granted,
// iteration_finished, stop) carries, without the examples: their own
// batch_granted events hold them.
type Checkpoint struct {
	State *State `json:"state"`
}

// BatchGranted is the data of a batch_granted event: the new examples and
// the state that includes them, so that a crash keeps the batch or loses
// it, never half of it.
type BatchGranted struct {
	Batch int `json:"batch"`
	// Size counts the new examples: Asked, or fewer when fewer inputs
	// were left.
	Size       int `json:"size"`
	Asked      int `json:"asked,omitempty"`
	FromAgent  int `json:"from_agent"`
	FromRandom int `json:"from_random"`
	// FromDomain counts the inputs taken as the last of the task's finite
	// domain, without a proposal.
	FromDomain int            `json:"from_domain,omitempty"`
	Known      int            `json:"known"`
	Examples   []task.Example `json:"examples"`
	Checkpoint
}

// IterationFinished is the data of an iteration_finished event.
type IterationFinished struct {
	Checkpoint
}

// Stop is the data of a stop event.
type Stop struct {
	Reason string `json:"reason"`
	// Detail is the agent's account of a stall (Searcher agents): what its
	// search tried and what ended it.
	Detail     string   `json:"detail,omitempty"`
	Error      string   `json:"error"`
	Rejections []string `json:"rejections,omitempty"`
	Checkpoint
}

// Final is the data of a final event: the program the run chose.
type Final struct {
	Candidate string  `json:"candidate"`
	Iteration int     `json:"iteration"`
	Score     float64 `json:"score"`
	Accuracy  float64 `json:"accuracy"`
	Known     int     `json:"known"`
	SHA256    string  `json:"sha256"`
	Function  string  `json:"function"`
	Source    string  `json:"source"`
}

// RunFinished is the data of a run_finished event, the last of a run
// whose final selection is done.
type RunFinished struct {
	StopReason string `json:"stop_reason"`
	// FinalCandidate is the archived file chosen ("" when the run archived
	// none).
	FinalCandidate string `json:"final_candidate,omitempty"`
}

// DecodeRunStarted decodes a run_started event: the one decoder of it that
// the runner, the runs and the candidates commands share.
func DecodeRunStarted(ev Event) (RunStarted, error) {
	var rs RunStarted
	if ev.Type != EventRunStarted {
		return rs, fmt.Errorf("event %d is %s, not %s", ev.Seq, ev.Type, EventRunStarted)
	}
	if err := json.Unmarshal(ev.Data, &rs); err != nil {
		return rs, fmt.Errorf("event %d (%s) of run %s: %w", ev.Seq, ev.Type, ev.RunID, err)
	}
	return rs, nil
}

// CheckEvents refuses a journal holding an event of a newer major format
// than this build reads; where names the journal (a file, a bank workspace).
func CheckEvents(where string, events []Event) error {
	for _, ev := range events {
		if err := ev.Stamp.Check(fmt.Sprintf("%s: event %d (%s)", where, ev.Seq, ev.Type), Format); err != nil {
			return err
		}
	}
	return nil
}
