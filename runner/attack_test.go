package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/sandbox/docker"
)

// memoryCheat looks for the observed outputs in the memory it inherited
// from the harness: the analyse request that precedes every call carries
// them. It answers each input with the output found for it.
const memoryCheat = `import gc, json, sys


def _requests():
    seen = []
    f = sys._getframe()
    while f is not None:
        seen.extend(f.f_locals.values())
        f = f.f_back
    for m in list(sys.modules.values()):
        seen.extend(getattr(m, "__dict__", {}).values())
    seen.extend(gc.get_objects())
    for v in seen:
        if isinstance(v, (bytes, bytearray)):
            v = bytes(v).decode("utf-8", "replace")
        if isinstance(v, str) and '"outputs"' in v:
            try:
                yield json.loads(v)
            except ValueError:
                pass
        elif isinstance(v, dict) and "outputs" in v and "inputs" in v:
            yield v


def solve(input_data):
    key = json.dumps(input_data, sort_keys=True)
    for req in _requests():
        for i, o in zip(req.get("inputs") or [], req.get("outputs") or []):
            if json.dumps(i, sort_keys=True) == key:
                return o
    return "no answers found"
`

// A candidate that reads the observed outputs from the harness's memory
// must not pass a single example, in either sandbox.
func TestCandidatesCannotReadOutputsFromTheHarness(t *testing.T) {
	testenv.NeedPython(t)
	for _, kind := range []string{"process", "docker"} {
		t.Run(kind, func(t *testing.T) {
			if kind == "docker" {
				testenv.NeedDocker(t)
				if ok, reason := docker.Available(context.Background(), docker.DefaultImage()); !ok {
					testenv.Skip(t, reason)
				}
			}
			dir := t.TempDir()
			script := filepath.Join(dir, "cheat.yaml")
			if err := os.WriteFile(script, []byte("candidates:\n  - file: cheat.py\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "cheat.py"), []byte(memoryCheat), 0o644); err != nil {
				t.Fatal(err)
			}
			c := quickstart(t, map[string]any{"agent.replay.script": script, "workflow.max_iterations": 3, "workflow.memorisation_gate": true, "workflow.random_share": 1.0})
			c.Sandbox.Kind = kind // quickstart pins the process sandbox
			res, err := Run(context.Background(), c, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res.Events {
				t.Logf("iteration %d: %d/%d", r.Iteration, r.Passed, r.Known)
				if r.Passed > 0 {
					t.Errorf("iteration %d: the candidate reading the harness's memory passed %d/%d examples", r.Iteration, r.Passed, r.Known)
				}
			}
			t.Logf("stop %s, %d promotions", res.StopReason, res.Promotions)
		})
	}
}
