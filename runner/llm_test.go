package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/reconstruct/reconstruct/agent/llm/llmtest"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/workflow"
)

// toolModule is a binding written to the original contract with a tool of
// its own, check_candidate(program_path), that replaces the built-in one.
const toolModule = `def _program(x):
    return 3 * x + 1


def check_candidate(program_path, limit: int = 3):
    """Runs candidate.py on 0..limit-1 against the task's own answers."""
    ns = {}
    with open(program_path) as f:
        exec(f.read(), ns)
    right = sum(1 for x in range(limit) if ns["solve"](x) == _program(x))
    return {"right": right, "of": limit}


def make(name):
    return {"name": name, "input_type": "an integer", "input_constraints": "0 to 1000", "kind": "int",
            "oracle": _program, "random_inputs": lambda k, exclude: [len(exclude) * 7 + i for i in range(k)],
            "tools": [check_candidate]}
`

// patchModel plays a model through the real client library: its first
// session writes a wrong program; the next sees that program in its prompt,
// fixes it with apply_patch, runs the task's own check_candidate and
// finishes; later sessions keep the program.
type patchModel struct {
	mu       sync.Mutex
	sessions []*llmtest.Request // the first request of each write session
	proposal int
}

const wrongProgram = "def solve(x):\n    return 3 * x\n"

const fixPatch = "--- a/candidate.py\n+++ b/candidate.py\n@@ -1,2 +1,2 @@\n def solve(x):\n-    return 3 * x\n+    return 3 * x + 1\n"

func (m *patchModel) handle(r *llmtest.Request) llmtest.Reply {
	m.mu.Lock()
	defer m.mu.Unlock()
	if k := llmtest.ProposeK(r); k > 0 {
		m.proposal++
		in := make([]int, k)
		for i := range in {
			in[i] = 500 + m.proposal*20 + i
		}
		return llmtest.Call("propose_inputs", map[string]any{"inputs": in}, 10, 5)
	}
	msgs := r.Chat.Messages
	if last := msgs[len(msgs)-1]; last.Role != openai.ChatMessageRoleTool {
		m.sessions = append(m.sessions, r)
		switch {
		case len(m.sessions) == 1:
			return llmtest.Call("file_write", map[string]string{"path": "candidate.py", "content": wrongProgram}, 10, 5)
		case len(m.sessions) == 2:
			return llmtest.Call("apply_patch", map[string]string{"patch": fixPatch}, 10, 5)
		}
		return llmtest.Call("done", map[string]string{"summary": "kept"}, 10, 5)
	}
	switch answered(msgs) {
	case "apply_patch":
		return llmtest.Call("check_candidate", map[string]int{"limit": 5}, 10, 5)
	}
	return llmtest.Call("done", map[string]string{"summary": "3x+1"}, 10, 5)
}

// answered is the tool whose result is the last message.
func answered(msgs []openai.ChatCompletionMessage) string {
	last := msgs[len(msgs)-1]
	for i := len(msgs) - 2; i >= 0; i-- {
		for _, c := range msgs[i].ToolCalls {
			if c.ID == last.ToolCallID {
				return c.Function.Name
			}
		}
	}
	return ""
}

// The LLM agent sees the program it wrote last: the second session's
// prompt holds it with its failures, and an apply_patch against it
// applies. The task's callable tool is offered (in place of the built-in
// check_candidate), called on the candidate and its result returned to
// the model.
func TestLLMAgentPatchesItsPreviousProgramWithTheTasksTool(t *testing.T) {
	testenv.NeedPython(t)
	m := &patchModel{}
	srv := llmtest.NewServerFunc(t, m.handle)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"tooled.py": toolModule,
		"task.yaml": "task: {factory: tooled:make, args: {name: triple}}\n" +
			fmt.Sprintf("agent: {kind: llm, llm: {base_url: %q, model: %s, api_key_env: \"\", retries: 1}}\n", srv.URL, llmtest.DefaultModel) +
			"sandbox: {kind: process, call_timeout: 30s}\nworkflow: {max_iterations: 5, early_stop: 2, coverage_gate: false}\n",
	})
	c := loadFactoryTask(t, filepath.Join(dir, "task.yaml"), nil)
	res, err := Run(context.Background(), c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != workflow.StopEarly || !strings.Contains(res.FinalProgram, "3 * x + 1") {
		t.Fatalf("stop %s, final program %q", res.StopReason, res.FinalProgram)
	}
	if len(m.sessions) < 2 {
		t.Fatalf("%d sessions", len(m.sessions))
	}
	// The LLM agent searches no rivals: its promotions count as they
	// always did.
	for _, r := range res.Events {
		if r.Promoted && !r.Counted {
			t.Errorf("iteration %d: a promotion not counted (gate %q)", r.Iteration, r.Gate)
		}
	}
	if r := m.sessions[0]; !llmtest.HasText(r, "There is no candidate.py yet") {
		t.Errorf("the first session's prompt: %s", lastUser(r))
	}
	second := m.sessions[1]
	for _, want := range []string{"The workspace holds this candidate.py from the previous iteration", "return 3 * x\n", "expected"} {
		if !llmtest.HasText(second, want) {
			t.Errorf("the second session's prompt lacks %q:\n%s", want, lastUser(second))
		}
	}
	var offered *openai.FunctionDefinition
	for _, tool := range second.Chat.Tools {
		if tool.Function != nil && tool.Function.Name == "check_candidate" {
			offered = tool.Function
		}
	}
	if offered == nil || !strings.Contains(offered.Description, "against the task's own answers") {
		t.Fatalf("check_candidate offered as %+v, want the task's own", offered)
	}
	params, _ := json.Marshal(offered.Parameters)
	if !strings.Contains(string(params), `"limit":{"type":"integer"}`) || strings.Contains(string(params), "program_path") {
		t.Errorf("the task tool's parameters %s: want limit, and not the candidate's path", params)
	}
	var patched, checked string
	for _, r := range srv.ChatRequests() {
		for i, msg := range r.Messages {
			if msg.Role != openai.ChatMessageRoleTool {
				continue
			}
			switch answered(r.Messages[:i+1]) {
			case "apply_patch":
				patched = msg.Content
			case "check_candidate":
				checked = msg.Content
			}
		}
	}
	if patched == "" || strings.HasPrefix(patched, "error") {
		t.Errorf("apply_patch answered %q, want it applied", patched)
	}
	if checked != `{"right": 5, "of": 5}` {
		t.Errorf("the task's check_candidate answered %q, want its result", checked)
	}
}

func lastUser(r *llmtest.Request) string {
	for i := len(r.Chat.Messages) - 1; i >= 0; i-- {
		if r.Chat.Messages[i].Role == openai.ChatMessageRoleUser {
			return r.Chat.Messages[i].Content
		}
	}
	return ""
}
