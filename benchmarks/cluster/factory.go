package cluster

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.uber.org/zap"
	"gopkg.in/yaml.v3"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/benchmarks"
	"github.com/reconstruct/reconstruct/binding"
	"github.com/reconstruct/reconstruct/config"
)

// prepareFactory is Prepare for a sweep over a Python factory. Every task
// is bound and its held-out tests collected on the submitting machine, as
// the local engine does; then each travels as a task directory made for
// it — the binding's files as its oracle's sandbox sees them, and a
// task.yaml naming the factory, its arguments and its module path — so
// that workers run it as they run a task directory's.
func prepareFactory(ctx context.Context, b *bank.Bank, p Plan, spec Spec) (Spec, error) {
	sw := &benchmarks.Sweep{Factory: p.Factory, Args: p.Args, Base: p.Base, Filter: p.Filter, Repeat: spec.Repeat,
		HeldoutDir: p.HeldoutDir, Getenv: p.Getenv, Out: cmp.Or(p.Out, "."), Log: cmp.Or(p.Log, zap.NewNop())}
	tasks, err := sw.FactoryTasks(ctx)
	if err != nil {
		return Spec{}, fmt.Errorf("%w: %w", ErrInput, err)
	}
	spec.TasksDir = p.Factory
	if p.Base != "" {
		// The base's task section is in each task.yaml already, its paths
		// made the task directory's: the workers get the rest of it.
		if spec.Base, err = baseWithoutTask(ctx, b, p.Base); err != nil {
			return Spec{}, err
		}
	}
	trees := newTreeWriter(b)
	made := map[string][2]string{} // task id → tree, held-out tests
	var changed []string
	for n, ft := range tasks {
		blobs, ok := made[ft.Task]
		if !ok {
			tree, err := factoryTree(ctx, trees, ft.Config)
			if err != nil {
				return Spec{}, fmt.Errorf("%w: task %s: %w", ErrInput, ft.Task, err)
			}
			heldout, err := b.PutBlob(ctx, ft.Heldout)
			if err != nil {
				return Spec{}, err
			}
			blobs = [2]string{tree, heldout}
			made[ft.Task] = blobs
		}
		j := Job{ID: ft.ID, Task: ft.Task, Repeat: ft.Repeat,
			RunID: strings.TrimPrefix(spec.ID, "sweep-") + "-" + fmt.Sprintf("%03d", n+1), Tree: blobs[0], Heldout: blobs[1],
			ConfigSHA256: ft.ConfigSHA256}
		changed = addJob(&spec, p.Out, j, changed)
	}
	if len(changed) > 0 && !p.Force {
		return Spec{}, fmt.Errorf("%w: %w", ErrInput, benchmarks.ChangedSettings(p.Out, changed))
	}
	return spec, nil
}

// factoryTree stores the task directory of a bound factory task: the
// binding's files (binding.Binding.Stage) and a task.yaml.
func factoryTree(ctx context.Context, trees *treeWriter, c *config.Config) (string, error) {
	t := c.Task
	root := t.BindingDir()
	b, err := binding.Load(binding.Spec{Factory: t.Factory, Args: t.Args, Root: root, Path: t.PythonPath})
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "reconstruct-task-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	if err := b.Stage(dir); err != nil {
		return "", err
	}
	path := make([]string, len(t.PythonPath))
	for i, p := range t.PythonPath {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return "", err
		}
		path[i] = filepath.ToSlash(rel)
	}
	task := map[string]any{"factory": t.Factory, "args": t.Args, "python_path": path, "name": t.Name}
	if t.Level != "" {
		task["level"] = t.Level
	}
	if t.Family != "" {
		task["family"] = t.Family
	}
	data, err := yaml.Marshal(map[string]any{"task": task})
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "task.yaml"), data, 0o644); err != nil {
		return "", err
	}
	h, _, err := trees.put(ctx, dir, []string{"."}, nil)
	return h, err
}

// baseWithoutTask stores the base configuration of a factory sweep without
// its task section.
func baseWithoutTask(ctx context.Context, b *bank.Bank, path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%w: base configuration: %w", ErrInput, err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return "", fmt.Errorf("%w: base configuration %s: %w", ErrInput, path, err)
	}
	delete(m, "task")
	if m == nil {
		m = map[string]any{}
	}
	if data, err = yaml.Marshal(m); err != nil {
		return "", err
	}
	return b.PutBlob(ctx, data)
}
