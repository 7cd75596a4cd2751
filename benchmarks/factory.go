package benchmarks

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/reconstruct/reconstruct/binding"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/atomicfile"
	"github.com/reconstruct/reconstruct/runner"
	"github.com/reconstruct/reconstruct/sandbox"
)

// HeldoutDir is where a factory sweep writes the held-out tests its
// module's heldout(**args) returned, one <task id>.jsonl each.
const HeldoutDir = "heldout"

var unsafeID = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// factoryTaskID names the task of one factory argument set: its "name"
// argument, else its position.
func factoryTaskID(args map[string]any, i int) string {
	if n, ok := args["name"].(string); ok && n != "" {
		return unsafeID.ReplaceAllString(n, "_")
	}
	return "task-" + strconv.Itoa(i+1)
}

// planFactory binds every task of a factory sweep, in one sandbox set up
// as the oracle's, and collects the held-out tests; any problem refuses
// the sweep, and nothing is written (the tests are returned by path).
func (s *Sweep) planFactory(ctx context.Context) ([]job, map[string][]byte, error) {
	if len(s.Args) == 0 {
		return nil, nil, fmt.Errorf("%w: task.factory %s: no task arguments to sweep over", ErrRefused, s.Factory)
	}
	seen := map[string]int{}
	var jobs []job
	heldout := map[string][]byte{}
	var box sandbox.Sandbox
	defer func() {
		if box != nil {
			box.Close()
		}
	}()
	for i, args := range s.Args {
		id := factoryTaskID(args, i)
		if j, dup := seen[id]; dup {
			return nil, nil, fmt.Errorf("%w: task arguments %d and %d both name the task %s", ErrRefused, j+1, i+1, id)
		}
		seen[id] = i
		if s.Filter != nil && !s.Filter.MatchString(id) {
			continue
		}
		var tests []byte
		for r := 1; r <= s.Repeat; r++ {
			j := job{id: id, repeat: r}
			if r > 1 {
				j.id += "#r" + strconv.Itoa(r)
			}
			// The held-out tests are the module's, written under the
			// sweep's output, or those of --heldout-dir.
			heldoutPath := filepath.Join(s.Out, HeldoutDir, id+".jsonl")
			if s.HeldoutDir != "" {
				heldoutPath = filepath.Join(s.HeldoutDir, id+".jsonl")
			}
			opts := config.Options{File: s.Base, Env: s.Getenv != nil, Getenv: s.Getenv, LookupEnv: s.LookupEnv,
				Override: map[string]any{"workspace": s.workspace(j), "task.factory": s.Factory, "task.args": args},
				Bank:     s.Bank, Repeat: r, Heldout: heldoutPath}
			if s.Base == "" {
				opts.Dir = "."
			}
			c, err := config.Load(opts)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: task %s: %w", ErrRefused, j.id, err)
			}
			if box == nil {
				if box, err = runner.OpenBindingSandbox(ctx, c, s.Log); err != nil {
					return nil, nil, err
				}
			}
			if c, err = runner.BindIn(ctx, c, box); err != nil {
				return nil, nil, fmt.Errorf("%w: task %s: %w", ErrRefused, j.id, err)
			}
			if tests == nil {
				if tests, err = s.factoryHeldout(ctx, c, box, id); err != nil {
					return nil, nil, fmt.Errorf("%w: task %s: %w", ErrRefused, id, err)
				}
			}
			if s.HeldoutDir == "" {
				heldout[heldoutPath] = tests
			}
			if c.Bank.Enabled {
				if _, err := c.BankLocation(); err != nil {
					return nil, nil, fmt.Errorf("%w: task %s: %w", ErrRefused, j.id, err)
				}
			}
			j.c, j.hash, j.files = c, SettingsHash(c), factoryFiles(c, tests)
			jobs = append(jobs, j)
		}
	}
	if len(jobs) == 0 {
		return nil, nil, fmt.Errorf("%w: no task of %s matches", ErrRefused, s.Factory)
	}
	return jobs, heldout, nil
}

