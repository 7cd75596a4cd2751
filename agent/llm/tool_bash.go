package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/sandbox"
)

const bashToolName = "bash"

const bashDescription = `Run a shell command in the sandbox, with the workspace as working directory (candidate.py is at ./candidate.py). ` +
	`Use it to experiment, e.g. python3 -c '...'. The hidden program is not reachable from here. ` +
	`Returns the exit code and the combined output (capped).`

// Limits of the bash tool.
const (
	DefaultBashTimeout     = 30 * time.Second
	MaxBashTimeout         = 120 * time.Second
	DefaultBashOutputBytes = 16 << 10
)

type bashParams struct {
	Command        string `json:"command" description:"the shell command to run"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" description:"wall-clock limit in seconds (default 30, at most 120)"`
}

type bashTool struct {
	toolSpec[bashParams]
	exec sandbox.Executor
}

func newBashTool(exec sandbox.Executor) *bashTool {
	return &bashTool{toolSpec: toolSpec[bashParams]{bashToolName, bashDescription}, exec: exec}
}

func (t *bashTool) Run(ctx context.Context, args json.RawMessage) (string, error) {
	p, err := t.decode(args)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(p.Command) == "" {
		return "", errors.New("command is empty")
	}
	timeout := DefaultBashTimeout
	if p.TimeoutSeconds > 0 {
		timeout = min(time.Duration(p.TimeoutSeconds)*time.Second, MaxBashTimeout)
	}
	res, err := t.exec.Exec(ctx, sandbox.ExecRequest{Command: p.Command, Timeout: timeout, OutputBytes: DefaultBashOutputBytes})
	if err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("command did not finish in time: %v", ctx.Err())
		}
		return "", infra(fmt.Errorf("bash tool: sandbox exec: %w", err))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "exit code %d", res.ExitCode)
	if res.TimedOut {
		fmt.Fprintf(&b, " (timed out after %s)", timeout)
	}
	if res.Truncated {
		fmt.Fprintf(&b, " (output truncated to %d bytes)", DefaultBashOutputBytes)
	}
	b.WriteString("\n")
	b.WriteString(capText(res.Output, DefaultBashOutputBytes))
	return b.String(), nil
}
