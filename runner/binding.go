package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent/llm"
	"github.com/reconstruct/reconstruct/binding"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/oracle"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// BindingLog is the workspace file that receives what a factory task's
// on_example hook returns (one JSON value a line, None left out); another
// run in the workspace moves it aside with the journals.
const BindingLog = workflow.BindingLogFile

// loadBinding reads a factory task's modules.
func loadBinding(c *config.Config) (*binding.Binding, error) {
	t := c.Task
	b, err := binding.Load(binding.Spec{Factory: t.Factory, Args: t.Args, Root: t.BindingDir(), Path: t.PythonPath})
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrConfig, c.File, err)
	}
	return b, nil
}

// changedBindingNotice is what a run says when it starts if its factory
// task was bound (a resumed run) from module files that have changed
// since, naming each with its digest then and now ("" otherwise). The run
// goes on with the files as they are, as the run of a task directory does
// with its hidden program and generator: the examples observed so far came
// from the old ones.
func changedBindingNotice(t config.Task, b *binding.Binding) string {
	if t.Bound == nil {
		return ""
	}
	changed := b.Changed(t.Bound.Files)
	if len(changed) == 0 {
		return ""
	}
	return fmt.Sprintf("warning: task.factory %s: the binding's files in %s changed since the task was bound: %s; "+
		"the run goes on with them as they are now, and the examples it observed so far came from the old ones\n",
		t.Factory, t.BindingDir(), strings.Join(changed, ", "))
}

// Bind calls a factory task's factory, in a sandbox set up as the oracle's,
// and returns the configuration bound to what it returned (config.Bind):
// the task's fields filled and checked, and the description recorded in
// Task.Bound (a run records its configuration, so a resumed run never
// calls the factory again). c is left as it is; a task that is not a
// factory's, or is bound already, is returned as it is. Nothing is
// created.
func Bind(ctx context.Context, c *config.Config, log *zap.Logger) (*config.Config, error) {
	if c.Task.Factory == "" || c.Task.Bound != nil {
		return c, nil
	}
	if log == nil {
		log = zap.NewNop()
	}
	box, err := OpenBindingSandbox(ctx, c, log)
	if err != nil {
		return nil, err
	}
	defer box.Close()
	return BindIn(ctx, c, box)
}

// OpenBindingSandbox starts a sandbox set up as a factory task's oracle's,
// working in a copy of the binding that Close removes.
func OpenBindingSandbox(ctx context.Context, c *config.Config, log *zap.Logger) (sandbox.Sandbox, error) {
	kind, err := chooseKind(ctx, c.Sandbox, log)
	if err != nil {
		return nil, err
	}
	dir, remove, err := stageBinding(c)
	if err != nil {
		return nil, err
	}
	box, err := openBox(ctx, c.Sandbox, kind, NewRunID(), "oracle", dir, hiddenFromOracle(c.Task.Heldout, dir), log)
	if err != nil {
		remove()
		return nil, fmt.Errorf("%w: start the binding's %s sandbox: %w", ErrInfra, kind, err)
	}
	return stagedBox{box, remove}, nil
}

// stagedBox is a sandbox working in a copy of a binding, removed with it.
type stagedBox struct {
	sandbox.Sandbox
	remove func()
}

func (b stagedBox) Close() error {
	err := b.Sandbox.Close()
	b.remove()
	return err
}

// BindIn is Bind in a sandbox of the caller's, set up as OpenBindingSandbox does.
func BindIn(ctx context.Context, c *config.Config, box binding.Caller) (*config.Config, error) {
	if c.Task.Factory == "" || c.Task.Bound != nil {
		return c, nil
	}
	bt, err := Describe(ctx, c, box)
	if err != nil {
		return nil, err
	}
	bound, err := c.Bind(bt)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return bound, nil
}

// Describe calls a factory task's factory in box and returns the task
// section it yields, for config.Bind. A factory's mistake (an exception,
// tools this agent lacks, one bound of the domain only) wraps ErrConfig,
// a sandbox's failure ErrInfra.
func Describe(ctx context.Context, c *config.Config, box binding.Caller) (config.BoundTask, error) {
	t := c.Task
	b, err := loadBinding(c)
	if err != nil {
		return config.BoundTask{}, err
	}
	d, err := b.Describe(ctx, box, c.Sandbox.Limits())
	if err != nil {
		return config.BoundTask{}, bindingErr(c.File, err)
	}
	bad := func(err error) (config.BoundTask, error) {
		return config.BoundTask{}, fmt.Errorf("%w: %s: task.factory %s: %w", ErrConfig, c.File, t.Factory, err)
	}
	bt := config.BoundTask{Name: d.Name, Level: d.Level, Family: d.Family, InputType: d.InputType, InputConstraints: d.InputConstraints,
		Kind: d.Kind, FunctionName: d.FunctionName, Workspace: d.Workspace, RandomInputs: d.RandomInputs}
	switch {
	case d.Lo != nil && d.Hi != nil:
		bt.Domain = &task.Domain{Lo: *d.Lo, Hi: *d.Hi}
	case d.Lo != nil || d.Hi != nil:
		return bad(errOneBound)
	}
	if c.Agent.Kind == "llm" {
		if err := llm.CheckTools(d.Tools, true); err != nil {
			return bad(err)
		}
		if err := llm.CheckTaskTools(taskToolSpecs(d)); err != nil {
			return bad(err)
		}
	}
	raw, err := json.Marshal(d)
	if err != nil {
		return config.BoundTask{}, fmt.Errorf("record the task factory %s returned: %w", t.Factory, err)
	}
	bt.Bound = config.Bound{Description: raw, Files: b.Digests}
	return bt, nil
}

