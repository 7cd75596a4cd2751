package llm

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/agent/llm/llmtest"
	"github.com/reconstruct/reconstruct/judge"
	"github.com/reconstruct/reconstruct/task"
)

func TestWriteSolvesOverSeveralTurns(t *testing.T) {
	patch := "--- a/candidate.py\n+++ b/candidate.py\n@@ -1,2 +1,6 @@\n def solve(input_data):\n-    return list(input_data)\n+    out, best = [], None\n+    for x in input_data:\n+        best = x if best is None else max(best, x)\n+        out.append(best)\n+    return out\n"
	srv := llmtest.NewServer(t,
		llmtest.Call("file_write", write("candidate.py", identitySrc), 100, 10),
		llmtest.Call("check_candidate", map[string]any{}, 120, 5),
		llmtest.Call("apply_patch", map[string]string{"patch": patch}, 150, 40),
		llmtest.Call("check_candidate", map[string]any{}, 170, 5),
		llmtest.Call("done", map[string]string{"summary": "running maximum"}, 180, 8),
	)
	sb := newFakeSandbox()
	a := newTestAgent(t, srv, sb, nil)
	req := writeReq(t, threeExamples)
	res := a.write(t, req)
	wantCandidate(t, req.Workspace, runningMaxSrc)
	if got, want := res.Usage, (task.Usage{PromptTokens: 720, CompletionTokens: 68}); got != want {
		t.Errorf("usage = %+v, want %+v", got, want)
	}
	wantResults := []string{
		"wrote candidate.py (2 lines, 51 bytes)",
		"passed 2/3 observed examples; 1 failing:\n- input [3,1,2]: expected [3,3,3], got [3,1,2]",
		"patched candidate.py",
		"passed 3/3 observed examples.",
		"session finished",
	}
	if diff := cmp.Diff(wantResults, toolResults(t, res.Transcript)); diff != "" {
		t.Errorf("tool results (-want +got):\n%s", diff)
	}
	tr := decodeTranscript(t, res.Transcript)
	if got, want := tr.StopReason, StopDone; got != want {
		t.Errorf("stop = %q, want %q", got, want)
	}
	if got, want := len(tr.Requests), 5; got != want {
		t.Errorf("transcript requests = %d, want %d", got, want)
	}
	if got, want := len(tr.Tools), 5; got != want {
		t.Errorf("transcript tools = %d, want %d", got, want)
	}
	// System, user, then an assistant message and a tool result per turn.
	if got, want := len(tr.Messages), 2+2*5; got != want {
		t.Errorf("transcript messages = %d, want %d", got, want)
	}
	if !strings.Contains(res.Notes, "running maximum") {
		t.Errorf("notes %q lack the done summary", res.Notes)
	}

	first := srv.ChatRequests()[0]
	sys, user := first.Messages[0].Content, first.Messages[1].Content
	for _, want := range []string{"def solve(input_data)", "list of integers", "0 to 12 integers", "simplest hypothesis", "constant before an expression", "conditional before a loop", "Never hard-code observed inputs"} {
		if !strings.Contains(sys, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, sys)
		}
	}
	for _, want := range []string{"input: [1,2]  output: [1,2]", "input: [3,1,2]  output: [3,3,3]", "input: []  output: []"} {
		if !strings.Contains(user, want) {
			t.Errorf("user prompt lacks %q:\n%s", want, user)
		}
	}
	var names []string
	for _, tl := range first.Tools {
		names = append(names, tl.Function.Name)
	}
	if diff := cmp.Diff([]string{"bash", "file_read", "file_write", "apply_patch", "check_candidate", "done"}, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
}

