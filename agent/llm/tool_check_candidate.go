package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/judge"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

const checkCandidateToolName = "check_candidate"

const checkCandidateDescription = `Run candidate.py on every observed example in the sandbox and compare with the hidden program's outputs. ` +
	`Returns how many pass and the first failures (input, expected, actual output or error).`

type checkCandidateParams struct{}

// checker evaluates a candidate's source on the observed examples.
type checker struct {
	sb       Sandbox
	fn       string
	examples []task.Example
	limits   sandbox.Limits
	atol     float64
	shown    int
}

// checkReport is the outcome of one check.
type checkReport struct{ judge.Verdict }

func (c *checker) check(ctx context.Context, source string) (checkReport, error) {
	inputs := make([]json.RawMessage, len(c.examples))
	for i, e := range c.examples {
		inputs[i] = e.Input
	}
	if len(inputs) == 0 {
		return checkReport{}, nil
	}
	outs, err := c.sb.Call(ctx, sandbox.CallRequest{
		Program: sandbox.Program{Source: source, Function: c.fn},
		Inputs:  inputs,
		Limits:  c.limits.WithDefaults(),
	})
	if err != nil {
		return checkReport{}, fmt.Errorf("check candidate: sandbox call: %w", err)
	}
	if len(outs) != len(inputs) {
		return checkReport{}, fmt.Errorf("check candidate: sandbox returned %d outcomes for %d inputs", len(outs), len(inputs))
	}
	return checkReport{judge.Compare(c.examples, outs, c.atol)}, nil
}

// String is the report as the model reads it.
func (r checkReport) String(shown int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "passed %d/%d observed examples", r.Passed, r.Total)
	if len(r.Failures) == 0 {
		b.WriteString(".")
		return b.String()
	}
	fmt.Fprintf(&b, "; %d failing", len(r.Failures))
	n := min(shown, len(r.Failures))
	if n < len(r.Failures) {
		fmt.Fprintf(&b, " (first %d shown)", n)
	}
	b.WriteString(":\n")
	for _, f := range r.Failures[:n] {
		b.WriteString(formatFailure(f))
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func formatFailure(f judge.Failure) string {
	s := fmt.Sprintf("- input %s: expected %s", compact(f.Input), compact(f.Expected))
	if f.Error != "" {
		return s + ", but it failed with " + f.Error
	}
	return s + ", got " + compact(f.Actual)
}

// compact prints a JSON value on one line, capped.
func compact(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "nothing"
	}
	return capText(task.MustCanonical(raw), 2000)
}

type checkCandidateTool struct {
	toolSpec[checkCandidateParams]
	ws *workspace
	c  *checker
}

func newCheckCandidateTool(ws *workspace, c *checker) *checkCandidateTool {
	return &checkCandidateTool{toolSpec: toolSpec[checkCandidateParams]{checkCandidateToolName, checkCandidateDescription}, ws: ws, c: c}
}

func (t *checkCandidateTool) Run(ctx context.Context, args json.RawMessage) (string, error) {
	if _, err := t.decode(args); err != nil {
		return "", err
	}
	src, err := t.ws.ReadFile(agent.CandidateFile)
	if err != nil {
		return "", fmt.Errorf("%w; write it first with file_write", err)
	}
	rep, err := t.c.check(ctx, string(src))
	if err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("the check did not finish in time: %v", ctx.Err())
		}
		return "", infra(err)
	}
	return rep.String(t.c.shown), nil
}
