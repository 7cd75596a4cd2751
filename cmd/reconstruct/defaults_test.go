package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
)

// A run says at its start which random_share and coverage_gate it runs
// with and where each came from, and records both in result.json: a task
// with a generator gets 0.5 and the gate, one without gets 0 and no gate,
// and a flag, a variable or the file wins over either default.
func TestRunSaysItsTaskDefaults(t *testing.T) {
	testenv.NeedPython(t)
	const hidden = "def double(xs):\n    if not isinstance(xs, list):\n        raise ValueError('a list')\n    return [2 * x for x in xs]\n"
	const generator = "def generate(k, exclude, rng):\n    seen = {str(e) for e in exclude}\n    out = []\n" +
		"    while len(out) < k:\n        xs = [rng.randint(-9, 9) for _ in range(rng.randint(0, 5))]\n" +
		"        if str(xs) not in seen:\n            seen.add(str(xs))\n            out.append(xs)\n    return out\n"
	const task = "task:\n  name: double\n  input_type: \"list of integers\"\n  kind: list\n  oracle: {python: hidden.py, function: double}\n"
	const gen = "  random_inputs: {python: generator.py, function: generate}\n"
	const run = "workflow: {max_iterations: 2}\nsandbox: {kind: process}\n"
	tests := []struct {
		name  string
		yaml  string
		args  []string
		env   []string
		share float64
		gate  bool
		line  string
	}{
		{"generator", task + gen + run, nil, nil, 0.5, true,
			"settings: random_share 0.5 (default for a task with a generator), coverage_gate true (default for a task with a generator)"},
		{"no generator", task + run, nil, nil, 0, false,
			"settings: random_share 0 (default), coverage_gate false (default)"},
		{"flag and variable win", task + gen + run, []string{"--random-share", "0.25"}, []string{"RECONSTRUCT_WORKFLOW_COVERAGE_GATE=false"}, 0.25, false,
			"settings: random_share 0.25 (--random-share), coverage_gate false (RECONSTRUCT_WORKFLOW_COVERAGE_GATE)"},
		{"file wins", task + gen + "workflow: {max_iterations: 2, random_share: 0, coverage_gate: false}\nsandbox: {kind: process}\n", nil, nil, 0, false,
			"settings: random_share 0 (FILE), coverage_gate false (FILE)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			testenv.WriteFiles(t, dir, map[string]string{"hidden.py": hidden, "generator.py": generator, "task.yaml": tt.yaml})
			ws := filepath.Join(t.TempDir(), "ws")
			r := cli(t, dir, tt.env, append([]string{"run", "--config", "task.yaml", "--workspace", ws}, tt.args...)...)
			if r.code != 0 && r.code != 1 {
				t.Fatalf("exit %d; stderr %s", r.code, r.stderr)
			}
			want := strings.ReplaceAll(tt.line, "FILE", filepath.Join(dir, "task.yaml"))
			if first, _, _ := strings.Cut(r.stderr, "\n"); first != want {
				t.Errorf("first line of stderr %q, want %q", first, want)
			}
			var res struct {
				Settings struct {
					RandomShare  float64 `json:"random_share"`
					CoverageGate bool    `json:"coverage_gate"`
				} `json:"settings"`
				Origins map[string]string `json:"origins"`
			}
			if err := json.Unmarshal([]byte(mustRead(t, filepath.Join(ws, "result.json"))), &res); err != nil {
				t.Fatal(err)
			}
			if res.Settings.RandomShare != tt.share || res.Settings.CoverageGate != tt.gate {
				t.Errorf("result.json settings %+v, want random_share %g, coverage_gate %v", res.Settings, tt.share, tt.gate)
			}
			// The origins recorded are those the line printed.
			got := "settings: " + fmt.Sprintf("random_share %g (%s), coverage_gate %v (%s)",
				res.Settings.RandomShare, res.Origins["workflow.random_share"], res.Settings.CoverageGate, res.Origins["workflow.coverage_gate"])
			if got != want {
				t.Errorf("result.json records %q, want %q", got, want)
			}
		})
	}
}
