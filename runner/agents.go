package runner

import (
	"context"
	"fmt"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/agent/llm"
	"github.com/reconstruct/reconstruct/agent/synth"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/sandbox"
)

// newSynth builds the built-in synthesizer from the agent section.
func newSynth(c *config.Config, log *zap.Logger) *synth.Agent {
	return synth.New(synth.Options{
		Seed:         c.Workflow.Seed,
		TimeLimit:    c.Agent.Synth.TimeLimit,
		RunTimeLimit: c.Agent.Synth.RunTimeLimit,
		MemoryBytes:  int64(c.Agent.Synth.MemoryMB) << 20,
		Log:          log.With(zap.String("agent", "synth")),
	})
}

// newAgentKind builds the synth and llm agents.
func newAgentKind(ctx context.Context, c *config.Config, box sandbox.Sandbox, log *zap.Logger) (agent.Agent, error) {
	switch c.Agent.Kind {
	case "synth":
		return newSynth(c, log), nil
	case "llm":
		tools, ok := box.(llm.Sandbox)
		if !ok {
			return nil, fmt.Errorf("%w: the %T sandbox cannot run the agent's tools", ErrInfra, box)
		}
		l := c.Agent.LLM
		temp := l.Temperature
		a, err := llm.New(ctx, llm.Options{
			BaseURL: l.BaseURL, Model: l.Model, APIKeyEnv: l.APIKeyEnv, Temperature: &temp,
			MaxTokens: l.MaxTokens, MaxTurns: l.MaxTurns, RequestTimeout: l.RequestTimeout,
			Retries: llmRetries(l.Retries), ToolMode: l.ToolMode, Sandbox: tools, Synth: newSynth(c, log),
			Limits: Limits(c), Atol: c.Workflow.Atol, ShownFailures: c.Workflow.MaxFailures,
			Log: log.With(zap.String("agent", "llm")),
		})
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInfra, err)
		}
		return a, nil
	}
	return nil, fmt.Errorf("%w: %s: agent.kind: unknown agent %q", ErrConfig, c.File, c.Agent.Kind)
}

// llmRetries maps the configuration's retries (0 = none) to the agent's
// option, where 0 means its default and a negative value none.
func llmRetries(n int) int {
	if n == 0 {
		return -1
	}
	return n
}
