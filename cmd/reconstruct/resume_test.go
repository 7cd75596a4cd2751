package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/workflow"
)

// A run stopped with Ctrl-C whose workspace was then moved away is resumed
// with its candidates restored from the bank, and ends as it would have;
// a setting flag given with --resume is refused, not ignored.
func TestResumeRestoresTheWorkspace(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	dir := t.TempDir()
	cfg := writeTask(t, dir, "import hashlib\n\ndef f(x):\n    if not isinstance(x, int):\n        raise ValueError('int')\n    return int(hashlib.sha256(str(x).encode()).hexdigest()[:8], 16)\n",
		"agent: {kind: synth, synth: {time_limit: 2s, run_time_limit: 0s}}\nsandbox: {kind: process}\nworkflow: {max_iterations: 3}\nbank: {path: bank.db}\n")
	ws := filepath.Join(dir, "ws")
	first, stderr := startCLI(t, dir, "run", "--config", cfg, "--workspace", ws, "--run-id", "r1")
	// Ctrl-C once the first candidate is in a checkpoint: iteration 1's
	// iteration_finished, not its candidate_archived. A resumed run starts
	// from its last checkpoint and does again the work after it; a
	// candidate that passes its examples earns a batch, proposed and
	// queried before the iteration's checkpoint (half a second of the
	// synthesizer's rival search), and a Ctrl-C there leaves no
	// checkpoint holding the candidate: the resumed run writes it again
	// rather than restore it. After iteration_finished the run is in its
	// second session (2s), which the signal interrupts.
	waitFor(t, first, stderr, filepath.Join(ws, workflow.EventsFile), workflow.EventIterationFinished)
	first.Process.Signal(syscall.SIGINT)
	first.Wait()
	if err := os.Rename(ws, filepath.Join(dir, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	bank := filepath.Join(dir, "bank.db")

	r := cli(t, dir, nil, "run", "--resume", "r1", "--bank", bank, "--max-iterations", "10", "--early-stop", "2")
	if r.code != exitUsage {
		t.Errorf("--resume with setting flags: exit %d, want 2\n%s", r.code, r.stderr)
	}
	for _, w := range []string{"--early-stop, --max-iterations: a resumed run goes on with the settings it was recorded with",
		"reconstruct run --fork r1 --config FILE --early-stop=2 --max-iterations=10"} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
		}
	}
	if _, err := os.Stat(ws); err == nil {
		t.Errorf("the refused resume created the workspace")
	}

	r = cli(t, dir, nil, "run", "--resume", "r1", "--bank", bank, "--json")
	if r.code != exitRejected { // the hidden program is out of the synthesizer's reach
		t.Fatalf("resume: exit %d, want 1\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "missing from "+ws+": restored from the bank") {
		t.Errorf("the resume does not say it restored the candidates:\n%s", r.stderr)
	}
	if strings.Contains(r.stderr, "archived candidate") && strings.Contains(r.stderr, "no such file") {
		t.Errorf("the final selection missed a candidate:\n%s", r.stderr)
	}
	if !strings.Contains(r.stdout, `"stop_reason": "max_iterations"`) || !strings.Contains(r.stdout, `"iterations": 3`) {
		t.Errorf("the resumed run did not end with its recorded settings:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(ws, "candidate.py")); err != nil {
		t.Errorf("no final program in the restored workspace: %v", err)
	}
	// It went on after iteration 1, whose candidate it restored, rather
	// than write that candidate again.
	events, err := workflow.ReadEvents(ws)
	if err != nil {
		t.Fatal(err)
	}
	resumedAt := -1
	for _, ev := range events {
		if ev.Type == workflow.EventRunResumed {
			var d workflow.RunResumed
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				t.Fatal(err)
			}
			resumedAt = d.Iteration
		}
	}
	if resumedAt < 1 {
		t.Errorf("the resumed run went on from iteration %d, want 1 or later (-1: no run_resumed event)", resumedAt)
	}
}
