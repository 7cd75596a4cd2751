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
