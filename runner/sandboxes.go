package runner

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/sandbox/docker"
	"github.com/reconstruct/reconstruct/sandbox/process"
)

// Sandboxes are a run's isolation domains: the agent's (the workspace, for
// the tools of an agent that has them), the evaluator's (candidates are run
// and analysed for the workflow's verdict with no workspace in sight, so a
// candidate cannot read the observed examples from the journals) and the
// oracle's (the hidden program and input generator, no workspace).
type Sandboxes struct {
	// Agent is nil for agents without tools (synth, replay).
	Agent  sandbox.Sandbox
	Eval   sandbox.Sandbox
	Oracle sandbox.Sandbox
	// Kind is the backend actually used ("process" or "docker").
	Kind string
}

// Close closes every sandbox at once (removing containers takes a while
// each), keeping every error.
func (s *Sandboxes) Close() error {
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i, b := range []sandbox.Sandbox{s.Agent, s.Eval, s.Oracle} {
		if b == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = b.Close()
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// oracleDir is the directory the oracle's sandbox may read: the hidden
// program's (generators must live beside it or below it), or the task
// directory for a command.
func oracleDir(c *config.Config) string {
	if c.Task.Factory != "" {
		return c.Task.BindingDir()
	}
	if len(c.Task.Oracle.Command) > 0 {
		return filepath.Dir(c.File)
	}
	if c.Task.Oracle.Python != "" {
		return filepath.Dir(c.Task.Oracle.Python)
	}
	if g := c.Task.RandomInputs; g != nil {
		return filepath.Dir(g.Python)
	}
	return filepath.Dir(c.File)
}

// OpenSandboxes starts the configured backend for the evaluator's and the
// oracle's domains; the agent's, which needs the workspace, is started by
// OpenAgent once the workspace exists.
func OpenSandboxes(ctx context.Context, c *config.Config, runID string, log *zap.Logger) (*Sandboxes, error) {
	kind, err := chooseKind(ctx, c, log)
	if err != nil {
		return nil, err
	}
	s := &Sandboxes{Kind: kind}
	fail := func(role string, err error) (*Sandboxes, error) {
		s.Close()
		return nil, fmt.Errorf("%w: start the %s's %s sandbox: %w", ErrInfra, role, kind, err)
	}
	if s.Eval, err = openScratch(ctx, c, kind, runID, "evaluator", log); err != nil {
		return fail("evaluator", err)
	}
	if s.Oracle, err = openBox(ctx, c, kind, runID, "oracle", oracleDir(c), log); err != nil {
		return fail("oracle", err)
	}
	return s, nil
}

// OpenAgent starts the agent's sandbox on the workspace, for agents with
// tools (the LLM agent); the others need none.
func (s *Sandboxes) OpenAgent(ctx context.Context, c *config.Config, runID, workspace string, log *zap.Logger) error {
	if c.Agent.Kind != "llm" {
		return nil
	}
	box, err := openBox(ctx, c, s.Kind, runID, "agent", workspace, log)
	if err != nil {
		return fmt.Errorf("%w: start the agent's %s sandbox: %w", ErrInfra, s.Kind, err)
	}
	s.Agent = box
	return nil
}

// openBox starts one sandbox of the chosen backend bound to dir; an empty
// dir is a scratch directory of its own (the process sandbox makes and
// removes one; a Docker container gets a size-bounded tmpfs).
func openBox(ctx context.Context, c *config.Config, kind, runID, role, dir string, log *zap.Logger) (sandbox.Sandbox, error) {
	// A failed start returns a nil interface, never a typed nil pointer
	// that Sandboxes.Close would then call.
	if kind == "docker" {
		box, err := openDocker(ctx, c, runID, role, dir, log)
		if err != nil {
			return nil, err
		}
		return box, nil
	}
	opts := process.Options{Dir: dir, Python: c.Sandbox.Python, Limits: Limits(c), Log: log.With(zap.String("sandbox", role))}
	if role == "oracle" {
		opts.Hide = hiddenFromOracle(c, dir)
	}
	box, err := process.New(ctx, opts)
	if err != nil {
		return nil, err
	}
	return box, nil
}

// openScratch starts a sandbox with an empty working directory of its own.
func openScratch(ctx context.Context, c *config.Config, kind, runID, role string, log *zap.Logger) (sandbox.Sandbox, error) {
	return openBox(ctx, c, kind, runID, role, "", log)
}

// hiddenFromOracle lists the held-out test files under the oracle's
// directory (relative to it): the hidden program's sandbox must not read
// them either.
func hiddenFromOracle(c *config.Config, dir string) []string {
	hide := []string{docker.HeldoutFile}
	if h := c.Task.Heldout; h != "" {
		if rel, err := filepath.Rel(dir, h); err == nil && rel != docker.HeldoutFile && !strings.HasPrefix(rel, "..") {
			hide = append(hide, rel)
		}
	}
	return hide
}

// OpenScoringSandbox starts one sandbox with no workspace to run a program
// on held-out tests.
func OpenScoringSandbox(ctx context.Context, c *config.Config, log *zap.Logger) (sandbox.Sandbox, error) {
	kind, err := chooseKind(ctx, c, log)
	if err != nil {
		return nil, err
	}
	box, err := openScratch(ctx, c, kind, NewRunID(), "score", log)
	if err != nil {
		return nil, fmt.Errorf("%w: start the %s sandbox: %w", ErrInfra, kind, err)
	}
	return box, nil
}
