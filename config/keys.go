package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/agent/llm"
	"github.com/reconstruct/reconstruct/agent/synth"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/sandbox/process"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// Key is one configuration key: its default, the command-line flag and the
// environment variable that set it, and what docs/config.md says of it.
// The table Table is the only list of keys: defaults, flags, environment
// variables, the unknown-key check and the documentation all read it.
type Key struct {
	// Name is the dotted path (workflow.early_stop).
	Name string
	// Default is the value when nothing sets the key; nil leaves it unset
	// (a required key, or one of an optional section such as
	// task.random_inputs).
	Default any
	// Shown is the default as the documentation shows it, when not Default
	// itself ("required", "the per-user bank", …).
	Shown string
	// Doc is what the key means, one line of Markdown.
	Doc string
	// Flag is the command-line flag of the run commands (without --);
	// empty: none. Usage is its help line.
	Flag, Usage string
	// Allowed lists the values of a key that takes one of a few.
	Allowed []string
	// Path marks a path (or a list of paths) resolved against the directory
	// of the file naming it.
	Path bool
	// WithGenerator, when not nil, is the default instead of Default for a
	// task with an input generator (task.random_inputs, or random_inputs
	// returned by a factory): where random inputs can be drawn, the more
	// honest settings are the default (docs/workflow.md, "Defaults").
	WithGenerator any
}

// FlagUsage is the help line of the key's flag: Usage, and the defaults
// when they depend on the task.
func (k Key) FlagUsage() string {
	if k.WithGenerator == nil {
		return k.Usage
	}
	return fmt.Sprintf("%s (default %s; %s for a task with a generator)", k.Usage, valueText(k.Default), valueText(k.WithGenerator))
}

// DefaultText is the default as a help line writes it (3, 30s, 4h,
// reconstruct), or "" for a key without one or with an empty one: help
// texts state a default through it, never by hand.
func (k Key) DefaultText() string {
	if k.Default == nil {
		return ""
	}
	return valueText(k.Default)
}

// valueText writes a value plainly; a duration without its zero units
// (4h, not 4h0m0s).
func valueText(v any) string {
	if d, ok := v.(time.Duration); ok {
		s := d.String()
		if strings.HasSuffix(s, "m0s") {
			s = strings.TrimSuffix(s, "0s")
		}
		if strings.HasSuffix(s, "h0m") {
			s = strings.TrimSuffix(s, "0m")
		}
		return s
	}
	return fmt.Sprint(v)
}

// Env is the environment variable that sets the key.
func (k Key) Env() string { return EnvName(k.Name) }

// Section is the first part of the key's name (task, workflow, …).
func (k Key) Section() string {
	s, _, _ := strings.Cut(k.Name, ".")
	return s
}

// Values of task.kind, agent.kind, agent.llm.tool_mode and sandbox.kind.
var (
	taskKinds   = kindNames()
	agentKinds  = []string{"synth", "llm", "replay"}
	toolModes   = []string{llm.ToolModeTools, llm.ToolModeText}
	sandboxKind = []string{"auto", "process", "docker"}
)

// Defaults not set by a package of their own.
const (
	DefaultFunctionName  = "solve"
	DefaultImage         = "" // empty: the image named after the embedded harness digest
	defaultOracleTimeout = 10 * time.Second
	// DefaultMaxOutputDepth and DefaultMaxOutputKB bound the hidden
	// program's outputs (task.oracle.max_output_*).
	DefaultMaxOutputDepth = 100
	DefaultMaxOutputKB    = 1024
	// MaxOutputKBLimit is the most task.oracle.max_output_kb may be: what
	// a command or an endpoint can send at most.
	MaxOutputKBLimit = 16 << 10
)

