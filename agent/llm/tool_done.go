package llm

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/reconstruct/reconstruct/agent"
)

const doneToolName = "done"

const doneDescription = `Finish the session: candidate.py in the workspace is your answer. Call it once check_candidate passes every observed example, ` +
	`or when you cannot improve the program further.`

type doneParams struct {
	Summary string `json:"summary,omitempty" description:"one line: the rule the program implements"`
}

type doneTool struct {
	toolSpec[doneParams]
	ws *workspace
	// summary is set when the tool accepted the call.
	summary  string
	finished bool
}

func newDoneTool(ws *workspace) *doneTool {
	return &doneTool{toolSpec: toolSpec[doneParams]{doneToolName, doneDescription}, ws: ws}
}

func (t *doneTool) Run(_ context.Context, args json.RawMessage) (string, error) {
	p, err := t.decode(args)
	if err != nil {
		return "", err
	}
	if !t.ws.Exists(agent.CandidateFile) {
		return "", errors.New("candidate.py does not exist yet; write it with file_write before calling done")
	}
	t.summary, t.finished = p.Summary, true
	return "session finished", nil
}
