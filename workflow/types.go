package workflow

import (
	"context"
	"encoding/json"
	"time"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/internal/stamp"
	"github.com/reconstruct/reconstruct/oracle"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

// Stop reasons of docs/workflow.md, plus the two ways a run ends abnormally.
const (
	StopEarly          = "early_stop"
	StopMaxIterations  = "max_iterations"
	StopProposerFailed = "proposer_failed"
	StopBudget         = "budget_exhausted"
	// StopCancelled: the user interrupted the run; everything so far is written.
	StopCancelled = "cancelled"
	// StopError: an infrastructure failure ended the run (Result.Error says which).
	StopError = "error"
	// StopStalled: Settings.StallLimit consecutive sessions changed nothing
	// (the same candidate on the same examples); an extension of the spec.
	StopStalled = "stalled"
	// StopExhausted: every valid input of the task's finite domain was
	// observed and the candidate passed them all: nothing is left to ask,
	// and the program is verified on the whole domain.
	StopExhausted = "exhausted"
)

// Resumable reports whether a run that stopped for reason can be continued
// with resume: one interrupted (cancelled) or ended by an infrastructure
// failure can; one that reached a stop of the protocol cannot.
func Resumable(reason string) bool {
	return reason == StopCancelled || reason == StopError
}

// Values of Settings.ProposalFallback.
const (
	// FallbackRandom fills a batch whose every proposal attempt failed from
	// the task's random_inputs generator (the default).
	FallbackRandom = "random"
	// FallbackStop ends the run with proposer_failed instead.
	FallbackStop = "stop"
)

// Defaults of the workflow section (docs/workflow.md's, all disciplines off,
// with this implementation's extensions at theirs). The configuration's
// key table takes its defaults from here.
const (
	DefaultInitialBatch    = 2
	DefaultBatchStep       = 2
	DefaultEarlyStop       = 5
	DefaultMaxIterations   = 50
	DefaultProposeAttempts = 3
	DefaultMaxFailures     = 5
	DefaultSeed            = 1
	// DefaultStallLimit is how many consecutive sessions that change
	// nothing end a run (stop reason stalled); 0 turns the check off.
	DefaultStallLimit = 5
	// DefaultSelectionGate: a run never claims early_stop for a final
	// program that fails an observed example.
	DefaultSelectionGate = true
	// DefaultProposalFallback fills a batch from the task's random_inputs
	// generator when every proposal attempt failed.
	DefaultProposalFallback = FallbackRandom
)

// Defaults of a task with an input generator (task.random_inputs, or a
// factory's random_inputs): half of every batch drawn at random and the
// coverage gate on. Measured on task sets of this kind, these two settings
// remove the early stops on programs that are wrong on held-out tests
// (docs/workflow.md, "Defaults"). Without a generator, random_share is 0
// and the gate off (DefaultSettings).
const (
	GeneratorRandomShare  = 0.5
	GeneratorCoverageGate = true
)

// Settings are the workflow section of a run configuration: the
// configuration decodes its workflow section straight into this struct
// (config.Config.Workflow), and a run's run_started event records it.
type Settings struct {
	InitialBatch  int `mapstructure:"initial_batch" json:"initial_batch"`
	BatchStep     int `mapstructure:"batch_step" json:"batch_step"`
	EarlyStop     int `mapstructure:"early_stop" json:"early_stop"`
	MaxIterations int `mapstructure:"max_iterations" json:"max_iterations"`
	// ProposeAttempts is how many times a rejected proposal is asked
	// again: a batch gets 1 + ProposeAttempts tries (Tries).
	ProposeAttempts  int     `mapstructure:"propose_attempts" json:"propose_attempts"`
	RandomShare      float64 `mapstructure:"random_share" json:"random_share"`
	CoverageGate     bool    `mapstructure:"coverage_gate" json:"coverage_gate"`
	MemorisationGate bool    `mapstructure:"memorisation_gate" json:"memorisation_gate"`
	ComplexityGate   bool    `mapstructure:"complexity_gate" json:"complexity_gate"`
	DomainCheck      bool    `mapstructure:"domain_check" json:"domain_check"`
	// SelectionGate holds an early stop whose final program would be an
	// earlier candidate failing observed examples (Decide). Omitted when
	// off, as in the journals written before the gate existed.
	SelectionGate bool `mapstructure:"selection_gate" json:"selection_gate,omitempty"`
	// TokenBudget is the most prompt plus completion tokens a run may
	// spend; 0 means no limit.
	TokenBudget int     `mapstructure:"token_budget" json:"token_budget"`
	Atol        float64 `mapstructure:"atol" json:"atol"`
	MaxFailures int     `mapstructure:"max_failures" json:"max_failures"`
	Seed        int64   `mapstructure:"seed" json:"seed"`
	// ProposalFallback is FallbackRandom (also when empty) or FallbackStop.
	ProposalFallback string `mapstructure:"proposal_fallback" json:"proposal_fallback,omitempty"`
	// StallLimit ends the run (stalled) after this many consecutive
	// sessions that change nothing; 0 never does.
	StallLimit int `mapstructure:"stall_limit" json:"stall_limit"`
}

// Tries is how many proposals a batch may get: the first, and one more
// for each of the ProposeAttempts retries of a rejected one.
func (s Settings) Tries() int { return 1 + max(0, s.ProposeAttempts) }

// DefaultSettings are the Default… constants as Settings.
func DefaultSettings() Settings {
	return Settings{InitialBatch: DefaultInitialBatch, BatchStep: DefaultBatchStep,
		EarlyStop: DefaultEarlyStop, MaxIterations: DefaultMaxIterations,
		ProposeAttempts: DefaultProposeAttempts, Atol: task.DefaultAtol,
		MaxFailures: DefaultMaxFailures, Seed: DefaultSeed,
		ProposalFallback: DefaultProposalFallback, StallLimit: DefaultStallLimit,
		SelectionGate: DefaultSelectionGate}
}

// Evaluator runs and analyses candidates (the agent's sandbox).
type Evaluator interface {
	Call(ctx context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error)
	Analyse(ctx context.Context, req sandbox.AnalyseRequest) (sandbox.Analysis, error)
}

// Hook is a task's own evaluation of candidates (a bound task's
// evaluate). It is never authoritative: a candidate passes an example only
// when its own evaluation in the evaluator's sandbox passes it and the
// hook's outcome agrees; a disagreement fails the example. A hook that
// fails leaves the candidate's own evaluation standing.
type Hook interface {
	Evaluate(ctx context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error)
}

// InputSource is the task's random_inputs generator, independent of the agent.
type InputSource interface {
	// Generate returns at most k inputs, none in exclude nor repeated:
	// fewer only when no more exist, which tells the run that every input
	// the generator can make has been observed.
	Generate(ctx context.Context, k int, exclude []json.RawMessage, seed int64) ([]json.RawMessage, error)
	// Name names the generator in errors (its file, or its factory).
	Name() string
}

// Domain knows a task's valid inputs when they are few enough to list (an
// integer within task.domain, say, or what a description bounds in every
// part). The run consults it once, when it starts: a batch then takes
// every input left when no more are left than it asks for, and a run
// whose every valid input was observed ends with stop reason exhausted.
type Domain interface {
	// Inputs lists every valid input of the task when they are known to
	// be at most max, and says where that is known from (task.domain,
	// task.input_constraints); ok is false when they may be more.
	Inputs(max int) (inputs []json.RawMessage, from string, ok bool)
}

// DomainLimit is the most inputs a run asks a Domain to list: a domain
// larger than that could not be exhausted within a run's iterations
// anyway (50 batches growing by 2 hold 2,550 inputs).
const DomainLimit = 10_000

// Archive keeps every candidate (candidates.Archive).
type Archive interface {
	Add(rec candidates.Record, source, transcript []byte) (candidates.Record, error)
	Source(rec candidates.Record) ([]byte, error)
}

// Recorder receives every observed example and every event the moment they
// happen (the workspace files, the bank).
type Recorder interface {
	RecordExamples(ctx context.Context, runID string, examples []task.Example) error
	RecordEvent(ctx context.Context, ev Event) error
}

// Deps are what a run talks to.
type Deps struct {
	Agent     agent.Agent
	Oracle    oracle.Oracle
	Evaluator Evaluator
	// Random is nil when the task has no random_inputs generator.
	Random InputSource
	// Domain is nil when nothing says the task's inputs are few.
	Domain Domain
	// Hook is nil when the task has no evaluation of its own.
	Hook    Hook
	Archive Archive
	// Recorders get every example and event; a recorder error ends the run
	// (nothing may be lost silently).
	Recorders []Recorder
}

// Event is one entry of a run's journal (events.jsonl and the bank).
type Event struct {
	// Stamp names the event's format and the reconstruct that wrote it.
	stamp.Stamp
	Seq       int             `json:"seq"`
	Time      time.Time       `json:"time"`
	RunID     string          `json:"run_id"`
	Type      string          `json:"type"`
	Iteration int             `json:"iteration,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
}

// Event types.
const (
	EventRunStarted        = "run_started"
	EventRunResumed        = "run_resumed"
	EventIterationFinished = "iteration_finished"
	EventIterationStarted  = "iteration_started"
	EventCandidateArchived = "candidate_archived"
	EventPromotion         = "promotion"
	EventGate              = "gate"
	EventProposalAccepted  = "proposal_accepted"
	EventProposalRejected  = "proposal_rejected"
	EventBatchGranted      = "batch_granted"
	EventTokens            = "tokens"
	EventStop              = "stop"
	EventFinal             = "final"
	// EventRunFinished ends a run whose final selection is done: its
	// final program (if any) and result are recorded.
	EventRunFinished = "run_finished"
	// EventProposalFallback: every proposal attempt of a batch failed and
	// the batch was drawn from random_inputs instead.
	EventProposalFallback = "proposal_fallback"
)

// Judged is a candidate's evaluation on the examples of its iteration, as
// both the iteration's record and its candidate_archived event report it.
type Judged struct {
	Known      int     `json:"known"`
	Passed     int     `json:"passed"`
	Score      float64 `json:"score"`
	Complexity float64 `json:"complexity"`
	Hardcoding float64 `json:"hardcoding"`
	// Disagreements counts the examples on which the task's evaluate hook
	// and the candidate's own evaluation disagreed (each failed).
	Disagreements int `json:"hook_disagreements,omitempty"`
}

// IterationRecord is the per-iteration summary in Result.Events.
type IterationRecord struct {
	Iteration int `json:"iteration"`
	Judged
	Promoted  bool              `json:"promoted"`
	Counted   bool              `json:"counted"`
	Gate      string            `json:"gate,omitempty"`
	Uncovered []string          `json:"uncovered"`
	Memorised []json.RawMessage `json:"memorised"`
	Tokens    task.Usage        `json:"tokens"`
	Candidate string            `json:"candidate"`
	// Repeats is the iteration whose candidate this session returned
	// again on the same examples (a session that changed nothing), or 0.
	Repeats int `json:"repeats,omitempty"`
}

// Result is what a run produced (docs/workflow.md, Result).
type Result struct {
	// Stamp names result.json's format (Format) and the reconstruct that
	// wrote it.
	stamp.Stamp
	RunID      string `json:"run_id"`
	Task       string `json:"task"`
	StopReason string `json:"stop_reason"`
	// StopDetail is the agent's account of a stall (Searcher agents): what
	// its search tried and what ended it.
	StopDetail    string `json:"stop_detail,omitempty"`
	Error         string `json:"error,omitempty"`
	Iterations    int    `json:"iterations"`
	Promotions    int    `json:"promotions"`
	KnownExamples int    `json:"known_examples"`
	RandomInputs  int    `json:"random_inputs"`
	// ProposalFallbacks counts the batches drawn from random_inputs because
	// every proposal attempt failed (their inputs count in RandomInputs).
	ProposalFallbacks int `json:"proposal_fallbacks"`
	// Rejections are the reasons of the last failed proposal attempts when
	// the run ended with proposer_failed.
	Rejections     []string          `json:"rejections,omitempty"`
	Examples       []task.Example    `json:"-"`
	Events         []IterationRecord `json:"events"`
	FinalProgram   string            `json:"final_program"`
	FinalCandidate string            `json:"final_candidate,omitempty"`
	FinalIteration int               `json:"final_iteration,omitempty"`
	FinalScore     float64           `json:"final_score"`
	FinalAccuracy  float64           `json:"final_accuracy"`
	// FinalKnown is how many examples FinalScore and FinalAccuracy were
	// measured on: KnownExamples, unless the sandbox could not re-score the
	// archive at the end and the archived evaluation was used.
	FinalKnown int `json:"final_known"`
	// VerifiedExhaustively: the run ended exhausted and its final program
	// passes every observed example, which are every valid input of the
	// task's finite domain: it is right on the whole domain.
	VerifiedExhaustively bool `json:"verified_exhaustively"`
	// Domain is what the run knew of its task's finite domain; nil when
	// its inputs were not known to be few.
	Domain                 *FiniteDomain `json:"domain,omitempty"`
	CoverageUncoveredAtEnd []string      `json:"coverage_uncovered_at_end"`
	Tokens                 task.Usage    `json:"tokens"`
	Settings               Settings      `json:"settings"`
	// Origins says where the settings whose default depends on the task
	// (random_share, coverage_gate) came from, by key
	// (workflow.random_share): "default", "default for a task with a
	// generator", a file, an environment variable or a flag.
	Origins     map[string]string `json:"origins,omitempty"`
	Workspace   string            `json:"workspace"`
	StartedAt   time.Time         `json:"started_at"`
	FinishedAt  time.Time         `json:"finished_at"`
	WallSeconds float64           `json:"wall_seconds"`
}

// DomainFromGenerator is FiniteDomain.From for a domain known from the
// task's generator: it gave fewer inputs than asked, having no more.
const DomainFromGenerator = "random_inputs"

// FiniteDomain is what a run knew of its task's finite domain.
type FiniteDomain struct {
	// From says how the domain is known: task.domain, the description
	// (task.input_constraints), or random_inputs (the generator gave
	// fewer inputs than asked: it had no more).
	From string `json:"from"`
	// Inputs counts its valid inputs: those listed but the ones the hidden
	// program rejected (for random_inputs, the inputs observed).
	Inputs int `json:"inputs"`
	// Left counts those not observed yet; 0 once the domain is exhausted.
	Left int `json:"left"`
	// Rejected counts the listed inputs the hidden program rejected.
	Rejected int `json:"rejected,omitempty"`
}

// MarshalJSON writes examples as [input, output, source] triples.
func (r Result) MarshalJSON() ([]byte, error) {
	type plain Result
	ex := make([][3]any, len(r.Examples))
	for i, e := range r.Examples {
		ex[i] = [3]any{e.Input, e.Output, e.Source}
	}
	return json.Marshal(struct {
		plain
		Examples [][3]any `json:"examples"`
	}{plain(r), ex})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *Result) UnmarshalJSON(data []byte) error {
	type plain Result
	var aux struct {
		plain
		Examples [][3]json.RawMessage `json:"examples"`
	}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*r = Result(aux.plain)
	r.Examples = make([]task.Example, len(aux.Examples))
	for i, t := range aux.Examples {
		var src task.Source
		if err := json.Unmarshal(t[2], &src); err != nil {
			return err
		}
		r.Examples[i] = task.Example{Input: t[0], Output: t[1], Source: src}
	}
	return nil
}
