// Package runner turns a loaded configuration into a running workflow: it
// starts the sandboxes (the agent's and the oracle's), the oracle, the
// agent, the candidate archive and the recorders, runs workflow.Run and
// closes everything. The CLI and the benchmark runner both use it.
package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/agent/replay"
	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/backend"
	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/oracle"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/workflow"
)

// ErrInfra marks failures of the infrastructure (sandbox, endpoints), as
// opposed to bad configuration.
var ErrInfra = errors.New("infrastructure failure")

// ErrConfig marks a configuration that cannot be run.
var ErrConfig = errors.New("configuration error")

// Options are the non-configuration parts of a run.
type Options struct {
	Log      *zap.Logger
	Progress io.Writer
	// RunID is generated when empty.
	RunID string
	// Recorders are added to the workspace's file recorder.
	Recorders []workflow.Recorder
	// Bank, when set, records the run instead of the bank file of the
	// configuration (bank.enabled still decides whether a run is recorded).
	Bank *bank.Bank
	// Config, when set, replaces the recorded configuration of a resumed
	// run: a run continued on another machine, where the task's files and
	// the workspace are elsewhere. It must name the same task and function.
	Config *config.Config
}

// NewRunID returns a sortable, unique run id.
func NewRunID() string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
}

// Limits converts the sandbox section to per-call limits.
func Limits(c *config.Config) sandbox.Limits {
	return sandbox.Limits{
		Timeout:     c.Sandbox.CallTimeout,
		MemoryBytes: int64(c.Sandbox.MemoryMB) << 20,
		OutputBytes: int64(c.Sandbox.OutputKB) << 10,
	}
}

// Settings converts the workflow section.
func Settings(c *config.Config) workflow.Settings {
	w := c.Workflow
	return workflow.Settings{
		InitialBatch: w.InitialBatch, BatchStep: w.BatchStep, EarlyStop: w.EarlyStop,
		MaxIterations: w.MaxIterations, ProposeAttempts: w.ProposeAttempts, RandomShare: w.RandomShare,
		CoverageGate: w.CoverageGate, MemorisationGate: w.MemorisationGate, ComplexityGate: w.ComplexityGate,
		DomainCheck: w.DomainCheck, TokenBudget: w.TokenBudget, Atol: w.Atol, MaxFailures: w.MaxFailures, Seed: w.Seed,
	}
}

// Run executes one configured run end to end.
func Run(ctx context.Context, c *config.Config, opts Options) (*workflow.Result, error) {
	runID := opts.RunID
	if runID == "" {
		runID = NewRunID()
	}
	l := launch{c: c, opts: opts, runID: runID, meta: map[string]any{"config": c}}
	if !c.Bank.Enabled {
		return l.execute(ctx)
	}
	b, closeBank, err := l.bank(ctx)
	if err != nil {
		return nil, err
	}
	defer closeBank()
	ws := RunWorkspaceName(c.Task.Name, runID)
	if l.bankRec, err = NewRunWorkspace(ctx, b, ws, c.Task.FunctionName); err != nil {
		return nil, err
	}
	l.meta["bank_workspace"] = ws
	return l.execute(ctx)
}

// Resume continues an interrupted run from the bank at bankPath: no
// observed example is lost or asked again, and the archive and counts are
// restored. The run's own recorded configuration is used.
func Resume(ctx context.Context, bankPath, run string, opts Options) (*workflow.Result, error) {
	l := launch{opts: opts}
	b, closeBank, err := l.openBank(ctx, bankPath)
	if err != nil {
		return nil, err
	}
	defer closeBank()
	ws, err := FindRun(ctx, b, run)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	events, err := RunEvents(ctx, b, ws)
	if err != nil {
		return nil, err
	}
	c, err := recordedConfig(events)
	if err != nil {
		return nil, fmt.Errorf("%w: run %s: %v", ErrConfig, run, err)
	}
	if opts.Config != nil {
		if err := sameTask(opts.Config, run, c); err != nil {
			return nil, err
		}
		c = opts.Config
	}
	st, err := workflow.StateFromEvents(events)
	if err != nil {
		return nil, fmt.Errorf("%w: resume run %s: %w", ErrConfig, run, err)
	}
	l.c, l.runID, l.state = c, events[0].RunID, st
	if l.bankRec, err = ContinueRunWorkspace(ctx, b, ws, c.Task.FunctionName, st.Examples); err != nil {
		return nil, err
	}
	// The bank is the record: the workspace's journal files are rewritten
	// from it, so that both hold the same events one for one.
	if err := workflow.WriteJournal(c.Workspace, events, st.Examples); err != nil {
		return nil, err
	}
	return l.execute(ctx)
}

