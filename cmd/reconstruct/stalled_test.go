package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/workflow"
)

// A run whose examples nothing fits keeps the synthesizer searching while
// the run's search budget lasts — the sessions that return the same
// program meanwhile are no stall — and stalls only once the search has
// nothing left, saying what it tried and what ended it.
func TestStalledRunSaysWhatTheSearchTried(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	dir := t.TempDir()
	// No program of the synthesizer's reaches these outputs. Sessions of
	// 20,000 programs, a run of six sessions' worth (120,000; 45/20 is
	// less): the first five sessions search with budget left, the sixth
	// spends the rest.
	cfg := writeTask(t, dir, "import hashlib\n\ndef f(x):\n    return int(hashlib.sha256(str(x).encode()).hexdigest()[:8], 16)\n",
		"agent: {kind: synth, synth: {max_programs: 20000, time_limit: 20s, run_time_limit: 45s}}\nsandbox: {kind: process}\nbank: {path: bank.db}\nworkflow: {stall_limit: 5, max_iterations: 30}\n")
	ws := filepath.Join(dir, "ws")
	r := cli(t, dir, nil, "run", "--config", cfg, "--workspace", ws, "--run-id", "stuck")
	if r.code != exitRejected {
		t.Fatalf("exit %d, want %d\n%s", r.code, exitRejected, r.stderr)
	}
	const detail = "the run's search budget is spent (120000 programs) after trying every program up to size"
	for _, w := range []string{"stop: " + workflow.StopStalled, "stalled: no program fits the ", detail} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("stdout lacks %q:\n%s", w, r.stdout)
		}
	}
	var res workflow.Result
	if err := json.Unmarshal([]byte(mustRead(t, filepath.Join(ws, workflow.ResultFile))), &res); err != nil {
		t.Fatal(err)
	}
	if res.StopReason != workflow.StopStalled || !strings.Contains(res.StopDetail, detail) {
		t.Errorf("stop %s, detail %q; want stalled, saying %q", res.StopReason, res.StopDetail, detail)
	}
	// Five sessions searched with budget left; the sixth, which spent the
	// rest, and the next four repeated the first with nothing left.
	if res.Iterations != 10 {
		t.Errorf("%d iterations, want 10 (5 searching with budget left, then 5 stalled)", res.Iterations)
	}
}
