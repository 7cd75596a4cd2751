package docker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"
	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/sandbox"
)

// Defaults for ExecRequest.
const (
	DefaultExecTimeout = 30 * time.Second
	DefaultExecOutput  = 64 << 10
	// execGrace is how long Exec waits past the timeout for the killed
	// command's stream to end before giving up on it.
	execGrace = 5 * time.Second
)

// Exec runs `sh -c Command` in the container as the container's user, with
// the workspace (or /tmp in the oracle's container) as working directory.
// The command and everything it started in its process group are killed at
// the timeout; stdout and stderr are interleaved and capped at OutputBytes.
// A non-zero exit is data, not an error.
func (s *Sandbox) Exec(ctx context.Context, req sandbox.ExecRequest) (sandbox.ExecResult, error) {
	if req.Timeout <= 0 {
		req.Timeout = DefaultExecTimeout
	}
	if req.OutputBytes <= 0 {
		req.OutputBytes = DefaultExecOutput
	}
	inst, err := s.instance(ctx)
	if err != nil {
		return sandbox.ExecResult{}, err
	}
	s.exclusive.Lock()
	defer s.exclusive.Unlock()
	// The harness sweeps the container after it answers a request (see
	// Server.clean in harness.py): its answer to a ping, which it reads
	// only once that sweep is done, means the sweep cannot kill this
	// command. A harness that does not answer sweeps nothing more (the
	// next request replaces it).
	if _, err := inst.h.Ping(ctx); err != nil {
		if ctx.Err() != nil {
			return sandbox.ExecResult{}, ctx.Err()
		}
		s.log.Debug("ping before exec", zap.Error(err))
	}
	// timeout(1) puts the command in its own process group and kills the
	// whole group; the engine has no way to kill an exec'd process.
	secs := strconv.FormatFloat(req.Timeout.Seconds(), 'f', 3, 64)
	created, err := s.api.ContainerExecCreate(ctx, inst.id, container.ExecOptions{
		User:       s.opts.User,
		WorkingDir: s.workdir(),
		Env:        []string{"HOME=/tmp", "LANG=C.UTF-8", "PYTHONDONTWRITEBYTECODE=1"},
		// stderr joins stdout inside the container, so that the two keep
		// their order (the engine streams them apart).
		Cmd:          []string{"timeout", "-s", "KILL", secs, "sh", "-c", "exec 2>&1\n" + req.Command},
		AttachStdout: true,
		AttachStderr: true,
	})
	if err != nil {
		return sandbox.ExecResult{}, fmt.Errorf("docker sandbox: exec in container %s: %w", shortID(inst.id), err)
	}
	conn, err := s.api.ContainerExecAttach(ctx, created.ID, container.ExecAttachOptions{})
	if err != nil {
		return sandbox.ExecResult{}, fmt.Errorf("docker sandbox: attach to exec: %w", err)
	}
	defer conn.Close()

	start := time.Now()
	out := sandbox.NewCappedOutput(req.OutputBytes)
	copied := make(chan error, 1)
	go func() {
		_, err := stdcopy.StdCopy(out, out, conn.Reader)
		copied <- err
	}()
	timer := time.NewTimer(req.Timeout + execGrace)
	defer timer.Stop()
	var res sandbox.ExecResult
	select {
	case err := <-copied:
		if err != nil && !errors.Is(err, io.EOF) {
			return res, fmt.Errorf("docker sandbox: read exec output: %w", err)
		}
	case <-timer.C:
		// The stream did not end: a process kept it open after the kill
		// (one that left the process group). Stop waiting for it.
		res.TimedOut = true
	case <-ctx.Done():
		return res, ctx.Err()
	}
	res.Output, res.Truncated = out.Result()

	info, err := s.api.ContainerExecInspect(ctx, created.ID)
	if err != nil {
		return res, fmt.Errorf("docker sandbox: inspect exec: %w", err)
	}
	res.ExitCode = info.ExitCode
	if info.Running {
		res.ExitCode = -1
	}
	// timeout(1) exits 124 when it killed the command, or dies of the
	// same SIGKILL (137) because it signals its own process group.
	if elapsed := time.Since(start); elapsed >= req.Timeout && (res.ExitCode == 124 || res.ExitCode == 137) {
		res.TimedOut = true
	}
	return res, nil
}