// Table is every configuration key, in the order docs/config.md lists them.
var Table = []Key{
	{Name: "task.name", Default: "", Shown: "required", Doc: "task name; names the default workspace (a factory task's comes from `task.args`' `name`, else from what the factory returns)"},
	{Name: "task.level", Default: "", Doc: "free text; benchmarks group by it"},
	{Name: "task.family", Default: "", Doc: "free text naming the kind of program (`window`, `stack`, …); benchmarks group by it beside the level; never shown to the agent"},
	{Name: "task.input_type", Default: "", Shown: "required", Doc: "what an input is, in words, shown to the agent"},
	{Name: "task.input_constraints", Default: "", Doc: "constraints on inputs, in words, shown to the agent"},
	{Name: "task.function_name", Default: DefaultFunctionName, Doc: "`candidate.py` must define `function_name(input_data)`"},
	{Name: "task.kind", Default: "", Shown: "required", Allowed: taskKinds, Doc: "the input's kind (coverage categories and the domain check depend on it)"},
	{Name: "task.domain.lo", Shown: "none", Doc: "inclusive lower bound on every number in an input (with `task.domain.hi`; in a file, `domain: {lo: -50, hi: 50}`)"},
	{Name: "task.domain.hi", Shown: "none", Doc: "inclusive upper bound on every number in an input"},
	{Name: "task.oracle.python", Default: "", Shown: "—", Path: true, Doc: "the hidden program's file (its directory is on `sys.path`); run in the oracle's sandbox"},
	{Name: "task.oracle.function", Default: "", Shown: "—", Doc: "the hidden function (required with `python`)"},
	{Name: "task.oracle.command", Default: []string{}, Shown: "—", Doc: "any executable as an argv list: JSON input on stdin, JSON output on stdout, non-zero exit = invalid input; no answer (a timeout, a signal) twice = the task fails, exit 3; runs in the oracle's sandbox, in the task directory (see below)"},
	{Name: "task.oracle.on_host", Default: false, Doc: "run `command` on this machine instead, outside any sandbox (see below)"},
	{Name: "task.oracle.http", Default: "", Shown: "—", Doc: "an endpoint: each input POSTed as JSON; 2xx body = output, 4xx = invalid input, 5xx/429/timeouts retried"},
	{Name: "task.oracle.timeout", Default: defaultOracleTimeout, Doc: "per-input limit for the hidden program (reaching it twice is a broken task, exit 3)"},
	{Name: "task.oracle.retries", Default: 3, Doc: "HTTP retries before an infrastructure error (exit 3)"},
	{Name: "task.oracle.reject_exceptions", Default: []string{}, Shown: "none", Doc: "exception classes by which a Python hidden program rejects an input, besides `ValueError`, `TypeError`, `IndexError`, `KeyError` and `AssertionError` (a name such as `BadInput`, or one with its module; subclasses count; in `RECONSTRUCT_TASK_ORACLE_REJECT_EXCEPTIONS`, separated by commas); any other exception it raises is an error of the task, reported with its traceback (exit 2), never a rejected input"},
	{Name: "task.oracle.max_output_depth", Default: DefaultMaxOutputDepth, Doc: fmt.Sprintf("deepest nesting of an output of the hidden program (at most %d); a deeper one stops the run as a mistake of the task (exit 2)", task.MaxDepth)},
	{Name: "task.oracle.max_output_kb", Default: DefaultMaxOutputKB, Doc: fmt.Sprintf("largest output of the hidden program, as JSON text (at most %d); a larger one stops the run as a mistake of the task (exit 2), as does an output that is not UTF-8", MaxOutputKBLimit)},
	{Name: "task.random_inputs.python", Shown: "none", Path: true, Doc: "a generator file: `generate(k, exclude, rng)` returns k fresh JSON-able inputs, or fewer when it has no more (the run then ends `exhausted` once the candidate passes them all)"},
	{Name: "task.random_inputs.function", Shown: "`generate`", Doc: "the generator function"},
	{Name: "task.heldout", Default: "", Shown: "`heldout.jsonl` beside the file, if present", Path: true, Doc: "held-out tests; read only by `score` and the benchmark runner, never by an agent"},
	{Name: "task.allow_outside_paths", Default: false, Doc: "let `oracle.python`, `random_inputs.python`, `heldout` and an on-host `command` lie outside the task directory"},
	{Name: "task.factory", Default: "", Shown: "none", Doc: "bind the task from Python instead: `module:callable`, called with `task.args` in the oracle's sandbox, returns the task's fields (see [binding.md](binding.md)); then give no `oracle`, `random_inputs`, `input_type` or `kind`"},
	{Name: "task.args", Default: map[string]any{}, Shown: "`{}`", Doc: "the factory's keyword arguments, a mapping (in `RECONSTRUCT_TASK_ARGS`, a JSON object); a `name` argument names the task when `task.name` is not set"},
	{Name: "task.python_path", Default: []string{}, Shown: "the file's directory", Path: true, Doc: "directories the factory's modules are found in, relative to the file (in `RECONSTRUCT_TASK_PYTHON_PATH`, separated by commas); inside the task directory unless `allow_outside_paths`"},

	{Name: "workflow.initial_batch", Default: workflow.DefaultInitialBatch, Flag: "initial-batch", Usage: "examples observed before the first session", Doc: "examples observed before the first session"},
	{Name: "workflow.batch_step", Default: workflow.DefaultBatchStep, Flag: "batch-step", Usage: "how much each granted batch grows", Doc: "each granted batch is this much larger than the previous (2, 4, 6, …)"},
	{Name: "workflow.early_stop", Default: workflow.DefaultEarlyStop, Flag: "early-stop", Usage: "consecutive promotions that end the run", Doc: "consecutive promotions that end the run (`early_stop`)"},
	{Name: "workflow.max_iterations", Default: workflow.DefaultMaxIterations, Flag: "max-iterations", Usage: "agent sessions at most", Doc: "agent sessions at most (`max_iterations`)"},
	{Name: "workflow.propose_attempts", Default: workflow.DefaultProposeAttempts, Doc: "how many times a rejected proposal is asked again (with the reason) before the fallback below: a batch gets 1 + `propose_attempts` tries"},
	{Name: "workflow.proposal_fallback", Default: workflow.DefaultProposalFallback, Allowed: []string{workflow.FallbackRandom, workflow.FallbackStop}, Doc: "when every attempt failed: `random` draws the batch from `task.random_inputs` (event `proposal_fallback`) and goes on; `stop` ends the run with `proposer_failed`, as does a task without a generator"},
	{Name: "workflow.random_share", Default: 0.0, WithGenerator: workflow.GeneratorRandomShare, Flag: "random-share", Usage: "fraction of each batch drawn from random_inputs", Doc: "fraction of every batch (rounded) drawn from `task.random_inputs`"},
	{Name: "workflow.coverage_gate", Default: false, WithGenerator: workflow.GeneratorCoverageGate, Flag: "coverage-gate", Usage: "turn the coverage gate on (or off: --coverage-gate=false)", Doc: "promotions count toward early stop only once the observed inputs cover the kind's categories (a missing set stops blocking after three batches)"},
	{Name: "workflow.selection_gate", Default: workflow.DefaultSelectionGate, Flag: "selection-gate", Usage: "hold an early stop whose final program would fail an observed example (off: --selection-gate=false)", Doc: "a pass that would end the run with `early_stop` does not count while the final selection on the same examples would choose an earlier candidate that fails some of them (its stage score is better); no batch is granted and the agent is asked for a program that outranks it"},
	{Name: "workflow.memorisation_gate", Default: false, Flag: "memorisation-gate", Usage: "turn on the memorisation gate", Doc: "a pass by a candidate embedding ≥ 3 observed inputs is sent back for a rewrite, twice, before the batch is granted anyway"},
	{Name: "workflow.complexity_gate", Default: false, Flag: "complexity-gate", Usage: "turn on the complexity gate", Doc: "a pass with complexity penalty ≥ 0.8 gets its batch but is not a promotion, up to three times"},
	{Name: "workflow.domain_check", Default: false, Flag: "domain-check", Usage: "turn on the domain check", Doc: "proposals with any number outside `task.domain` are rejected; the range is stated in the request"},
	{Name: "workflow.token_budget", Default: 0, Flag: "token-budget", Usage: "prompt+completion tokens at most (0: no limit)", Doc: "prompt + completion tokens at most; `0` = no limit (`budget_exhausted`, checked after each candidate is archived)"},
	{Name: "workflow.atol", Default: task.DefaultAtol, Doc: "tolerance when comparing two float outputs (an integer and a float are equal only when the float is exactly that integer)"},
	{Name: "workflow.max_failures", Default: workflow.DefaultMaxFailures, Doc: "failures shown to the agent in feedback"},
	{Name: "workflow.seed", Default: workflow.DefaultSeed, Flag: "seed", Usage: "seed for the agent and the random inputs", Doc: "seeds the agent and the random inputs"},
	{Name: "workflow.stall_limit", Default: workflow.DefaultStallLimit, Doc: "sessions in a row that change nothing (the same program on the same examples) that end the run with `stalled`; `0` never does"},

	{Name: "agent.kind", Default: "synth", Allowed: agentKinds, Flag: "agent", Usage: "agent: synth, llm or replay", Doc: "`synth` (built-in synthesizer, no model), `llm` (OpenAI-compatible model), `replay` (a recorded script)"},
	{Name: "agent.synth.time_limit", Default: synth.DefaultTimeLimit, Doc: "search time per session"},
	{Name: "agent.synth.run_time_limit", Default: 45 * time.Second, Doc: "search time of all the run's sessions together (`0`: no bound); a session gets at most what is left, and at least 1 s"},
	{Name: "agent.synth.propose_time_limit", Default: synth.DefaultProposeTimeLimit, Doc: "search time of one proposal for the programs its inputs tell apart (at most a fifth of `time_limit`); longer finds more rivals, each proposal costs that much more"},
	{Name: "agent.synth.max_programs", Default: 0, Doc: "when positive, bounds each session's search by the programs it evaluates instead of by time (a proposal's by a fifth of it, all the run's sessions together by as many sessions' worth as `run_time_limit` holds `time_limit`s, at least six: the times serve only as that ratio): the same run gives the same result on any machine, however loaded; `0`: bounded by time"},
	{Name: "agent.synth.memory_mb", Default: synth.DefaultMemoryBytes >> 20, Doc: "memory bound of the synthesizer's searches together (banks, hash sets, holes, a kept search)"},
	{Name: "agent.replay.script", Default: "", Shown: "—", Path: true, Flag: "replay-script", Usage: "replay agent script (YAML)", Doc: "the script (required with `replay`); see `configs/examples/quickstart/replay.yaml`"},
	{Name: "agent.llm.base_url", Default: "https://api.openai.com/v1", Flag: "base-url", Usage: "OpenAI-compatible endpoint", Doc: "OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp server, …)"},
	{Name: "agent.llm.model", Default: "", Shown: "—", Flag: "model", Usage: "LLM model name", Doc: "model name (required with `llm`)"},
	{Name: "agent.llm.api_key_env", Default: "OPENAI_API_KEY", Doc: "the environment variable holding the key; empty for servers without keys"},
	{Name: "agent.llm.temperature", Default: 0.2, Doc: "sampling temperature"},
	{Name: "agent.llm.max_tokens", Default: 4096, Doc: "completion tokens per request"},
	{Name: "agent.llm.max_turns", Default: llm.DefaultMaxTurns, Doc: "model turns per session"},
	{Name: "agent.llm.request_timeout", Default: llm.DefaultRequestTimeout, Doc: "per request"},
	{Name: "agent.llm.retries", Default: llm.DefaultRetries, Doc: "retries on 429, 5xx and timeouts (then exit 3)"},
	{Name: "agent.llm.tool_mode", Default: llm.DefaultToolMode, Allowed: toolModes, Doc: "`tools` (tool calling) or `text` (program from a fenced code block)"},

	{Name: "sandbox.kind", Default: "auto", Allowed: sandboxKind, Flag: "sandbox", Usage: "sandbox: auto, process or docker", Doc: "`docker`, `process`, or `auto`: Docker when the engine answers and the image exists, else the process sandbox with a warning saying why"},
	{Name: "sandbox.call_timeout", Default: sandbox.DefaultCallTimeout, Doc: "wall-clock limit of one call (one input)"},
	{Name: "sandbox.memory_mb", Default: sandbox.DefaultMemoryBytes >> 20, Doc: "memory limit of a call"},
	{Name: "sandbox.output_kb", Default: sandbox.DefaultOutputBytes >> 10, Doc: "cap on a call's output"},
	{Name: "sandbox.pids", Default: sandbox.DefaultProcs, Doc: "process limit (Docker)"},
	{Name: "sandbox.cpus", Default: sandbox.DefaultCPUs, Doc: "CPU limit (Docker)"},
	{Name: "sandbox.image", Default: DefaultImage, Doc: "runner image; empty means `reconstruct-runner:<digest of the embedded harness>`, built by `reconstruct sandbox build-image`"},
	{Name: "sandbox.python", Default: process.DefaultPython, Doc: "the interpreter of the process sandbox"},

	{Name: "bank.enabled", Default: true, Doc: "record the run in the bank"},
	{Name: "bank.path", Default: "", Shown: "the per-user bank", Path: true, Flag: "bank", Usage: "bank database file", Doc: "the bank file; `--bank` and `" + BankPathEnv + "` come before it (and, deprecated, `" + LegacyBankEnv + "`); without any of them, `$XDG_DATA_HOME/" + BankFile + "`, else `~/.local/share/" + BankFile + "`"},
	{Name: "workspace", Default: "", Shown: "`runs/<task.name>` beside the file", Path: true, Flag: "workspace", Usage: "directory for candidate.py, the archive and the journals", Doc: "where `candidate.py`, `.oc_candidates/`, `result.json`, `events.jsonl` and `examples.jsonl` go; never `/` or the home directory, never a directory holding the task's files, and a directory holding files reconstruct did not write only with `run --force`"},
	{Name: "cluster.temporal", Default: "", Shown: "none", Doc: "the Temporal server's HOST:PORT for `bench run --engine temporal` and `reconstruct worker` (`--temporal`); a run ignores the cluster section"},
	{Name: "cluster.namespace", Default: DefaultNamespace, Doc: "the Temporal namespace (`--namespace`)"},
	{Name: "cluster.task_queue", Default: DefaultTaskQueue, Doc: "the task queue workers poll and sweeps submit to (`--task-queue`)"},
	{Name: "cluster.parallel", Default: 1, Doc: "tasks one worker runs at once (`worker --parallel`)"},
	{Name: "cluster.max_attempts", Default: DefaultMaxAttempts, Doc: "attempts of a task that fails for an infrastructure reason (a lost worker counts as one); a task's own mistake is never retried"},
	{Name: "cluster.heartbeat_timeout", Default: DefaultHeartbeatTimeout, Doc: "how long a task may go without a heartbeat before its worker is taken for lost and the task goes to another"},
	{Name: "cluster.task_timeout", Default: DefaultTaskTimeout, Doc: "bound on one attempt of one task"},
	{Name: "cluster.drain_timeout", Default: DefaultDrainTimeout, Doc: "how long a worker asked to stop lets its tasks finish before it hands them back"},
	{Name: "cluster.workdir", Default: "", Shown: "a directory under the per-user cache", Path: true, Doc: "where a worker unpacks task directories and keeps workspaces"},
}

