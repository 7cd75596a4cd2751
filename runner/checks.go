package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/oracle"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/workflow"
)

// checkLaunch checks, writing nothing, what a run can be refused for
// before it starts anything: the workspace (see workflow.CheckWorkspace),
// a workspace that would show the agent the task's hidden files, and the
// agent's settings that need no network.
func checkLaunch(c *config.Config, workspace string, force bool) error {
	// The root and the home directory first: never a workspace, forced
	// or not.
	if err := workflow.CheckWorkspace(workspace, true); err != nil {
		return workspaceProblem(c, err)
	}
	hidden := []struct{ key, path string }{{"task.oracle.python", c.Task.Oracle.Python}, {"task.heldout", c.Task.Heldout}}
	if g := c.Task.RandomInputs; g != nil {
		hidden = append(hidden, struct{ key, path string }{"task.random_inputs.python", g.Python})
	}
	for _, p := range c.Task.PythonPath {
		hidden = append(hidden, struct{ key, path string }{"task.python_path", p})
	}
	for _, h := range hidden {
		if h.path != "" && within(workspace, h.path) {
			return fmt.Errorf("%w: %w", ErrConfig, c.Problem("workspace", "%s holds %s (%s): the agent would see it; give a workspace outside the task's files",
				workspace, h.key, h.path))
		}
	}
	if err := workflow.CheckWorkspace(workspace, force); err != nil {
		return workspaceProblem(c, err)
	}
	if l := c.Agent.LLM; c.Agent.Kind == "llm" && l.APIKeyEnv != "" && os.Getenv(l.APIKeyEnv) == "" {
		return fmt.Errorf("%w: %w", ErrConfig, c.Problem("agent.llm.api_key_env", "names the environment variable %s, which is empty or unset; export the API key in %s (or set agent.llm.api_key_env to \"\" for a local server without a key)",
			l.APIKeyEnv, l.APIKeyEnv))
	}
	return nil
}

// workspaceProblem is a refused workspace as a configuration problem,
// naming where the workspace was set (a flag, a variable or a file).
func workspaceProblem(c *config.Config, err error) error {
	msg := strings.TrimPrefix(err.Error(), workflow.ErrWorkspace.Error()+": ")
	return fmt.Errorf("%w: %w", ErrConfig, c.Problem("workspace", "%s", msg))
}

