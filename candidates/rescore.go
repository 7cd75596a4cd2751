package candidates

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/reconstruct/reconstruct/judge"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

// Evaluator runs and analyses programs in a sandbox.
type Evaluator interface {
	Call(ctx context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error)
	Analyse(ctx context.Context, req sandbox.AnalyseRequest) (sandbox.Analysis, error)
}

// Rescored is an archived candidate scored again on another example set.
type Rescored struct {
	Record     Record  `json:"record"`
	Passed     int     `json:"passed"`
	Total      int     `json:"total"`
	Accuracy   float64 `json:"accuracy"`
	Score      float64 `json:"score"`
	Complexity float64 `json:"complexity"`
	Hardcoding float64 `json:"hardcoding"`
}

// Rescore runs every record's program on examples: accuracy, and the stage
// score with the hard-coding penalty measured against observed, the
// examples the run observed (the stage score's definition: a literal of the
// program that is one of the held-out tests' values was not hard-coded, as
// the program never saw them); nil observed means examples.
func Rescore(ctx context.Context, a *Archive, recs []Record, ev Evaluator, function string, examples, observed []task.Example, limits sandbox.Limits, atol float64) ([]Rescored, error) {
	if observed == nil {
		observed = examples
	}
	inputs := make([]json.RawMessage, len(examples))
	for i, e := range examples {
		inputs[i] = e.Input
	}
	seenIn := make([]json.RawMessage, len(observed))
	seenOut := make([]json.RawMessage, len(observed))
	for i, e := range observed {
		seenIn[i], seenOut[i] = e.Input, e.Output
	}
	out := make([]Rescored, 0, len(recs))
	cache := map[string]Rescored{}
	for _, rec := range recs {
		if r, ok := cache[rec.SHA256]; ok {
			r.Record = rec
			out = append(out, r)
			continue
		}
		src, err := a.Source(rec)
		if err != nil {
			return nil, err
		}
		an, err := ev.Analyse(ctx, sandbox.AnalyseRequest{Source: string(src), FunctionName: function, Inputs: seenIn, Outputs: seenOut})
		if err != nil {
			return nil, fmt.Errorf("analyse %s: %w", rec.File, err)
		}
		r := Rescored{Record: rec, Total: len(examples), Complexity: an.Complexity, Hardcoding: an.Hardcoding}
		if len(inputs) > 0 {
			outs, err := ev.Call(ctx, sandbox.CallRequest{Program: sandbox.Program{Source: string(src), Function: function}, Inputs: inputs, Limits: limits})
			if err != nil {
				return nil, fmt.Errorf("run %s: %w", rec.File, err)
			}
			r.Passed = judge.Compare(examples, outs, atol).Passed
			r.Accuracy = float64(r.Passed) / float64(r.Total)
		}
		r.Score = task.StageScore(r.Accuracy, r.Complexity, r.Hardcoding)
		cache[rec.SHA256] = r
		out = append(out, r)
	}
	return out, nil
}