// lookup is Table by name.
var lookup = func() map[string]Key {
	m := make(map[string]Key, len(Table))
	for _, k := range Table {
		m[k.Name] = k
	}
	return m
}()

// Lookup returns the key of that name.
func Lookup(name string) (Key, bool) {
	k, ok := lookup[name]
	return k, ok
}

// Keys lists every configuration key, sorted (for completion).
func Keys() []string {
	keys := make([]string, 0, len(Table))
	for _, k := range Table {
		keys = append(keys, k.Name)
	}
	sort.Strings(keys)
	return keys
}

// defaults returns every key that has a default with its value, flattened
// with dots.
func defaults() map[string]any {
	m := map[string]any{}
	for _, k := range Table {
		if k.Default != nil {
			m[k.Name] = k.Default
		}
	}
	return m
}

// isSection reports a name that prefixes keys (task.oracle).
func isSection(name string) bool {
	for _, k := range Table {
		if strings.HasPrefix(k.Name, name+".") {
			return true
		}
	}
	return false
}

// ShownDefault is the default as the documentation writes it.
func (k Key) ShownDefault() string {
	if k.Shown != "" {
		return k.Shown
	}
	if k.WithGenerator != nil {
		return shownValue(k.Default) + ", or " + shownValue(k.WithGenerator) + " for a task with a generator"
	}
	return shownValue(k.Default)
}

