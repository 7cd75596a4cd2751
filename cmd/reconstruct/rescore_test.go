package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
)

// candidates list and candidates rescore agree on a candidate's
// hard-coding penalty: rescore measures it, as the run did, against the
// examples the run observed, even when it scores on held-out tests, whose
// values the program never saw.
func TestListAndRescoreAgreeOnPenalties(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	dir := t.TempDir()
	qs := filepath.Dir(quickstartPath(t))
	// The running maximum, with a literal that is one of the held-out
	// tests' values below, never an observed one.
	testenv.WriteFiles(t, dir, map[string]string{
		"replay.yaml": `candidates:
  - source: |
      LIMIT = 777
      def solve(input_data):
          result = []
          best = None
          for x in input_data:
              best = x if best is None else max(best, x)
              result.append(best)
          return result
proposals:
  - inputs: [[3, 1, 2], [5, -4, 7, 0]]
  - inputs: [[], [9], [1, 2, 3, 4], [-3, -8, -1, -20]]
`,
		"heldout.jsonl": `{"input": [777], "output": [777]}` + "\n" + `{"input": [1, 777], "output": [1, 777]}` + "\n",
	})
	cfg := strings.NewReplacer("quickstart/replay.yaml", filepath.Join(dir, "replay.yaml"), "quickstart/", qs+"/quickstart/").Replace(readFile(quickstartPath(t)))
	cfg = strings.Replace(cfg, "task:\n", "task:\n  allow_outside_paths: true\n", 1)
	cfg = strings.Replace(cfg, "workflow:\n", "workflow:\n  max_iterations: 2\n", 1)
	if err := os.WriteFile(filepath.Join(dir, "task.yaml"), []byte(cfg+"\nsandbox: {kind: process}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(dir, "ws")
	if r := cli(t, dir, nil, "run", "--config", filepath.Join(dir, "task.yaml"), "--workspace", ws); r.code != 0 {
		t.Fatalf("run: exit %d\n%s", r.code, r.stderr)
	}
	r := cli(t, dir, nil, "candidates", "list", ws, "--json")
	var listed []struct {
		Iteration  int     `json:"iteration"`
		Hardcoding float64 `json:"hardcoding"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &listed); err != nil || len(listed) == 0 {
		t.Fatalf("list: %v\n%s%s", err, r.stdout, r.stderr)
	}
	last := listed[len(listed)-1]
	for _, tests := range []string{"", filepath.Join(dir, "heldout.jsonl")} {
		args := []string{"candidates", "rescore", ws, "--json", "--sandbox", "process"}
		if tests != "" {
			args = append(args, "--tests", tests)
		}
		r := cli(t, dir, nil, args...)
		var got struct {
			Candidates []struct {
				Record struct {
					Iteration int `json:"iteration"`
				} `json:"record"`
				Hardcoding float64 `json:"hardcoding"`
				Accuracy   float64 `json:"accuracy"`
			} `json:"candidates"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 {
			t.Fatalf("rescore %s: exit %d, %v\n%s", tests, r.code, err, r.stderr)
		}
		for _, c := range got.Candidates {
			if c.Record.Iteration == last.Iteration && (c.Hardcoding != last.Hardcoding || c.Accuracy != 1) {
				t.Errorf("rescore %q: iteration %d hard-coding %.3f (accuracy %.3f), candidates list says %.3f", tests, c.Record.Iteration, c.Hardcoding, c.Accuracy, last.Hardcoding)
			}
		}
	}
}
