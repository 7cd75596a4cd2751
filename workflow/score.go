package workflow

import (
	"github.com/reconstruct/reconstruct/judge"
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
	Failures []judge.Failure
	Analysis sandbox.Analysis
	// Disagreements counts the examples the task's evaluate hook judged
	// otherwise than the candidate's own evaluation.
	Disagreements int
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

// judged is the evaluation as the iteration's record reports it.
func (e Evaluation) judged() Judged {
	return Judged{Known: e.Total, Passed: e.Passed, Score: e.Score(),
		Complexity: e.Analysis.Complexity, Hardcoding: e.Analysis.Hardcoding, Disagreements: e.Disagreements}
}