// errOneBound is a factory's domain with only one of its bounds.
var errOneBound = errors.New("the returned task has only one of lo and hi: give both, or neither")

// bindingErr marks an error of a binding call: the binding's own mistakes
// are configuration errors (of the configuration file), the sandbox's
// failures infrastructure ones.
func bindingErr(file string, err error) error {
	var be *binding.Error
	if errors.As(err, &be) {
		return fmt.Errorf("%w: %s: %w", ErrConfig, file, err)
	}
	return fmt.Errorf("%w: %w", ErrInfra, err)
}

// boundDescription is the description a bound factory task recorded.
func boundDescription(c *config.Config) (*binding.Description, error) {
	if c.Task.Bound == nil {
		return nil, fmt.Errorf("%w: %s: task.factory %s was not bound (runner.Bind)", ErrConfig, c.File, c.Task.Factory)
	}
	var d binding.Description
	if err := json.Unmarshal(c.Task.Bound.Description, &d); err != nil {
		return nil, fmt.Errorf("%w: %s: the recorded description of task.factory %s: %w", ErrConfig, c.File, c.Task.Factory, err)
	}
	return &d, nil
}

// factoryParts are a bound factory task's generator (nil without
// random_inputs), on_example recorder and evaluate hook.
type factoryParts struct {
	random   workflow.InputSource
	recorder workflow.Recorder
	hook     workflow.Hook
}

// factoryTask builds what a bound factory task's run talks to besides its
// oracle (NewOracle): every call goes to the shim in the oracle's sandbox,
// but the evaluate hook's, which runs where candidates run.
func factoryTask(c *config.Config, boxes *Sandboxes, workspace string, log *zap.Logger) (*factoryParts, error) {
	b, err := loadBinding(c)
	if err != nil {
		return nil, err
	}
	d, err := boundDescription(c)
	if err != nil {
		return nil, err
	}
	name := "task.factory " + c.Task.Factory
	p := &factoryParts{}
	if d.RandomInputs {
		p.random = oracle.NewGeneratorProgram(boxes.Oracle, b.Program(binding.EntryGenerate), name+" random_inputs", c.Sandbox.Limits())
	}
	if d.OnExample {
		p.recorder = newExampleHook(b, boxes.Oracle, c.Sandbox.Limits(), filepath.Join(workspace, BindingLog), log)
	}
	if d.Evaluate {
		p.hook = &evaluateHook{b: b, box: boxes.Eval, function: c.Task.FunctionName}
	}
	return p, nil
}

// evaluateHook runs a candidate through the task's evaluate(program_path,
// inputs), in the evaluator's sandbox; the workflow holds its outcomes
// against the candidate's own (workflow.Hook).
type evaluateHook struct {
	b        *binding.Binding
	box      binding.Caller
	function string
}

func (h *evaluateHook) Evaluate(ctx context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error) {
	return h.b.Evaluate(ctx, h.box, req.Program.Source, h.function, req.Inputs, req.Limits)
}

// Bounds of the binding log: what one on_example call may add, and the
// whole file. A value over the first is replaced by a line saying so; past
// the second nothing more is written, and the run says so once.
const (
	MaxBindingLogLine  = 64 << 10
	MaxBindingLogBytes = 16 << 20
)

// exampleHook calls the task's on_example(input, output, source) for every
// observed example, in order, in the oracle's sandbox, and appends what it
// returns to the workspace's binding log, within its bounds. A failing
// hook is logged with its name; it never ends the run.
type exampleHook struct {
	b    *binding.Binding
	box  binding.Caller
	lim  sandbox.Limits
	path string
	log  *zap.Logger
	mu   sync.Mutex
	// size is the log's size so far (-1: not looked at yet); full is set
	// once it reached MaxBindingLogBytes.
	size int64
	full bool
}

func newExampleHook(b *binding.Binding, box binding.Caller, lim sandbox.Limits, path string, log *zap.Logger) *exampleHook {
	// lim is the oracle's own: the resident process that serves the
	// oracle serves on_example only under the same limits.
	return &exampleHook{b: b, box: box, lim: lim, path: path, log: log, size: -1}
}

