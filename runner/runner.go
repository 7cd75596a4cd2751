// Package runner turns a loaded configuration into a running workflow: it
// starts the sandboxes (the agent's and the oracle's), the oracle, the
// agent, the candidate archive and the recorders, runs workflow.Run and
// closes everything. The CLI and the benchmark runner both use it.
package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/agent/replay"
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
	// Resume continues a run from a recorded state.
	Resume *workflow.State
	// Recorders are added to the workspace's file recorder (e.g. the bank).
	Recorders []workflow.Recorder
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
	log := opts.Log
	if log == nil {
		log = zap.NewNop()
	}
	runID := opts.RunID
	if runID == "" {
		runID = NewRunID()
	}
	log = log.With(zap.String("run", runID), zap.String("task", c.Task.Name))
	workspace, err := filepath.Abs(c.Workspace)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(workspace, 0o755); err != nil {
		return nil, fmt.Errorf("create workspace %s: %w", workspace, err)
	}
	boxes, err := OpenSandboxes(ctx, c, runID, workspace, log)
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
	files, err := workflow.NewFileRecorder(workspace, opts.Resume != nil)
	if err != nil {
		return nil, err
	}
	defer files.Close()
	deps := workflow.Deps{
		Agent: ag, Oracle: orc, Evaluator: boxes.Agent, Archive: archive,
		Recorders: append([]workflow.Recorder{files}, opts.Recorders...),
	}
	if g := c.Task.RandomInputs; g != nil {
		deps.Random = oracle.NewGenerator(boxes.Oracle, g.Python, g.Function, Limits(c))
	}
	spec := workflow.Spec{
		Task: c.Task.Describe(), Settings: Settings(c), Workspace: workspace, RunID: runID,
		Limits: Limits(c), Log: log, Progress: opts.Progress, Resume: opts.Resume,
	}
	return workflow.Run(ctx, spec, deps)
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
