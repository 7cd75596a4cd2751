package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/agent/llm/llmtest"
)

// A task's own tool is offered with its description and schema (in place
// of the built-in tool of its name), called with the model's arguments and
// candidate.py's source, and what it returns, or its error, goes back to
// the model; a failure of its sandbox ends the session.
func TestTaskToolsAreOfferedAndCalled(t *testing.T) {
	var calls []string
	own := TaskTool{
		Name: checkCandidateToolName, Description: "the task's own check", TakesCandidate: true,
		Parameters: map[string]any{"type": "object", "properties": map[string]any{"limit": map[string]any{"type": "integer"}}, "required": []string{}},
		Call: func(_ context.Context, source string, args json.RawMessage) (string, error) {
			calls = append(calls, source+"|"+string(args))
			if strings.Contains(string(args), "13") {
				return "", errors.New("the tool raised ValueError: unlucky")
			}
			return "3 of 4 agree", nil
		},
	}
	srv := llmtest.NewServer(t,
		llmtest.Call("file_write", write("candidate.py", identitySrc), 1, 1),
		llmtest.Call("check_candidate", map[string]int{"limit": 4}, 1, 1),
		llmtest.Call("check_candidate", map[string]int{"limit": 13}, 1, 1),
		llmtest.Call("done", map[string]string{"summary": "x"}, 1, 1),
	)
	a := newTestAgent(t, srv, newFakeSandbox(), func(o *Options) { o.TaskTools = []TaskTool{own} })
	req := writeReq(t, threeExamples)
	res := a.write(t, req)
	wantToolResults(t, toolResults(t, res.Transcript), []string{"wrote candidate.py", "3 of 4 agree", "error: the tool raised ValueError: unlucky", "session finished"}, strings.HasPrefix)
	if diff := cmp.Diff([]string{identitySrc + `|{"limit":4}`, identitySrc + `|{"limit":13}`}, calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	var offered []string
	for _, tl := range srv.ChatRequests()[0].Tools {
		offered = append(offered, tl.Function.Name)
		if tl.Function.Name == checkCandidateToolName && tl.Function.Description != "the task's own check" {
			t.Errorf("check_candidate offered as %q, want the task's", tl.Function.Description)
		}
	}
	if diff := cmp.Diff([]string{"bash", "file_read", "file_write", "apply_patch", "check_candidate", "done"}, offered); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}

	broken := own
	broken.Name = "lookup"
	broken.Call = func(context.Context, string, json.RawMessage) (string, error) {
		return "", fmt.Errorf("%w: the sandbox is gone", ErrToolInfrastructure)
	}
	srv = llmtest.NewServer(t, llmtest.Call("file_write", write("candidate.py", identitySrc), 1, 1), llmtest.Call("lookup", map[string]any{}, 1, 1))
	a = newTestAgent(t, srv, newFakeSandbox(), func(o *Options) { o.TaskTools = []TaskTool{broken} })
	if _, err := a.Write(context.Background(), writeReq(t, threeExamples)); !errors.Is(err, ErrToolInfrastructure) {
		t.Errorf("Write with a broken task tool: %v, want ErrToolInfrastructure", err)
	}
}

// A task's tools must have names the model can call, none twice, none done.
func TestCheckTaskTools(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"check_candidate", "lookup-2"}, ""},
		{[]string{"done"}, "the name done is the session's own"},
		{[]string{"a", "a"}, "two tools named \"a\""},
		{[]string{"has space"}, "1 to 64 letters, digits, _ or -"},
	} {
		tools := make([]TaskTool, len(tc.names))
		for i, n := range tc.names {
			tools[i] = TaskTool{Name: n}
		}
		err := CheckTaskTools(tools)
		if (tc.want == "") != (err == nil) || (err != nil && (!strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrConfig))) {
			t.Errorf("CheckTaskTools(%q) = %v, want %q", tc.names, err, tc.want)
		}
	}
}

// A task tool that takes the candidate refuses a call before candidate.py
// exists, saying so to the model.
func TestTaskToolNeedsTheCandidate(t *testing.T) {
	tt := &taskTool{t: TaskTool{Name: "t", TakesCandidate: true, Call: func(context.Context, string, json.RawMessage) (string, error) { return "ran", nil }}}
	dir := t.TempDir()
	ws, err := openWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	tt.ws = ws
	if _, err := tt.Run(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "write it first with file_write") {
		t.Errorf("Run without candidate.py: %v", err)
	}
	os.WriteFile(filepath.Join(dir, agent.CandidateFile), []byte(identitySrc), 0o644)
	if out, err := tt.Run(context.Background(), json.RawMessage(`{}`)); out != "ran" || err != nil {
		t.Errorf("Run: %q %v", out, err)
	}
	if _, err := tt.Run(context.Background(), json.RawMessage(`[1]`)); err == nil || !strings.Contains(err.Error(), "not a JSON object") {
		t.Errorf("Run with an array: %v", err)
	}
}
