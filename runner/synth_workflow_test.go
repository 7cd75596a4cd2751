package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/workflow"
)

// TestSynthStructuredTaskRunsThroughWorkflow runs a task whose inputs are
// objects through the real workflow with the built-in synthesizer:
// proposals are accepted by the hidden program and the run ends normally.
func TestSynthStructuredTaskRunsThroughWorkflow(t *testing.T) {
	testenv.NeedPython(t)
	if testing.Short() {
		t.Skip("runs a workflow with a sandbox")
	}
	dir := t.TempDir()
	c, err := config.Load(config.Options{
		File: filepath.Join("..", "benchmarks", "tasks", "io2code-style", "hard_lru_misses", "task.yaml"),
		Override: map[string]any{"sandbox.kind": "process", "workflow.max_iterations": 4, "agent.synth.time_limit": "2s",
			"bank.enabled": false, "workspace": dir},
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != workflow.StopMaxIterations && res.StopReason != workflow.StopEarly {
		t.Fatalf("stop reason %q (%s), want max_iterations or early_stop", res.StopReason, res.Error)
	}
	if len(res.Examples) < 2 {
		t.Fatalf("%d observed examples, want at least the initial batch", len(res.Examples))
	}
	for _, ex := range res.Examples {
		if !strings.HasPrefix(string(ex.Input), "{") {
			t.Errorf("observed input %s is not an object", ex.Input)
		}
	}
}

// agent.synth.max_programs bounds the synthesizer by programs instead of
// time: a run is then the same run on any machine (two runs observe the
// same examples and end on the same program), and a budget too small to
// reach the hidden program leaves the run without one.
func TestSynthProgramBudget(t *testing.T) {
	testenv.NeedPython(t)
	if testing.Short() {
		t.Skip("runs a workflow with a sandbox")
	}
	run := func(t *testing.T, budget int) workflow.Result {
		t.Helper()
		c, err := config.Load(config.Options{
			File: filepath.Join("..", "benchmarks", "tasks", "io2code-style", "base_floats_floor", "task.yaml"),
			Override: map[string]any{"sandbox.kind": "process", "agent.synth.max_programs": budget,
				"bank.enabled": false, "workspace": t.TempDir()},
		})
		if err != nil {
			t.Fatal(err)
		}
		if c.Agent.Synth.MaxPrograms != budget {
			t.Fatalf("agent.synth.max_programs read as %d, want %d", c.Agent.Synth.MaxPrograms, budget)
		}
		res, err := Run(context.Background(), c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return *res
	}
	tests := []struct {
		name   string
		budget int
		solved bool
	}{
		{"too small to find floor", 50, false},
		{"enough", 20000, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first, second := run(t, tt.budget), run(t, tt.budget)
			if solved := first.StopReason == workflow.StopEarly && first.FinalScore == 1; solved != tt.solved {
				t.Errorf("stop %q, final score %v: solved %v, want %v", first.StopReason, first.FinalScore, solved, tt.solved)
			}
			if first.StopReason != second.StopReason || first.FinalProgram != second.FinalProgram {
				t.Errorf("two runs ended apart: %q with %q, %q with %q", first.StopReason, first.FinalProgram, second.StopReason, second.FinalProgram)
			}
			if len(first.Examples) != len(second.Examples) {
				t.Fatalf("two runs observed %d and %d examples", len(first.Examples), len(second.Examples))
			}
			for i := range first.Examples {
				if string(first.Examples[i].Input) != string(second.Examples[i].Input) {
					t.Errorf("example %d: input %s in one run, %s in the other", i, first.Examples[i].Input, second.Examples[i].Input)
				}
			}
		})
	}
}
