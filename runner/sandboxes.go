package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/bank/backend"
	"github.com/reconstruct/reconstruct/bank/sqlite"
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
	// unstage removes the copy of a factory task's binding the oracle's
	// sandbox works in (nil for other tasks).
	unstage func()
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
		wg.Go(func() { errs[i] = b.Close() })
	}
	wg.Wait()
	if s.unstage != nil {
		s.unstage()
		s.unstage = nil
	}
	return errors.Join(errs...)
}

// opener starts the sandbox of one role ("evaluator" or "oracle"); the
// sandbox lives until it is closed or ctx ends.
type opener func(ctx context.Context, role string) (sandbox.Sandbox, error)

// start starts the evaluator's and the oracle's sandboxes at once: a start
// is mostly waiting (on the Docker engine, on the harness's interpreter),
// about a second each on a loaded machine, and the two do not depend on
// each other. When one fails, the other is closed once it started, so
// nothing is left running; the error is the first failure. The other's
// start is not cancelled: a container create cancelled on the client's
// side may still be made by the engine, unlabelled by any instance that
// would remove it.
func (s *Sandboxes) start(ctx context.Context, open opener) error {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	for _, b := range []struct {
		role string
		box  *sandbox.Sandbox
	}{{"evaluator", &s.Eval}, {"oracle", &s.Oracle}} {
		wg.Go(func() {
			box, err := open(ctx, b.role)
			if err != nil {
				mu.Lock()
				errs = append(errs, fmt.Errorf("start the %s's %s sandbox: %w", b.role, s.Kind, err))
				mu.Unlock()
				return
			}
			*b.box = box
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		s.Close()
		s.Eval, s.Oracle = nil, nil
		return errs[0]
	}
	return nil
}

// oracleDir is the directory the oracle's sandbox may read: the hidden
// program's (generators must live beside it or below it), or the task
// directory for a command. A factory task's oracle works in a copy of its
// binding instead (stageBinding).
func oracleDir(c *config.Config) string {
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
// oracle's domains, both at once; the agent's, which needs the workspace,
// is started by OpenAgent once the workspace exists.
func OpenSandboxes(ctx context.Context, c *config.Config, runID string, log *zap.Logger) (*Sandboxes, error) {
	kind, err := chooseKind(ctx, c.Sandbox, log)
	if err != nil {
		return nil, err
	}
	s := &Sandboxes{Kind: kind}
	dir := oracleDir(c)
	if c.Task.Factory != "" {
		if dir, s.unstage, err = stageBinding(c); err != nil {
			return nil, err
		}
	}
	err = s.start(ctx, func(ctx context.Context, role string) (sandbox.Sandbox, error) {
		if role == "oracle" {
			if c.Task.Factory != "" {
				return openBox(ctx, c.Sandbox, kind, runID, role, dir, hiddenFromOracle(c.Task.Heldout, dir), log)
			}
			return openOracle(ctx, c, kind, runID, log)
		}
		return openScratch(ctx, c.Sandbox, kind, runID, role, log)
	})
	if err != nil {
		s.Close()
		if errors.Is(err, sandbox.ErrStage) {
			return nil, fmt.Errorf("%w: %s: %w", ErrConfig, c.File, err)
		}
		return nil, fmt.Errorf("%w: %w", ErrInfra, err)
	}
	return s, nil
}

// openOracle starts the oracle's sandbox on a copy of the hidden program's
// directory (sandbox.Stage), which holds nothing the hidden program must
// not see: not the held-out tests under any name, not the workspace nor
// any other (the candidates), not the bank. (A factory task's sandbox
// works in a copy of its binding: stageBinding.)
func openOracle(ctx context.Context, c *config.Config, kind, runID string, log *zap.Logger) (sandbox.Sandbox, error) {
	dir := oracleDir(c)
	exclude := []string{c.Workspace}
	if b := c.Bank.Path; b != "" && !backend.IsPostgres(b) {
		exclude = append(exclude, b, b+"-wal", b+"-shm", b+"-journal", sqlite.KeyFile(b))
	}
	st, err := sandbox.NewStage(dir, sandbox.StageOptions{Secret: hiddenFromOracle(c.Task.Heldout, dir), Exclude: exclude})
	if err != nil {
		return nil, fmt.Errorf("copy %s for the oracle's sandbox: %w", dir, err)
	}
	for _, s := range st.Skipped {
		log.Info("not copied for the oracle's sandbox", zap.String("dir", dir), zap.String("file", s))
	}
	box, err := openBox(ctx, c.Sandbox, kind, runID, "oracle", st.Dir, hiddenFromOracle(c.Task.Heldout, st.Dir), log)
	if err != nil {
		st.Remove()
		return nil, err
	}
	return sandbox.Staged(box, st), nil
}

// stageBinding copies a factory task's binding — its modules and its
// package's files, as binding.Load reads them — into a directory of its
// own for the oracle's sandbox to work in, so that the binding's own
// directory may be private to its owner (mode 0700) and nothing else of it
// (a workspace, held-out tests) is in the sandbox's sight. The copy lies
// under a directory other users cannot list, behind a random name. remove
// deletes it.
func stageBinding(c *config.Config) (dir string, remove func(), err error) {
	b, err := loadBinding(c)
	if err != nil {
		return "", nil, err
	}
	top, err := os.MkdirTemp("", "reconstruct-binding-")
	if err != nil {
		return "", nil, fmt.Errorf("%w: copy the binding: %w", ErrInfra, err)
	}
	remove = func() { os.RemoveAll(top) }
	var name [16]byte
	rand.Read(name[:])
	dir = filepath.Join(top, hex.EncodeToString(name[:]))
	err = errors.Join(os.Chmod(top, 0o711), os.Mkdir(dir, 0o755), os.Chmod(dir, 0o755))
	if err == nil {
		err = b.Stage(dir)
	}
	if err != nil {
		remove()
		return "", nil, fmt.Errorf("%w: copy the binding: %w", ErrInfra, err)
	}
	return dir, remove, nil
}

// OpenAgent starts the agent's sandbox on the workspace, for agents with
// tools (the LLM agent); the others need none.
func (s *Sandboxes) OpenAgent(ctx context.Context, c *config.Config, runID, workspace string, log *zap.Logger) error {
	if !needsAgentBox(c.Agent) {
		return nil
	}
	box, err := openBox(ctx, c.Sandbox, s.Kind, runID, "agent", workspace, nil, log)
	if err != nil {
		return fmt.Errorf("%w: start the agent's %s sandbox: %w", ErrInfra, s.Kind, err)
	}
	s.Agent = box
	return nil
}

// needsAgentBox reports whether the configured agent has tools, which run
// in a sandbox of their own on the workspace.
func needsAgentBox(a config.Agent) bool { return a.Kind == "llm" }

// openBox starts one sandbox of the chosen backend bound to dir; an empty
// dir is a scratch directory of its own (the process sandbox makes and
// removes one; a Docker container gets a size-bounded tmpfs). The oracle's
// sandbox hides the files hide lists (relative to dir).
func openBox(ctx context.Context, s config.Sandbox, kind, runID, role, dir string, hide []string, log *zap.Logger) (sandbox.Sandbox, error) {
	// A failed start returns a nil interface, never a typed nil pointer
	// that Sandboxes.Close would then call.
	if kind == "docker" {
		box, err := openDocker(ctx, s, runID, role, dir, hide, log)
		if err != nil {
			return nil, err
		}
		return box, nil
	}
	opts := process.Options{Dir: dir, Python: s.Python, Limits: s.Limits(), Log: log.With(zap.String("sandbox", role))}
	if role == "oracle" {
		opts.Hide = hide
	}
	box, err := process.New(ctx, opts)
	if err != nil {
		return nil, err
	}
	return box, nil
}

// openScratch starts a sandbox with an empty working directory of its own.
func openScratch(ctx context.Context, s config.Sandbox, kind, runID, role string, log *zap.Logger) (sandbox.Sandbox, error) {
	return openBox(ctx, s, kind, runID, role, "", nil, log)
}

// hiddenFromOracle lists the held-out test files (heldout, task.heldout,
// and the usual name) under the oracle's directory (relative to it): the
// hidden program's sandbox must not read them either.
func hiddenFromOracle(heldout, dir string) []string {
	hide := []string{docker.HeldoutFile}
	if h := heldout; h != "" {
		if rel, err := filepath.Rel(dir, h); err == nil && rel != docker.HeldoutFile && !strings.HasPrefix(rel, "..") {
			hide = append(hide, rel)
		}
	}
	return hide
}

// OpenScoringSandbox starts one sandbox of the configuration's sandbox
// section, with no workspace, to run a program on held-out tests.
func OpenScoringSandbox(ctx context.Context, s config.Sandbox, log *zap.Logger) (sandbox.Sandbox, error) {
	kind, err := chooseKind(ctx, s, log)
	if err != nil {
		return nil, err
	}
	box, err := openScratch(ctx, s, kind, NewRunID(), "score", log)
	if err != nil {
		return nil, fmt.Errorf("%w: start the %s sandbox: %w", ErrInfra, kind, err)
	}
	return box, nil
}