func TestWriteFeedbackReachesTheModel(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Call("done", map[string]any{}, 1, 1))
	a := newTestAgent(t, srv, newFakeSandbox(), nil)
	req := writeReq(t, threeExamples)
	if err := os.WriteFile(filepath.Join(req.Workspace, agent.CandidateFile), []byte(identitySrc), 0o644); err != nil {
		t.Fatal(err)
	}
	req.Iteration = 4
	req.Feedback = &agent.Feedback{
		Iteration: 3, Passed: 2, Total: 3,
		Failures: []judge.Failure{{Input: []byte("[3,1,2]"), Expected: []byte("[3,3,3]"), Actual: []byte("[3,1,2]")}},
		Messages: []string{"rewrite the program without embedding observed inputs"},
	}
	a.write(t, req)
	user := srv.ChatRequests()[0].Messages[1].Content
	for _, want := range []string{
		"passed 2 of 3",
		"- input [3,1,2]: expected [3,3,3], got [3,1,2]",
		"The workflow asks: rewrite the program without embedding observed inputs",
		"return list(input_data)",
	} {
		if !strings.Contains(user, want) {
			t.Errorf("user prompt lacks %q:\n%s", want, user)
		}
	}
}

func TestWriteBrokenToolArguments(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Call("file_write", `{"path": "candidate.py", "content": "def solve(`, 10, 10),
		llmtest.Call("file_write", `{"content": "x"}`, 10, 10),
		llmtest.Call("file_write", `{"path": 7, "content": "x"}`, 10, 10),
		llmtest.Call("no_such_tool", `{}`, 10, 10),
		llmtest.Call("file_write", write("candidate.py", runningMaxSrc), 10, 10),
		llmtest.Call("done", `{}`, 10, 10),
	)
	a := newTestAgent(t, srv, newFakeSandbox(), nil)
	req := writeReq(t, threeExamples)
	res := a.write(t, req)
	got := toolResults(t, res.Transcript)
	wants := []string{
		"error: arguments are not a JSON object",
		"error: missing required argument(s): path",
		`error: argument "path" must be of type string`,
		`error: there is no tool "no_such_tool"`,
		"wrote candidate.py",
		"session finished",
	}
	wantToolResults(t, got, wants, strings.HasPrefix)
	wantCandidate(t, req.Workspace, runningMaxSrc)
	wantStop(t, res, StopDone)
}

func TestWriteRetriesRateLimitHonouringRetryAfter(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.RateLimited("7"),
		llmtest.Error(http.StatusServiceUnavailable, "overloaded"),
		llmtest.Call("file_write", write("candidate.py", runningMaxSrc), 30, 3),
		llmtest.Call("done", `{}`, 40, 4),
	)
	a := newTestAgent(t, srv, newFakeSandbox(), func(o *Options) { o.Backoff = 100 * time.Millisecond })
	res := a.write(t, writeReq(t, threeExamples))
	if len(a.sleeps) != 2 {
		t.Fatalf("sleeps = %v, want 2", a.sleeps)
	}
	if got, want := a.sleeps[0], 7*time.Second; got != want {
		t.Errorf("delay after 429 with Retry-After: 7 = %v, want %v", got, want)
	}
	// The second retry has no Retry-After: backoff 200ms with jitter in [100ms, 200ms].
	if d := a.sleeps[1]; d < 100*time.Millisecond || d > 200*time.Millisecond {
		t.Errorf("backoff delay = %v, want within [100ms, 200ms]", d)
	}
	if got, want := res.Usage, (task.Usage{PromptTokens: 70, CompletionTokens: 7}); got != want {
		t.Errorf("usage = %+v, want %+v", got, want)
	}
	tr := decodeTranscript(t, res.Transcript)
	if got, want := len(tr.Requests), 4; got != want {
		t.Errorf("requests recorded = %d, want %d", got, want)
	}
	if tr.Requests[0].Error == "" || tr.Requests[1].Error == "" || tr.Requests[2].Error != "" {
		t.Errorf("request errors not recorded: %+v", tr.Requests)
	}
}

func TestWriteServerErrorsExhaustRetries(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Error(500, "boom"), llmtest.Error(502, "bad gateway"), llmtest.Error(500, "boom"),
	)
	a := newTestAgent(t, srv, newFakeSandbox(), func(o *Options) { o.Retries = 2; o.Backoff = time.Millisecond })
	res, err := a.Write(context.Background(), writeReq(t, threeExamples))
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if !strings.Contains(err.Error(), SettingBaseURL) {
		t.Errorf("error %q does not name %s", err, SettingBaseURL)
	}
	if got, want := len(a.sleeps), 2; got != want {
		t.Errorf("retries = %d, want %d", got, want)
	}
	for i, d := range a.sleeps {
		if ceil := time.Millisecond << i; d < ceil/2 || d > ceil {
			t.Errorf("delay %d = %v, want within [%v, %v]", i, d, ceil/2, ceil)
		}
	}
	if len(res.Transcript) == 0 {
		t.Errorf("no transcript on failure")
	}
}

