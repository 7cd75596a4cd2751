package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/agent/llm/llmtest"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

// fakeSandbox runs nothing: Call looks the candidate's source up in
// programs (Go stand-ins for the Python the tests write), Exec answers
// from execOut and records the commands.
type fakeSandbox struct {
	mu       sync.Mutex
	programs map[string]func(in []any) (any, error)
	execOut  sandbox.ExecResult
	execErr  error
	callErr  error
	commands []string
	calls    int
}

func (f *fakeSandbox) Exec(_ context.Context, req sandbox.ExecRequest) (sandbox.ExecResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.commands = append(f.commands, req.Command)
	return f.execOut, f.execErr
}

func (f *fakeSandbox) Call(_ context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error) {
	f.mu.Lock()
	f.calls++
	f.mu.Unlock()
	if f.callErr != nil {
		return nil, f.callErr
	}
	prog, ok := f.programs[strings.TrimSpace(req.Program.Source)]
	out := make([]sandbox.Outcome, len(req.Inputs))
	for i, in := range req.Inputs {
		if !ok {
			out[i] = sandbox.Outcome{Status: sandbox.StatusLoad, Error: "SyntaxError: unknown program"}
			continue
		}
		var v []any
		if err := json.Unmarshal(in, &v); err != nil {
			return nil, fmt.Errorf("fake sandbox: input %s: %w", in, err)
		}
		res, err := prog(v)
		if err != nil {
			out[i] = sandbox.Outcome{Status: sandbox.StatusError, Error: err.Error()}
			continue
		}
		b, _ := json.Marshal(res)
		out[i] = sandbox.Outcome{Status: sandbox.StatusOK, Output: b}
	}
	return out, nil
}

// The running-max task used throughout: the right program and a wrong one.
const (
	runningMaxSrc = "def solve(input_data):\n    out, best = [], None\n    for x in input_data:\n        best = x if best is None else max(best, x)\n        out.append(best)\n    return out\n"
	identitySrc   = "def solve(input_data):\n    return list(input_data)\n"
)

func runningMax(in []any) (any, error) {
	out := []any{}
	var best float64
	for i, x := range in {
		f := x.(float64)
		if i == 0 || f > best {
			best = f
		}
		out = append(out, best)
	}
	return out, nil
}

func identity(in []any) (any, error) { return in, nil }

func newFakeSandbox() *fakeSandbox {
	return &fakeSandbox{programs: map[string]func([]any) (any, error){
		strings.TrimSpace(runningMaxSrc): runningMax,
		strings.TrimSpace(identitySrc):   identity,
	}}
}

var runningMaxTask = task.Task{
	Name: "running_max", Level: "base", InputType: "list of integers",
	InputConstraints: "0 to 12 integers, each between -50 and 50", FunctionName: "solve",
	Kind: task.KindList, Domain: &task.Domain{Lo: -50, Hi: 50},
}

func examples(pairs ...string) []task.Example {
	var out []task.Example
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, task.Example{Input: json.RawMessage(pairs[i]), Output: json.RawMessage(pairs[i+1]), Source: task.SourceInitial})
	}
	return out
}

var threeExamples = examples("[1,2]", "[1,2]", "[3,1,2]", "[3,3,3]", "[]", "[]")

// testAgent builds an agent on srv with fast retries; its sleeps are
// recorded instead of slept.
type testAgent struct {
	*Agent
	sleeps []time.Duration
}

func newTestAgent(t *testing.T, srv *llmtest.Server, sb Sandbox, edit func(*Options)) *testAgent {
	t.Helper()
	o := Options{BaseURL: srv.URL, Model: llmtest.DefaultModel, Sandbox: sb, RequestTimeout: 5 * time.Second}
	if edit != nil {
		edit(&o)
	}
	a, err := New(context.Background(), o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ta := &testAgent{Agent: a}
	a.sleep = func(ctx context.Context, d time.Duration) error {
		ta.sleeps = append(ta.sleeps, d)
		return ctx.Err()
	}
	return ta
}

// write runs a.Write on req and fails the test on an error.
func (a *testAgent) write(t *testing.T, req agent.WriteRequest) agent.WriteResult {
	t.Helper()
	res, err := a.Write(context.Background(), req)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	return res
}

// wantCandidate checks the workspace's candidate.py ("" for none).
func wantCandidate(t *testing.T, workspace, want string) {
	t.Helper()
	if got := readCandidate(t, workspace); got != want {
		t.Errorf("candidate.py = %q, want %q", got, want)
	}
}

// wantStop checks why the session of res stopped.
func wantStop(t *testing.T, res agent.WriteResult, want string) {
	t.Helper()
	if got := decodeTranscript(t, res.Transcript).StopReason; got != want {
		t.Errorf("stop = %q, want %q", got, want)
	}
}

// wantToolResults checks the session's tool results one for one against
// wants, each with match (strings.HasPrefix or strings.Contains).
func wantToolResults(t *testing.T, got, wants []string, match func(got, want string) bool) {
	t.Helper()
	if len(got) != len(wants) {
		t.Fatalf("tool results = %q, want %d", got, len(wants))
	}
	for i, w := range wants {
		if !match(got[i], w) {
			t.Errorf("tool result %d = %q, want %q", i, got[i], w)
		}
	}
}

func writeReq(t *testing.T, ex []task.Example) agent.WriteRequest {
	t.Helper()
	return agent.WriteRequest{Task: runningMaxTask, Iteration: 1, Examples: ex, Workspace: t.TempDir()}
}

func writeReqB(dir string) agent.WriteRequest {
	return agent.WriteRequest{Task: runningMaxTask, Iteration: 1, Examples: threeExamples, Workspace: dir}
}

func readCandidate(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, agent.CandidateFile))
	if errors.Is(err, os.ErrNotExist) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// toolResults are the tool results of a session, in order, from its
// transcript.
func toolResults(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var out []string
	for _, m := range decodeTranscript(t, raw).Messages {
		if m.Role == openai.ChatMessageRoleTool {
			out = append(out, m.Content)
		}
	}
	return out
}

func decodeTranscript(t *testing.T, raw json.RawMessage) Transcript {
	t.Helper()
	var tr Transcript
	if err := json.Unmarshal(raw, &tr); err != nil {
		t.Fatalf("transcript: %v\n%s", err, raw)
	}
	return tr
}

func write(path, content string) map[string]string {
	return map[string]string{"path": path, "content": content}
}
