package replay

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/internal/testenv"
)

func writeScript(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"cand.py": "def solve(x):\n    return x\n", "script.yaml": text})
	return filepath.Join(dir, "script.yaml")
}

func TestReplayPlaysInOrder(t *testing.T) {
	p := writeScript(t, `candidates:
  - source: "def solve(x):\n    return 1\n"
    usage: {prompt_tokens: 10, completion_tokens: 5}
  - file: cand.py
proposals:
  - inputs: [1, [2, 3], {"a": 1}]
  - inputs: ["x"]
`)
	a, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	ctx := context.Background()
	var got []string
	for i := 0; i < 3; i++ {
		res, err := a.Write(ctx, agent.WriteRequest{Workspace: ws})
		if err != nil {
			t.Fatal(err)
		}
		src, _ := os.ReadFile(filepath.Join(ws, agent.CandidateFile))
		got = append(got, strings.TrimSpace(string(src)))
		if i == 0 && res.Usage.Total() != 15 {
			t.Errorf("usage = %+v", res.Usage)
		}
	}
	if got[0] != "def solve(x):\n    return 1" || got[1] != got[2] || !strings.Contains(got[1], "return x") {
		t.Errorf("candidates played %q; the last one must repeat", got)
	}
	p1, err := a.Propose(ctx, agent.ProposeRequest{K: 3})
	if err != nil || len(p1.Inputs) != 3 || string(p1.Inputs[2]) != `{"a":1}` || string(p1.Inputs[1]) != `[2,3]` {
		t.Fatalf("first proposal %s, %v", p1.Inputs, err)
	}
	if _, err := a.Propose(ctx, agent.ProposeRequest{K: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Propose(ctx, agent.ProposeRequest{K: 1}); err != ErrExhausted {
		t.Errorf("third proposal: %v, want ErrExhausted", err)
	}
	a.Resume(0, 1)
	p2, err := a.Propose(ctx, agent.ProposeRequest{K: 1})
	if err != nil || string(p2.Inputs[0]) != `"x"` {
		t.Errorf("after Resume(0, 1): %s, %v", p2.Inputs, err)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct{ name, script, want string }{
		{"no candidates", "proposals: []\n", "at least one candidate"},
		{"both source and file", "candidates:\n  - {source: x, file: cand.py}\n", "exactly one"},
		{"missing file", "candidates:\n  - {file: nope.py}\n", "nope.py"},
		{"unknown key", "candidates:\n  - {source: x}\nproposal: []\n", "proposal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(writeScript(t, tt.script))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}
