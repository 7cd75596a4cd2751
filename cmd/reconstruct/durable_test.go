package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/runner"
	"github.com/reconstruct/reconstruct/workflow"
)

// Finding 10 of the security issue (durable ends): a kill during the
// final selection left no result.json, no final event and no final
// program, yet runs list said "finished" and --resume refused the run.
// The run is killed here while its final selection re-scores a slow
// candidate: it is listed as interrupted (with the stop it reached), and
// --resume completes the selection — no session, no query — after which
// it is finished.
func TestKillDuringFinalSelection(t *testing.T) {
	testenv.NeedPython(t)
	dir := t.TempDir()
	qs := filepath.Join(filepath.Dir(quickstartPath(t)), "quickstart")
	replay := strings.Replace(mustRead(t, filepath.Join(qs, "replay.yaml")), "      def solve(input_data):\n          return sorted(input_data)\n",
		"      def solve(input_data):\n          import time\n          time.sleep(0.3)\n          return sorted(input_data)\n", 1)
	if !strings.Contains(replay, "time.sleep") {
		t.Fatal("the quickstart's replay script changed: no slow first candidate")
	}
	testenv.WriteFiles(t, dir, map[string]string{"replay.yaml": replay, "task.yaml": `task:
  name: running_max
  input_type: "list of integers"
  kind: list
  oracle: {python: ` + filepath.Join(qs, "hidden.py") + `, function: running_max}
  allow_outside_paths: true
agent: {kind: replay, replay: {script: replay.yaml}}
sandbox: {kind: process, call_timeout: 60s}
workspace: ws
`})
	bankPath := filepath.Join(dir, "bank.db")
	// Without the selection gate, which would re-score the candidates
	// before the stop and leave the final selection nothing slow to do.
	cmd := exec.Command(os.Args[0], "run", "--config", filepath.Join(dir, "task.yaml"), "--bank", bankPath, "--run-id", "killed", "--selection-gate=false")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), asCLI+"=1", "XDG_DATA_HOME="+filepath.Join(dir, ".data"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Killed once the stop is in the journal: the final selection then
	// re-scores the first candidate on every example, 0.3 s each.
	events := filepath.Join(dir, "ws", workflow.EventsFile)
	deadline := time.Now().Add(2 * time.Minute)
	for !journalHas(events, `"type":"stop"`) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal("the run recorded no stop in time")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if journalHas(events, `"type":"final"`) {
		t.Fatal("the kill came after the final event: the test proves nothing")
	}
	if _, err := os.Stat(filepath.Join(dir, "ws", workflow.ResultFile)); err == nil {
		t.Fatal("result.json exists before the final selection ended")
	}
	if got := runStatus(t, dir, bankPath); got.Status != "interrupted" || got.StopReason != workflow.StopEarly {
		t.Errorf("runs list: status %q, stop %q; want interrupted with its stop early_stop", got.Status, got.StopReason)
	}
	r := cli(t, dir, nil, "run", "--resume", "killed", "--bank", bankPath, "--json")
	var res workflow.Result
	if err := json.Unmarshal([]byte(r.stdout), &res); r.code != 0 || err != nil {
		t.Fatalf("resume: exit %d, %v\n%s", r.code, err, r.stderr)
	}
	if res.StopReason != workflow.StopEarly || !strings.Contains(res.FinalProgram, "best = x if best is None") || res.Iterations != 6 {
		t.Errorf("resumed: stop %s after %d iterations, final %q", res.StopReason, res.Iterations, firstN(res.FinalProgram, 60))
	}
	if strings.Contains(r.stderr, "iter ") {
		t.Errorf("the resume ran sessions:\n%s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "ws", workflow.ResultFile)); err != nil {
		t.Errorf("no result.json after the resume: %v", err)
	}
	if got := runStatus(t, dir, bankPath); got.Status != "finished" || got.FinalScore == nil {
		t.Errorf("runs list after the resume: status %q, score %v; want finished with its score", got.Status, got.FinalScore)
	}
	if r := cli(t, dir, nil, "runs", "show", "killed", "--bank", bankPath); r.code != 0 || !strings.Contains(r.stdout, "final score") {
		t.Errorf("runs show: exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	if r := cli(t, dir, nil, "run", "--resume", "killed", "--bank", bankPath); r.code != exitUsage || !strings.Contains(r.stderr, "finished") {
		t.Errorf("resume of the finished run: exit %d, %s", r.code, r.stderr)
	}
}

// journalHas reports whether the events file holds a line containing s.
func journalHas(path, s string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), s) {
			return true
		}
	}
	return false
}

// runStatus is the one run runs list shows of the bank.
func runStatus(t *testing.T, dir, bankPath string) runner.RunInfo {
	t.Helper()
	r := cli(t, dir, nil, "runs", "list", "--bank", bankPath, "--json")
	var runs []runner.RunInfo
	if err := json.Unmarshal([]byte(r.stdout), &runs); r.code != 0 || err != nil || len(runs) != 1 {
		t.Fatalf("runs list: exit %d, %v, %s %s", r.code, err, r.stdout, r.stderr)
	}
	return runs[0]
}
