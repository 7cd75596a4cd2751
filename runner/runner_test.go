package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/sandbox/docker"
	"github.com/reconstruct/reconstruct/workflow"
)

func needPython(t *testing.T) { testenv.NeedPython(t) }

func quickstart(t *testing.T, override map[string]any) *config.Config {
	t.Helper()
	if override == nil {
		override = map[string]any{}
	}
	override["workspace"] = t.TempDir()
	if _, ok := override["bank.path"]; !ok {
		override["bank.path"] = filepath.Join(t.TempDir(), "bank.db")
	}
	override["sandbox.kind"] = "process"
	// Tests that count iterations must not see a correct candidate time
	// out on a loaded machine.
	if _, ok := override["sandbox.call_timeout"]; !ok {
		override["sandbox.call_timeout"] = "120s"
	}
	c, err := config.Load(config.Options{File: filepath.Join("..", "configs", "examples", "quickstart.yaml"), Override: override})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestQuickstartReachesEarlyStop(t *testing.T) {
	t.Parallel()
	needPython(t)
	c := quickstart(t, nil)
	res, err := Run(context.Background(), c, Options{RunID: "quickstart-test"})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.StopReason != workflow.StopEarly || res.Iterations != 6 || res.Promotions != 5 || res.KnownExamples != 30 {
		t.Fatalf("stop %s iterations %d promotions %d known %d; want early_stop 6 5 30", res.StopReason, res.Iterations, res.Promotions, res.KnownExamples)
	}
	if res.FinalScore < 0.9 || res.FinalAccuracy != 1 {
		t.Errorf("final score %v accuracy %v", res.FinalScore, res.FinalAccuracy)
	}
	if res.Events[0].Passed == res.Events[0].Known {
		t.Errorf("the sorting guess passed every example")
	}
	for _, f := range []string{"candidate.py", "result.json", "events.jsonl", "examples.jsonl", ".oc_candidates/manifest.json"} {
		if _, err := os.Stat(filepath.Join(c.Workspace, f)); err != nil {
			t.Errorf("workspace lacks %s: %v", f, err)
		}
	}
	exs, err := workflow.ReadExamples(c.Workspace)
	if err != nil || len(exs) != 30 {
		t.Errorf("examples.jsonl: %d examples, %v", len(exs), err)
	}
}

func TestRandomShareUsesGeneratorInSandbox(t *testing.T) {
	t.Parallel()
	needPython(t)
	// Every input comes from the task's generator, run in the oracle's sandbox.
	c := quickstart(t, map[string]any{"workflow.random_share": 1.0, "workflow.early_stop": 2})
	res, err := Run(context.Background(), c, Options{RunID: "random-share-test"})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.StopReason != workflow.StopEarly || res.RandomInputs != res.KnownExamples || res.KnownExamples != 2+4 {
		t.Errorf("stop %s, random inputs %d of %d, want early_stop with all 6 random", res.StopReason, res.RandomInputs, res.KnownExamples)
	}
	for _, ex := range res.Examples {
		if ex.Source != "random" {
			t.Errorf("example %s has source %s", ex.Input, ex.Source)
		}
	}
}

func nopLog() *zap.Logger { return zap.NewNop() }

// inEachSandbox runs test as a subtest in the process sandbox and in
// Docker (needSandbox).
func inEachSandbox(t *testing.T, test func(t *testing.T, kind string)) {
	t.Helper()
	for _, kind := range []string{"process", "docker"} {
		t.Run(kind, func(t *testing.T) {
			needSandbox(t, kind)
			test(t, kind)
		})
	}
}

// loadIn loads the task file in a sandbox of kind, with a workspace
// (unless keepWorkspace: the task's own) and a bank of the test's own.
func loadIn(t *testing.T, file, kind string, keepWorkspace bool) *config.Config {
	t.Helper()
	override := map[string]any{"bank.path": filepath.Join(t.TempDir(), "bank.db"), "sandbox.kind": kind, "sandbox.call_timeout": "60s"}
	if !keepWorkspace {
		override["workspace"] = filepath.Join(t.TempDir(), "ws")
	}
	c, err := config.Load(config.Options{File: file, Override: override})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// needSandbox skips a test of the sandbox kind ("process" or "docker") when
// the machine cannot run it: Docker needs an engine and the runner image.
func needSandbox(t *testing.T, kind string) {
	t.Helper()
	if kind != "docker" {
		return
	}
	testenv.NeedDocker(t)
	if ok, reason := docker.Available(context.Background(), docker.DefaultImage()); !ok {
		testenv.Skip(t, reason)
	}
}
