package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/workflow"
)

// A candidate that looks the answers up in the workspace's journals, by a
// relative and by an absolute path, must not pass: candidates are evaluated
// with no workspace in sight (Docker), or as another user that cannot read
// the owner-only journals (process sandbox as root).
func TestCandidatesCannotReadTheJournals(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	if os.Geteuid() != 0 {
		testenv.Skip(t, "the process sandbox runs candidates as another user only when run as root")
	}
	inEachSandbox(t, func(t *testing.T, kind string) {
		ws := t.TempDir()
		cheat := fmt.Sprintf(`import json, os


def solve(input_data):
    for path in ("examples.jsonl", %q):
        try:
            with open(path) as f:
                table = {json.dumps(e["input"]): e["output"] for e in map(json.loads, f)}
            return table[json.dumps(input_data)]
        except (OSError, KeyError):
            pass
    return "no answers found"
`, filepath.Join(ws, workflow.ExamplesFile))
		script := filepath.Join(t.TempDir(), "cheat.yaml")
		os.WriteFile(script, []byte("candidates:\n  - file: cheat.py\nproposals:\n  - inputs: [[1, 2], [3]]\n"), 0o644)
		os.WriteFile(filepath.Join(filepath.Dir(script), "cheat.py"), []byte(cheat), 0o644)
		c := quickstart(t, map[string]any{"agent.replay.script": script, "workflow.max_iterations": 2})
		c.Sandbox.Kind = kind // quickstart pins the process sandbox
		c.Workspace = ws
		res, err := Run(context.Background(), c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Events {
			if r.Passed > 0 {
				t.Errorf("iteration %d: the cheating candidate passed %d examples", r.Iteration, r.Passed)
			}
		}
	})
}
