package llm

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/agent/llm/llmtest"
	"github.com/reconstruct/reconstruct/task"
)

func proposeReq(k, attempt int, rejection string) agent.ProposeRequest {
	return agent.ProposeRequest{Task: runningMaxTask, K: k, Examples: threeExamples, Attempt: attempt, Rejection: rejection}
}

func rawStrings(xs []json.RawMessage) []string {
	out := []string{}
	for _, x := range xs {
		out = append(out, string(x))
	}
	return out
}

func TestProposeSchemaAsksForExactlyK(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Call("propose_inputs", map[string]any{"inputs": []any{[]int{5, -3}, []int{}, []int{0, 0, 0}, []int{50}}}, 40, 12))
	a := newTestAgent(t, srv, newFakeSandbox(), nil)
	req := proposeReq(4, 1, "")
	req.Missing = []string{"has_zero", "descending"}
	req.Domain = &task.Domain{Lo: -50, Hi: 50}
	res, err := a.Propose(context.Background(), req)
	if err != nil {
		t.Fatalf("Propose: %v", err)
	}
	if diff := cmp.Diff([]string{"[5,-3]", "[]", "[0,0,0]", "[50]"}, rawStrings(res.Inputs)); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	if got, want := res.Usage, (task.Usage{PromptTokens: 40, CompletionTokens: 12}); got != want {
		t.Errorf("usage = %+v, want %+v", got, want)
	}
	chat := srv.ChatRequests()[0]
	if len(chat.Tools) != 1 || chat.Tools[0].Function.Name != "propose_inputs" {
		t.Fatalf("tools = %+v, want propose_inputs only", chat.Tools)
	}
	b, _ := json.Marshal(chat.Tools[0].Function.Parameters)
	var schema struct {
		Required   []string `json:"required"`
		Properties struct {
			Inputs struct {
				MinItems int `json:"minItems"`
				MaxItems int `json:"maxItems"`
				Items    struct {
					Type  string `json:"type"`
					Items struct {
						Type    string  `json:"type"`
						Minimum float64 `json:"minimum"`
						Maximum float64 `json:"maximum"`
					} `json:"items"`
				} `json:"items"`
			} `json:"inputs"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	in := schema.Properties.Inputs
	if in.MinItems != 4 || in.MaxItems != 4 {
		t.Errorf("minItems, maxItems = %d, %d, want 4, 4", in.MinItems, in.MaxItems)
	}
	if in.Items.Type != "array" || in.Items.Items.Type != "number" || in.Items.Items.Minimum != -50 || in.Items.Items.Maximum != 50 {
		t.Errorf("item schema = %+v, want a list of numbers in [-50, 50]", in.Items)
	}
	if diff := cmp.Diff([]string{"inputs"}, schema.Required); diff != "" {
		t.Errorf("required (-want +got):\n%s", diff)
	}
	user := chat.Messages[1].Content
	for _, want := range []string{"Propose exactly 4 new inputs", "has_zero, descending", "must lie in [-50, 50]", "input: [3,1,2]  output: [3,3,3]"} {
		if !strings.Contains(user, want) {
			t.Errorf("proposal prompt lacks %q:\n%s", want, user)
		}
	}
	if llmtest.ProposeK(&llmtest.Request{Chat: chat}) != 4 {
		t.Errorf("llmtest.ProposeK does not read k back")
	}
}

func TestProposeReturnsWhatTheModelGave(t *testing.T) {
	// Wrong count, then repeats: the agent returns each as given; the
	// rejection the workflow writes reaches the model on the retry.
	srv := llmtest.NewServer(t,
		llmtest.Call("propose_inputs", map[string]any{"inputs": []any{[]int{1}}}, 10, 2),
		llmtest.Call("propose_inputs", map[string]any{"inputs": []any{[]int{1, 2}, []int{1, 2}}}, 11, 2),
		llmtest.Call("propose_inputs", map[string]any{"inputs": []any{[]int{9}, "[4, 4]"}}, 12, 2),
	)
	a := newTestAgent(t, srv, newFakeSandbox(), nil)
	rejections := []string{"", "wrong count: got 1 inputs, want 2", "repeated input [1,2] (already observed)"}
	wants := [][]string{{"[1]"}, {"[1,2]", "[1,2]"}, {"[9]", "[4,4]"}}
	for i, rej := range rejections {
		res, err := a.Propose(context.Background(), proposeReq(2, i+1, rej))
		if err != nil {
			t.Fatalf("attempt %d: %v", i+1, err)
		}
		if diff := cmp.Diff(wants[i], rawStrings(res.Inputs)); diff != "" {
			t.Errorf("attempt %d inputs (-want +got):\n%s", i+1, diff)
		}
	}
	reqs := srv.ChatRequests()
	for i, rej := range rejections[1:] {
		user := reqs[i+1].Messages[1].Content
		want := "Your previous proposal (attempt " + string(rune('1'+i)) + ") was rejected: " + rej
		if !strings.Contains(user, want) {
			t.Errorf("retry %d prompt lacks %q:\n%s", i+1, want, user)
		}
	}
	if strings.Contains(reqs[0].Messages[1].Content, "rejected") {
		t.Errorf("first attempt mentions a rejection")
	}
}

func TestProposeBrokenArgumentsThenText(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Call("propose_inputs", `{"inputs": [[1,2], [3`, 10, 2),
		llmtest.Text("Sure, these look informative.", 10, 2),
		llmtest.Text("```json\n[[7, 8], [-1]]\n```", 10, 2),
	)
	sb := newFakeSandbox()
	a := newTestAgent(t, srv, sb, nil)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, agent.CandidateFile), []byte(identitySrc), 0o644); err != nil {
		t.Fatal(err)
	}
	req := proposeReq(2, 1, "")
	req.Workspace = ws
	res, err := a.Propose(context.Background(), req)
	if err != nil {
		t.Fatalf("Propose: %v", err)
	}
	if diff := cmp.Diff([]string{"[7,8]", "[-1]"}, rawStrings(res.Inputs)); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	reqs := srv.ChatRequests()
	second := reqs[1].Messages
	if last := second[len(second)-1]; last.Role != "tool" || !strings.HasPrefix(last.Content, "error: arguments are not a JSON object") {
		t.Errorf("broken arguments not answered with a tool error: %+v", last)
	}
	third := reqs[2].Messages
	if last := third[len(third)-1]; last.Role != "user" || !strings.Contains(last.Content, "exactly 2 inputs") {
		t.Errorf("no reminder after a text answer: %+v", last)
	}
	if !strings.Contains(reqs[0].Messages[1].Content, "return list(input_data)") {
		t.Errorf("the current candidate is not shown to the proposer")
	}
	if got, want := res.Usage, (task.Usage{PromptTokens: 30, CompletionTokens: 6}); got != want {
		t.Errorf("usage = %+v, want %+v", got, want)
	}
}

func TestProposeTextMode(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Text("Inputs:\n```json\n{\"inputs\": [[1], [2, 3], []]}\n```", 5, 5))
	a := newTestAgent(t, srv, newFakeSandbox(), func(o *Options) { o.ToolMode = ToolModeText })
	res, err := a.Propose(context.Background(), proposeReq(3, 1, ""))
	if err != nil {
		t.Fatalf("Propose: %v", err)
	}
	if diff := cmp.Diff([]string{"[1]", "[2,3]", "[]"}, rawStrings(res.Inputs)); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	chat := srv.ChatRequests()[0]
	if len(chat.Tools) != 0 || !strings.Contains(chat.Messages[0].Content, "JSON array of exactly 3 inputs") {
		t.Errorf("text-mode proposal request: tools %d, system %q", len(chat.Tools), chat.Messages[0].Content)
	}
}

func TestProposeGivesUpWithoutInputs(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Text("hmm", 1, 1), llmtest.Text("let me think", 1, 1), llmtest.Text("no idea", 1, 1))
	a := newTestAgent(t, srv, newFakeSandbox(), nil)
	res, err := a.Propose(context.Background(), proposeReq(2, 1, ""))
	if err != nil {
		t.Fatalf("Propose: %v", err)
	}
	if len(res.Inputs) != 0 {
		t.Errorf("inputs = %s, want none", rawStrings(res.Inputs))
	}
	if got, want := res.Usage.Total(), 6; got != want {
		t.Errorf("tokens = %d, want %d", got, want)
	}
}

func TestItemSchemaPerKind(t *testing.T) {
	d := &task.Domain{Lo: 0, Hi: 9}
	tests := []struct {
		kind task.Kind
		want string
	}{
		{task.KindList, `{"items":{"maximum":9,"minimum":0,"type":"number"},"type":"array"}`},
		{task.KindTwoLists, `{"items":{"items":{"maximum":9,"minimum":0,"type":"number"},"type":"array"},"maxItems":2,"minItems":2,"type":"array"}`},
		{task.KindInt, `{"maximum":9,"minimum":0,"type":"integer"}`},
		{task.KindPair, `{"items":{"maximum":9,"minimum":0,"type":"number"},"maxItems":2,"minItems":2,"type":"array"}`},
		{task.KindString, `{"type":"string"}`},
		{task.KindPoints, `{"items":{"items":{"maximum":9,"minimum":0,"type":"integer"},"maxItems":2,"minItems":2,"type":"array"},"type":"array"}`},
		{task.KindOther, `{}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(itemSchema(tt.kind, d))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(b); got != tt.want {
			t.Errorf("itemSchema(%s) = %s, want %s", tt.kind, got, tt.want)
		}
	}
}

func TestNormalizeInputs(t *testing.T) {
	in := []json.RawMessage{json.RawMessage(`[1, 2]`), json.RawMessage(`"[3,4]"`), json.RawMessage(`"abc"`)}
	if diff := cmp.Diff([]string{"[1,2]", "[3,4]", `"abc"`}, rawStrings(normalizeInputs(in, task.KindList))); diff != "" {
		t.Errorf("list kind (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"[1,2]", `"[3,4]"`, `"abc"`}, rawStrings(normalizeInputs(in, task.KindString))); diff != "" {
		t.Errorf("string kind (-want +got):\n%s", diff)
	}
}
