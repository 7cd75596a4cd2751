package runner

import (
	"context"
	"fmt"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/sandbox/docker"
)

// image is the configured runner image, or the one named after the
// embedded harness.
func image(s config.Sandbox) string {
	if s.Image != "" {
		return s.Image
	}
	return docker.DefaultImage()
}

// chooseKind resolves sandbox.kind: auto picks Docker when the engine
// answers and the image exists, else the process sandbox with a warning
// naming the reason.
func chooseKind(ctx context.Context, s config.Sandbox, log *zap.Logger) (string, error) {
	switch s.Kind {
	case "process":
		return "process", nil
	case "docker":
		if ok, reason := docker.Available(ctx, image(s)); !ok {
			return "", fmt.Errorf("%w: sandbox.kind is docker but %s", ErrInfra, reason)
		}
		return "docker", nil
	}
	if ok, reason := docker.Available(ctx, image(s)); !ok {
		log.Warn("sandbox.kind is auto and Docker cannot be used (" + reason + "): using the process sandbox")
		return "process", nil
	}
	return "docker", nil
}

// openDocker starts one container: the oracle's with the hidden program's
// directory read-only (hide's files, relative to it, hidden), the others
// with dir (the workspace) read-write, or a size-bounded scratch tmpfs when
// dir is empty.
func openDocker(ctx context.Context, s config.Sandbox, runID, role, dir string, hide []string, log *zap.Logger) (sandbox.Sandbox, error) {
	return docker.New(ctx, dockerOptions(s, runID, role, dir, hide, log))
}

// dockerOptions are openDocker's container's.
func dockerOptions(s config.Sandbox, runID, role, dir string, hide []string, log *zap.Logger) docker.Options {
	ws := docker.ScratchMount(0)
	if dir != "" {
		ws = docker.WorkspaceMount(dir)
	}
	opts := docker.Options{
		Image:  image(s),
		RunID:  runID,
		Role:   docker.RoleAgent,
		Mounts: []docker.Mount{ws},
		Limits: s.Limits(),
		// The container holds the resident harness besides the call.
		Memory: int64(s.MemoryMB)<<20 + 256<<20,
		CPUs:   s.CPUs,
		Pids:   int64(s.Pids),
		Log:    log.With(zap.String("sandbox", role)),
	}
	if role == "oracle" {
		opts.Role = docker.RoleOracle
		m := docker.ProgramMount(dir)
		m.Hide = hide
		opts.Mounts = []docker.Mount{m}
	}
	return opts
}
