package runner

import (
	"context"
	"errors"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/sandbox"
)

// TEMPORARY until sandbox/docker lands.
func chooseKind(ctx context.Context, c *config.Config, log *zap.Logger) (string, error) {
	if c.Sandbox.Kind == "docker" {
		return "", errors.New("docker not wired yet")
	}
	return "process", nil
}

func openDocker(ctx context.Context, c *config.Config, runID, role, dir, workspace string, log *zap.Logger) (sandbox.Sandbox, error) {
	return nil, errors.New("docker not wired yet")
}
