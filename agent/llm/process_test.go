package llm

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/agent/llm/llmtest"
	"github.com/reconstruct/reconstruct/sandbox/process"
)

// The tools against the real process sandbox: bash runs in the workspace
// and check_candidate evaluates candidate.py with the harness.
func TestToolsWithProcessSandbox(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not found: the process sandbox needs it")
	}
	req := writeReq(t, threeExamples)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sb, err := process.New(ctx, process.Options{Dir: req.Workspace})
	if err != nil {
		t.Skipf("process sandbox unavailable: %v", err)
	}
	defer sb.Close()
	raises := "def solve(input_data):\n    return 1 // 0\n"
	srv := llmtest.NewServer(t,
		llmtest.Call("file_write", write("candidate.py", raises), 1, 1),
		llmtest.Call("check_candidate", `{}`, 1, 1),
		llmtest.Call("file_write", write("candidate.py", identitySrc), 1, 1),
		llmtest.Call("check_candidate", `{}`, 1, 1),
		llmtest.Call("file_write", write("candidate.py", runningMaxSrc), 1, 1),
		llmtest.Call("bash", map[string]string{"command": `python3 -c 'from candidate import solve; print(solve([3, 1, 2]))'`}, 1, 1),
		llmtest.Call("check_candidate", `{}`, 1, 1),
		llmtest.Call("done", `{"summary": "running max"}`, 1, 1),
	)
	a := newTestAgent(t, srv, sb, nil)
	res, err := a.Write(ctx, req)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	got := toolResults(t, res.Transcript)
	wants := []string{
		"wrote candidate.py",
		"passed 0/3 observed examples; 3 failing:\n- input [1,2]: expected [1,2], but it failed with error: ZeroDivisionError",
		"wrote candidate.py",
		"passed 2/3 observed examples; 1 failing:\n- input [3,1,2]: expected [3,3,3], got [3,1,2]",
		"wrote candidate.py",
		"exit code 0\n[3, 3, 3]\n",
		"passed 3/3 observed examples.",
		"session finished",
	}
	wantToolResults(t, got, wants, strings.HasPrefix)
}
