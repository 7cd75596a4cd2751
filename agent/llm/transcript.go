package llm

import (
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/reconstruct/reconstruct/task"
)

// TranscriptVersion is the format version of a session transcript.
const TranscriptVersion = 1

// Transcript is the record of one session: WriteResult.Transcript holds it
// as JSON, archived beside the candidate. Readers should check Version.
type Transcript struct {
	Version  int    `json:"version"`
	Session  string `json:"session"` // "write" or "propose"
	Model    string `json:"model"`
	ToolMode string `json:"tool_mode"`
	// Messages is the conversation as last sent, plus the final reply.
	Messages []Message `json:"messages"`
	// Requests has one entry per HTTP attempt.
	Requests []RequestRecord `json:"requests"`
	// Tools has one entry per tool call the agent ran.
	Tools      []ToolRecord `json:"tools,omitempty"`
	Usage      task.Usage   `json:"usage"`
	Turns      int          `json:"turns"`
	StopReason string       `json:"stop_reason"`
	// Trims counts context-length trims.
	Trims int `json:"trims,omitempty"`
}

// Message is one message of the conversation.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// ToolCall is one tool call of an assistant message.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// RequestRecord is one HTTP attempt: its latency, and its usage or error.
type RequestRecord struct {
	Turn             int     `json:"turn"`
	Attempt          int     `json:"attempt"`
	LatencySeconds   float64 `json:"latency_seconds"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	Error            string  `json:"error,omitempty"`
}

// ToolRecord is one tool call the agent ran.
type ToolRecord struct {
	Turn    int     `json:"turn"`
	ID      string  `json:"id"`
	Name    string  `json:"name"`
	IsError bool    `json:"is_error"`
	Seconds float64 `json:"seconds"`
}

func newTranscript(session string, o Options) *Transcript {
	return &Transcript{Version: TranscriptVersion, Session: session, Model: o.Model, ToolMode: o.ToolMode}
}

// request records one HTTP attempt; usage counts only when it succeeded
// (a failed attempt has no usage).
func (t *Transcript) request(turn, attempt int, latency time.Duration, u openai.Usage, err error) {
	r := RequestRecord{Turn: turn, Attempt: attempt, LatencySeconds: latency.Seconds()}
	if err != nil {
		r.Error = err.Error()
	} else {
		r.PromptTokens, r.CompletionTokens = u.PromptTokens, u.CompletionTokens
		t.Usage = t.Usage.Add(task.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens})
	}
	t.Requests = append(t.Requests, r)
}

func (t *Transcript) tool(turn int, id, name string, isError bool, d time.Duration) {
	t.Tools = append(t.Tools, ToolRecord{Turn: turn, ID: id, Name: name, IsError: isError, Seconds: d.Seconds()})
}

// setMessages snapshots the conversation.
func (t *Transcript) setMessages(msgs []openai.ChatCompletionMessage) {
	t.Messages = t.Messages[:0]
	for _, m := range msgs {
		r := Message{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID}
		for _, c := range m.ToolCalls {
			r.ToolCalls = append(r.ToolCalls, ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
		t.Messages = append(t.Messages, r)
	}
}