// shownValue is a default value as the documentation writes it.
func shownValue(d any) string {
	switch v := d.(type) {
	case string:
		if v == "" {
			return "`\"\"`"
		}
		return "`" + v + "`"
	case time.Duration:
		return "`" + valueText(v) + "`"
	case float64:
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return "`" + strings.Replace(s, "e-0", "e-", 1) + "`"
	default:
		return "`" + fmt.Sprint(v) + "`"
	}
}

// Markdown is the key table of one section of docs/config.md; sections
// lists the first parts of the names (bank and workspace share a table).
func Markdown(sections ...string) string {
	var b strings.Builder
	b.WriteString("| key | default | meaning |\n|---|---|---|\n")
	for _, k := range Table {
		for _, s := range sections {
			if k.Section() != s {
				continue
			}
			doc := k.Doc
			if len(k.Allowed) > 0 && !strings.Contains(doc, "`"+k.Allowed[0]+"`") {
				doc = "one of " + quoteList(k.Allowed) + ": " + doc
			}
			if k.Flag != "" {
				doc += "; flag `--" + k.Flag + "`"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", k.Name, k.ShownDefault(), doc)
		}
	}
	return b.String()
}

func quoteList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = "`" + v + "`"
	}
	return strings.Join(q, ", ")
}

func kindNames() []string {
	names := make([]string, len(task.Kinds))
	for i, k := range task.Kinds {
		names[i] = string(k)
	}
	return names
}

