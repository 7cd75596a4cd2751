package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/sandbox/docker"
	"github.com/reconstruct/reconstruct/workflow"
)

// Finding 8 of the security issue: hostile outputs. A hidden program
// answering a value nested more than 200 levels deep crashed the run
// (exit 3, not resumable); at 5,000 levels two 10-KB answers wrote a
// 100-MB result.json and as much to stdout; a command oracle on the host
// printing bytes that are not UTF-8 hung, exited 3 and wrote invalid JSON
// to stdout. Each answer beyond a bound (task.oracle.max_output_depth,
// max_output_kb, UTF-8) is a mistake of the task: exit 2 naming the bound,
// everything written small and valid. A candidate answering a deep value
// is only a failing candidate.
func TestHostileOutputsAreBounded(t *testing.T) {
	testenv.NeedPython(t)
	// A hidden program raising its own recursion limit gets a value of
	// any depth encoded.
	deep := func(levels, width int) string {
		return "import sys\nsys.setrecursionlimit(100000)\n\n\ndef f(x):\n    v = 'x' * " + itoa(width) + "\n    for _ in range(" + itoa(levels) + "):\n        v = [v]\n    return v\n"
	}
	tests := []outputCase{
		{name: "an answer 250 levels deep", files: map[string]string{"hidden.py": deep(250, 1)}, oracle: "{python: hidden.py, function: f}",
			code: 2, want: "task.oracle.max_output_depth: the hidden program's answer to input 1 (1) is nested 250 levels deep, more than 100"},
		{name: "two 10-KB answers 5,000 levels deep", files: map[string]string{"hidden.py": deep(5000, 10000)}, oracle: "{python: hidden.py, function: f}",
			code: 2, want: "task.oracle.max_output_depth: the hidden program's answer to input 1 (1) is nested too deeply for JSON"},
		{name: "an answer too deep for JSON", files: map[string]string{"hidden.py": "def f(x):\n    v = x\n    for _ in range(5000):\n        v = [v]\n    return v\n"},
			oracle: "{python: hidden.py, function: f}", code: 2, want: "task.oracle.max_output_depth: the hidden program's answer to input 1 (1) is nested too deeply for JSON"},
		{name: "an answer deeper than a lowered bound", files: map[string]string{"hidden.py": deep(5, 1)}, oracle: "{python: hidden.py, function: f, max_output_depth: 4}",
			code: 2, want: "task.oracle.max_output_depth: the hidden program's answer to input 1 (1) is nested 5 levels deep, more than 4"},
		{name: "an answer over max_output_kb", files: map[string]string{"hidden.py": deep(1, 3000)}, oracle: "{python: hidden.py, function: f, max_output_kb: 2}",
			code: 2, want: "task.oracle.max_output_kb"},
		{name: "a command on the host printing bytes that are not UTF-8", files: map[string]string{"oracle.sh": "#!/bin/sh\nprintf '\"\\377\\376\"'\n"},
			oracle: "{command: [./oracle.sh], on_host: true}", code: 2, want: "UTF-8 output: the hidden program's answer to input 1 (1) is not UTF-8 text"},
		{name: "a command in the sandbox printing bytes that are not UTF-8", files: map[string]string{"oracle.sh": "#!/bin/sh\nprintf '\"\\377\\376\"'\n"},
			oracle: "{command: [./oracle.sh]}", code: 2, want: "UTF-8 output: the hidden program's answer to input 1 (1) is not UTF-8 text"},
		{name: "a bound the bank cannot hold", files: map[string]string{"hidden.py": deep(1, 1)}, oracle: "{python: hidden.py, function: f, max_output_depth: 500}",
			code: 2, want: "task.oracle.max_output_depth: must be between 1 and 150"},
		// The candidate's own output is its outcome, however deep.
		{name: "a candidate answering 300 levels deep", files: map[string]string{"hidden.py": "def f(x):\n    return x\n"}, oracle: "{python: hidden.py, function: f}",
			extra: "deep", code: 1},
	}
	for _, kind := range []string{"process", "docker"} {
		t.Run(kind, func(t *testing.T) {
			if kind == "docker" {
				testenv.NeedDocker(t)
				if ok, reason := docker.Available(t.Context(), docker.DefaultImage()); !ok {
					testenv.Skip(t, reason)
				}
			}
			hostileOutputs(t, kind, tests)
		})
	}
}

type outputCase struct {
	name   string
	files  map[string]string
	oracle string // the task.yaml oracle line
	extra  string
	code   int
	want   string
}

func hostileOutputs(t *testing.T, kind string, tests []outputCase) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Chmod(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			cand := "def solve(x):\n    return x\n"
			if tt.extra == "deep" {
				cand = "def solve(x):\n    v = x\n    for _ in range(300):\n        v = [v]\n    return v\n"
			}
			files := map[string]string{
				"cand.py":     cand,
				"replay.yaml": "candidates:\n  - file: cand.py\nproposals:\n  - inputs: [1, 2]\n",
				"task.yaml": "task: {name: bounded, input_type: an integer, kind: int, oracle: " + tt.oracle + "}\n" +
					"agent: {kind: replay, replay: {script: replay.yaml}}\nworkflow: {max_iterations: 2}\nsandbox: {kind: " + kind + ", call_timeout: 60s}\n",
			}
			for k, v := range tt.files {
				files[k] = v
			}
			testenv.WriteFiles(t, dir, files)
			if _, ok := tt.files["oracle.sh"]; ok {
				if err := os.Chmod(filepath.Join(dir, "oracle.sh"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			ws := filepath.Join(dir, "ws")
			r := cli(t, dir, nil, "run", "--config", filepath.Join(dir, "task.yaml"), "--workspace", ws, "--json")
			if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, want %d with %q; stderr:\n%s", r.code, tt.code, tt.want, firstN(r.stderr, 2000))
			}
			if len(r.stdout) > 1<<20 || !utf8.ValidString(r.stdout) || (r.stdout != "" && !json.Valid([]byte(r.stdout))) {
				t.Errorf("stdout: %d bytes, UTF-8 %v, JSON %v", len(r.stdout), utf8.ValidString(r.stdout), json.Valid([]byte(r.stdout)))
			}
			if fi, err := os.Stat(filepath.Join(ws, workflow.ResultFile)); err == nil {
				data := mustRead(t, filepath.Join(ws, workflow.ResultFile))
				if fi.Size() > 1<<20 || !json.Valid([]byte(data)) {
					t.Errorf("result.json: %d bytes, JSON %v", fi.Size(), json.Valid([]byte(data)))
				}
			}
		})
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
