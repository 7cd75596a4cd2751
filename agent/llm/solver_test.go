package llm

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/agent/llm/llmtest"
	"github.com/reconstruct/reconstruct/task"
)

// The llmtest.Solver handler is what end-to-end tests run against; it must
// drive this agent to a finished session in both modes.
func TestSolverDrivesSessions(t *testing.T) {
	for _, mode := range []string{ToolModeTools, ToolModeText} {
		t.Run(mode, func(t *testing.T) {
			solver := &llmtest.Solver{
				Program: runningMaxSrc,
				Inputs: func(k, n int) []any {
					out := make([]any, k)
					for i := range out {
						out[i] = []int{n, i}
					}
					return out
				},
				PromptTokens: 100, CompletionTokens: 10,
			}
			srv := llmtest.NewServerFunc(t, solver.Handle)
			a := newTestAgent(t, srv, newFakeSandbox(), func(o *Options) { o.ToolMode = mode })
			req := writeReq(t, threeExamples)
			res := a.write(t, req)
			if got := readCandidate(t, req.Workspace); strings.TrimSpace(got) != strings.TrimSpace(runningMaxSrc) {
				t.Errorf("candidate.py = %q", got)
			}
			wantStop, wantTurns := StopDone, 3
			if mode == ToolModeText {
				wantStop, wantTurns = StopPassed, 1
			}
			tr := decodeTranscript(t, res.Transcript)
			if tr.StopReason != wantStop || tr.Turns != wantTurns {
				t.Errorf("stop %q after %d turns, want %q after %d", tr.StopReason, tr.Turns, wantStop, wantTurns)
			}
			if got, want := res.Usage, (task.Usage{PromptTokens: 100 * wantTurns, CompletionTokens: 10 * wantTurns}); got != want {
				t.Errorf("usage = %+v, want %+v", got, want)
			}
			for n, k := range []int{2, 4} {
				p, err := a.Propose(context.Background(), proposeReq(k, 1, ""))
				if err != nil {
					t.Fatalf("Propose: %v", err)
				}
				want := []string{}
				for i := 0; i < k; i++ {
					want = append(want, "["+string(rune('0'+n))+","+string(rune('0'+i))+"]")
				}
				if diff := cmp.Diff(want, rawStrings(p.Inputs)); diff != "" {
					t.Errorf("proposal %d (-want +got):\n%s", n, diff)
				}
			}
		})
	}
}

func TestFileReadRanges(t *testing.T) {
	ws, err := openWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if err := ws.WriteFile("f.py", []byte("one\ntwo\nthree\n")); err != nil {
		t.Fatal(err)
	}
	tool := newFileReadTool(ws)
	tests := []struct{ args, want, wantErr string }{
		{`{"path":"f.py"}`, "    1\tone\n    2\ttwo\n    3\tthree\n", ""},
		{`{"path":"f.py","start_line":2,"end_line":2}`, "    2\ttwo\n", ""},
		{`{"path":"f.py","start_line":2,"end_line":99}`, "    2\ttwo\n    3\tthree\n", ""},
		{`{"path":"f.py","start_line":9}`, "", "past the end"},
		{`{"path":"missing.py"}`, "", "missing.py does not exist"},
		{`{"path":"."}`, "", "is a directory"},
	}
	for _, tt := range tests {
		got, err := tool.Run(context.Background(), []byte(tt.args))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: err = %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s = %q, %v, want %q", tt.args, got, err, tt.want)
		}
	}
}
