package judge

import (
	"encoding/json"
	"fmt"

	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

// Failure is one example a program got wrong: the input, the expected
// output, and either what the program returned or why it returned nothing.
type Failure struct {
	Input    json.RawMessage `json:"input"`
	Expected json.RawMessage `json:"expected"`
	Actual   json.RawMessage `json:"actual,omitempty"`
	Error    string          `json:"error,omitempty"`
}

// Verdict is a program's result on a set of examples.
type Verdict struct {
	Passed int
	Total  int
	// Failures are the failed examples in example order (nil when none).
	Failures []Failure
}

// NoOutcome is the error of an example the sandbox returned no outcome for.
const NoOutcome = "no outcome returned"

// Compare judges outcomes[i] against examples[i].Output: an example passes
// when its call returned a value equal to the expected output within atol
// (task.Equal). A call that did not return a value fails with its status and
// error; an example without an outcome fails as crashed.
func Compare(examples []task.Example, outcomes []sandbox.Outcome, atol float64) Verdict {
	v := Verdict{Total: len(examples)}
	for i, ex := range examples {
		o := sandbox.Outcome{Status: sandbox.StatusCrashed, Error: NoOutcome}
		if i < len(outcomes) {
			o = outcomes[i]
		}
		if o.OK() && task.Equal(o.Output, ex.Output, atol) {
			v.Passed++
			continue
		}
		f := Failure{Input: ex.Input, Expected: ex.Output}
		switch d := task.Depth(o.Output); {
		case o.OK() && d > task.MaxDepth:
			// Feedback is recorded: a value deeper than a record can
			// hold is described, not quoted.
			f.Error = fmt.Sprintf("the output is nested %d levels deep (not shown: more than %d)", d, task.MaxDepth)
		case o.OK():
			f.Actual = o.Output
		default:
			f.Error = string(o.Status)
			if o.Error != "" {
				f.Error += ": " + o.Error
			}
		}
		v.Failures = append(v.Failures, f)
	}
	return v
}
