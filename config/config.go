package config

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/reconstruct/reconstruct/task"
)

// Defaults of the workflow section (RECONSTRUCT.md).
const (
	DefaultInitialBatch    = 2
	DefaultBatchStep       = 2
	DefaultEarlyStop       = 5
	DefaultMaxIterations   = 50
	DefaultProposeAttempts = 3
	DefaultMaxFailures     = 5
	DefaultFunctionName    = "solve"
	DefaultImage           = "" // empty: the image named after the embedded harness digest
	// DefaultStallLimit is how many consecutive sessions that change
	// nothing end a run (stop reason stalled); 0 turns the check off.
	DefaultStallLimit = 5
	// DefaultProposalFallback fills a batch from the task's random_inputs
	// generator when every proposal attempt failed.
	DefaultProposalFallback = FallbackRandom
)

// Values of workflow.proposal_fallback.
const (
	// FallbackRandom fills the batch from random_inputs and goes on.
	FallbackRandom = "random"
	// FallbackStop ends the run with proposer_failed (the strict protocol).
	FallbackStop = "stop"
)

// Config is a whole run configuration.
type Config struct {
	Task      Task     `mapstructure:"task" json:"task"`
	Workflow  Workflow `mapstructure:"workflow" json:"workflow"`
	Agent     Agent    `mapstructure:"agent" json:"agent"`
	Sandbox   Sandbox  `mapstructure:"sandbox" json:"sandbox"`
	Bank      Bank     `mapstructure:"bank" json:"bank"`
	Workspace string   `mapstructure:"workspace" json:"workspace"`
	// File is the configuration file the config was loaded from.
	File string `mapstructure:"-" json:"file"`
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
// directory (a resumed run refuses a binding whose files changed).
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
}

// Generator names a Python generate(k, exclude, rng) function.
type Generator struct {
	Python   string `mapstructure:"python" json:"python"`
	Function string `mapstructure:"function" json:"function"`
}

// Workflow is the workflow section (RECONSTRUCT.md, Protocol and Disciplines).
type Workflow struct {
	InitialBatch     int     `mapstructure:"initial_batch" json:"initial_batch"`
	BatchStep        int     `mapstructure:"batch_step" json:"batch_step"`
	EarlyStop        int     `mapstructure:"early_stop" json:"early_stop"`
	MaxIterations    int     `mapstructure:"max_iterations" json:"max_iterations"`
	ProposeAttempts  int     `mapstructure:"propose_attempts" json:"propose_attempts"`
	RandomShare      float64 `mapstructure:"random_share" json:"random_share"`
	CoverageGate     bool    `mapstructure:"coverage_gate" json:"coverage_gate"`
	MemorisationGate bool    `mapstructure:"memorisation_gate" json:"memorisation_gate"`
	ComplexityGate   bool    `mapstructure:"complexity_gate" json:"complexity_gate"`
	DomainCheck      bool    `mapstructure:"domain_check" json:"domain_check"`
	// TokenBudget is the most prompt plus completion tokens a run may spend;
	// 0 means no limit.
	TokenBudget int     `mapstructure:"token_budget" json:"token_budget"`
	Atol        float64 `mapstructure:"atol" json:"atol"`
	MaxFailures int     `mapstructure:"max_failures" json:"max_failures"`
	Seed        int64   `mapstructure:"seed" json:"seed"`
	// ProposalFallback is what happens when every proposal attempt failed:
	// FallbackRandom or FallbackStop.
	ProposalFallback string `mapstructure:"proposal_fallback" json:"proposal_fallback"`
	// StallLimit is how many consecutive sessions that change nothing end
	// the run; 0 means never.
	StallLimit int `mapstructure:"stall_limit" json:"stall_limit"`
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
	MemoryMB     int           `mapstructure:"memory_mb" json:"memory_mb"`
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

// Bank is the bank section.
type Bank struct {
	Enabled bool   `mapstructure:"enabled" json:"enabled"`
	Path    string `mapstructure:"path" json:"path"`
}

// defaults returns every key with its default value, flattened with dots.
// Every key must be here: environment variables bind only to known keys.
func defaults() map[string]any {
	return map[string]any{
		"task.name":                  "",
		"task.level":                 "",
		"task.family":                "",
		"task.input_type":            "",
		"task.input_constraints":     "",
		"task.function_name":         DefaultFunctionName,
		"task.kind":                  "",
		"task.heldout":               "",
		"task.allow_outside_paths":   false,
		"task.factory":               "",
		"task.python_path":           []string{},
		"task.oracle.on_host":        false,
		"task.oracle.python":         "",
		"task.oracle.function":       "",
		"task.oracle.command":        []string{},
		"task.oracle.http":           "",
		"task.oracle.timeout":        "10s",
		"task.oracle.retries":        3,
		"workflow.initial_batch":     DefaultInitialBatch,
		"workflow.batch_step":        DefaultBatchStep,
		"workflow.early_stop":        DefaultEarlyStop,
		"workflow.max_iterations":    DefaultMaxIterations,
		"workflow.propose_attempts":  DefaultProposeAttempts,
		"workflow.random_share":      0.0,
		"workflow.coverage_gate":     false,
		"workflow.memorisation_gate": false,
		"workflow.complexity_gate":   false,
		"workflow.domain_check":      false,
		"workflow.token_budget":      0,
		"workflow.atol":              task.DefaultAtol,
		"workflow.max_failures":      DefaultMaxFailures,
		"workflow.seed":              1,
		"workflow.proposal_fallback": DefaultProposalFallback,
		"workflow.stall_limit":       DefaultStallLimit,
		"agent.kind":                 "synth",
		"agent.synth.time_limit":     "20s",
		"agent.synth.run_time_limit": "45s",
		"agent.synth.memory_mb":      1024,
		"agent.replay.script":        "",
		"agent.llm.base_url":         "https://api.openai.com/v1",
		"agent.llm.model":            "",
		"agent.llm.api_key_env":      "OPENAI_API_KEY",
		"agent.llm.temperature":      0.2,
		"agent.llm.max_tokens":       4096,
		"agent.llm.max_turns":        12,
		"agent.llm.request_timeout":  "120s",
		"agent.llm.retries":          4,
		"agent.llm.tool_mode":        "tools",
		"sandbox.kind":               "auto",
		"sandbox.call_timeout":       "2s",
		"sandbox.memory_mb":          512,
		"sandbox.output_kb":          1024,
		"sandbox.pids":               64,
		"sandbox.cpus":               1.0,
		"sandbox.image":              DefaultImage,
		"sandbox.python":             "python3",
		"bank.enabled":               true,
		"bank.path":                  "",
		"workspace":                  "",
	}
}

// Error is a configuration error naming the file and the key at fault.
type Error struct {
	File string
	Key  string
	Msg  string
}

func (e *Error) Error() string {
	switch {
	case e.File != "" && e.Key != "":
		return fmt.Sprintf("%s: %s: %s", e.File, e.Key, e.Msg)
	case e.File != "":
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	case e.Key != "":
		return fmt.Sprintf("%s: %s", e.Key, e.Msg)
	}
	return e.Msg
}
