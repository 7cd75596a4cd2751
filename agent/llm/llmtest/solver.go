package llmtest

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	openai "github.com/sashabaranov/go-openai"
)

// Solver is a Handler that plays a model which knows the answer. In a
// coding session with tools it writes Program to candidate.py, runs
// check_candidate and calls done; without tools it answers with Program in
// a fenced python block. Asked for k inputs (propose_inputs, or the text
// mode's JSON array) it answers Inputs(k, n), n counting proposal requests
// from 0. Every reply reports PromptTokens and CompletionTokens.
type Solver struct {
	Program                        string
	Inputs                         func(k, n int) []any
	PromptTokens, CompletionTokens int

	mu        sync.Mutex
	proposals int
}

// Handle implements Handler.
func (s *Solver) Handle(r *Request) Reply {
	if k := ProposeK(r); k > 0 {
		return s.reply(Reply{ToolCalls: []ToolCall{{Name: "propose_inputs", Arguments: args(map[string]any{"inputs": s.inputs(k)})}}})
	}
	if k := textProposeK(r); k > 0 {
		return s.reply(Reply{Content: "```json\n" + args(s.inputs(k)) + "\n```"})
	}
	if r.Chat == nil || len(r.Chat.Tools) == 0 {
		return s.reply(Reply{Content: "```python\n" + strings.TrimRight(s.Program, "\n") + "\n```"})
	}
	switch answered(r) {
	case "file_write", "apply_patch":
		return s.reply(Reply{ToolCalls: []ToolCall{{Name: "check_candidate", Arguments: "{}"}}})
	case "check_candidate":
		return s.reply(Reply{ToolCalls: []ToolCall{{Name: "done", Arguments: `{"summary":"llmtest solver"}`}}})
	}
	return s.reply(Reply{ToolCalls: []ToolCall{{Name: "file_write", Arguments: args(map[string]string{"path": "candidate.py", "content": s.Program})}}})
}

func (s *Solver) reply(r Reply) Reply {
	r.PromptTokens, r.CompletionTokens = s.PromptTokens, s.CompletionTokens
	return r
}

func (s *Solver) inputs(k int) []any {
	s.mu.Lock()
	n := s.proposals
	s.proposals++
	s.mu.Unlock()
	return s.Inputs(k, n)
}

// answered is the name of the tool whose result is the request's last
// message, "" when the last message is not a tool result.
func answered(r *Request) string {
	msgs := r.Chat.Messages
	last := msgs[len(msgs)-1]
	if last.Role != openai.ChatMessageRoleTool {
		return ""
	}
	for i := len(msgs) - 2; i >= 0; i-- {
		for _, c := range msgs[i].ToolCalls {
			if c.ID == last.ToolCallID {
				return c.Function.Name
			}
		}
	}
	return ""
}

var textPropose = regexp.MustCompile(`JSON array of exactly (\d+) inputs`)

// textProposeK is k of a text-mode proposal request, 0 otherwise.
func textProposeK(r *Request) int {
	if r.Chat == nil || len(r.Chat.Tools) > 0 || len(r.Chat.Messages) == 0 {
		return 0
	}
	m := textPropose.FindStringSubmatch(r.Chat.Messages[0].Content)
	if m == nil {
		return 0
	}
	k, _ := strconv.Atoi(m[1])
	return k
}
