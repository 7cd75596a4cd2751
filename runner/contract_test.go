package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// The example binding written to the original workflow's contract
// (configs/examples/contract: a dataclass of its own, random_inputs(k,
// exclude), an async evaluate returning records, a callable tool,
// on_example, workspace) runs with random_share 0.5 to early_stop from a
// directory of mode 0700, in either sandbox: its workspace is the one it
// names, on_example sees every observed example in order with its source,
// and its evaluate hook agrees with the candidates' own evaluation.
func TestContractBindingRunsToEarlyStop(t *testing.T) {
	testenv.NeedPython(t)
	inEachSandbox(t, func(t *testing.T, kind string) {
		dir := testenv.PrivateCopy(t, filepath.Join("..", "configs", "examples", "contract"))
		c := loadIn(t, filepath.Join(dir, "run.yaml"), kind, true)
		res, err := Run(context.Background(), c, Options{})
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		if res.StopReason != workflow.StopEarly || res.FinalAccuracy != 1 || res.Settings.RandomShare != 0.5 {
			t.Fatalf("stop %s, final accuracy %v, random share %v", res.StopReason, res.FinalAccuracy, res.Settings.RandomShare)
		}
		if want := filepath.Join(dir, "runs", "triple_plus_one"); res.Workspace != want {
			t.Errorf("workspace %s, want the binding's %s", res.Workspace, want)
		}
		random := 0
		for _, ex := range res.Examples {
			if ex.Source == task.SourceRandom {
				random++
			}
		}
		if random == 0 || random != res.RandomInputs {
			t.Errorf("%d examples from random_inputs (result says %d) of %d", random, res.RandomInputs, res.KnownExamples)
		}
		for _, r := range res.Events {
			if r.Disagreements != 0 {
				t.Errorf("iteration %d: the evaluate hook disagreed on %d examples", r.Iteration, r.Disagreements)
			}
		}
		lines, err := readLines(filepath.Join(res.Workspace, BindingLog))
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) != len(res.Examples) {
			t.Fatalf("on_example saw %d examples, the run observed %d", len(lines), len(res.Examples))
		}
		for i, line := range lines {
			var got struct {
				Input, Output json.RawMessage
				Source        task.Source
			}
			if err := json.Unmarshal([]byte(line), &got); err != nil {
				t.Fatal(err)
			}
			ex := res.Examples[i]
			if !task.Equal(got.Input, ex.Input, 0) || !task.Equal(got.Output, ex.Output, 0) || got.Source != ex.Source {
				t.Errorf("on_example %d saw %s", i, line)
			}
		}
	})
}

func readLines(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"), nil
}

// The task's workspace is used only when neither the configuration nor a
// flag names one; the synthesizer says once that it does not call the
// task's own tools.
func TestContractBindingWorkspaceAndTools(t *testing.T) {
	testenv.NeedPython(t)
	src := filepath.Join("..", "configs", "examples", "contract")
	for _, tc := range []struct {
		name     string
		override map[string]any
		want     func(dir string) string
	}{
		{"the binding's", nil, func(dir string) string { return filepath.Join(dir, "runs", "triple_plus_one") }},
		{"the configuration's", map[string]any{"workspace": "/elsewhere/ws"}, func(string) string { return "/elsewhere/ws" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := testenv.PrivateCopy(t, src)
			override := map[string]any{"sandbox.kind": "process"}
			for k, v := range tc.override {
				override[k] = v
			}
			c, err := config.Load(config.Options{File: filepath.Join(dir, "run.yaml"), Override: override})
			if err != nil {
				t.Fatal(err)
			}
			if c, err = Bind(context.Background(), c, nil); err != nil {
				t.Fatal(err)
			}
			if want := tc.want(dir); c.Workspace != want {
				t.Errorf("workspace %s, want %s", c.Workspace, want)
			}
			core, logs := observer.New(zap.InfoLevel)
			if _, err := NewAgent(context.Background(), c, nil, nil, zap.New(core)); err != nil {
				t.Fatal(err)
			}
			notes := logs.FilterMessage("the synthesizer does not call the task's own tools; the LLM agent does").All()
			if len(notes) != 1 || fmt.Sprint(notes[0].ContextMap()["tools"]) != "[check_candidate]" {
				t.Errorf("notes %+v, want one naming check_candidate", notes)
			}
		})
	}
}