func TestWriteRequestTimeoutIsRetried(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Reply{Delay: 2 * time.Second, Content: "late"},
		llmtest.Call("file_write", write("candidate.py", runningMaxSrc), 1, 1),
		llmtest.Call("done", `{}`, 1, 1),
	)
	a := newTestAgent(t, srv, newFakeSandbox(), func(o *Options) { o.Backoff = time.Millisecond })
	a.opts.RequestTimeout = 50 * time.Millisecond
	req := writeReq(t, threeExamples)
	a.write(t, req)
	if got, want := len(a.sleeps), 1; got != want {
		t.Errorf("retries = %d, want %d", got, want)
	}
	wantCandidate(t, req.Workspace, runningMaxSrc)
}

func TestWriteNonRetryableRefusalIsConfigError(t *testing.T) {
	tests := []struct {
		name   string
		status int
		want   string
	}{
		{"bad key", http.StatusUnauthorized, SettingAPIKeyEnv},
		{"unknown model", http.StatusNotFound, SettingModel},
		{"tools unsupported", http.StatusBadRequest, SettingToolMode},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.Error(tt.status, "refused"))
			a := newTestAgent(t, srv, newFakeSandbox(), nil)
			_, err := a.Write(context.Background(), writeReq(t, threeExamples))
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("err = %v, want ErrConfig", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not name %s", err, tt.want)
			}
			if len(a.sleeps) != 0 {
				t.Errorf("a refusal was retried %d times", len(a.sleeps))
			}
		})
	}
}

func TestWriteContextLengthTrimsAndRetriesOnce(t *testing.T) {
	var ex []string
	for i := 0; i < 8; i++ {
		in := strings.Repeat("[1,", i) + "1" + strings.Repeat("]", i)
		ex = append(ex, in, in)
	}
	many := examples(ex...)
	srv := llmtest.NewServer(t,
		llmtest.Call("bash", map[string]string{"command": "ls"}, 10, 1),
		llmtest.Call("bash", map[string]string{"command": "ls -la"}, 10, 1),
		llmtest.Call("bash", map[string]string{"command": "ls -l"}, 10, 1),
		llmtest.ContextLength(),
		llmtest.Call("file_write", write("candidate.py", identitySrc), 10, 1),
		llmtest.Call("done", `{}`, 10, 1),
	)
	sb := newFakeSandbox()
	sb.execOut.Output = strings.Repeat("listing ", 20)
	a := newTestAgent(t, srv, sb, nil)
	res := a.write(t, writeReq(t, many))
	reqs := srv.ChatRequests()
	before, after := reqs[3].Messages, reqs[4].Messages
	if got, want := strings.Count(before[1].Content, "input: "), 8; got != want {
		t.Errorf("examples before the trim = %d, want %d", got, want)
	}
	if got, want := strings.Count(after[1].Content, "input: "), 4; got != want {
		t.Errorf("examples after the trim = %d, want %d", got, want)
	}
	if !strings.Contains(after[1].Content, "the 4 oldest are omitted") {
		t.Errorf("trimmed prompt does not say what was omitted:\n%s", after[1].Content)
	}
	// The oldest of the three tool results is emptied; the last two stay.
	var tools []string
	for _, m := range after {
		if m.Role == "tool" {
			tools = append(tools, m.Content)
		}
	}
	if len(tools) != 3 || tools[0] != trimmedNote || tools[2] == trimmedNote {
		t.Errorf("tool results after trim = %q", tools)
	}
	if got, want := decodeTranscript(t, res.Transcript).Trims, 1; got != want {
		t.Errorf("trims = %d, want %d", got, want)
	}
}

