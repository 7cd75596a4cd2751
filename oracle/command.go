package oracle

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

// Command is a hidden program given as any executable: one process per
// input, JSON input on stdin, JSON output on stdout. A non-zero exit means
// the input is invalid; failing to start it, or to answer twice (a timeout,
// a signal), is an infrastructure error.
//
// A Command made by NewCommand runs in the oracle's sandbox, like a Python
// hidden program: it sees the task directory read-only and nothing of the
// caller's environment. One made by NewHostCommand runs on the host, as the
// caller, with only the variables of HostEnv.
type Command struct {
	argv    []string
	timeout time.Duration

	// In the sandbox.
	runner Runner
	limits sandbox.Limits

	// On the host.
	dir string
	env []string
}

var _ Oracle = (*Command)(nil)

// maxCommandOutput caps what one answer may print.
const maxCommandOutput = 16 << 20

// commandSlack is the time the sandbox grants a call beyond the command's
// own timeout (starting the process, reading its output).
const commandSlack = 5 * time.Second

// NewCommand returns an oracle running argv, with a per-input timeout, in
// the oracle's sandbox (runner), whose working directory is the task
// directory: a relative argv[0] ("./oracle.sh") is found there, a bare name
// on the sandbox's PATH. limits bound each run (memory, processes).
func NewCommand(runner Runner, argv []string, timeout time.Duration, limits sandbox.Limits) *Command {
	return &Command{argv: argv, timeout: timeout, runner: runner, limits: limits}
}

// NewHostCommand returns an oracle running argv in dir on the host, outside
// any sandbox, with the environment cut down to HostEnv(os.Environ()).
func NewHostCommand(argv []string, dir string, timeout time.Duration) *Command {
	return &Command{argv: argv, timeout: timeout, dir: dir, env: HostEnv(os.Environ())}
}

// HostEnvAllowed lists the variables a host command keeps; every other one
// (API keys, tokens, DOCKER_*, RECONSTRUCT_*) is dropped. LC_* variables
// are kept as well.
var HostEnvAllowed = []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TERM"}

// HostEnv keeps the allowed variables of env.
func HostEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "LC_") {
			out = append(out, kv)
			continue
		}
		for _, a := range HostEnvAllowed {
			if k == a {
				out = append(out, kv)
				break
			}
		}
	}
	return out
}

// run is what one input got from the command.
type run struct {
	code      int
	signal    string
	stdout    []byte
	stderr    string
	truncated bool
	timedOut  bool
	// invalidUTF8: stdout was not UTF-8 (found in the sandbox, which
	// sends text).
	invalidUTF8 bool
}

// Query runs the command once per input. A command that does not answer
// an input (it times out, or a signal kills it) is asked once more on its
// own, as the Python oracle is; failing again, it is a FailureError (an
// infrastructure failure of the task, not a rejected input).
func (c *Command) Query(ctx context.Context, inputs []json.RawMessage) ([]Answer, error) {
	runs, err := c.runAll(ctx, inputs)
	if err != nil {
		return nil, err
	}
	answers := make([]Answer, len(runs))
	for i, r := range runs {
		if c.failure(r, inputs[i]) != nil {
			again, err := c.runAll(ctx, inputs[i:i+1])
			if err != nil {
				return nil, err
			}
			r = again[0]
			if fail := c.failure(r, inputs[i]); fail != nil {
				fail.Index = i + 1
				return nil, fmt.Errorf("command oracle %s: %w", c.argv[0], fail)
			}
		}
		if answers[i], err = c.answer(r); err != nil {
			var bound *BoundError
			if errors.As(err, &bound) {
				bound.Index, bound.Input = i+1, inputs[i]
			}
			return nil, fmt.Errorf("command oracle %s: input %d: %w", c.argv[0], i+1, err)
		}
	}
	return answers, nil
}

