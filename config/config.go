package config

import (
	"encoding/json"
	"time"

	"github.com/reconstruct/reconstruct/internal/stamp"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// Config is a whole run configuration.
type Config struct {
	Task      Task              `mapstructure:"task" json:"task"`
	Workflow  workflow.Settings `mapstructure:"workflow" json:"workflow"`
	Agent     Agent             `mapstructure:"agent" json:"agent"`
	Sandbox   Sandbox           `mapstructure:"sandbox" json:"sandbox"`
	Bank      Bank              `mapstructure:"bank" json:"bank"`
	Workspace string            `mapstructure:"workspace" json:"workspace"`
	// Cluster is read by the Temporal sweep engine and its workers only
	// (LoadCluster); a run's recorded configuration leaves it out.
	Cluster Cluster `mapstructure:"cluster" json:"-"`
	// File is the configuration file the config was loaded from.
	File string `mapstructure:"-" json:"file"`
	// Stamp is set on a configuration recorded by a run (Stamped) and read
	// back (Recorded): its format and the reconstruct that recorded it.
	Stamp stamp.Stamp `mapstructure:"-" json:"stamp"`
	// Origins says, for each key whose default depends on the task
	// (Key.WithGenerator), where its value came from: OriginDefault,
	// OriginGenerator, a file, an environment variable or a flag. A run
	// prints it when it starts and records it.
	Origins map[string]string `mapstructure:"-" json:"origins,omitempty"`
	// from is where the keys a file, variable or flag set came from
	// (problems.from), kept while the task may still be bound and for the
	// messages of checks made after loading (Problem).
	from map[string]string
	// factoryFrom is where task.factory was set (a file, or an environment
	// variable or a flag as problems.from marks it), for CheckBound's
	// messages.
	factoryFrom string
	// heldoutGiven is set when the caller chose task.heldout
	// (Options.Heldout).
	heldoutGiven bool
	// bank and bankErr are what ResolveBank found as the configuration
	// was loaded (BankLocation).
	bank    BankLocation
	bankErr error
}

// WorkspaceGiven reports whether the workspace was named by a file, a
// variable, a flag or an override rather than defaulted: a factory task's
// own workspace is used only when none did.
func (c *Config) WorkspaceGiven() bool {
	_, ok := c.from["workspace"]
	return ok
}

// Task is the task section: what the agent may know, and where the hidden
// program and the random input generator are. Level and Family are free text
// that benchmarks group results by; Family (a kind of program, such as
// "window" or "stack") is never shown to agents.
type Task struct {
	Name             string       `mapstructure:"name" json:"name"`
	Level            string       `mapstructure:"level" json:"level,omitempty"`
	Family           string       `mapstructure:"family" json:"family,omitempty"`
	InputType        string       `mapstructure:"input_type" json:"input_type"`
	InputConstraints string       `mapstructure:"input_constraints" json:"input_constraints,omitempty"`
	FunctionName     string       `mapstructure:"function_name" json:"function_name"`
	Kind             string       `mapstructure:"kind" json:"kind"`
	Domain           *task.Domain `mapstructure:"domain" json:"domain,omitempty"`
	Oracle           Oracle       `mapstructure:"oracle" json:"oracle"`
	RandomInputs     *Generator   `mapstructure:"random_inputs" json:"random_inputs,omitempty"`
	// Heldout is the held-out test file, read only by scoring.
	Heldout string `mapstructure:"heldout" json:"heldout,omitempty"`
	// AllowOutsidePaths lets the task's files (oracle.python,
	// random_inputs.python, heldout) lie outside the task directory (the
	// directory of the configuration file).
	AllowOutsidePaths bool `mapstructure:"allow_outside_paths" json:"allow_outside_paths,omitempty"`
	// Factory binds the task from Python instead (docs/binding.md):
	// module:callable, called with Args as keyword arguments in the
	// oracle's sandbox; PythonPath are the directories its modules are
	// found in (default: the configuration's). Bound is what it returned,
	// filled when the run is bound and recorded with the run.
	Factory    string         `mapstructure:"factory" json:"factory,omitempty"`
	Args       map[string]any `mapstructure:"args" json:"args,omitempty"`
	PythonPath []string       `mapstructure:"python_path" json:"python_path,omitempty"`
	Bound      *Bound         `mapstructure:"-" json:"bound,omitempty"`
}

// Bound is a factory's task as bound: the description it returned (JSON)
// and the SHA-256 of every module file read, relative to the binding's
// directory (a resumed run names the files that changed since).
type Bound struct {
	Description json.RawMessage   `json:"description"`
	Files       map[string]string `json:"files"`
}

// Describe returns the part of the task an agent may see.
func (t Task) Describe() task.Task {
	return task.Task{
		Name: t.Name, Level: t.Level, InputType: t.InputType,
		InputConstraints: t.InputConstraints, FunctionName: t.FunctionName,
		Kind: task.Kind(t.Kind), Domain: t.Domain,
	}
}

// Oracle names the hidden program: exactly one of Python, Command, HTTP.
type Oracle struct {
	Python   string   `mapstructure:"python" json:"python,omitempty"`
	Function string   `mapstructure:"function" json:"function,omitempty"`
	Command  []string `mapstructure:"command" json:"command,omitempty"`
	// OnHost runs Command on this machine, outside any sandbox, with a
	// cut-down environment; by default it runs in the oracle's sandbox.
	OnHost  bool          `mapstructure:"on_host" json:"on_host,omitempty"`
	HTTP    string        `mapstructure:"http" json:"http,omitempty"`
	Timeout time.Duration `mapstructure:"timeout" json:"timeout"`
	Retries int           `mapstructure:"retries" json:"retries"`
	// RejectExceptions are the exception classes, besides the usual ones
	// (oracle.DefaultRejects), by which a Python hidden program rejects an
	// input; any other it raises is an error of the task.
	RejectExceptions []string `mapstructure:"reject_exceptions" json:"reject_exceptions,omitempty"`
	// MaxOutputDepth and MaxOutputKB bound what the hidden program
	// answers (oracle.Bounds).
	MaxOutputDepth int `mapstructure:"max_output_depth" json:"max_output_depth"`
	MaxOutputKB    int `mapstructure:"max_output_kb" json:"max_output_kb"`
}

// Generator names a Python generate(k, exclude, rng) function.
type Generator struct {
	Python   string `mapstructure:"python" json:"python"`
	Function string `mapstructure:"function" json:"function"`
}

// Agent is the agent section.
type Agent struct {
	Kind   string `mapstructure:"kind" json:"kind"`
	Synth  Synth  `mapstructure:"synth" json:"synth"`
	Replay Replay `mapstructure:"replay" json:"replay"`
	LLM    LLM    `mapstructure:"llm" json:"llm"`
}

// Synth configures the built-in synthesizer.
type Synth struct {
	TimeLimit time.Duration `mapstructure:"time_limit" json:"time_limit"`
	// RunTimeLimit bounds the search time of all a run's sessions together
	// (0: no bound); each session still gets at least a second.
	RunTimeLimit time.Duration `mapstructure:"run_time_limit" json:"run_time_limit"`
	// ProposeTimeLimit bounds a proposal's search for rival programs.
	ProposeTimeLimit time.Duration `mapstructure:"propose_time_limit" json:"propose_time_limit"`
	// MaxPrograms, when positive, bounds each session's search by the
	// programs it evaluates instead of by time (a proposal's by a fifth
	// of it): the same run then gives the same result on any machine.
	MaxPrograms int `mapstructure:"max_programs" json:"max_programs"`
	MemoryMB    int `mapstructure:"memory_mb" json:"memory_mb"`
}

// Replay configures the replay agent.
type Replay struct {
	Script string `mapstructure:"script" json:"script,omitempty"`
}

// LLM configures the OpenAI-compatible agent.
type LLM struct {
	BaseURL        string        `mapstructure:"base_url" json:"base_url"`
	Model          string        `mapstructure:"model" json:"model"`
	APIKeyEnv      string        `mapstructure:"api_key_env" json:"api_key_env"`
	Temperature    float64       `mapstructure:"temperature" json:"temperature"`
	MaxTokens      int           `mapstructure:"max_tokens" json:"max_tokens"`
	MaxTurns       int           `mapstructure:"max_turns" json:"max_turns"`
	RequestTimeout time.Duration `mapstructure:"request_timeout" json:"request_timeout"`
	Retries        int           `mapstructure:"retries" json:"retries"`
	ToolMode       string        `mapstructure:"tool_mode" json:"tool_mode"`
}

// Sandbox is the sandbox section.
type Sandbox struct {
	Kind        string        `mapstructure:"kind" json:"kind"`
	CallTimeout time.Duration `mapstructure:"call_timeout" json:"call_timeout"`
	MemoryMB    int           `mapstructure:"memory_mb" json:"memory_mb"`
	OutputKB    int           `mapstructure:"output_kb" json:"output_kb"`
	Pids        int           `mapstructure:"pids" json:"pids"`
	CPUs        float64       `mapstructure:"cpus" json:"cpus"`
	Image       string        `mapstructure:"image" json:"image"`
	Python      string        `mapstructure:"python" json:"python"`
}

// Limits are the section's per-call limits: a call's timeout, memory and
// output.
func (s Sandbox) Limits() sandbox.Limits {
	return sandbox.Limits{
		Timeout:     s.CallTimeout,
		MemoryBytes: int64(s.MemoryMB) << 20,
		OutputBytes: int64(s.OutputKB) << 10,
	}
}

// Bank is the bank section.
type Bank struct {
	Enabled bool   `mapstructure:"enabled" json:"enabled"`
	Path    string `mapstructure:"path" json:"path"`
}
