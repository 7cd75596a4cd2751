package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"

	"github.com/reconstruct/reconstruct/agent"
)

// TaskTool is a tool the task offers of its own (a bound task's callable
// tool): the model calls it by name with arguments; it is run, with
// candidate.py's current source when it takes the candidate, wherever the
// task's tools run (the runner's choice: a sandbox, never this process).
type TaskTool struct {
	Name        string
	Description string
	// Parameters is the JSON schema of the arguments object.
	Parameters map[string]any
	// TakesCandidate: Call is given candidate.py's source (it must exist).
	TakesCandidate bool
	// Call runs the tool. An error wrapping ErrToolInfrastructure ends the
	// session (the sandbox failed); any other is shown to the model.
	Call func(ctx context.Context, source string, args json.RawMessage) (string, error)
}

// ErrToolInfrastructure marks a task tool's failure that is its sandbox's,
// not the tool's.
var ErrToolInfrastructure = errors.New("the task tool's sandbox failed")

var toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// CheckTaskTools checks the names of a task's tools: each a valid function
// name for the model, none twice, none named done (the session's end).
func CheckTaskTools(tools []TaskTool) error {
	seen := map[string]bool{}
	for _, t := range tools {
		switch {
		case !toolNameRE.MatchString(t.Name):
			return fmt.Errorf("%w: the task's tool %q: a tool's name is 1 to 64 letters, digits, _ or -", ErrConfig, t.Name)
		case t.Name == doneToolName:
			return fmt.Errorf("%w: the task's tool %q: the name done is the session's own", ErrConfig, t.Name)
		case seen[t.Name]:
			return fmt.Errorf("%w: the task has two tools named %q", ErrConfig, t.Name)
		}
		seen[t.Name] = true
	}
	return nil
}

// taskTool adapts a TaskTool to the session's tool interface.
type taskTool struct {
	t  TaskTool
	ws *workspace
}

func (t *taskTool) Name() string        { return t.t.Name }
func (t *taskTool) Description() string { return t.t.Description }

func (t *taskTool) Schema() map[string]any {
	if t.t.Parameters != nil {
		return t.t.Parameters
	}
	return map[string]any{"type": "object", "properties": map[string]any{}}
}

func (t *taskTool) Run(ctx context.Context, args json.RawMessage) (string, error) {
	args = bytes.TrimSpace(args)
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil {
		return "", fmt.Errorf("arguments are not a JSON object (%w); send a JSON object matching the tool's schema", err)
	}
	source := ""
	if t.t.TakesCandidate {
		src, err := t.ws.ReadFile(agent.CandidateFile)
		if err != nil {
			return "", fmt.Errorf("%w; write it first with file_write", err)
		}
		source = string(src)
	}
	out, err := t.t.Call(ctx, source, args)
	if errors.Is(err, ErrToolInfrastructure) && ctx.Err() == nil {
		return "", infra(err)
	}
	return out, err
}
