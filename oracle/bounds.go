package oracle

import (
	"context"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/reconstruct/reconstruct/task"
)

// What a hidden program answers is recorded (in the journal, the bank,
// result.json) and shown; a task directory may come from anyone, so its
// answers are bounded like any untrusted output: nested at most so deep,
// at most so large, and UTF-8 (a program that is not Python prints bytes).
// An answer beyond a bound is a mistake of the task, reported with the
// bound's configuration key, never recorded.

// Bounds limit the outputs of a hidden program.
type Bounds struct {
	// MaxDepth is the deepest nesting of an output (task.oracle.max_output_depth).
	MaxDepth int
	// MaxBytes is the largest output, as JSON text (task.oracle.max_output_kb).
	MaxBytes int
}

// Configuration keys of the bounds, named in BoundError.
const (
	KeyMaxDepth = "task.oracle.max_output_depth"
	KeyMaxBytes = "task.oracle.max_output_kb"
	// KeyUTF8 names the rule that outputs are UTF-8 (not configurable).
	KeyUTF8 = "UTF-8 output"
)

// BoundError is an answer of the hidden program beyond a bound: a mistake
// of the task, not of the infrastructure.
type BoundError struct {
	// Index is the input's position in the query, from 1 (0: unknown).
	Index int
	Input json.RawMessage
	// Key is the bound's configuration key (KeyMaxDepth, KeyMaxBytes) or
	// KeyUTF8.
	Key    string
	Detail string
}

func (e *BoundError) Error() string {
	where := "an input"
	if e.Index > 0 {
		where = fmt.Sprintf("input %d", e.Index)
	}
	if len(e.Input) > 0 {
		where += " (" + clip(e.Input, 200) + ")"
	}
	return fmt.Sprintf("%s: the hidden program's answer to %s %s", e.Key, where, e.Detail)
}

// Bounded returns o with every answer checked against b.
func Bounded(o Oracle, b Bounds) Oracle { return bounded{o, b} }

type bounded struct {
	Oracle
	b Bounds
}

func (o bounded) Query(ctx context.Context, inputs []json.RawMessage) ([]Answer, error) {
	answers, err := o.Oracle.Query(ctx, inputs)
	if err != nil {
		return nil, err
	}
	for i, a := range answers {
		if a.Invalid != "" {
			continue
		}
		if err := o.b.Check(a.Output); err != nil {
			err.Index = i + 1
			if i < len(inputs) {
				err.Input = inputs[i]
			}
			return nil, err
		}
	}
	return answers, nil
}

// Check checks one output against the bounds (a zero bound is none).
func (b Bounds) Check(out json.RawMessage) *BoundError {
	switch {
	case !utf8.Valid(out):
		return &BoundError{Key: KeyUTF8, Detail: "is not UTF-8 text"}
	case b.MaxBytes > 0 && len(out) > b.MaxBytes:
		return &BoundError{Key: KeyMaxBytes, Detail: fmt.Sprintf("is %d bytes of JSON, more than %d (%d KB)", len(out), b.MaxBytes, b.MaxBytes>>10)}
	}
	if d := task.Depth(out); b.MaxDepth > 0 && d > b.MaxDepth {
		return &BoundError{Key: KeyMaxDepth, Detail: fmt.Sprintf("is nested %d levels deep, more than %d", d, b.MaxDepth)}
	}
	return nil
}
