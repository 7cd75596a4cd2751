package benchmarks

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/reconstruct/reconstruct/judge"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

// Test is one held-out test.
type Test struct {
	Input  json.RawMessage `json:"input"`
	Output json.RawMessage `json:"output"`
}

// ReadTests reads a held-out file: one {"input", "output"} object per line.
// Errors name the file and the line.
func ReadTests(path string) ([]Test, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read held-out tests: %w", err)
	}
	return ParseTests(path, data)
}

// ParseTests parses held-out tests read from the file named path (a sweep
// on a cluster carries them in the bank, not as files).
func ParseTests(path string, data []byte) ([]Test, error) {
	var tests []Test
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(line, &raw); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		in, okIn := raw["input"]
		out, okOut := raw["output"]
		if !okIn || !okOut {
			return nil, fmt.Errorf("%s:%d: want an object with \"input\" and \"output\"", path, n)
		}
		tests = append(tests, Test{Input: in, Output: out})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(tests) == 0 {
		return nil, fmt.Errorf("%s: no tests", path)
	}
	return tests, nil
}

// Caller runs a program in a sandbox.
type Caller interface {
	Call(ctx context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error)
}

// Score is a program's result on held-out tests.
type Score struct {
	Accuracy float64         `json:"accuracy"`
	Passed   int             `json:"passed"`
	Total    int             `json:"total"`
	Failures []judge.Failure `json:"failures"`
}

// ScoreProgram runs source's function on every test in the sandbox.
func ScoreProgram(ctx context.Context, box Caller, source, function string, tests []Test, limits sandbox.Limits, atol float64) (Score, error) {
	inputs := make([]json.RawMessage, len(tests))
	examples := make([]task.Example, len(tests))
	for i, t := range tests {
		inputs[i] = t.Input
		examples[i] = task.Example{Input: t.Input, Output: t.Output}
	}
	outs, err := box.Call(ctx, sandbox.CallRequest{Program: sandbox.Program{Source: source, Function: function}, Inputs: inputs, Limits: limits})
	if err != nil {
		return Score{}, fmt.Errorf("run program on held-out tests: %w", err)
	}
	v := judge.Compare(examples, outs, atol)
	sc := Score{Passed: v.Passed, Total: v.Total, Failures: v.Failures}
	if sc.Failures == nil {
		sc.Failures = []judge.Failure{} // "failures": [] in reports, never null
	}
	if sc.Total > 0 {
		sc.Accuracy = float64(sc.Passed) / float64(sc.Total)
	}
	return sc, nil
}
