package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/reconstruct/reconstruct/task"
)

const proposeInputsToolName = "propose_inputs"

const proposeInputsDescription = `Submit the next inputs to query the hidden program with: exactly the requested number, ` +
	`each a JSON value of the task's input type, all distinct and different from every observed input.`

type proposeInputsParams struct {
	Inputs []json.RawMessage `json:"inputs" description:"the proposed inputs, each a JSON value of the task's input type"`
}

// proposeInputsTool receives a proposal. Its schema asks for exactly k
// inputs shaped like the task's kind; what the model sends is kept as is
// (the workflow validates count, repeats and domain).
type proposeInputsTool struct {
	k      int
	kind   task.Kind
	domain *task.Domain
	// inputs is the accepted proposal.
	inputs []json.RawMessage
}

func newProposeInputsTool(k int, kind task.Kind, domain *task.Domain) *proposeInputsTool {
	return &proposeInputsTool{k: k, kind: kind, domain: domain}
}

func (t *proposeInputsTool) Name() string        { return proposeInputsToolName }
func (t *proposeInputsTool) Description() string { return proposeInputsDescription }

func (t *proposeInputsTool) Schema() map[string]any {
	s := schemaOf(proposeInputsParams{})
	in := s["properties"].(map[string]any)["inputs"].(map[string]any)
	in["minItems"], in["maxItems"] = t.k, t.k
	in["items"] = itemSchema(t.kind, t.domain)
	in["description"] = fmt.Sprintf("exactly %d inputs, each a JSON value of the task's input type", t.k)
	return s
}

func (t *proposeInputsTool) Run(_ context.Context, args json.RawMessage) (string, error) {
	var p proposeInputsParams
	if err := decodeArgs(args, &p, t.Schema()); err != nil {
		return "", err
	}
	if p.Inputs == nil {
		return "", fmt.Errorf("inputs must be a JSON array of %d values", t.k)
	}
	t.inputs = normalizeInputs(p.Inputs, t.kind)
	return fmt.Sprintf("received %d inputs", len(t.inputs)), nil
}

// itemSchema is the JSON schema of one input of a kind, with the domain's
// bounds on every number.
func itemSchema(kind task.Kind, d *task.Domain) map[string]any {
	num := func(typ string) map[string]any {
		s := map[string]any{"type": typ}
		if d != nil {
			s["minimum"], s["maximum"] = d.Lo, d.Hi
		}
		return s
	}
	arr := func(items map[string]any, n int) map[string]any {
		s := map[string]any{"type": "array", "items": items}
		if n > 0 {
			s["minItems"], s["maxItems"] = n, n
		}
		return s
	}
	switch kind {
	case task.KindList:
		return arr(num("number"), 0)
	case task.KindTwoLists:
		return arr(arr(num("number"), 0), 2)
	case task.KindInt:
		return num("integer")
	case task.KindPair:
		return arr(num("number"), 2)
	case task.KindString:
		return map[string]any{"type": "string"}
	case task.KindPoints:
		return arr(arr(num("integer"), 2), 0)
	}
	return map[string]any{}
}

// normalizeInputs compacts each input and, for kinds whose inputs are not
// strings, unwraps inputs the model sent as JSON text inside a string.
func normalizeInputs(in []json.RawMessage, kind task.Kind) []json.RawMessage {
	out := make([]json.RawMessage, 0, len(in))
	for _, raw := range in {
		if kind != task.KindString && kind != task.KindOther {
			var s string
			if json.Unmarshal(raw, &s) == nil && json.Valid([]byte(s)) {
				raw = json.RawMessage(s)
			}
		}
		var buf bytes.Buffer
		if json.Compact(&buf, raw) == nil {
			raw = buf.Bytes()
		}
		out = append(out, raw)
	}
	return out
}