// runAll runs the command on every input, in the sandbox or on the host.
func (c *Command) runAll(ctx context.Context, inputs []json.RawMessage) ([]run, error) {
	if c.runner != nil {
		runs, err := c.inSandbox(ctx, inputs)
		if err != nil {
			return nil, fmt.Errorf("command oracle %s: %w", c.argv[0], err)
		}
		return runs, nil
	}
	runs := make([]run, 0, len(inputs))
	for i, in := range inputs {
		r, err := c.onHost(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("command oracle %s: input %d: %w", c.argv[0], i+1, err)
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// failure is the FailureError of a run that gave no answer: it timed out,
// or a signal killed it. Nil for a run that answered or exited.
func (c *Command) failure(r run, input json.RawMessage) *FailureError {
	switch {
	case r.timedOut:
		return &FailureError{Input: input, Kind: FailTimeout, Limit: fmt.Sprintf("%s per input (task.oracle.timeout)", c.timeout)}
	case r.signal != "":
		return &FailureError{Input: input, Kind: FailCrash, Detail: "signal: " + r.signal}
	}
	return nil
}

// answer turns what an exited command did into an answer: a non-zero exit
// rejects the input; output that is not one JSON value is an
// infrastructure error.
func (c *Command) answer(r run) (Answer, error) {
	if r.code != 0 {
		msg := strings.TrimSpace(r.stderr)
		if msg == "" {
			msg = fmt.Sprintf("exit status %d", r.code)
		}
		return Answer{Invalid: msg}, nil
	}
	if r.truncated {
		return Answer{}, &BoundError{Key: KeyMaxBytes, Detail: fmt.Sprintf("is larger than %d bytes", maxCommandOutput)}
	}
	if r.invalidUTF8 {
		return Answer{}, &BoundError{Key: KeyUTF8, Detail: "is not UTF-8 text: a command must print its output as UTF-8 JSON"}
	}
	out := bytes.TrimSpace(r.stdout)
	if !utf8.Valid(out) {
		return Answer{}, &BoundError{Key: KeyUTF8, Detail: "is not UTF-8 text: a command must print its output as UTF-8 JSON"}
	}
	if _, err := task.Decode(out); err != nil {
		return Answer{}, fmt.Errorf("stdout is not one JSON value: %w", err)
	}
	return Answer{Output: json.RawMessage(out)}, nil
}

func (c *Command) onHost(ctx context.Context, input json.RawMessage) (run, error) {
	cctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, c.argv[0], c.argv[1:]...)
	cmd.Dir = c.dir
	cmd.Env = c.env
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
		return run{}, ctx.Err()
	}
	if cctx.Err() != nil {
		return run{timedOut: true}, nil
	}
	r := run{stdout: stdout.Bytes(), stderr: stderr.String(), truncated: stdout.truncated}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		r.code = exitErr.ExitCode()
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			r.signal = ws.Signal().String()
		}
		return r, nil
	}
	return r, err
}

// shim runs the command in the sandbox, once per input (the stdin text),
// and returns what it did.
const shim = `import os, signal, subprocess

ARGV = %s
TIMEOUT = %g
CAP = %d


def run(stdin):
    try:
        p = subprocess.Popen(ARGV, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    except OSError as e:
        return {"start_error": "%%s: %%s" %% (type(e).__name__, e)}
    try:
        out, err = p.communicate(stdin.encode(), timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        p.wait()
        return {"timeout": True}
    res = {"code": p.returncode, "stdout": "", "stderr": err[-65536:].decode("utf-8", "replace")}
    if p.returncode < 0:
        res["code"], res["signal"] = 0, -p.returncode
    if len(out) > CAP:
        res["truncated"] = True
    else:
        # Strictly: an output that is not UTF-8 is the task's mistake, not
        # text to repair.
        try:
            res["stdout"] = out.decode("utf-8")
        except UnicodeDecodeError:
            res["invalid_utf8"] = True
    return res
`

func (c *Command) inSandbox(ctx context.Context, inputs []json.RawMessage) ([]run, error) {
	if len(inputs) == 0 {
		return nil, nil
	}
	argv, err := json.Marshal(c.argv)
	if err != nil {
		return nil, err
	}
	texts := make([]json.RawMessage, len(inputs))
	for i, in := range inputs {
		if texts[i], err = json.Marshal(string(in) + "\n"); err != nil {
			return nil, err
		}
	}
	lim := c.limits
	lim.Timeout = c.timeout + commandSlack
	// The output travels as a JSON string (escapes can grow it).
	lim.OutputBytes = 2*maxCommandOutput + 1<<20
	outs, err := c.runner.Call(ctx, sandbox.CallRequest{
		Program: sandbox.Program{Source: fmt.Sprintf(shim, argv, c.timeout.Seconds(), maxCommandOutput), Function: "run"},
		Inputs:  texts,
		Limits:  lim,
	})
	if err != nil {
		return nil, err
	}
	if len(outs) != len(inputs) {
		return nil, fmt.Errorf("%d outcomes for %d inputs", len(outs), len(inputs))
	}
	runs := make([]run, len(outs))
	for i, o := range outs {
		switch o.Status {
		case sandbox.StatusOK:
		case sandbox.StatusTimeout:
			runs[i] = run{timedOut: true}
			continue
		case sandbox.StatusOutputLimit:
			runs[i] = run{truncated: true}
			continue
		default:
			return nil, fmt.Errorf("input %d: the oracle's sandbox could not run it: %s", i+1, describe(o))
		}
		var r struct {
			Code        int    `json:"code"`
			Signal      int    `json:"signal"`
			Stdout      string `json:"stdout"`
			Stderr      string `json:"stderr"`
			Truncated   bool   `json:"truncated"`
			InvalidUTF8 bool   `json:"invalid_utf8"`
			Timeout     bool   `json:"timeout"`
			StartError  string `json:"start_error"`
		}
		if err := json.Unmarshal(o.Output, &r); err != nil {
			return nil, fmt.Errorf("input %d: %w", i+1, err)
		}
		if r.StartError != "" {
			return nil, fmt.Errorf("cannot start it in the oracle's sandbox: %s (it runs there as another user, in the task directory: the command must be executable and readable by others)", r.StartError)
		}
		runs[i] = run{code: r.Code, stdout: []byte(r.Stdout), stderr: r.Stderr, truncated: r.Truncated, timedOut: r.Timeout, invalidUTF8: r.InvalidUTF8}
		if r.Signal != 0 {
			runs[i].signal = syscall.Signal(r.Signal).String()
		}
	}
	return runs, nil
}

// Close releases nothing: the sandbox belongs to the caller.
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
