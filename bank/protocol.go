package bank

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Error codes of action responses.
const (
	CodeMalformed          = "malformed_request"
	CodeNotFound           = "not_found"
	CodeExists             = "exists"
	CodeInvalidName        = "invalid_name"
	CodeInvalidGraph       = "invalid_graph"
	CodeInvalidEdit        = "invalid_edit"
	CodeTooManyEdits       = "too_many_edits"
	CodeUnknownInput       = "unknown_input"
	CodeEvaluationFailed   = "evaluation_failed"
	CodeNothingToUndo      = "nothing_to_undo"
	CodeStale              = "stale_revision"
	CodeReceiptTampered    = "receipt_tampered"
	CodeRegistryChanged    = "registry_changed"
	CodePredictionMismatch = "prediction_mismatch"
	CodeConstraintFailed   = "constraint_failed"
	CodeInternal           = "internal_error"
)

// Response is one action's answer: {"ok": true, "action", "result"} or
// {"ok": false, "action", "error": {"code", "message", "details"}}.
type Response struct {
	OK     bool         `json:"ok"`
	Action string       `json:"action,omitempty"`
	Result any          `json:"result,omitempty"`
	Error  *ActionError `json:"error,omitempty"`
}

// ActionError is a rejected or failed action.
type ActionError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Details any    `json:"details,omitempty"`
}

func (e *ActionError) Error() string { return e.Code + ": " + e.Message }

func reject(code, format string, args ...any) *ActionError {
	return &ActionError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// classify maps an error of the bank or store to an action error.
func classify(err error) *ActionError {
	var ae *ActionError
	var pe *PathError
	var le *LimitError
	var ee *EvalError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.Is(err, ErrStale):
		return reject(CodeStale, "%v", err)
	case errors.Is(err, ErrNotFound):
		return reject(CodeNotFound, "%v", err)
	case errors.Is(err, ErrExists):
		return reject(CodeExists, "%v", err)
	case errors.Is(err, ErrNothingToUndo):
		return reject(CodeNothingToUndo, "%v", err)
	case errors.As(err, &le):
		return reject(CodeTooManyEdits, "%v", err)
	case errors.As(err, &ee):
		return &ActionError{Code: CodeEvaluationFailed, Message: err.Error(), Details: map[string]string{"path": ee.Path, "op": ee.Op}}
	case errors.As(err, &pe):
		return reject(CodeInvalidGraph, "%v", err)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return reject(CodeInternal, "%v", err)
	}
	return reject(CodeInternal, "%v", err)
}

// Act decodes one protocol action and performs it. Malformed input is a
// response with code malformed_request, never a panic.
func (b *Bank) Act(ctx context.Context, raw []byte) Response {
	tree, err := parseJSON(raw)
	if err != nil {
		return fail("", reject(CodeMalformed, "invalid JSON: %v", err))
	}
	m, ok := tree.(map[string]any)
	if !ok {
		return fail("", reject(CodeMalformed, "want an action object, got %s", jsonType(tree)))
	}
	action, ok := m["action"].(string)
	if !ok {
		return fail("", reject(CodeMalformed, "missing or non-string field \"action\""))
	}
	h, ok := handlers[action]
	if !ok {
		return fail(action, reject(CodeMalformed, "unknown action %q (want one of %s)", action, strings.Join(actionNames(), ", ")))
	}
	if err := exactKeys("", m, append([]string{"action"}, h.required...), h.optional); err != nil {
		return fail(action, reject(CodeMalformed, "%v", err))
	}
	res, err := h.run(b, ctx, m)
	if err != nil {
		return fail(action, classify(err))
	}
	return Response{OK: true, Action: action, Result: res}
}

func fail(action string, e *ActionError) Response {
	return Response{OK: false, Action: action, Error: e}
}

// handler is one action of the protocol: the fields it requires and allows
// besides "action", and the operation that performs it.
type handler struct {
	required, optional []string
	run                func(b *Bank, ctx context.Context, m map[string]any) (any, error)
}

// handlers is the table of actions; each operation's decoding and work live
// in the action_*.go file of its group.
var handlers = map[string]handler{
	"observe":  {[]string{"workspace"}, []string{"revision"}, (*Bank).actObserve},
	"propose":  {[]string{"workspace"}, []string{"expected_revision", "updates", "graph_edits", "targets", "atol", "locked_outputs", "require_target_match"}, (*Bank).actPropose},
	"commit":   {[]string{"receipt"}, []string{"message"}, (*Bank).actCommit},
	"fork":     {[]string{"workspace", "name", "expected_revision"}, nil, (*Bank).actFork},
	"undo":     {[]string{"workspace", "expected_revision"}, nil, (*Bank).actUndo},
	"compare":  {[]string{"a", "b"}, nil, (*Bank).actCompare},
	"create":   {[]string{"workspace", "spec"}, []string{"message"}, (*Bank).actCreate},
	"checkout": {[]string{"workspace", "revision"}, []string{"expected_revision"}, (*Bank).actCheckout},
	"register": {[]string{"name"}, []string{"function", "program"}, (*Bank).actRegister},
	"list":     {nil, nil, (*Bank).actList},
	"log":      {[]string{"workspace"}, nil, (*Bank).actLog},
	"events":   {[]string{"workspace"}, nil, (*Bank).actEvents},
}

func actionNames() []string { return sortedKeys(handlers) }

// fields reads the string fields of an action and keeps the first error,
// so that an action reads every field it needs and checks once: the
// response names the first field in reading order that is missing or not a
// string, as it did when each read was checked on its own.
type fields struct {
	m   map[string]any
	err error
}

// str reads a required string field; after an error it reads nothing.
func (f *fields) str(k string) string {
	if f.err != nil {
		return ""
	}
	s, ok := f.m[k].(string)
	if !ok {
		f.err = reject(CodeMalformed, "field %q: want a string, got %s", k, jsonType(f.m[k]))
	}
	return s
}

// optStr reads a string field that may be absent ("" then).
func (f *fields) optStr(k string) string {
	if _, ok := f.m[k]; !ok {
		return ""
	}
	return f.str(k)
}

func malformed(err error) error {
	if err == nil {
		return nil
	}
	var le *LimitError
	if errors.As(err, &le) {
		return err
	}
	return reject(CodeMalformed, "%v", err)
}
