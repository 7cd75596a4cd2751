package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/benchmarks"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/runner"
)

// ErrInput marks a sweep that cannot be submitted as given (a task that
// does not load, files outside a task directory, no held-out tests):
// nothing was submitted.
var ErrInput = errors.New("bad sweep")

// Plan is a sweep to submit.
type Plan struct {
	TasksDir string
	// Base is a configuration file applied over every task.yaml.
	Base   string
	Filter *regexp.Regexp
	Repeat int
	// Out, when set, is where the summary will go: tasks an earlier sweep
	// into it finished with the same settings are not run again; finished
	// with other settings, they refuse the sweep unless Force, which runs
	// them again.
	Out   string
	Force bool
	// Getenv reads the submitting machine's RECONSTRUCT_* settings.
	Getenv func(string) string
	Retry  Retry
	// Factory, instead of TasksDir, sweeps the tasks of a Python factory
	// (module:callable), one per Args entry, scored on the tests its
	// module's heldout(**args) returns, or on HeldoutDir/<task>.jsonl.
	Factory    string
	Args       []map[string]any
	HeldoutDir string
	// Log receives the warnings of binding the factory's tasks.
	Log *zap.Logger
}

// NewSweepID returns a sortable, unique sweep id (a valid bank workspace
// name and Temporal workflow id).
func NewSweepID() string { return "sweep-" + runner.NewRunID() }

// Prepare turns a plan into a sweep: it checks every task as the workers
// will load it, stores the task directories (without their held-out tests)
// and the held-out tests in the bank, and records the sweep there. Errors
// wrapping ErrInput are the user's to fix; others are the bank's.
func Prepare(ctx context.Context, b *bank.Bank, p Plan) (Spec, error) {
	spec := Spec{ID: NewSweepID(), TasksDir: p.TasksDir, Config: p.Base, Repeat: max(1, p.Repeat),
		Env: experimentEnv(p.Getenv), Jobs: []Job{}, Retry: p.Retry}
	if p.Filter != nil {
		spec.Filter = p.Filter.String()
	}
	if p.Factory != "" {
		spec, err := prepareFactory(ctx, b, p, spec)
		if err != nil {
			return Spec{}, err
		}
		return spec, recordSpec(ctx, b, spec)
	}
	dirs, err := benchmarks.Discover(p.TasksDir, p.Filter)
	if err != nil {
		return Spec{}, fmt.Errorf("%w: %w", ErrInput, err)
	}
	var overlays []string
	if p.Base != "" {
		data, err := os.ReadFile(p.Base)
		if err != nil {
			return Spec{}, fmt.Errorf("%w: base configuration: %w", ErrInput, err)
		}
		if spec.Base, err = b.PutBlob(ctx, data); err != nil {
			return Spec{}, err
		}
		overlays = []string{p.Base}
	}
	trees := newTreeWriter(b)
	n := 0
	var changed []string
	for _, dir := range dirs {
		c, err := config.Load(config.Options{File: filepath.Join(dir, "task.yaml"), Overlays: overlays, Env: true, Getenv: p.Getenv})
		if err != nil {
			return Spec{}, fmt.Errorf("%w: %w", ErrInput, err)
		}
		if err := filesInside(c, dir, p.Base); err != nil {
			return Spec{}, fmt.Errorf("%w: %w", ErrInput, err)
		}
		if c.Task.Heldout == "" {
			return Spec{}, fmt.Errorf("%w: %s: no held-out tests (heldout.jsonl)", ErrInput, dir)
		}
		tests, err := os.ReadFile(c.Task.Heldout)
		if err != nil {
			return Spec{}, fmt.Errorf("%w: %s: held-out tests: %w", ErrInput, dir, err)
		}
		if _, err := benchmarks.ParseTests(c.Task.Heldout, tests); err != nil {
			return Spec{}, fmt.Errorf("%w: %w", ErrInput, err)
		}
		heldout, err := b.PutBlob(ctx, tests)
		if err != nil {
			return Spec{}, err
		}
		skip := taskSkip(dir, c.Task.Heldout)
		tree, _, err := trees.put(ctx, dir, []string{"."}, skip)
		if err != nil {
			return Spec{}, fmt.Errorf("%w: %w", ErrInput, err)
		}
		files := benchmarks.TaskFiles(c)
		for r := 1; r <= spec.Repeat; r++ {
			n++
			if r > 1 {
				// A repeat's seed is set as its configuration is loaded
				// (config.Options.Repeat), as a worker loads it.
				if c, err = config.Load(config.Options{File: filepath.Join(dir, "task.yaml"), Overlays: overlays, Env: true, Getenv: p.Getenv, Repeat: r}); err != nil {
					return Spec{}, fmt.Errorf("%w: %w", ErrInput, err)
				}
			}
			j := Job{ID: filepath.Base(dir), Task: filepath.Base(dir), Repeat: r,
				RunID: strings.TrimPrefix(spec.ID, "sweep-") + "-" + fmt.Sprintf("%03d", n), Tree: tree, Heldout: heldout,
				ConfigSHA256: benchmarks.SettingsHash(c), TaskSHA256: benchmarks.TaskDigest(files), TaskFiles: files}
			if r > 1 {
				j.ID += "#r" + strconv.Itoa(r)
			}
			changed = addJob(&spec, p.Out, j, changed, p.Force)
		}
	}
	if len(changed) > 0 && !p.Force {
		return Spec{}, fmt.Errorf("%w: %w", ErrInput, benchmarks.ChangedSettings(p.Out, changed))
	}
	return spec, recordSpec(ctx, b, spec)
}

