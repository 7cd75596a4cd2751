package oracle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/reconstruct/reconstruct/sandbox"
)

// Runner is the part of a sandbox the Python oracle needs.
type Runner interface {
	Call(ctx context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error)
	Generate(ctx context.Context, req sandbox.GenerateRequest) ([]json.RawMessage, error)
}

// Python is a hidden program given as a function in a Python file, run in
// the oracle's sandbox (never in this process).
type Python struct {
	runner  Runner
	program sandbox.Program
	name    string // what messages call it
	limits  sandbox.Limits
	// rejects are the exceptions that reject an input (nil: every one).
	rejects    []string
	rejectsKey string
	key        string // the setting naming the program
}

var _ Oracle = (*Python)(nil)

// NewPython returns an oracle calling function in the file at path.
func NewPython(runner Runner, path, function string, limits sandbox.Limits) *Python {
	return NewPythonProgram(runner, sandbox.Program{Path: path, Function: function}, path, limits)
}

// NewPythonProgram returns an oracle calling program (a factory task's
// shim, say); name is what its errors call it.
func NewPythonProgram(runner Runner, program sandbox.Program, name string, limits sandbox.Limits) *Python {
	return &Python{runner: runner, program: program, name: name, limits: limits, key: "task.oracle.python"}
}

// Rejecting makes only the exceptions of DefaultRejects and extra (class
// names; subclasses count) reject an input: any other exception the
// program raises is an error of the task (a *TaskError with its
// traceback), not a rejected input. key names the setting of extra in
// messages.
func (p *Python) Rejecting(extra []string, key string) *Python {
	p.rejects = append(append([]string(nil), DefaultRejects...), extra...)
	p.rejectsKey = key
	return p
}

// Query runs the hidden function on each input. An exception rejects that
// input (only one of the rejecting exceptions, when Rejecting was called;
// any other is a *TaskError). A value JSON cannot hold, or a program that
// cannot be loaded, is a *TaskError too. A call that runs past the time limit, runs out of memory or
// crashes is asked once more on its own (a loaded machine can slow any
// call down); failing again, it is a FailureError. A program that cannot
// be loaded, or a sandbox failure, is an infrastructure error too.
func (p *Python) Query(ctx context.Context, inputs []json.RawMessage) ([]Answer, error) {
	if len(inputs) == 0 {
		return nil, nil
	}
	outs, err := p.call(ctx, inputs)
	if err != nil {
		return nil, err
	}
	answers := make([]Answer, len(outs))
	for i, o := range outs {
		if failKind(o.Status) != "" {
			again, err := p.call(ctx, inputs[i:i+1])
			if err != nil {
				return nil, err
			}
			o = again[0]
		}
		switch o.Status {
		case sandbox.StatusOK:
			answers[i] = Answer{Output: o.Output}
		case sandbox.StatusError:
			answers[i] = Answer{Invalid: describe(o)}
		case sandbox.StatusUnexpected:
			return nil, &TaskError{Program: p.name, Key: p.key, Index: i + 1, Input: inputs[i],
				What: "raised an exception that rejects no input", Detail: o.Error,
				Fix: fmt.Sprintf("A hidden program rejects an input by raising %s or %s: fix the program, or declare the exceptions that reject an input in %s.",
					strings.Join(DefaultRejects[:len(DefaultRejects)-1], ", "), DefaultRejects[len(DefaultRejects)-1], p.rejectsKey)}
		case sandbox.StatusBadOutput:
			if strings.Contains(o.Error, "nested too deeply") {
				return nil, &BoundError{Index: i + 1, Input: inputs[i], Key: KeyMaxDepth, Detail: "is nested too deeply for JSON"}
			}
			return nil, &TaskError{Program: p.name, Key: p.key, Index: i + 1, Input: inputs[i], What: "returned a value JSON cannot hold (" + o.Error + ")",
				Fix: "a hidden program returns what JSON holds: None, booleans, numbers, strings, lists (not sets) and dicts with string keys"}
		case sandbox.StatusLoad:
			return nil, &TaskError{Program: p.name, Key: p.key, What: "cannot be loaded: " + o.Error,
				Fix: "fix the program (or the task.oracle.function that names its function)"}
		case sandbox.StatusOutputLimit:
			return nil, &BoundError{Index: i + 1, Input: inputs[i], Key: KeyMaxBytes, Detail: fmt.Sprintf("is over its output limit of %d KB: %s", p.limits.WithDefaults().OutputBytes>>10, describe(o))}
		default:
			if kind := failKind(o.Status); kind != "" {
				return nil, &FailureError{Index: i + 1, Input: inputs[i], Kind: kind, Limit: p.limitOf(kind), Detail: describe(o)}
			}
			return nil, fmt.Errorf("python oracle %s: input %d: %s", p.name, i+1, describe(o))
		}
	}
	return answers, nil
}