// within reports whether path is dir or inside it.
func within(dir, path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(dir, abs)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// checkTask loads, in the oracle's sandbox, the functions the task names:
// a hidden function or a generator that does not exist (a typo in
// task.oracle.function, say) is a configuration error found before
// anything is created. The source is parsed first; only when that does not
// show the function is the program loaded and called once (with null), so
// a function defined in an unusual way is never refused. A factory task's
// modules are read; notice is changedBindingNotice's.
func checkTask(ctx context.Context, c *config.Config, box sandbox.Sandbox) (notice string, err error) {
	if c.Task.Factory != "" {
		b, err := loadBinding(c)
		if err != nil {
			return "", err
		}
		return changedBindingNotice(c.Task, b), nil
	}
	return "", checkFiles(ctx, c, box)
}

// CheckInputs is how many inputs a task's check asks its generator for,
// and runs its hidden program on.
const CheckInputs = 2

// checkFiles is checkTask for the hidden program and generator of a task
// directory: each names a function that exists; the generator, asked for
// CheckInputs inputs, returns a list of as many JSON values; the hidden
// program loads (its imports work) and, on those inputs, returns values
// JSON holds and raises no exception but those rejecting an input. A
// mistake there is the task author's (ErrConfig wrapping an
// *oracle.TaskError), found before anything is created. A hidden program
// that does not answer in time is left to the run to report.
func checkFiles(ctx context.Context, c *config.Config, box sandbox.Sandbox) error {
	lim := c.Sandbox.Limits()
	lim.Timeout = c.Task.Oracle.Timeout
	o := c.Task.Oracle
	if o.Python != "" {
		if err := checkFunction(ctx, box, c.File, "task.oracle", o.Python, o.Function, lim, false); err != nil {
			return err
		}
	}
	var inputs []json.RawMessage
	if g := c.Task.RandomInputs; g != nil {
		if err := checkFunction(ctx, box, c.File, "task.random_inputs", g.Python, g.Function, lim, true); err != nil {
			return err
		}
		ins, err := oracle.NewGenerator(box, g.Python, g.Function, c.Sandbox.Limits()).Generate(ctx, CheckInputs, nil, c.Workflow.Seed)
		var te *oracle.TaskError
		switch {
		case errors.As(err, &te):
			return fmt.Errorf("%w: %w", ErrConfig, err)
		case err != nil:
			return fmt.Errorf("%w: check the generator %s: %w", ErrInfra, g.Python, err)
		}
		inputs = ins
	}
	if o.Python == "" {
		return nil
	}
	// Without a generator the program is only loaded: an exception on null
	// says nothing of the inputs it will be given.
	probe := inputs
	if len(probe) == 0 {
		probe = []json.RawMessage{json.RawMessage("null")}
	}
	answers, err := oracle.NewPython(box, o.Python, o.Function, lim).Rejecting(o.RejectExceptions, "task.oracle.reject_exceptions").Query(ctx, probe)
	var te *oracle.TaskError
	var fe *oracle.FailureError
	var be *oracle.BoundError
	switch {
	case err == nil && len(inputs) > 0:
		for i, a := range answers {
			if a.Invalid != "" {
				return fmt.Errorf("%w: %w", ErrConfig, &oracle.TaskError{Program: c.Task.RandomInputs.Python, Key: "task.random_inputs.python",
					What: "made an input that the hidden program rejects (" + a.Invalid + ")", Input: inputs[i],
					Fix: "a generator makes valid inputs only"})
			}
		}
		return nil
	case errors.As(err, &te) && (te.Index == 0 || len(inputs) > 0):
		return fmt.Errorf("%w: %w", ErrConfig, err)
	case errors.As(err, &be) && len(inputs) > 0:
		return fmt.Errorf("%w: %s: %w", ErrConfig, c.File, err)
	case errors.As(err, &te), errors.As(err, &fe), errors.As(err, &be), err == nil:
		// Answers to null are left to the run: it reports them on the
		// inputs it is given.
		return nil
	}
	return fmt.Errorf("%w: check the hidden program %s: %w", ErrInfra, o.Python, err)
}

func checkFunction(ctx context.Context, box sandbox.Sandbox, file, key, path, function string, lim sandbox.Limits, generator bool) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%w: %s: %s.python: %w", ErrConfig, file, key, err)
	}
	an, err := box.Analyse(ctx, sandbox.AnalyseRequest{Source: string(src), FunctionName: function})
	switch {
	case err == nil && an.DefinesFunc:
		return nil
	case err == nil && !an.Parses && an.ParseError != "":
		return fmt.Errorf("%w: %w", ErrConfig, &oracle.TaskError{Program: path, Key: key + ".python", What: "does not parse: " + an.ParseError, Fix: "fix the program"})
	}
	prog := sandbox.Program{Path: path, Function: function}
	refused := func(msg string) error {
		return fmt.Errorf("%w: %s: %s.function: %s: %s", ErrConfig, file, key, path, msg)
	}
	if generator {
		_, err := box.Generate(ctx, sandbox.GenerateRequest{Program: prog, K: 0, Limits: lim})
		var remote *sandbox.RemoteError
		switch {
		case errors.As(err, &remote) && strings.Contains(remote.Message, "cannot load the generator"):
			return refused(remote.Message)
		case err != nil && !errors.As(err, &remote):
			return fmt.Errorf("%w: check the generator %s: %w", ErrInfra, path, err)
		}
		return nil
	}
	outs, err := box.Call(ctx, sandbox.CallRequest{Program: prog, Inputs: []json.RawMessage{json.RawMessage("null")}, Limits: lim})
	if err != nil {
		return fmt.Errorf("%w: check the hidden program %s: %w", ErrInfra, path, err)
	}
	if len(outs) == 1 && outs[0].Status == sandbox.StatusLoad {
		return refused(outs[0].Error)
	}
	return nil
}

// sandboxUIDs is where the sandboxes' own users start (the Docker and the
// process sandbox pick uids from 2^24 up when reconstruct runs as root).
const sandboxUIDs = 1 << 24

// keepOwner notes who owns the workspace and returns a function that gives
// it back: the directory itself and whatever the sandbox's users made in
// it. The Docker sandbox hands the workspace to its container's user when
// reconstruct runs as root.
func keepOwner(dir string, log *zap.Logger) func() {
	st, err := os.Stat(dir)
	if err != nil || os.Geteuid() != 0 {
		return func() {}
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return func() {}
	}
	uid, gid := int(sys.Uid), int(sys.Gid)
	return func() {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			s, ok := info.Sys().(*syscall.Stat_t)
			if !ok || (p != dir && int(s.Uid) < sandboxUIDs) || (int(s.Uid) == uid && int(s.Gid) == gid) {
				return nil
			}
			if err := os.Lchown(p, uid, gid); err != nil {
				log.Warn("give the workspace back to its owner", zap.String("path", p), zap.Error(err))
			}
			return nil
		})
	}
}
