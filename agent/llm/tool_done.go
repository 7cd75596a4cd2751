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
	ws *workspace
	// summary is set when the tool accepted the call.
	summary  string
	finished bool
}

func newDoneTool(ws *workspace) *doneTool { return &doneTool{ws: ws} }

func (t *doneTool) Name() string           { return doneToolName }
func (t *doneTool) Description() string    { return doneDescription }
func (t *doneTool) Schema() map[string]any { return schemaOf(doneParams{}) }

func (t *doneTool) Run(_ context.Context, args json.RawMessage) (string, error) {
	var p doneParams
	if err := decodeArgs(args, &p, t.Schema()); err != nil {
		return "", err
	}
	if !t.ws.Exists(agent.CandidateFile) {
		return "", errors.New("candidate.py does not exist yet; write it with file_write before calling done")
	}
	t.summary, t.finished = p.Summary, true
	return "session finished", nil
}
