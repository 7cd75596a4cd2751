package agent

import (
	"context"
	"encoding/json"

	"github.com/reconstruct/reconstruct/judge"
	"github.com/reconstruct/reconstruct/task"
)

// CandidateFile is the file every agent writes in its workspace.
const CandidateFile = "candidate.py"

// Feedback is what the workflow tells the agent about its previous candidate.
type Feedback struct {
	Iteration int `json:"iteration"`
	Passed    int `json:"passed"`
	Total     int `json:"total"`
	// Failures holds at most the configured number of failures.
	Failures []judge.Failure `json:"failures,omitempty"`
	// Messages are the workflow's requests: rewrite without embedded inputs,
	// a simpler program, and similar.
	Messages []string `json:"messages,omitempty"`
}

// WriteRequest starts one coding session.
type WriteRequest struct {
	Task      task.Task
	Iteration int
	// Examples is every observed example so far.
	Examples []task.Example
	// Feedback is about the previous candidate; nil in the first session.
	Feedback *Feedback
	// Workspace is the directory where candidate.py must be written.
	Workspace string
}

// WriteResult reports a session.
type WriteResult struct {
	Usage task.Usage
	// Notes explain what the agent did or tried (archived with the candidate).
	Notes string
	// Transcript is the session's record (messages, tool calls), archived
	// beside the candidate when non-empty.
	Transcript json.RawMessage
	// Program, when set, is the candidate handed over in memory by an
	// agent that runs in the orchestrator's process (the built-in
	// synthesizer): the workflow takes it instead of reading candidate.py
	// back, and writes the file itself. Agents that work on the
	// workspace's files (the LLM agent) leave it nil and write the file.
	Program []byte
}

// ProposeRequest asks for the next batch of inputs.
type ProposeRequest struct {
	Task task.Task
	// K is the exact number of inputs wanted; an agent that can find
	// fewer fresh inputs returns those it found with AllLeft.
	K        int
	Examples []task.Example
	// Missing are coverage categories the observed inputs lack (coverage gate).
	Missing []string
	// Domain, when set, is the range every number must lie in (domain check).
	Domain *task.Domain
	// Attempt counts from 1; Rejection is why the previous attempt failed.
	Attempt   int
	Rejection string
	Workspace string
}

// ProposeResult is an agent's proposal.
type ProposeResult struct {
	Inputs []json.RawMessage
	Usage  task.Usage
	// AllLeft: Inputs, fewer than asked, are every fresh input the agent
	// can find (a small domain running out); the batch takes them. Without
	// it a proposal of fewer than K inputs is rejected.
	AllLeft bool
}

// RivalReport is an agent's account of the rival search behind one
// proposal: before proposing, it looked for rivals of its candidate —
// programs that fit every observed example but disagree with the candidate
// on some valid input — and chose inputs that split them from it.
type RivalReport struct {
	// Candidate is the sha256 (hex) of the candidate.py whose rivals were
	// searched.
	Candidate string `json:"candidate"`
	// Complete: every rival found disagrees with the candidate on some
	// input of the proposal, so the examples the proposal adds rule out
	// either the candidate or every rival found.
	Complete bool `json:"complete"`
	// Rivals are the rivals found that the proposal splits from the
	// candidate, each with the inputs that split it.
	Rivals []Rival `json:"rivals,omitempty"`
	// More counts the rivals split beyond those listed in Rivals.
	More int `json:"more,omitempty"`
	// Unsplit counts the rivals found that no input of the proposal splits
	// from the candidate (the batch was too small).
	Unsplit int `json:"unsplit,omitempty"`
	// Searched counts the programs the search found consistent with every
	// example (the candidate's equals on the inputs tried among them).
	Searched int `json:"searched"`
	// Constructed counts the proposal's inputs that were built to probe
	// the candidate (relations between its arguments, the boundaries of
	// its constants, coverage categories) rather than drawn at random.
	Constructed int `json:"constructed,omitempty"`
}

// Rival is one rival of a candidate and the inputs of a proposal on which
// the two disagree.
type Rival struct {
	// Program is the rival, as the agent writes it.
	Program string `json:"program"`
	// SplitBy are the positions (from 1) of the proposal's inputs on which
	// the rival and the candidate disagree.
	SplitBy []int `json:"split_by"`
}

// Agent writes candidates and proposes inputs. An error means the agent's
// infrastructure failed (an endpoint down after retries), not that the
// candidate is wrong.
type Agent interface {
	Write(ctx context.Context, req WriteRequest) (WriteResult, error)
	Propose(ctx context.Context, req ProposeRequest) (ProposeResult, error)
}

// Resumer is implemented by agents that keep a position (the replay agent):
// a resumed run tells it how many Write and Propose calls the interrupted
// run had made.
type Resumer interface {
	Resume(writes, proposes int)
}
