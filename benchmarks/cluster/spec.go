package cluster

import (
	"time"

	"github.com/reconstruct/reconstruct/benchmarks"
)

// Names the workers register and the clients use; they are the contract
// between machines running different builds, so they never change.
const (
	WorkflowName = "reconstruct.sweep"
	ActivityName = "reconstruct.task"
	// EngineName is the summary's engine field for a sweep on a cluster.
	EngineName = "temporal"
)

// Error types of a failed task attempt. A task error (bad configuration, a
// task that cannot run: exit 2 for a single run) is not retried; an
// infrastructure error is, up to Retry.MaxAttempts; a task handed back by a
// stopping worker is retried like an infrastructure error.
const (
	ErrTask     = "TaskError"
	ErrInfra    = "InfrastructureError"
	ErrHandBack = "HandedBack"
)

// Spec is a submitted sweep: the workflow's input. Everything a worker
// needs travels in it or in the bank (the task directories as trees), so
// that the machines share no file system.
type Spec struct {
	// ID is the sweep's id, the Temporal workflow id.
	ID string `json:"id"`
	// TasksDir, Config and Filter are as given on the submitting machine
	// (for the summary).
	TasksDir string `json:"tasks_dir"`
	Config   string `json:"config,omitempty"`
	Filter   string `json:"filter,omitempty"`
	Repeat   int    `json:"repeat"`
	// Base is the blob of the base configuration applied over every
	// task.yaml ("" for none).
	Base string `json:"base,omitempty"`
	// Env holds the RECONSTRUCT_* settings of the submitting machine that
	// describe the experiment (workflow.* and agent.*); a worker's own
	// environment supplies the rest (sandbox, bank).
	Env  map[string]string `json:"env,omitempty"`
	Jobs []Job             `json:"jobs"`
	// Previous are the tasks an earlier sweep into the same output
	// directory finished; they are not run again.
	Previous []benchmarks.TaskResult `json:"previous,omitempty"`
	Retry    Retry                   `json:"retry"`
}

// Retry bounds a task's attempts.
type Retry struct {
	MaxAttempts      int           `json:"max_attempts"`
	HeartbeatTimeout time.Duration `json:"heartbeat_timeout"`
	TaskTimeout      time.Duration `json:"task_timeout"`
}

// Job is one (task, repeat) of a sweep: one activity.
type Job struct {
	// ID is the task's directory name, with "#r<k>" for repeats after the
	// first (as the local engine names them).
	ID     string `json:"id"`
	Task   string `json:"task"`
	Repeat int    `json:"repeat"`
	// RunID is the run's id in the bank, fixed at submission so that any
	// worker finds the run an earlier attempt started.
	RunID string `json:"run_id"`
	// Tree is the task directory without its held-out tests; Heldout is
	// the blob of the held-out tests, fetched by the scoring step only.
	Tree    string `json:"tree"`
	Heldout string `json:"heldout"`
	// ConfigSHA256 identifies the task's settings as the submitting
	// machine loaded them (benchmarks.SettingsHash), for the task's record;
	// TaskSHA256 and TaskFiles its files (benchmarks.TaskFiles), and Rerun
	// why a task the output directory held a result of runs again.
	ConfigSHA256 string            `json:"config_sha256,omitempty"`
	TaskSHA256   string            `json:"task_sha256,omitempty"`
	TaskFiles    map[string]string `json:"task_files,omitempty"`
	Rerun        string            `json:"rerun,omitempty"`
}

// TaskInput is one activity's input.
type TaskInput struct {
	Sweep string            `json:"sweep"`
	Job   Job               `json:"job"`
	Base  string            `json:"base,omitempty"`
	Env   map[string]string `json:"env,omitempty"`
}

// Outcome is one finished task: its summary record and how the cluster ran
// it.
type Outcome struct {
	Result benchmarks.TaskResult `json:"result"`
	// Worker is the identity of the worker that finished the task.
	Worker  string `json:"worker,omitempty"`
	Attempt int    `json:"attempt"`
	// Resumed is set when this attempt continued a run an earlier attempt
	// had started.
	Resumed bool `json:"resumed,omitempty"`
	// Archive is the blob of the run's workspace bundle in the bank
	// (runner.RunArchive).
	Archive string `json:"archive,omitempty"`
	// Timing of the attempt that finished the task, in seconds: waiting in
	// the queue, fetching the task, running (storing the workspace
	// included), scoring.
	Timing Timing `json:"timing"`
	// Started and Finished bound that attempt.
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
}

// Timing splits an attempt's time.
type Timing struct {
	Queued float64 `json:"queued"`
	Fetch  float64 `json:"fetch"`
	Run    float64 `json:"run"`
	Score  float64 `json:"score"`
}

// Finish is the workflow's result. The tasks' outcomes are not in it (a
// big sweep's would outgrow a Temporal payload): each is an event of the
// workflow's history, which Follow reads.
type Finish struct {
	// Cancelled is set when the sweep was cancelled: the tasks that had
	// not finished are missing, and a new sweep into the same output
	// directory runs them.
	Cancelled bool `json:"cancelled,omitempty"`
}

// Report is a sweep as its workflow history tells it.
type Report struct {
	Spec Spec `json:"spec"`
	// Outcomes in the order the tasks finished (Spec.Previous not
	// included).
	Outcomes  []Outcome `json:"outcomes"`
	Cancelled bool      `json:"cancelled,omitempty"`
	Started   time.Time `json:"started"`
	Finished  time.Time `json:"finished"`
}

// Heartbeat is a running task's last reported position.
type Heartbeat struct {
	RunID     string `json:"run_id,omitempty"`
	Phase     string `json:"phase"`
	Iteration int    `json:"iteration,omitempty"`
	Worker    string `json:"worker,omitempty"`
}
