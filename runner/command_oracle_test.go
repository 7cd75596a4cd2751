package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/testenv"
)

// commandTask writes a task whose hidden program is a shell script that
// doubles an integer, and refuses to answer when it sees the caller's API
// key in its environment.
func commandTask(t *testing.T, onHost bool) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"hidden.sh":   "#!/bin/sh\nread x\nif env | grep -q QZ-api-key; then echo 'saw the API key' >&2; exit 1; fi\necho $((x * 2))\n",
		"gen.py":      "def generate(k, exclude, rng):\n    return [rng.randint(-100, 100) for _ in range(k)]\n",
		"replay.yaml": "candidates:\n  - source: |\n      def solve(x):\n          return 2 * x\n",
	}
	task := "task:\n  name: double\n  input_type: integer\n  kind: int\n  oracle:\n    command: [./hidden.sh]\n"
	if onHost {
		task += "    on_host: true\n"
	}
	task += "  random_inputs:\n    python: gen.py\nagent:\n  kind: replay\n  replay:\n    script: replay.yaml\nworkflow:\n  random_share: 1.0\n  max_iterations: 2\n  early_stop: 2\n"
	files["task.yaml"] = task
	testenv.WriteFiles(t, dir, files)
	if err := os.Chmod(filepath.Join(dir, "hidden.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "task.yaml")
}

// A command oracle runs in the oracle's sandbox, without the caller's
// environment; on the host only when the task says so, and the run says it.
func TestCommandOracleRuns(t *testing.T) {
	testenv.NeedPython(t)
	t.Setenv("OPENAI_API_KEY", "QZ-api-key")
	for _, tc := range []struct {
		kind   string
		onHost bool
	}{{"process", false}, {"docker", false}, {"process", true}} {
		name := tc.kind
		if tc.onHost {
			name += "/on_host"
		}
		t.Run(name, func(t *testing.T) {
			needSandbox(t, tc.kind)
			c, err := config.Load(config.Options{File: commandTask(t, tc.onHost), Override: map[string]any{
				"workspace": t.TempDir(), "bank.path": filepath.Join(t.TempDir(), "bank.db"), "sandbox.kind": tc.kind,
			}})
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			res, err := Run(context.Background(), c, Options{Progress: &stderr})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if res.KnownExamples == 0 || res.FinalAccuracy != 1 {
				t.Errorf("known %d, final accuracy %v: the oracle did not answer every input", res.KnownExamples, res.FinalAccuracy)
			}
			said := strings.Contains(stderr.String(), "runs on this machine, outside any sandbox")
			if said != tc.onHost {
				t.Errorf("on_host %v, stderr says so: %v\n%s", tc.onHost, said, stderr.String())
			}
		})
	}
}
