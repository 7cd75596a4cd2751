package testenv

import (
	"os"
	"path/filepath"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/reconstruct/reconstruct/task"
)

// BenchmarkTask is a task of the benchmark's task set as its task.yaml
// describes it, with the path of its Python hidden program and the hidden
// function ("" for a task without one). Packages below config (the
// synthesizer, whose defaults config reads) read the task set with it;
// config.Load stays the one reader of a run configuration.
func BenchmarkTask(t *testing.T, file string) (tk task.Task, python, function string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Task struct {
			Name             string       `yaml:"name"`
			Level            string       `yaml:"level"`
			InputType        string       `yaml:"input_type"`
			InputConstraints string       `yaml:"input_constraints"`
			FunctionName     string       `yaml:"function_name"`
			Kind             string       `yaml:"kind"`
			Domain           *task.Domain `yaml:"domain"`
			Oracle           struct {
				Python   string `yaml:"python"`
				Function string `yaml:"function"`
			} `yaml:"oracle"`
		} `yaml:"task"`
	}
	if err := yaml.Unmarshal(b, &f); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	ft := f.Task
	if ft.Name == "" || ft.Kind == "" || ft.FunctionName == "" {
		t.Fatalf("%s: a benchmark task names its task, kind and function_name", file)
	}
	if ft.Oracle.Python != "" {
		python = filepath.Join(filepath.Dir(file), ft.Oracle.Python)
	}
	return task.Task{Name: ft.Name, Level: ft.Level, InputType: ft.InputType, InputConstraints: ft.InputConstraints,
		FunctionName: ft.FunctionName, Kind: task.Kind(ft.Kind), Domain: ft.Domain}, python, ft.Oracle.Function
}
