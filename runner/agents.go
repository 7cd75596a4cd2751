package runner

import (
	"context"
	"fmt"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/sandbox"
)

// TEMPORARY until agent/synth and agent/llm land.
func newAgentKind(ctx context.Context, c *config.Config, box sandbox.Sandbox, log *zap.Logger) (agent.Agent, error) {
	return nil, fmt.Errorf("%w: agent %q not wired yet", ErrConfig, c.Agent.Kind)
}