// A context too long twice on the first turn is a configuration error; on a
// later turn it ends the session (TestWriteStopsKeepTheCandidate).
func TestWriteContextLengthTwiceOnTheFirstTurn(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.ContextLength(), llmtest.ContextLength())
	a := newTestAgent(t, srv, newFakeSandbox(), nil)
	_, err := a.Write(context.Background(), writeReq(t, threeExamples))
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), SettingModel) {
		t.Fatalf("err = %v, want ErrConfig naming %s", err, SettingModel)
	}
}

func TestWriteModelNeverCallsATool(t *testing.T) {
	t.Run("tools mode, no code", func(t *testing.T) {
		srv := llmtest.NewServer(t,
			llmtest.Text("It looks like a running maximum.", 10, 5),
			llmtest.Text("Yes, a running maximum.", 12, 5),
		)
		a := newTestAgent(t, srv, newFakeSandbox(), nil)
		req := writeReq(t, threeExamples)
		res := a.write(t, req)
		wantCandidate(t, req.Workspace, "")
		reqs := srv.ChatRequests()
		if last := reqs[1].Messages[len(reqs[1].Messages)-1]; last.Role != "user" || !strings.Contains(last.Content, "file_write") {
			t.Errorf("no reminder to use the tools: %+v", last)
		}
		wantStop(t, res, StopModelStopped)
		if !strings.Contains(res.Notes, "no candidate.py") {
			t.Errorf("notes %q do not say nothing was written", res.Notes)
		}
	})
	t.Run("tools mode, fenced code", func(t *testing.T) {
		srv := llmtest.NewServer(t, llmtest.Text("Here:\n```python\n"+runningMaxSrc+"```\n", 10, 5))
		a := newTestAgent(t, srv, newFakeSandbox(), nil)
		req := writeReq(t, threeExamples)
		a.write(t, req)
		wantCandidate(t, req.Workspace, runningMaxSrc)
	})
	t.Run("text mode", func(t *testing.T) {
		srv := llmtest.NewServer(t,
			llmtest.Text("I am not sure yet.", 5, 5),
			llmtest.Text("```python\n"+identitySrc+"```", 10, 5),
			llmtest.Text("<think>```python\nbroken\n```</think>Fixed:\n```py\n"+runningMaxSrc+"```\nand a usage example:\n```\nsolve([1])\n```", 20, 9),
		)
		a := newTestAgent(t, srv, newFakeSandbox(), func(o *Options) { o.ToolMode = ToolModeText })
		req := writeReq(t, threeExamples)
		res := a.write(t, req)
		wantCandidate(t, req.Workspace, runningMaxSrc)
		reqs := srv.ChatRequests()
		for _, r := range reqs {
			if len(r.Tools) != 0 {
				t.Errorf("text mode sent %d tools", len(r.Tools))
			}
		}
		if !strings.Contains(reqs[0].Messages[0].Content, "fenced ```python code block") {
			t.Errorf("text-mode system prompt does not ask for a fenced block")
		}
		feedback := reqs[2].Messages[len(reqs[2].Messages)-1].Content
		if !strings.Contains(feedback, "passed 2/3") || !strings.Contains(feedback, "expected [3,3,3], got [3,1,2]") {
			t.Errorf("failures not fed back: %q", feedback)
		}
		tr := decodeTranscript(t, res.Transcript)
		if got, want := tr.StopReason, StopPassed; got != want {
			t.Errorf("stop = %q, want %q", got, want)
		}
		if got, want := res.Usage, (task.Usage{PromptTokens: 35, CompletionTokens: 19}); got != want {
			t.Errorf("usage = %+v, want %+v", got, want)
		}
	})
}