// factoryHeldout is a task's held-out tests as JSON lines: the module's
// heldout(**args) when it has one, else HeldoutDir/<id>.jsonl, checked.
func (s *Sweep) factoryHeldout(ctx context.Context, c *config.Config, box sandbox.Sandbox, id string) ([]byte, error) {
	if s.HeldoutDir != "" {
		p := filepath.Join(s.HeldoutDir, id+".jsonl")
		if _, err := ReadTests(p); err != nil {
			return nil, fmt.Errorf("held-out tests: %w", err)
		}
		return []byte{}, nil
	}
	var d binding.Description
	if err := json.Unmarshal(c.Task.Bound.Description, &d); err != nil {
		return nil, err
	}
	if !d.Heldout {
		return nil, fmt.Errorf("no held-out tests: module of task.factory %s has no heldout(**args) callable; write it, or give a directory of <task>.jsonl files (--heldout-dir)", c.Task.Factory)
	}
	b, err := binding.Load(binding.Spec{Factory: c.Task.Factory, Args: c.Task.Args, Root: c.Task.BindingDir(), Path: c.Task.PythonPath})
	if err != nil {
		return nil, err
	}
	tests, err := b.Heldout(ctx, box, c.Sandbox.Limits())
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	for _, t := range tests {
		buf.Write(t)
		buf.WriteByte('\n')
	}
	return buf.Bytes(), nil
}

// writeHeldout writes the held-out tests a factory sweep collected.
func writeHeldout(files map[string][]byte) error {
	for p, data := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("create sweep output: %w", err)
		}
		if err := atomicfile.Write(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// factoryFiles are the files of a factory task (TaskFiles): its module
// files, and its held-out tests as the module gave them (they are written
// into the output directory only once the sweep starts).
func factoryFiles(c *config.Config, tests []byte) map[string]string {
	files := TaskFiles(c)
	if len(tests) > 0 {
		for name := range files {
			if !strings.HasPrefix(name, "binding:") {
				delete(files, name)
			}
		}
		sum := sha256.Sum256(tests)
		files["heldout"] = hex.EncodeToString(sum[:])
	}
	return files

}

// FactoryTask is one (task, repeat) of a factory sweep, bound: what another
// engine needs to run it as the local one does.
type FactoryTask struct {
	// ID is the task's id, with "#r<k>" for repeats after the first; Task
	// is the id without it.
	ID, Task string
	Repeat   int
	// Config is the task's configuration, bound (Task.Bound is set).
	Config *config.Config
	// Heldout are the held-out tests, one JSON object a line.
	Heldout []byte
	// ConfigSHA256 identifies the settings (TaskResult.ConfigSHA256), Files
	// the task's files (TaskResult.TaskFiles).
	ConfigSHA256 string
	Files        map[string]string
}

// FactoryTasks binds every task of the factory sweep s and collects its
// held-out tests, as Execute does before it runs them; nothing is written.
// Errors wrapping ErrRefused are the user's to fix.
func (s *Sweep) FactoryTasks(ctx context.Context) ([]FactoryTask, error) {
	s.Repeat = max(1, s.Repeat)
	jobs, heldout, err := s.planFactory(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]FactoryTask, len(jobs))
	for i, j := range jobs {
		tests := heldout[j.c.Task.Heldout]
		if s.HeldoutDir != "" {
			if tests, err = os.ReadFile(j.c.Task.Heldout); err != nil {
				return nil, fmt.Errorf("%w: task %s: held-out tests: %w", ErrRefused, j.id, err)
			}
		}
		task, _, _ := strings.Cut(j.id, "#")
		out[i] = FactoryTask{ID: j.id, Task: task, Repeat: j.repeat, Config: j.c, Heldout: tests, ConfigSHA256: j.hash, Files: j.files}
	}
	return out, nil
}
