package oracle

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/reconstruct/reconstruct/task"
)

// Command is a hidden program given as any executable: one process per
// input, JSON input on stdin, JSON output on stdout. A non-zero exit means
// the input is invalid; failing to start it is an infrastructure error.
type Command struct {
	argv    []string
	dir     string
	timeout time.Duration
}

var _ Oracle = (*Command)(nil)

// NewCommand returns an oracle running argv in dir with a per-input timeout.
func NewCommand(argv []string, dir string, timeout time.Duration) *Command {
	return &Command{argv: argv, dir: dir, timeout: timeout}
}

// maxCommandOutput caps what one answer may print.
const maxCommandOutput = 16 << 20

// Query runs the command once per input.
func (c *Command) Query(ctx context.Context, inputs []json.RawMessage) ([]Answer, error) {
	answers := make([]Answer, len(inputs))
	for i, in := range inputs {
		a, err := c.one(ctx, in)
		var fail *FailureError
		if errors.As(err, &fail) {
			// Once more, as the Python oracle does, before giving up.
			if a, err = c.one(ctx, in); errors.As(err, &fail) {
				fail.Index = i + 1
				return nil, fmt.Errorf("command oracle %s: %w", c.argv[0], fail)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("command oracle %s: input %d: %w", c.argv[0], i+1, err)
		}
		answers[i] = a
	}
	return answers, nil
}

func (c *Command) one(ctx context.Context, input json.RawMessage) (Answer, error) {
	cctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, c.argv[0], c.argv[1:]...)
	cmd.Dir = c.dir
	// The command and anything it started are killed as a group, and a
	// child that keeps the pipes open does not hold the answer up.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 500 * time.Millisecond
	cmd.Stdin = bytes.NewReader(append(append([]byte(nil), input...), '\n'))
	var stdout, stderr capped
	stdout.max, stderr.max = maxCommandOutput, 64<<10
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return Answer{}, ctx.Err()
	}
	if cctx.Err() != nil {
		return Answer{}, &FailureError{Input: input, Kind: FailTimeout, Limit: fmt.Sprintf("%s per input (task.oracle.timeout)", c.timeout)}
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) && exitErr.Exited() {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = exitErr.Error()
		}
		return Answer{Invalid: msg}, nil
	}
	if errors.As(err, &exitErr) {
		return Answer{}, &FailureError{Input: input, Kind: FailCrash, Detail: exitErr.Error()}
	}
	if err != nil {
		return Answer{}, err
	}
	if stdout.truncated {
		return Answer{}, fmt.Errorf("output larger than %d bytes", maxCommandOutput)
	}
	out := bytes.TrimSpace(stdout.Bytes())
	if _, err := task.Decode(out); err != nil {
		return Answer{}, fmt.Errorf("stdout is not one JSON value: %v", err)
	}
	return Answer{Output: json.RawMessage(out)}, nil
}

// Close releases nothing.
func (c *Command) Close() error { return nil }

// capped is a buffer that stops growing at max bytes.
type capped struct {
	bytes.Buffer
	max       int
	truncated bool
}

func (c *capped) Write(p []byte) (int, error) {
	n := len(p)
	if room := c.max - c.Len(); room < len(p) {
		c.truncated = true
		if room > 0 {
			c.Buffer.Write(p[:room])
		}
		return n, nil
	}
	c.Buffer.Write(p)
	return n, nil
}
