package workflow

import (
	"encoding/json"

	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

// StageScore is max(0, accuracy − 0.1·complexity − 0.1·hardcoding).
func StageScore(accuracy, complexity, hardcoding float64) float64 {
	return task.StageScore(accuracy, complexity, hardcoding)
}

// MemorisedThreshold is how many distinct embedded observed inputs make a
// candidate memorised.
const MemorisedThreshold = 3

// ComplexityGateThreshold is the complexity penalty from which a pass does
// not count as a promotion under the complexity gate.
const ComplexityGateThreshold = 0.8

// Evaluation is a candidate's result on an example set.
type Evaluation struct {
	Passed   int
	Total    int
	Failures []Failure
	Analysis sandbox.Analysis
}

// Failure is one failed example with the reason.
type Failure struct {
	Index    int
	Input    json.RawMessage
	Expected json.RawMessage
	Actual   json.RawMessage
	Error    string
}

// Accuracy is Passed/Total (1 for an empty set).
func (e Evaluation) Accuracy() float64 {
	if e.Total == 0 {
		return 1
	}
	return float64(e.Passed) / float64(e.Total)
}

// Score is the stage score of the evaluation.
func (e Evaluation) Score() float64 {
	return StageScore(e.Accuracy(), e.Analysis.Complexity, e.Analysis.Hardcoding)
}

// FullPass reports whether every example passed.
func (e Evaluation) FullPass() bool { return e.Passed == e.Total }

// judge compares outcomes with the expected outputs.
func judge(examples []task.Example, outcomes []sandbox.Outcome, atol float64) (int, []Failure) {
	passed := 0
	var fails []Failure
	for i, ex := range examples {
		var o sandbox.Outcome
		if i < len(outcomes) {
			o = outcomes[i]
		} else {
			o = sandbox.Outcome{Status: sandbox.StatusCrashed, Error: "no outcome returned"}
		}
		if o.OK() && task.Equal(o.Output, ex.Output, atol) {
			passed++
			continue
		}
		f := Failure{Index: i, Input: ex.Input, Expected: ex.Output}
		if o.OK() {
			f.Actual = o.Output
		} else {
			f.Error = string(o.Status)
			if o.Error != "" {
				f.Error += ": " + o.Error
			}
		}
		fails = append(fails, f)
	}
	return passed, fails
}
