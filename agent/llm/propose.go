package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent"
)

// MaxProposeTurns caps the model requests of one proposal attempt.
const MaxProposeTurns = 3

// Propose asks the model for exactly req.K inputs. The proposal is returned
// as the model gave it, even with the wrong count or repeats (the workflow
// validates and retries with req.Rejection); a model that never produces a
// readable proposal yields no inputs. The error is an infrastructure
// failure or the context's.
func (a *Agent) Propose(ctx context.Context, req agent.ProposeRequest) (agent.ProposeResult, error) {
	tr := newTranscript("propose", a.opts)
	current := ""
	if req.Workspace != "" {
		if ws, err := openWorkspace(req.Workspace); err == nil {
			if b, err := ws.ReadFile(agent.CandidateFile); err == nil {
				current = string(b)
			}
			ws.Close()
		}
	}
	pt := newProposeInputsTool(req.K, req.Task.Kind, req.Domain)
	conv := newConversation(a, tr, proposeSystemPrompt(req.Task, req.K, a.opts.ToolMode), func(keep int) string {
		return proposeUserPrompt(req, current, keep)
	}, len(req.Examples))
	var tools []openai.Tool
	if a.opts.ToolMode == ToolModeTools {
		tools = definitions([]tool{pt})
	}
	inputs, err := a.propose(ctx, conv, pt, tools)
	res := agent.ProposeResult{Inputs: inputs, Usage: tr.Usage}
	a.log.Info("llm proposal", zap.Int("attempt", req.Attempt), zap.Int("k", req.K), zap.Int("proposed", len(inputs)),
		zap.Int("prompt_tokens", tr.Usage.PromptTokens), zap.Int("completion_tokens", tr.Usage.CompletionTokens), zap.Error(err))
	if err != nil {
		return res, fmt.Errorf("llm propose, attempt %d: %w", req.Attempt, err)
	}
	return res, nil
}

func (a *Agent) propose(ctx context.Context, conv *conversation, pt *proposeInputsTool, tools []openai.Tool) ([]json.RawMessage, error) {
	for turn := 1; turn <= MaxProposeTurns; turn++ {
		conv.tr.Turns = turn
		msg, err := conv.complete(ctx, turn, tools)
		if err != nil {
			if errors.Is(err, errContextLength) {
				return nil, fmt.Errorf("%w: the proposal request exceeds the context of model %q even after trimming (%s): %w", ErrConfig, a.opts.Model, SettingModel, err)
			}
			return nil, err
		}
		for _, call := range msg.ToolCalls {
			if call.Function.Name != proposeInputsToolName {
				conv.tr.tool(turn, call.ID, call.Function.Name, true, 0)
				conv.msgs = append(conv.msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: call.ID,
					Content: fmt.Sprintf("error: there is no tool %q here; call %s", call.Function.Name, proposeInputsToolName)})
				continue
			}
			if _, err := pt.Run(ctx, json.RawMessage(call.Function.Arguments)); err != nil {
				conv.tr.tool(turn, call.ID, call.Function.Name, true, 0)
				conv.msgs = append(conv.msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: call.ID,
					Content: "error: " + err.Error()})
				continue
			}
			conv.tr.tool(turn, call.ID, call.Function.Name, false, 0)
			conv.tr.StopReason = StopDone
			return pt.inputs, nil
		}
		if len(msg.ToolCalls) > 0 {
			continue
		}
		// No tool call: accept a fenced JSON array (the text mode's format).
		if inputs, ok := fencedInputs(msg.Content, pt); ok {
			conv.tr.StopReason = StopModelStopped
			return inputs, nil
		}
		if a.opts.ToolMode == ToolModeText {
			conv.add(openai.ChatMessageRoleUser, fmt.Sprintf("Reply with a JSON array of exactly %d inputs in one fenced ```json code block.", pt.k))
		} else {
			conv.add(openai.ChatMessageRoleUser, fmt.Sprintf("Call the %s tool with exactly %d inputs.", proposeInputsToolName, pt.k))
		}
	}
	conv.tr.StopReason = StopMaxTurns
	return nil, nil
}

// fencedInputs reads a JSON array of inputs from the last fenced block.
func fencedInputs(content string, pt *proposeInputsTool) ([]json.RawMessage, bool) {
	block := strings.TrimSpace(lastFencedBlock(content, "json"))
	if block == "" {
		return nil, false
	}
	var xs []json.RawMessage
	if err := json.Unmarshal([]byte(block), &xs); err != nil {
		// {"inputs": [...]} is the tool's shape; accept it too.
		var p proposeInputsParams
		if err := json.Unmarshal([]byte(block), &p); err != nil || p.Inputs == nil {
			return nil, false
		}
		xs = p.Inputs
	}
	return normalizeInputs(xs, pt.kind), true
}