// TestWriteStopsKeepTheCandidate: a session that stops before the candidate
// passes, for any of these reasons, still returns the candidate written.
func TestWriteStopsKeepTheCandidate(t *testing.T) {
	tests := []struct {
		name     string
		replies  []llmtest.Reply
		maxTurns int // 0: the default
		stop     string
		want     string   // candidate.py
		commands []string // run by bash, which prints "1"
	}{
		{"context too long twice on a later turn", []llmtest.Reply{
			llmtest.Call("file_write", write("candidate.py", runningMaxSrc), 1, 1),
			llmtest.ContextLength(), llmtest.ContextLength(),
		}, 0, StopContextLength, runningMaxSrc, nil},
		{"a repeated call", []llmtest.Reply{
			llmtest.Call("file_write", write("candidate.py", identitySrc), 1, 1),
			llmtest.Call("check_candidate", `{}`, 1, 1),
			llmtest.Call("check_candidate", `{ }`, 1, 1),
		}, 0, StopRepeated, identitySrc, nil},
		{"max turns", []llmtest.Reply{
			llmtest.Call("file_write", write("candidate.py", identitySrc), 1, 1),
			llmtest.Call("bash", map[string]string{"command": "python3 -c 'print(1)'"}, 1, 1),
			llmtest.Call("check_candidate", `{}`, 1, 1),
		}, 3, StopMaxTurns, identitySrc, []string{"python3 -c 'print(1)'"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sb := newFakeSandbox()
			sb.execOut.Output = "1\n"
			a := newTestAgent(t, llmtest.NewServer(t, tt.replies...), sb, func(o *Options) {
				if tt.maxTurns > 0 {
					o.MaxTurns = tt.maxTurns
				}
			})
			req := writeReq(t, threeExamples)
			res := a.write(t, req)
			wantStop(t, res, tt.stop)
			wantCandidate(t, req.Workspace, tt.want)
			if diff := cmp.Diff(tt.commands, sb.commands); diff != "" {
				t.Errorf("bash commands (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWriteSandboxFailureIsAnError(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Call("file_write", write("candidate.py", identitySrc), 1, 1),
		llmtest.Call("check_candidate", `{}`, 1, 1),
	)
	sb := newFakeSandbox()
	sb.callErr = errors.New("container gone")
	a := newTestAgent(t, srv, sb, nil)
	_, err := a.Write(context.Background(), writeReq(t, threeExamples))
	if err == nil || !strings.Contains(err.Error(), "container gone") {
		t.Fatalf("err = %v, want the sandbox failure", err)
	}
}

func TestWritePathEscapesAreRefused(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("hidden program"), 0o644); err != nil {
		t.Fatal(err)
	}
	req := writeReq(t, threeExamples)
	if err := os.Symlink(outside, filepath.Join(req.Workspace, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../"+filepath.Base(outside)+"/secret.txt", filepath.Join(req.Workspace, "rel")); err != nil {
		t.Fatal(err)
	}
	evil := "--- a/../x.py\n+++ b/../x.py\n@@ -0,0 +1 @@\n+x = 1\n"
	srv := llmtest.NewServer(t,
		llmtest.Call("file_write", write("../escape.py", "x"), 1, 1),
		llmtest.Call("file_write", write(filepath.Join(outside, "abs.py"), "x"), 1, 1),
		llmtest.Call("file_read", map[string]string{"path": "out/secret.txt"}, 1, 1),
		llmtest.Call("file_read", map[string]string{"path": "rel"}, 1, 1),
		llmtest.Call("file_write", write("out/new.py", "x"), 1, 1),
		llmtest.Call("apply_patch", map[string]string{"patch": evil}, 1, 1),
		llmtest.Call("file_read", map[string]string{"path": "/etc/passwd"}, 1, 1),
		llmtest.Call("done", `{}`, 1, 1),
		llmtest.Call("file_write", write("sub/dir/candidate_copy.py", "x"), 1, 1),
		llmtest.Call("file_write", write("candidate.py", runningMaxSrc), 1, 1),
		llmtest.Call("done", `{}`, 1, 1),
	)
	a := newTestAgent(t, srv, newFakeSandbox(), func(o *Options) { o.MaxTurns = 20 })
	res := a.write(t, req)
	got := toolResults(t, res.Transcript)
	wants := []string{
		"leaves the workspace",
		"is absolute",
		"outside the workspace through a symbolic link",
		"outside the workspace through a symbolic link",
		"outside the workspace through a symbolic link",
		"leaves the workspace",
		"is absolute",
		"candidate.py does not exist yet",
		"wrote sub/dir/candidate_copy.py",
		"wrote candidate.py",
		"session finished",
	}
	wantToolResults(t, got, wants, strings.Contains)
	for i, r := range got {
		if strings.Contains(r, "hidden program") {
			t.Errorf("tool result %d leaked a file outside the workspace: %q", i, r)
		}
	}
	entries, err := os.ReadDir(outside)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("files were created outside the workspace: %v", entries)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(req.Workspace), "escape.py")); err == nil {
		t.Errorf("../escape.py was written")
	}
}

func TestWriteSynthesizeTool(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Call("synthesize", `{}`, 1, 1),
		llmtest.Call("file_write", write("candidate.py", runningMaxSrc), 1, 1),
		llmtest.Call("done", `{}`, 1, 1),
	)
	syn := &fakeSynth{program: runningMaxSrc}
	a := newTestAgent(t, srv, newFakeSandbox(), func(o *Options) { o.Synth = syn; o.ScratchDir = t.TempDir() })
	req := writeReq(t, threeExamples)
	res := a.write(t, req)
	got := toolResults(t, res.Transcript)[0]
	if !strings.Contains(got, "the synthesizer proposes:\n```python\n"+strings.TrimRight(runningMaxSrc, "\n")) || !strings.Contains(got, "notes: enumerated 12 programs") {
		t.Errorf("synthesize result = %q", got)
	}
	if syn.workspace == req.Workspace || syn.workspace == "" {
		t.Errorf("synthesizer ran in %q, want a scratch directory", syn.workspace)
	}
	if _, err := os.Stat(syn.workspace); !os.IsNotExist(err) {
		t.Errorf("scratch directory %s left behind", syn.workspace)
	}
	if got, want := len(syn.examples), 3; got != want {
		t.Errorf("synthesizer saw %d examples, want %d", got, want)
	}
	names := []string{}
	for _, tl := range srv.ChatRequests()[0].Tools {
		names = append(names, tl.Function.Name)
	}
	if !strings.Contains(strings.Join(names, ","), "synthesize") {
		t.Errorf("synthesize not offered: %v", names)
	}
}

type fakeSynth struct {
	program   string
	workspace string
	examples  []task.Example
}

func (f *fakeSynth) Write(_ context.Context, req agent.WriteRequest) (agent.WriteResult, error) {
	f.workspace, f.examples = req.Workspace, req.Examples
	err := os.WriteFile(filepath.Join(req.Workspace, agent.CandidateFile), []byte(f.program), 0o644)
	return agent.WriteResult{Notes: "enumerated 12 programs"}, err
}

func TestWriteCancelled(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Reply{Delay: time.Second, Content: "slow"})
	a := newTestAgent(t, srv, newFakeSandbox(), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := a.Write(ctx, writeReq(t, threeExamples))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's deadline", err)
	}
	if errors.Is(err, ErrUnavailable) {
		t.Errorf("a cancelled session reported the endpoint unavailable")
	}
}

// Options.Tools (a task bound from Python names them) limits the tools a
// session offers; done is always offered, and an unknown name is refused.
func TestWriteOffersTheNamedTools(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Call("file_write", write("candidate.py", runningMaxSrc), 1, 1),
		llmtest.Call("done", `{}`, 1, 1),
	)
	a := newTestAgent(t, srv, newFakeSandbox(), func(o *Options) { o.Tools = []string{"file_write", "check_candidate"} })
	a.write(t, writeReq(t, threeExamples))
	var names []string
	for _, tl := range srv.ChatRequests()[0].Tools {
		names = append(names, tl.Function.Name)
	}
	if got := strings.Join(names, ","); got != "file_write,check_candidate,done" {
		t.Errorf("offered %s, want file_write,check_candidate,done", got)
	}
	_, err := New(context.Background(), Options{BaseURL: srv.URL, Model: llmtest.DefaultModel, Sandbox: newFakeSandbox(), Tools: []string{"teleport"}})
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), `"teleport"`) {
		t.Errorf("unknown tool: %v", err)
	}
}