// addJob adds j to the sweep, or, when an earlier sweep into out finished
// it with the same settings, its record to spec.Previous; a job finished
// with other settings is added and its id appended to changed, which is
// returned.
func addJob(spec *Spec, out string, j Job, changed []string, force bool) []string {
	if prev, ok := readRecord(out, j.ID); ok {
		reason, other := benchmarks.Rerun(prev, j.ConfigSHA256, j.TaskFiles, force)
		switch {
		case other && !force:
			return append(changed, j.ID)
		case reason == "":
			spec.Previous = append(spec.Previous, prev)
			return changed
		}
		j.Rerun = reason
	}
	spec.Jobs = append(spec.Jobs, j)
	return changed
}

// recordSpec checks a prepared sweep's size and records it in the bank.
func recordSpec(ctx context.Context, b *bank.Bank, spec Spec) error {
	if err := checkSize(spec); err != nil {
		return err
	}
	return createJournal(ctx, b, spec)
}

// MaxSpecBytes bounds a sweep's encoded specification, the workflow's
// input: Temporal refuses a payload over 2 MiB. It fits about 5,000
// (task, repeat) pairs, which is also about as many as one workflow's
// history holds comfortably.
const MaxSpecBytes = 3 << 19

// checkSize refuses a sweep too big for one workflow.
func checkSize(spec Spec) error {
	data, err := json.Marshal(spec)
	if err != nil {
		return err
	}
	if len(data) > MaxSpecBytes {
		return fmt.Errorf("%w: %d tasks (with %d finished earlier) are too many for one sweep (%d bytes of specification, at most %d): split the task set with --filter into several sweeps",
			ErrInput, len(spec.Jobs), len(spec.Previous), len(data), MaxSpecBytes)
	}
	return nil
}

// taskSkip leaves the held-out tests (the configured file, and any
// heldout.jsonl) and the default workspaces (runs/) out of a task
// directory's tree: an agent must never see the former, and the latter are
// not part of the task.
func taskSkip(dir, heldout string) func(string) bool {
	rel := ""
	if d, err := filepath.Abs(dir); err == nil {
		if h, err := filepath.Abs(heldout); err == nil {
			if r, err := filepath.Rel(d, h); err == nil {
				rel = filepath.ToSlash(r)
			}
		}
	}
	return func(p string) bool { return p == rel || p == "heldout.jsonl" || p == "runs" }
}

// filesInside checks that every file the task's configuration names lies
// inside its directory: the workers receive the directory, nothing else.
func filesInside(c *config.Config, dir, base string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	paths := map[string]string{"task.oracle.python": c.Task.Oracle.Python, "agent.replay.script": c.Agent.Replay.Script}
	if g := c.Task.RandomInputs; g != nil {
		paths["task.random_inputs.python"] = g.Python
	}
	if cmd := c.Task.Oracle.Command; len(cmd) > 0 && strings.Contains(cmd[0], "/") {
		paths["task.oracle.command"] = cmd[0]
	}
	for _, key := range []string{"task.oracle.python", "task.random_inputs.python", "task.oracle.command", "agent.replay.script"} {
		p := paths[key]
		if p == "" {
			continue
		}
		if rel, err := filepath.Rel(abs, p); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			where := c.File
			if base != "" {
				where += " (with " + base + ")"
			}
			return fmt.Errorf("%s: %s: %s lies outside the task directory %s; a sweep on a cluster carries each task's directory and nothing else", where, key, p, dir)
		}
	}
	return nil
}

// experimentEnv picks the RECONSTRUCT_* settings that describe the
// experiment (workflow.* and agent.*, not file paths) from the submitting
// machine's environment.
func experimentEnv(getenv func(string) string) map[string]string {
	if getenv == nil {
		return nil
	}
	env := map[string]string{}
	for _, k := range config.Keys() {
		if !strings.HasPrefix(k, "workflow.") && !strings.HasPrefix(k, "agent.") || k == "agent.replay.script" {
			continue
		}
		if v := getenv(config.EnvName(k)); v != "" {
			env[config.EnvName(k)] = v
		}
	}
	if len(env) == 0 {
		return nil
	}
	return env
}

// readRecord reads the record an earlier sweep into out wrote for a
// finished task.
func readRecord(out, id string) (benchmarks.TaskResult, bool) {
	if out == "" {
		return benchmarks.TaskResult{}, false
	}
	data, err := os.ReadFile(recordPath(out, id))
	if err != nil {
		return benchmarks.TaskResult{}, false
	}
	var r benchmarks.TaskResult
	if json.Unmarshal(data, &r) != nil || r.ID != id {
		return benchmarks.TaskResult{}, false
	}
	return r, true
}

func recordPath(out, id string) string {
	return filepath.Join(out, benchmarks.TasksDir, jobDir(id)+".json")
}