func (h *exampleHook) RecordEvent(context.Context, workflow.Event) error { return nil }

func (h *exampleHook) RecordExamples(ctx context.Context, _ string, examples []task.Example) error {
	if len(examples) == 0 {
		return nil
	}
	ins := make([]json.RawMessage, len(examples))
	for i, ex := range examples {
		ins[i], _ = json.Marshal(map[string]any{"input": ex.Input, "output": ex.Output, "source": ex.Source})
	}
	outs, err := h.box.Call(ctx, sandbox.CallRequest{Program: h.b.Program(binding.EntryOnExample), Inputs: ins, Limits: h.lim})
	if err != nil {
		h.log.Warn("hook on_example failed", zap.String("factory", h.b.Factory()), zap.Error(err))
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.full {
		return nil
	}
	f, err := os.OpenFile(h.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		h.log.Warn("hook on_example: open the binding log", zap.Error(err))
		return nil
	}
	defer f.Close()
	if h.size < 0 {
		if st, err := f.Stat(); err == nil {
			h.size = st.Size()
		}
	}
	w := bufio.NewWriter(f)
	// One warning a batch, with the first failure: a hook that raises on
	// every example would otherwise fill the log.
	failed, first := 0, error(nil)
	tooLong, _ := json.Marshal(map[string]any{"reconstruct": "on_example returned more than a line of the binding log takes; left out", "limit_bytes": MaxBindingLogLine})
	for _, o := range outs {
		v, err := binding.OutcomeValue(h.b.Factory(), "on_example", o, h.lim)
		switch {
		case o.Status == sandbox.StatusOutputLimit || (err == nil && len(v) > MaxBindingLogLine):
			v = tooLong
		case err != nil:
			if failed++; first == nil {
				first = err
			}
			continue
		case string(v) == "null":
			continue
		}
		if h.size+int64(len(v))+1 > MaxBindingLogBytes {
			h.full = true
			h.log.Warn("the binding log is full: on_example's results are no longer written",
				zap.String("file", h.path), zap.Int("limit_bytes", MaxBindingLogBytes))
			break
		}
		w.Write(append(v, '\n'))
		h.size += int64(len(v)) + 1
	}
	if failed > 0 {
		h.log.Warn("hook on_example failed", zap.Int("failed", failed), zap.Int("examples", len(outs)), zap.Error(first))
	}
	if err := w.Flush(); err != nil {
		h.log.Warn("hook on_example: write the binding log", zap.Error(err))
	}
	return nil
}

// taskToolSpecs are a task's callable tools as the LLM agent checks them
// (without a way to call them).
func taskToolSpecs(d *binding.Description) []llm.TaskTool {
	out := make([]llm.TaskTool, len(d.CallableTools))
	for i, spec := range d.CallableTools {
		props := map[string]any{}
		required := []string{}
		for _, p := range spec.Params {
			s := map[string]any{}
			if p.Type != "" {
				s["type"] = p.Type
			}
			props[p.Name] = s
			if p.Required {
				required = append(required, p.Name)
			}
		}
		desc := spec.Doc
		if desc == "" {
			desc = "A tool of the task's own."
		}
		if spec.Path != "" {
			desc += "\n(It is run on the current candidate.py.)"
		}
		out[i] = llm.TaskTool{Name: spec.Name, Description: desc, TakesCandidate: spec.Path != "",
			Parameters: map[string]any{"type": "object", "properties": props, "required": required}}
	}
	return out
}

// taskTools are a bound task's callable tools for the LLM agent: each call
// runs the task's own code in a fresh process of the evaluator's sandbox,
// where candidates run, and the candidate it is given in a process of its
// own (binding.Binding.Tool).
func taskTools(c *config.Config, d *binding.Description, eval binding.Caller) ([]llm.TaskTool, error) {
	if len(d.CallableTools) == 0 {
		return nil, nil
	}
	b, err := loadBinding(c)
	if err != nil {
		return nil, err
	}
	tools := taskToolSpecs(d)
	for i := range tools {
		name := tools[i].Name
		tools[i].Call = func(ctx context.Context, source string, args json.RawMessage) (string, error) {
			out, err := b.Tool(ctx, eval, name, source, c.Task.FunctionName, args, c.Sandbox.Limits())
			var be *binding.Error
			switch {
			case errors.Is(err, binding.ErrInfra):
				return "", fmt.Errorf("%w: %w", llm.ErrToolInfrastructure, err)
			case errors.As(err, &be):
				return "", errors.New(be.Msg) // the model knows no factory
			}
			return out, err
		}
	}
	return tools, nil
}

// toolNames are the names of a task's callable tools.
func toolNames(specs []binding.ToolSpec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}
