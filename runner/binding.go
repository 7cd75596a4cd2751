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
	"time"

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
func changedBindingNotice(c *config.Config, b *binding.Binding) string {
	t := c.Task
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
// fills the task's fields from what it returned and records the
// description in c.Task.Bound (a run records its configuration, so a
// resumed run never calls the factory again). A task that is not a
// factory's, or is bound already, is left as it is. Nothing is created.
func Bind(ctx context.Context, c *config.Config, log *zap.Logger) error {
	if c.Task.Factory == "" || c.Task.Bound != nil {
		return nil
	}
	if log == nil {
		log = zap.NewNop()
	}
	box, err := OpenBindingSandbox(ctx, c, log)
	if err != nil {
		return err
	}
	defer box.Close()
	return BindIn(ctx, c, box)
}

// OpenBindingSandbox starts a sandbox set up as a factory task's oracle's.
func OpenBindingSandbox(ctx context.Context, c *config.Config, log *zap.Logger) (sandbox.Sandbox, error) {
	kind, err := chooseKind(ctx, c, log)
	if err != nil {
		return nil, err
	}
	box, err := openBox(ctx, c, kind, NewRunID(), "oracle", oracleDir(c), log)
	if err != nil {
		return nil, fmt.Errorf("%w: start the binding's %s sandbox: %w", ErrInfra, kind, err)
	}
	return box, nil
}

// BindIn is Bind in a sandbox of the caller's, bound to c.Task.BindingDir().
func BindIn(ctx context.Context, c *config.Config, box binding.Caller) error {
	if c.Task.Factory == "" || c.Task.Bound != nil {
		return nil
	}
	b, err := loadBinding(c)
	if err != nil {
		return err
	}
	d, err := b.Describe(ctx, box, Limits(c))
	if err != nil {
		return bindingErr(c, err)
	}
	t := &c.Task
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s: task.factory %s: %s", ErrConfig, c.File, t.Factory, fmt.Sprintf(format, args...))
	}
	if t.Name == "" {
		t.Name = d.Name
	}
	if t.Name == "" {
		_, attr, _ := strings.Cut(t.Factory, ":")
		t.Name = attr[strings.LastIndex(attr, ".")+1:]
	}
	t.Level = cmpOr(t.Level, d.Level)
	t.Family = cmpOr(t.Family, d.Family)
	t.InputType, t.InputConstraints, t.Kind = d.InputType, d.InputConstraints, d.Kind
	if d.FunctionName != "" {
		t.FunctionName = d.FunctionName
	}
	switch {
	case d.Lo != nil && d.Hi != nil:
		t.Domain = &task.Domain{Lo: *d.Lo, Hi: *d.Hi}
	case d.Lo != nil || d.Hi != nil:
		return bad("the returned task has only one of lo and hi: give both, or neither")
	}
	if err := llm.CheckTools(d.Tools, true); err != nil && c.Agent.Kind == "llm" {
		return bad("%v", err)
	}
	if c.Workflow.RandomShare > 0 && !d.RandomInputs {
		return bad("workflow.random_share is %g but the returned task has no random_inputs", c.Workflow.RandomShare)
	}
	raw, err := json.Marshal(d)
	if err != nil {
		return err
	}
	t.Bound = &config.Bound{Description: raw, Files: b.Digests}
	if err := c.CheckBound(d.RandomInputs); err != nil {
		t.Bound = nil
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// bindingErr marks an error of a binding call: the binding's own mistakes
// are configuration errors, the sandbox's failures infrastructure ones.
func bindingErr(c *config.Config, err error) error {
	var be *binding.Error
	if errors.As(err, &be) {
		return fmt.Errorf("%w: %s: %w", ErrConfig, c.File, err)
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
// random_inputs), hooks and the evaluator to use.
type factoryParts struct {
	random    workflow.InputSource
	recorder  workflow.Recorder
	evaluator workflow.Evaluator
}

// factoryTask builds what a bound factory task's run talks to besides its
// oracle (NewOracle): every call goes to the shim in the oracle's sandbox
// (the evaluate hook's, in the evaluator's).
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
	p := &factoryParts{evaluator: boxes.Eval}
	if d.RandomInputs {
		p.random = oracle.NewGeneratorProgram(boxes.Oracle, b.Program(binding.EntryGenerate), name+" random_inputs", Limits(c))
	}
	if d.OnExample {
		p.recorder = &exampleHook{b: b, box: boxes.Oracle, lim: Limits(c), path: filepath.Join(workspace, BindingLog), log: log}
	}
	if d.Evaluate {
		p.evaluator = &evaluateHook{Evaluator: boxes.Eval, b: b, function: c.Task.FunctionName, log: log}
	}
	return p, nil
}

// exampleHook calls the task's on_example(input, output, source) for every
// observed example, in the oracle's sandbox, and appends what it returns
// to the workspace's binding log. A failing hook is logged with its name;
// it never ends the run.
type exampleHook struct {
	b    *binding.Binding
	box  binding.Caller
	lim  sandbox.Limits
	path string
	log  *zap.Logger
	mu   sync.Mutex
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
	f, err := os.OpenFile(h.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		h.log.Warn("hook on_example: open the binding log", zap.Error(err))
		return nil
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	// One warning a batch, with the first failure: a hook that raises on
	// every example would otherwise fill the log.
	failed, first := 0, error(nil)
	for _, o := range outs {
		v, err := binding.OutcomeValue(h.b.Factory(), "on_example", o, h.lim)
		if err != nil {
			if failed++; first == nil {
				first = err
			}
			continue
		}
		if string(v) != "null" {
			w.Write(append(v, '\n'))
		}
	}
	if failed > 0 {
		h.log.Warn("hook on_example failed", zap.Int("failed", failed), zap.Int("examples", len(outs)), zap.Error(first))
	}
	if err := w.Flush(); err != nil {
		h.log.Warn("hook on_example: write the binding log", zap.Error(err))
	}
	return nil
}

// evaluateHook runs a candidate through the task's evaluate(program_path,
// inputs), in the evaluator's sandbox, instead of calling it directly. A
// hook that fails is logged with its name and the candidate is evaluated
// the built-in way.
type evaluateHook struct {
	workflow.Evaluator
	b        *binding.Binding
	function string
	log      *zap.Logger
}

func (h *evaluateHook) Call(ctx context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error) {
	if req.Program.Source == "" || req.Program.Function != h.function || len(req.Inputs) == 0 {
		return h.Evaluator.Call(ctx, req)
	}
	job, err := json.Marshal(map[string]any{"source": req.Program.Source, "function_name": h.function, "inputs": req.Inputs})
	if err != nil {
		return nil, err
	}
	lim := req.Limits
	lim.Timeout = lim.WithDefaults().Timeout * time.Duration(len(req.Inputs))
	outs, err := h.Evaluator.Call(ctx, sandbox.CallRequest{Program: h.b.Program(binding.EntryEvaluate), Inputs: []json.RawMessage{job}, Limits: lim})
	if err == nil && len(outs) == 1 {
		v, verr := binding.OutcomeValue(h.b.Factory(), "evaluate", outs[0], lim)
		var vals []json.RawMessage
		if verr == nil && json.Unmarshal(v, &vals) == nil && len(vals) == len(req.Inputs) {
			res := make([]sandbox.Outcome, len(vals))
			for i, x := range vals {
				res[i] = sandbox.Outcome{Status: sandbox.StatusOK, Output: x, Seconds: outs[0].Seconds / float64(len(vals))}
			}
			return res, nil
		}
		err = verr
	}
	h.log.Warn("hook evaluate failed; the candidate is evaluated the built-in way", zap.String("factory", h.b.Factory()), zap.Error(err))
	return h.Evaluator.Call(ctx, req)
}
