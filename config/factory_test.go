package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A factory task's keys: checked at load, its other fields left to the
// factory (Bind).
func TestLoadFactoryTask(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"lib", "bench"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	outside := t.TempDir()
	file := filepath.Join(dir, "task.yaml")
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"ok", "task: {factory: bench.b:make, args: {name: Abs}, python_path: [., lib]}\n", ""},
		{"not module:callable", "task: {factory: bench.b}\n", `task.factory: "bench.b" is not module:callable`},
		{"oracle beside it", "task: {factory: b:make, oracle: {http: 'http://x'}}\n", "task.oracle.http: the factory b:make (task.factory) gives the task's oracle"},
		{"kind beside it", "task: {factory: b:make, kind: list}\n", "task.kind: the factory b:make (task.factory) gives"},
		{"every problem at once", "task: {factory: b, kind: list, python_path: [nope]}\n", `task.factory: "b" is not module:callable` +
			"\n" + file + ": task.kind: the factory b (task.factory) gives" +
			"\n" + file + ": task.python_path[0]: " + filepath.Join(dir, "nope") + " is not a directory"},
		{"path not a directory", "task: {factory: b:make, python_path: [nope]}\n", "task.python_path[0]: " + filepath.Join(dir, "nope") + " is not a directory"},
		{"path outside", "task: {factory: b:make, python_path: [" + outside + "]}\n", "task.python_path[0]: " + outside + " is outside the task directory"},
		{"args not a map", "task: {factory: b:make, args: [1]}\n", "task.args: want a mapping of names to values (such as {}), got [1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(file, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := Load(Options{File: file})
			if tc.want != "" {
				// Each line of want is in the message: every problem at once.
				for _, w := range strings.Split(tc.want, "\n") {
					if err == nil || !strings.Contains(err.Error(), w) {
						t.Errorf("err = %v, want %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Task.Name != "Abs" || c.Task.BindingDir() != dir || len(c.Task.PythonPath) != 2 || c.Task.PythonPath[1] != filepath.Join(dir, "lib") {
				t.Errorf("task = %+v, binding dir %s", c.Task, c.Task.BindingDir())
			}
			if _, err := c.Bind(BoundTask{InputType: "a list", Kind: "tree"}); err == nil || !strings.Contains(err.Error(), `task.factory: bench.b:make returned a task whose kind: unknown value "tree"`) {
				t.Errorf("Bind: %v", err)
			}
			b, err := c.Bind(BoundTask{InputType: "a list", Kind: "list"})
			if err != nil || b.Workspace != filepath.Join(dir, "runs", "Abs") {
				t.Errorf("Bind: %v, workspace %s", err, b.Workspace)
			}
		})
	}
}

