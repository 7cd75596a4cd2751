package benchmarks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/testenv"
)

// sameTasksModule serves the test data's task directories by name: each
// task's fields as its task.yaml gives them, its hidden program and
// generator from the directory's own sources, its held-out tests from its
// heldout.jsonl.
const sameTasksModule = `import json

TASKS = json.loads(%s)


def _load(src, name):
    ns = {}
    exec(src, ns)
    return ns[name]


def make_task(name):
    t = dict(TASKS[name]["fields"])
    t["oracle"] = _load(TASKS[name]["hidden"], TASKS[name]["oracle"])
    t["random_inputs"] = _load(TASKS[name]["generator"], TASKS[name]["generate"])
    return t


def heldout(name):
    return TASKS[name]["heldout"]
`

// writeSameTasks writes sameTasksModule (package same) over the named test
// data tasks and a base configuration beside it.
func writeSameTasks(t *testing.T, base string, names ...string) string {
	t.Helper()
	reg := map[string]any{}
	for _, name := range names {
		dir := filepath.Join("testdata", "tasks", name)
		c, err := config.Load(config.Options{File: filepath.Join(dir, "task.yaml")})
		if err != nil {
			t.Fatal(err)
		}
		read := func(p string) string {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			return string(data)
		}
		tests, err := ReadTests(filepath.Join(dir, "heldout.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		ct := c.Task
		fields := map[string]any{"name": ct.Name, "level": ct.Level, "family": ct.Family, "input_type": ct.InputType,
			"input_constraints": ct.InputConstraints, "function_name": ct.FunctionName, "kind": ct.Kind}
		if ct.Domain != nil {
			fields["lo"], fields["hi"] = ct.Domain.Lo, ct.Domain.Hi
		}
		reg[name] = map[string]any{"fields": fields, "heldout": tests,
			"hidden": read(ct.Oracle.Python), "oracle": ct.Oracle.Function,
			"generator": read(ct.RandomInputs.Python), "generate": ct.RandomInputs.Function}
	}
	data, err := json.Marshal(reg)
	if err != nil {
		t.Fatal(err)
	}
	quoted, _ := json.Marshal(string(data))
	dir := t.TempDir()
	for name, src := range map[string]string{
		"same/__init__.py": "", "same/tasks.py": strings.Replace(sameTasksModule, "%s", string(quoted), 1), "base.yaml": base,
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "base.yaml")
}

// A sweep over a factory that serves the same tasks as a set of task
// directories gives the same scored results: the same tasks solved, with
// the same held-out scores, after the same runs.
func TestFactorySweepMatchesTaskDirectories(t *testing.T) {
	testenv.NeedPython(t)
	names := []string{"negate", "reverse"}
	const base = "sandbox: {kind: process, call_timeout: 60s}\nagent: {synth: {time_limit: 5s}}\n" +
		"workflow: {max_iterations: 4, seed: 7}\nbank: {enabled: false}\n"
	dirBase := filepath.Join(t.TempDir(), "base.yaml")
	if err := os.WriteFile(dirBase, []byte(base), 0o644); err != nil {
		t.Fatal(err)
	}
	fromDirs, err := (&Sweep{TasksDir: filepath.Join("testdata", "tasks"), Filter: regexp.MustCompile(`^(negate|reverse)$`),
		Base: dirBase, Out: t.TempDir()}).Execute(context.Background())
	if err != nil {
		t.Fatalf("directory sweep: %v", err)
	}
	var args []map[string]any
	for _, n := range names {
		args = append(args, map[string]any{"name": n})
	}
	fromFactory, err := (&Sweep{Factory: "same.tasks:make_task", Args: args, Base: writeSameTasks(t, base, names...),
		Out: t.TempDir()}).Execute(context.Background())
	if err != nil {
		t.Fatalf("factory sweep: %v", err)
	}
	if fromDirs.Tasks != len(names) || fromDirs.Solved != len(names) {
		t.Errorf("the directory sweep solved %d of %d tasks, want every one of %v", fromDirs.Solved, fromDirs.Tasks, names)
	}
	ignore := cmpopts.IgnoreFields(TaskResult{}, "WallSeconds", "Workspace", "RunID", "ConfigSHA256", "Tokens", "TaskSHA256", "TaskFiles",
		"CPUSeconds", "SandboxCPUSeconds", "PeakRSSBytes", "PeakHeapBytes")
	if diff := cmp.Diff(fromDirs.Results, fromFactory.Results, ignore); diff != "" {
		t.Errorf("results (-directories +factory):\n%s", diff)
	}
	if diff := cmp.Diff(fromDirs.Levels, fromFactory.Levels); diff != "" {
		t.Errorf("levels (-directories +factory):\n%s", diff)
	}
	if diff := cmp.Diff(fromDirs.Families, fromFactory.Families); diff != "" {
		t.Errorf("families (-directories +factory):\n%s", diff)
	}
}
