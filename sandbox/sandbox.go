package sandbox

import (
	"context"
	"encoding/json"
	"time"
)

// Defaults for Limits and for a sandbox's processes and CPUs; the run
// configuration's sandbox section takes its defaults from them.
const (
	DefaultCallTimeout = 2 * time.Second
	DefaultMemoryBytes = 512 << 20
	DefaultOutputBytes = 1 << 20
	// DefaultProcs caps a container's processes (sandbox.pids).
	DefaultProcs = 64
	// DefaultCPUs is a container's CPU quota (sandbox.cpus).
	DefaultCPUs = 1.0
)

// Limits bounds one call of untrusted code.
type Limits struct {
	// Timeout is the wall-clock limit of one function call (one input).
	Timeout time.Duration `json:"timeout"`
	// MemoryBytes caps the address space of the process running the call.
	MemoryBytes int64 `json:"memory_bytes"`
	// OutputBytes caps the size of the JSON-encoded return value and of
	// anything the call prints.
	OutputBytes int64 `json:"output_bytes"`
}

// WithDefaults fills zero fields from the Default constants.
func (l Limits) WithDefaults() Limits {
	return l.filledFrom(Limits{Timeout: DefaultCallTimeout, MemoryBytes: DefaultMemoryBytes, OutputBytes: DefaultOutputBytes})
}

// WithDefaultsFrom fills zero fields from d (a sandbox's configured limits),
// then from the Default constants: what a backend runs a request with.
func (l Limits) WithDefaultsFrom(d Limits) Limits {
	return l.filledFrom(d).WithDefaults()
}

// filledFrom is l with its zero (or negative) fields taken from d.
func (l Limits) filledFrom(d Limits) Limits {
	if l.Timeout <= 0 {
		l.Timeout = d.Timeout
	}
	if l.MemoryBytes <= 0 {
		l.MemoryBytes = d.MemoryBytes
	}
	if l.OutputBytes <= 0 {
		l.OutputBytes = d.OutputBytes
	}
	return l
}

// Program names a Python function: inline module source, or a file that the
// sandbox can read (its directory is put on sys.path).
//
// A Resident program is loaded once into a child process that the harness
// keeps between requests and that serves every call and generate request
// of the same program (any of its functions) and memory and output limits;
// a timeout, a crash or a protocol violation kills it and the next request
// starts a fresh one. Only trusted programs that want their module state
// kept (a task binding in the oracle's sandbox) are resident: a candidate
// never is, each of its requests runs in a fresh child.
type Program struct {
	Source   string `json:"source,omitempty"`
	Path     string `json:"path,omitempty"`
	Function string `json:"function"`
	Resident bool   `json:"resident,omitempty"`
}

// Name names the program in errors and logs: path:function, or
// <source>:function for inline source.
func (p Program) Name() string {
	if p.Path != "" {
		return p.Path + ":" + p.Function
	}
	return "<source>:" + p.Function
}

// Status is the outcome of one call.
type Status string

// Call statuses.
const (
	StatusOK Status = "ok"
	// StatusError: the function raised; Error holds "ExcType: message".
	StatusError Status = "error"
	// StatusTimeout: the call exceeded Limits.Timeout and was killed.
	StatusTimeout Status = "timeout"
	// StatusMemory: the call ran out of memory (MemoryError or killed).
	StatusMemory Status = "memory"
	// StatusOutputLimit: the return value or printed output exceeded OutputBytes.
	StatusOutputLimit Status = "output_limit"
	// StatusBadOutput: the return value cannot be JSON (a set, NaN, too deep).
	StatusBadOutput Status = "bad_output"
	// StatusCrashed: the process running the call died (os._exit, a signal).
	StatusCrashed Status = "crashed"
	// StatusLoad: the program could not be loaded (syntax error, missing
	// function, import error).
	StatusLoad Status = "load_error"
	// StatusUnexpected: the function raised an exception that is none of
	// CallRequest.Rejects; Error holds its traceback.
	StatusUnexpected Status = "unexpected_error"
)

// Outcome is what happened to one call.
type Outcome struct {
	Status Status          `json:"status"`
	Output json.RawMessage `json:"output,omitempty"`
	Error  string          `json:"error,omitempty"`
	// Seconds is the call's wall time.
	Seconds float64 `json:"seconds"`
}

// OK reports whether the call returned a JSON value.
func (o Outcome) OK() bool { return o.Status == StatusOK }

// CallRequest runs Program's function on each input, each call in isolation
// from the others' failures.
type CallRequest struct {
	Program Program
	Inputs  []json.RawMessage
	Limits  Limits
	// Rejects, when not nil, names the exception classes (a bare name, or
	// one qualified by its module; subclasses count) by which the function
	// rejects an input: it then raises one of them with StatusError, and
	// any other exception with StatusUnexpected. A hidden program's calls
	// set it; a candidate's do not (every exception is its failure).
	Rejects []string
}

// AnalyseRequest asks for the static analysis of a candidate's source.
type AnalyseRequest struct {
	Source       string
	FunctionName string
	// Inputs and Outputs are every observed input and output (for the
	// hard-coding penalty and memorisation).
	Inputs  []json.RawMessage
	Outputs []json.RawMessage
}

// Analysis is the static analysis of a candidate (docs/workflow.md, stage
// score and memorisation).
type Analysis struct {
	Parses      bool    `json:"parses"`
	ParseError  string  `json:"parse_error,omitempty"`
	DefinesFunc bool    `json:"defines_function"`
	Size        float64 `json:"size"`
	Structure   float64 `json:"structure"`
	Complexity  float64 `json:"complexity"`
	Hardcoding  float64 `json:"hardcoding"`
	// Literals are the reprs of the code's literal constants counted by the
	// hard-coding penalty.
	Literals []string `json:"literals"`
	// Embedded are the indices (into AnalyseRequest.Inputs) of distinct
	// observed inputs that appear verbatim as literals.
	Embedded []int `json:"embedded"`
}

// GenerateRequest asks a generator program (generate(k, exclude, rng)) for
// K fresh inputs.
type GenerateRequest struct {
	Program Program
	K       int
	Exclude []json.RawMessage
	Seed    int64
	Limits  Limits
}

// Sandbox runs untrusted Python. Implementations are safe for concurrent use.
type Sandbox interface {
	// Call runs the program once per input. The returned slice has one
	// Outcome per input, in order.
	Call(ctx context.Context, req CallRequest) ([]Outcome, error)
	// Analyse parses a candidate and computes its penalties.
	Analyse(ctx context.Context, req AnalyseRequest) (Analysis, error)
	// Generate asks a generator for at most K fresh inputs (fewer when it
	// has no more). A generator that raises, returns the wrong shape or
	// more than K inputs is an error naming the program.
	Generate(ctx context.Context, req GenerateRequest) ([]json.RawMessage, error)
	// Close stops the sandbox and releases everything it holds.
	Close() error
}

// ExecRequest runs a shell command in an agent's sandbox.
type ExecRequest struct {
	Command     string
	Timeout     time.Duration
	OutputBytes int64
}

// ExecResult is the outcome of an ExecRequest; a non-zero exit is data.
type ExecResult struct {
	ExitCode  int    `json:"exit_code"`
	Output    string `json:"output"`
	TimedOut  bool   `json:"timed_out"`
	Truncated bool   `json:"truncated"`
}

// Executor is implemented by sandboxes that can run the agent's shell tool
// with the workspace as working directory.
type Executor interface {
	Exec(ctx context.Context, req ExecRequest) (ExecResult, error)
}