// run --task: a configuration with no file, in a directory.
func TestLoadWithoutAFile(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(Options{Dir: dir, Override: map[string]any{"task.factory": "m:f", "task.args": map[string]any{"name": "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	if c.File != filepath.Join(dir, CommandLine) || c.Task.BindingDir() != dir || c.Task.Name != "x" {
		t.Errorf("file %s, binding dir %s, name %s", c.File, c.Task.BindingDir(), c.Task.Name)
	}
}

// task.args keep the case of their keys (viper folds it), merge across
// files as other sections do, and come from the environment as a JSON
// object; task.python_path as a comma-separated list.
func TestLoadFactoryArgs(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "base.yaml")
	file := filepath.Join(dir, "task.yaml")
	for p, y := range map[string]string{
		base: "task: {args: {Sub: {B: 3}, extra: true}}\n",
		file: "task: {factory: m:f, args: {maxLen: 3, Sub: {A: 1, B: 2}}}\n",
	} {
		if err := os.WriteFile(p, []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
		path []string
	}{
		{"files", nil, `{"Sub":{"A":1,"B":3},"extra":true,"maxLen":3}`, []string{dir}},
		{"environment", map[string]string{"RECONSTRUCT_TASK_ARGS": `{"N": 2}`, "RECONSTRUCT_TASK_PYTHON_PATH": filepath.Join(dir, "lib") + "," + dir},
			`{"N":2}`, []string{filepath.Join(dir, "lib"), dir}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(Options{File: file, Overlays: []string{base}, Env: true, Getenv: func(k string) string { return tc.env[k] }})
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(c.Task.Args)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("args = %s, want %s", got, tc.want)
			}
			if diff := cmp.Diff(tc.path, c.Task.PythonPath); diff != "" {
				t.Errorf("python_path (-want +got):\n%s", diff)
			}
		})
	}
	env := map[string]string{"RECONSTRUCT_TASK_ARGS": "[1]", "RECONSTRUCT_TASK_PYTHON_PATH": "nope"}
	_, err := Load(Options{File: file, Env: true, Getenv: func(k string) string { return env[k] }})
	if err == nil || !strings.Contains(err.Error(), `RECONSTRUCT_TASK_ARGS (task.args): want a mapping of names to values (such as {}), got "[1]"`) {
		t.Errorf("err = %v", err)
	}
	delete(env, "RECONSTRUCT_TASK_ARGS")
	_, err = Load(Options{File: file, Env: true, Getenv: func(k string) string { return env[k] }})
	if err == nil || !strings.Contains(err.Error(), "RECONSTRUCT_TASK_PYTHON_PATH (task.python_path[0]): ") {
		t.Errorf("err = %v", err)
	}
}

// Bind names where task.factory was set: here the environment.
func TestBindNamesTheSource(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "task.yaml")
	if err := os.WriteFile(file, []byte("task: {name: n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(Options{File: file, Env: true, Getenv: func(k string) string {
		return map[string]string{"RECONSTRUCT_TASK_FACTORY": "m:f"}[k]
	}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Bind(BoundTask{})
	for _, want := range []string{
		"RECONSTRUCT_TASK_FACTORY (task.factory): m:f returned a task whose input_type: required field is missing",
		"RECONSTRUCT_TASK_FACTORY (task.factory): m:f returned a task whose kind: required field is missing",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Bind: %v, want %q", err, want)
		}
	}
}

// A factory task a run bound reads back from its recorded configuration:
// the binding as written, the fields it filled accepted, the arguments
// with their keys' case and their numbers' digits.
func TestRecordedFactoryTask(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "task.yaml")
	if err := os.WriteFile(file, []byte("task: {factory: m:f, args: {maxLen: 9007199254740993, name: Abs}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(Options{File: file})
	if err != nil {
		t.Fatal(err)
	}
	c.Task.InputType, c.Task.Kind = "a list", "list"
	desc := `{"name":"Abs","n":1.50}`
	c.Task.Bound = &Bound{Description: json.RawMessage(desc), Files: map[string]string{"m.py": "abc"}}
	data, err := json.Marshal(c.Stamped())
	if err != nil {
		t.Fatal(err)
	}
	r, err := Recorded(data, "run r1's recorded configuration", nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Task.Bound == nil || string(r.Task.Bound.Description) != desc || r.Task.Bound.Files["m.py"] != "abc" {
		t.Errorf("bound = %+v", r.Task.Bound)
	}
	if got, _ := json.Marshal(r.Task.Args); string(got) != `{"maxLen":9007199254740993,"name":"Abs"}` {
		t.Errorf("args = %s", got)
	}
	if r.Task.Kind != "list" || r.Task.InputType != "a list" || r.Task.Name != "Abs" {
		t.Errorf("task = %+v", r.Task)
	}
	// A bound task's fields are still checked.
	c.Task.Kind = "tree"
	if data, err = json.Marshal(c.Stamped()); err != nil {
		t.Fatal(err)
	}
	if _, err := Recorded(data, "run r1's recorded configuration", nil); err == nil || !strings.Contains(err.Error(), `run r1's recorded configuration: task.kind: unknown value "tree"`) {
		t.Errorf("err = %v", err)
	}
}
