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
