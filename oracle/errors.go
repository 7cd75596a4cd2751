package oracle

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrNondeterministic marks a hidden program that answered the same input
// differently twice: its examples cannot be trusted.
var ErrNondeterministic = errors.New("the hidden program is not deterministic")

// Ways a hidden program can fail to answer (FailureError.Kind).
const (
	FailTimeout = "timeout"
	FailCrash   = "crash"
	FailMemory  = "memory"
)

// FailureError is a hidden program that did not answer an input: it ran
// past its time limit, crashed, or ran out of memory, and did so again when
// asked once more. It is an infrastructure failure of the task, never a
// rejected input.
type FailureError struct {
	// Index is the input's position in the query, from 1.
	Index int
	Input json.RawMessage
	// Kind is FailTimeout, FailCrash or FailMemory.
	Kind string
	// Limit names the bound that was hit ("10s per input, task.oracle.timeout").
	Limit string
	// Detail is what the sandbox or the process reported.
	Detail string
}

func (e *FailureError) Error() string {
	what := map[string]string{
		FailTimeout: "did not answer in time",
		FailCrash:   "crashed",
		FailMemory:  "ran out of memory",
	}[e.Kind]
	if what == "" {
		what = "failed"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the hidden program %s on input %d (%s)", what, e.Index, clip(e.Input, 200))
	if e.Limit != "" {
		fmt.Fprintf(&b, ", limit %s", e.Limit)
	}
	if e.Detail != "" {
		fmt.Fprintf(&b, ": %s", e.Detail)
	}
	b.WriteString(" (twice); a task's hidden program must answer every valid input and reject the others by raising or exiting with an error")
	return b.String()
}

// clip shortens a JSON text for a message.
func clip(raw json.RawMessage, n int) string {
	s := string(raw)
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// ErrTask marks an error of the task itself, a mistake of its author to be
// fixed in its files: a hidden program that cannot be loaded, raises an
// exception that rejects no input, or returns what JSON cannot hold; a
// generator that raises or returns something else than a list of inputs.
// It is neither a rejected input nor a failure of the infrastructure.
var ErrTask = errors.New("error of the task")

// DefaultRejects are the exceptions by which a hidden Python program
// rejects an input; a task declares others in task.oracle.reject_exceptions.
var DefaultRejects = []string{"ValueError", "TypeError", "IndexError", "KeyError", "AssertionError"}

// TaskError is an error of the task (ErrTask): what its program did, and
// how to fix it.
type TaskError struct {
	// Program names the file (or factory) at fault and Key the setting
	// naming it (task.oracle.python, task.random_inputs.python).
	Program, Key string
	// Index is the input's position in the query, from 1 (0: none).
	Index int
	Input json.RawMessage
	// What the program did; Detail, when set, its traceback; Fix what to
	// do about it.
	What, Detail, Fix string
}

func (e *TaskError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s) %s", e.Program, e.Key, e.What)
	if e.Index > 0 {
		fmt.Fprintf(&b, " on input %d (%s)", e.Index, clip(e.Input, 200))
	} else if len(e.Input) > 0 {
		fmt.Fprintf(&b, " on input %s", clip(e.Input, 200))
	}
	if e.Detail == "" {
		if e.Fix != "" {
			b.WriteString(": " + e.Fix)
		}
		return b.String()
	}
	b.WriteString(":")
	for _, line := range strings.Split(strings.TrimRight(e.Detail, "\n"), "\n") {
		b.WriteString("\n    " + line)
	}
	if e.Fix != "" {
		b.WriteString("\n" + e.Fix)
	}
	return b.String()
}

// Is makes errors.Is(err, ErrTask) hold.
func (e *TaskError) Is(target error) bool { return target == ErrTask }
