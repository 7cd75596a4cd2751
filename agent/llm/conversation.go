package llm

import (
	"context"
	"errors"
	"fmt"

	openai "github.com/sashabaranov/go-openai"
)

// conversation is the message list of one session and how to shrink it
// when the model's context overflows.
type conversation struct {
	a    *Agent
	tr   *Transcript
	msgs []openai.ChatCompletionMessage
	// evidence rebuilds the first user message from the newest keep
	// examples; keep starts at the number of examples.
	evidence func(keep int) string
	keep     int
}

func newConversation(a *Agent, tr *Transcript, system string, evidence func(keep int) string, examples int) *conversation {
	c := &conversation{a: a, tr: tr, evidence: evidence, keep: examples}
	c.msgs = []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: system},
		{Role: openai.ChatMessageRoleUser, Content: evidence(examples)},
	}
	return c
}

func (c *conversation) add(role, content string) {
	c.msgs = append(c.msgs, openai.ChatCompletionMessage{Role: role, Content: content})
}

// complete asks for the next assistant message and appends it. A
// context-length refusal trims the conversation and retries once; a second
// refusal returns an error wrapping errContextLength.
func (c *conversation) complete(ctx context.Context, turn int, tools []openai.Tool) (openai.ChatCompletionMessage, error) {
	defer func() { c.tr.setMessages(c.msgs) }()
	trimmed := false
	for {
		resp, err := c.a.chat(ctx, c.tr, turn, openai.ChatCompletionRequest{Messages: c.msgs, Tools: tools})
		if err == nil {
			msg := resp.Choices[0].Message
			msg.Role = openai.ChatMessageRoleAssistant
			// Servers that return their reasoning refuse it as input.
			msg.ReasoningContent = ""
			for i := range msg.ToolCalls {
				// Some servers leave ids empty; the tool result needs one.
				if msg.ToolCalls[i].ID == "" {
					msg.ToolCalls[i].ID = fmt.Sprintf("call_%d_%d", turn, i)
				}
				msg.ToolCalls[i].Type = openai.ToolTypeFunction
				msg.ToolCalls[i].Index = nil
			}
			c.msgs = append(c.msgs, msg)
			return msg, nil
		}
		if !errors.Is(err, errContextLength) || trimmed || !c.trim() {
			return openai.ChatCompletionMessage{}, err
		}
		trimmed = true
		c.tr.Trims++
		c.a.log.Warn("context length exceeded; trimmed the oldest examples and tool output")
	}
}

// trimmedNote replaces old tool output after a context-length trim.
const trimmedNote = "[output removed to fit the model's context]"

// trim halves the examples in the first user message (the oldest go, with
// the older feedback) and empties tool results before the last two. It
// reports whether anything shrank.
func (c *conversation) trim() bool {
	changed := false
	if c.keep > 1 {
		c.keep /= 2
		c.msgs[1].Content = c.evidence(c.keep)
		changed = true
	}
	lastTools := 0
	for i := len(c.msgs) - 1; i >= 2; i-- {
		m := &c.msgs[i]
		if m.Role != openai.ChatMessageRoleTool {
			continue
		}
		lastTools++
		if lastTools > 2 && m.Content != trimmedNote && len(m.Content) > len(trimmedNote) {
			m.Content = trimmedNote
			changed = true
		}
	}
	return changed
}
