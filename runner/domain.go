package runner

import (
	"encoding/json"

	"github.com/reconstruct/reconstruct/agent/synth/inputs"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// taskDomain knows from a task's description when its inputs are few: the
// integers of an int task's domain, or what its input_constraints bound
// in every part (a list of 0 to 3 bits). The workflow then takes the last
// of them without a proposal and ends the run exhausted once every one is
// observed.
type taskDomain struct{ t task.Task }

var _ workflow.Domain = taskDomain{}

// Inputs lists the task's inputs when its description says they are at
// most max; see workflow.Domain.
func (d taskDomain) Inputs(max int) ([]json.RawMessage, string, bool) {
	if ins, ok := task.FiniteInputs(d.t.Kind, d.t.Domain, max); ok {
		return ins, "task.domain", true
	}
	return inputs.FiniteInputs(d.t, max)
}
