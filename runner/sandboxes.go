package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/sandbox/process"
)

// Sandboxes are a run's two isolation domains: the agent's (workspace,
// candidate evaluation, agent tools) and the oracle's (hidden program and
// input generator, no workspace).
type Sandboxes struct {
	Agent  sandbox.Sandbox
	Oracle sandbox.Sandbox
	// Kind is the backend actually used ("process" or "docker").
	Kind string
}

// Close closes both, keeping the first error.
func (s *Sandboxes) Close() error {
	var err error
	if s.Agent != nil {
		err = s.Agent.Close()
	}
	if s.Oracle != nil {
		err = errors.Join(err, s.Oracle.Close())
	}
	return err
}

// oracleDir is the directory the oracle's sandbox may read: the hidden
// program's (generators must live beside it or below it).
func oracleDir(c *config.Config) string {
	if c.Task.Oracle.Python != "" {
		return filepath.Dir(c.Task.Oracle.Python)
	}
	if g := c.Task.RandomInputs; g != nil {
		return filepath.Dir(g.Python)
	}
	return filepath.Dir(c.File)
}

// OpenSandboxes starts the configured backend for both domains.
func OpenSandboxes(ctx context.Context, c *config.Config, runID, workspace string, log *zap.Logger) (*Sandboxes, error) {
	kind, err := chooseKind(ctx, c, log)
	if err != nil {
		return nil, err
	}
	s := &Sandboxes{Kind: kind}
	open := func(role, dir string) (sandbox.Sandbox, error) {
		if kind == "docker" {
			return openDocker(ctx, c, runID, role, dir, workspace, log)
		}
		return process.New(ctx, process.Options{Dir: dir, Python: c.Sandbox.Python, Limits: Limits(c), Log: log.With(zap.String("sandbox", role))})
	}
	if s.Agent, err = open("agent", workspace); err != nil {
		return nil, fmt.Errorf("%w: start the agent's %s sandbox: %v", ErrInfra, kind, err)
	}
	if s.Oracle, err = open("oracle", oracleDir(c)); err != nil {
		s.Close()
		return nil, fmt.Errorf("%w: start the oracle's %s sandbox: %v", ErrInfra, kind, err)
	}
	return s, nil
}

// OpenScoringSandbox starts one sandbox with no workspace to run a program
// on held-out tests.
func OpenScoringSandbox(ctx context.Context, c *config.Config, log *zap.Logger) (sandbox.Sandbox, error) {
	kind, err := chooseKind(ctx, c, log)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "reconstruct-score-")
	if err != nil {
		return nil, err
	}
	var box sandbox.Sandbox
	if kind == "docker" {
		box, err = openDocker(ctx, c, NewRunID(), "score", dir, dir, log)
	} else {
		box, err = process.New(ctx, process.Options{Dir: dir, Python: c.Sandbox.Python, Limits: Limits(c), Log: log})
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%w: start the %s sandbox: %v", ErrInfra, kind, err)
	}
	return &tempDirSandbox{Sandbox: box, dir: dir}, nil
}

// tempDirSandbox removes its scratch directory on Close.
type tempDirSandbox struct {
	sandbox.Sandbox
	dir string
}

func (t *tempDirSandbox) Close() error {
	err := t.Sandbox.Close()
	return errors.Join(err, os.RemoveAll(t.dir))
}