// Marks around a generated key table in docs/config.md: the opening mark
// names the sections the table holds.
const (
	docOpen  = "<!-- keys:"
	docClose = "<!-- end of generated keys -->"
)

// RewriteDoc returns doc (docs/config.md) with every key table between its
// marks made anew from Table: `<!-- keys: bank workspace -->` … the closing
// mark. go generate ./config writes it; a test fails when the file differs.
func RewriteDoc(doc string) (string, error) {
	var out strings.Builder
	rest := doc
	for {
		i := strings.Index(rest, docOpen)
		if i < 0 {
			out.WriteString(rest)
			return out.String(), nil
		}
		end := strings.Index(rest[i:], "-->")
		if end < 0 {
			return "", fmt.Errorf("docs/config.md: unclosed mark %q", rest[i:min(len(rest), i+40)])
		}
		end += i + len("-->")
		sections := strings.Fields(rest[i+len(docOpen) : end-len("-->")])
		for _, s := range sections {
			if !isSection(s) && s != "workspace" {
				return "", fmt.Errorf("docs/config.md: mark %q names %q, not a section of the configuration", rest[i:end], s)
			}
		}
		c := strings.Index(rest[end:], docClose)
		if c < 0 {
			return "", fmt.Errorf("docs/config.md: mark %q has no closing %q", rest[i:end], docClose)
		}
		out.WriteString(rest[:end])
		out.WriteString("\n")
		out.WriteString(Markdown(sections...))
		out.WriteString(docClose)
		rest = rest[end+c+len(docClose):]
	}
}