// Fork starts a new run, with the settings of c, from an earlier run's
// examples and candidates, recorded as a fork of its bank workspace.
func Fork(ctx context.Context, c *config.Config, fromRun string, opts Options) (*workflow.Result, error) {
	runID := opts.RunID
	if runID == "" {
		runID = NewRunID()
	}
	l := launch{c: c, opts: opts, runID: runID}
	b, closeBank, err := l.bank(ctx)
	if err != nil {
		return nil, err
	}
	defer closeBank()
	src, err := FindRun(ctx, b, fromRun)
	if err != nil {
		return nil, fmt.Errorf("%w: --fork: %v", ErrConfig, err)
	}
	events, err := RunEvents(ctx, b, src)
	if err != nil {
		return nil, err
	}
	parent, err := recordedConfig(events)
	if err != nil {
		return nil, fmt.Errorf("%w: run %s: %v", ErrConfig, fromRun, err)
	}
	if err := sameTask(c, fromRun, parent); err != nil {
		return nil, err
	}
	st, err := workflow.ForkState(events)
	if err != nil {
		return nil, fmt.Errorf("%w: fork run %s: %w", ErrConfig, fromRun, err)
	}
	if err := copyCandidates(parent.Workspace, c.Workspace, runID, st); err != nil {
		return nil, err
	}
	head, err := b.Load(ctx, src, "")
	if err != nil {
		return nil, err
	}
	ws := RunWorkspaceName(c.Task.Name, runID)
	if _, err := b.Fork(ctx, src, ws, head.Name); err != nil {
		return nil, fmt.Errorf("fork bank workspace %s: %w", src, err)
	}
	if l.bankRec, err = ContinueRunWorkspace(ctx, b, ws, c.Task.FunctionName, st.Examples); err != nil {
		return nil, err
	}
	if err := workflow.WriteJournal(c.Workspace, nil, st.Examples); err != nil {
		return nil, err
	}
	l.state, l.fork = st, true
	l.meta = map[string]any{"config": c, "bank_workspace": ws, "forked_from": events[0].RunID}
	return l.execute(ctx)
}

// sameTask checks that c reconstructs the task that run (recorded with
// configuration rc) reconstructs.
func sameTask(c *config.Config, run string, rc *config.Config) error {
	if rc.Task.Name != c.Task.Name || rc.Task.FunctionName != c.Task.FunctionName {
		return fmt.Errorf("%w: %s: run %s reconstructs %s (%s), this configuration %s (%s)", ErrConfig, c.File,
			run, rc.Task.Name, rc.Task.FunctionName, c.Task.Name, c.Task.FunctionName)
	}
	return nil
}

// recordedConfig is the configuration a run recorded when it started.
func recordedConfig(events []workflow.Event) (*config.Config, error) {
	for _, ev := range events {
		if ev.Type != workflow.EventRunStarted {
			continue
		}
		var rs workflow.RunStarted
		if err := json.Unmarshal(ev.Data, &rs); err != nil {
			return nil, err
		}
		if len(rs.Config) == 0 {
			return nil, errors.New("its run_started event holds no configuration")
		}
		var c config.Config
		if err := json.Unmarshal(rs.Config, &c); err != nil {
			return nil, fmt.Errorf("recorded configuration: %w", err)
		}
		return &c, nil
	}
	return nil, errors.New("no run_started event")
}

// copyCandidates copies the archived candidates of a forked run into the
// new run's archive, under the new run id.
func copyCandidates(fromWorkspace, toWorkspace, runID string, st *workflow.State) error {
	if len(st.Archived) == 0 {
		return nil
	}
	from, err := candidates.OpenExisting(fromWorkspace)
	if err != nil {
		return fmt.Errorf("fork: %w", err)
	}
	to, err := candidates.Open(toWorkspace)
	if err != nil {
		return err
	}
	for i, rec := range st.Archived {
		src, err := from.Source(rec)
		if err != nil {
			return fmt.Errorf("fork: %w", err)
		}
		tr, err := from.Transcript(rec)
		if err != nil {
			return fmt.Errorf("fork: %w", err)
		}
		rec.RunID = runID
		if st.Archived[i], err = to.Add(rec, src, tr); err != nil {
			return err
		}
	}
	return nil
}

// archiveAfterFailure bounds storing the workspace archive of a run that
// failed.
const archiveAfterFailure = 10 * time.Second

// launch is one run about to execute.
type launch struct {
	c       *config.Config
	opts    Options
	runID   string
	state   *workflow.State
	fork    bool
	bankRec *BankRecorder
	meta    map[string]any
}