func (p *Python) call(ctx context.Context, inputs []json.RawMessage) ([]sandbox.Outcome, error) {
	outs, err := p.runner.Call(ctx, sandbox.CallRequest{Program: p.program, Inputs: inputs, Limits: p.limits, Rejects: p.rejects})
	if err != nil {
		return nil, fmt.Errorf("python oracle %s: %w", p.name, err)
	}
	if len(outs) != len(inputs) {
		return nil, fmt.Errorf("python oracle %s: %d outcomes for %d inputs", p.name, len(outs), len(inputs))
	}
	return outs, nil
}

// failKind maps the statuses of a call that did not answer to a
// FailureError kind ("" for the others).
func failKind(s sandbox.Status) string {
	switch s {
	case sandbox.StatusTimeout:
		return FailTimeout
	case sandbox.StatusMemory:
		return FailMemory
	case sandbox.StatusCrashed:
		return FailCrash
	}
	return ""
}

// limitOf names the limit a failure of kind hit.
func (p *Python) limitOf(kind string) string {
	l := p.limits.WithDefaults()
	switch kind {
	case FailTimeout:
		return fmt.Sprintf("%s per input (task.oracle.timeout)", l.Timeout)
	case FailMemory:
		return fmt.Sprintf("%d MiB (sandbox.memory_mb)", l.MemoryBytes>>20)
	}
	return ""
}

// Close releases nothing: the sandbox belongs to the caller.
func (p *Python) Close() error { return nil }

func describe(o sandbox.Outcome) string {
	if o.Error == "" {
		return string(o.Status)
	}
	return string(o.Status) + ": " + o.Error
}

// Generator is a task's random_inputs generator, run in the oracle's sandbox.
type Generator struct {
	runner  Runner
	program sandbox.Program
	name    string
	limits  sandbox.Limits
}

// NewGenerator returns the generate(k, exclude, rng) function in the file at path.
func NewGenerator(runner Runner, path, function string, limits sandbox.Limits) *Generator {
	return NewGeneratorProgram(runner, sandbox.Program{Path: path, Function: function}, path, limits)
}

// NewGeneratorProgram returns the generator program (generate(k, exclude,
// rng)); name is what its errors call it.
func NewGeneratorProgram(runner Runner, program sandbox.Program, name string, limits sandbox.Limits) *Generator {
	return &Generator{runner: runner, program: program, name: name, limits: limits}
}

// Name is what the generator's errors call it: its file, or its factory.
func (g *Generator) Name() string { return g.name }

// Generate asks for k fresh inputs; fewer mean the generator has no more.
func (g *Generator) Generate(ctx context.Context, k int, exclude []json.RawMessage, seed int64) ([]json.RawMessage, error) {
	lim := g.limits
	lim.Timeout *= 5 // a generator makes k inputs in one call
	ins, err := g.runner.Generate(ctx, sandbox.GenerateRequest{Program: g.program, K: k, Exclude: exclude, Seed: seed, Limits: lim})
	var remote *sandbox.RemoteError
	if errors.As(err, &remote) && remote.Program {
		return nil, &TaskError{Program: g.name, Key: "task.random_inputs.python", What: "failed when asked for " + fmt.Sprint(k) + " inputs: " + remote.Message,
			Fix: "generate(k, exclude, rng) must return a list of at most k JSON-able inputs, none of them in exclude (fewer only when no more exist)"}
	}
	if err != nil {
		return nil, fmt.Errorf("generator %s: %w", g.name, err)
	}
	return ins, nil
}
