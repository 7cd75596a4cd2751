package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A factory task's keys: checked at load, its other fields left to the
// factory (CheckBound).
func TestLoadFactoryTask(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"lib", "bench"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	outside := t.TempDir()
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"ok", "task: {factory: bench.b:make, args: {name: Abs}, python_path: [., lib]}\n", ""},
		{"not module:callable", "task: {factory: bench.b}\n", `task.factory: "bench.b" is not module:callable`},
		{"oracle beside it", "task: {factory: b:make, oracle: {http: 'http://x'}}\n", "task.factory: the factory gives the task's oracle"},
		{"kind beside it", "task: {factory: b:make, kind: list}\n", "set none of them beside it"},
		{"path not a directory", "task: {factory: b:make, python_path: [nope]}\n", "task.python_path[0]: " + filepath.Join(dir, "nope") + " is not a directory"},
		{"path outside", "task: {factory: b:make, python_path: [" + outside + "]}\n", "task.python_path[0]: " + outside + " is outside the task directory"},
		{"args not a map", "task: {factory: b:make, args: [1]}\n", "args"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, "task.yaml")
			if err := os.WriteFile(file, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := Load(Options{File: file})
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Task.Name != "Abs" || c.Task.BindingDir() != dir || len(c.Task.PythonPath) != 2 || c.Task.PythonPath[1] != filepath.Join(dir, "lib") {
				t.Errorf("task = %+v, binding dir %s", c.Task, c.Task.BindingDir())
			}
			c.Task.InputType, c.Task.Kind = "a list", "tree"
			if err := c.CheckBound(); err == nil || !strings.Contains(err.Error(), `task.factory: bench.b:make returned a task whose kind: unknown kind "tree"`) {
				t.Errorf("CheckBound: %v", err)
			}
			c.Task.Kind = "list"
			if err := c.CheckBound(); err != nil || c.Workspace != filepath.Join(dir, "runs", "Abs") {
				t.Errorf("CheckBound: %v, workspace %s", err, c.Workspace)
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