// bank returns the injected bank or opens the configured one.
func (l *launch) bank(ctx context.Context) (*bank.Bank, func() error, error) {
	return l.openBank(ctx, l.c.Bank.Path)
}

func (l *launch) openBank(ctx context.Context, path string) (*bank.Bank, func() error, error) {
	if l.opts.Bank != nil {
		return l.opts.Bank, func() error { return nil }, nil
	}
	b, closeFn, err := OpenBank(ctx, path, l.opts.Log, nil)
	if errors.Is(err, bank.ErrSchema) || errors.Is(err, backend.ErrSetting) {
		return nil, nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrInfra, err)
	}
	return b, closeFn, nil
}

func (l *launch) execute(ctx context.Context) (*workflow.Result, error) {
	c, opts := l.c, l.opts
	log := opts.Log
	if log == nil {
		log = zap.NewNop()
	}
	log = log.With(zap.String("run", l.runID), zap.String("task", c.Task.Name))
	workspace, err := filepath.Abs(c.Workspace)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(workspace, 0o755); err != nil {
		return nil, fmt.Errorf("create workspace %s: %w", workspace, err)
	}
	// The sandboxes outlive a cancelled run long enough to select the final
	// program among the archived candidates; they are closed on return.
	boxCtx, cancelBoxes := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelBoxes()
	boxes, err := OpenSandboxes(boxCtx, c, l.runID, workspace, log)
	if err != nil {
		return nil, err
	}
	defer boxes.Close()

	orc, err := NewOracle(c, boxes.Oracle)
	if err != nil {
		return nil, err
	}
	defer orc.Close()
	ag, err := NewAgent(ctx, c, boxes.Agent, log)
	if err != nil {
		return nil, err
	}
	archive, err := candidates.Open(workspace)
	if err != nil {
		return nil, err
	}
	files, err := workflow.NewFileRecorder(workspace, l.state != nil)
	if err != nil {
		return nil, err
	}
	defer files.Close()
	var recorders []workflow.Recorder
	if l.bankRec != nil {
		// The bank first: it is the record a resumed run reads back.
		recorders = append(recorders, l.bankRec)
	}
	recorders = append(append(recorders, files), opts.Recorders...)
	deps := workflow.Deps{Agent: ag, Oracle: orc, Evaluator: boxes.Eval, Archive: archive, Recorders: recorders}
	if g := c.Task.RandomInputs; g != nil {
		deps.Random = oracle.NewGenerator(boxes.Oracle, g.Python, g.Function, Limits(c))
	}
	spec := workflow.Spec{
		Task: c.Task.Describe(), Settings: Settings(c), Workspace: workspace, RunID: l.runID,
		Limits: Limits(c), Log: log, Progress: opts.Progress, Resume: l.state, Fork: l.fork, Meta: l.meta,
	}
	res, err := workflow.Run(ctx, spec, deps)
	if l.bankRec != nil {
		// Another machine sharing the bank can then inspect the run's
		// candidates; the workspace on disk stays the run's own record.
		actx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		if err != nil {
			// The bank may be what failed: do not wait out its retries twice.
			actx, cancel = context.WithTimeout(actx, archiveAfterFailure)
		}
		aerr := l.bankRec.RecordArchive(actx, workspace)
		cancel()
		if aerr != nil {
			log.Warn("the workspace archive was not stored in the bank", zap.Error(aerr))
		}
	}
	return res, err
}

// NewOracle builds the configured oracle.
func NewOracle(c *config.Config, box oracle.Runner) (oracle.Oracle, error) {
	o := c.Task.Oracle
	switch {
	case o.Python != "":
		lim := Limits(c)
		lim.Timeout = o.Timeout
		return oracle.NewPython(box, o.Python, o.Function, lim), nil
	case len(o.Command) > 0:
		return oracle.NewCommand(o.Command, filepath.Dir(c.File), o.Timeout), nil
	case o.HTTP != "":
		return oracle.NewHTTP(o.HTTP, o.Timeout, o.Retries), nil
	}
	return nil, fmt.Errorf("%w: %s: task.oracle: no hidden program configured", ErrConfig, c.File)
}

// NewAgent builds the configured agent.
func NewAgent(ctx context.Context, c *config.Config, box sandbox.Sandbox, log *zap.Logger) (agent.Agent, error) {
	switch c.Agent.Kind {
	case "replay":
		a, err := replay.Load(c.Agent.Replay.Script)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrConfig, err)
		}
		return a, nil
	}
	return newAgentKind(ctx, c, box, log)
}
