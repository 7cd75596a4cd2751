package sandbox

import (
	"context"
	"encoding/json"
	"errors"
)

// LostError is a backend's report that the harness it sent a request to was
// lost during the request: the harness exited (a call killed it, the
// container ran out of memory), missed its safety deadline, or was
// abandoned by another request. The backend has put that harness aside;
// its next attempt starts a fresh one.
type LostError struct {
	// Reason says how the harness was lost ("harness exited: exit code 137,
	// out of memory").
	Reason string
	// Err is the error of the request.
	Err error
}

func (e *LostError) Error() string { return "harness lost: " + e.Reason }
func (e *LostError) Unwrap() error { return e.Err }

// lost returns err's LostError when the request lost its harness while ctx
// was still live (a cancelled request is the caller's doing, not the
// harness's end).
func lost(ctx context.Context, err error) *LostError {
	var le *LostError
	if err == nil || ctx.Err() != nil || !errors.As(err, &le) {
		return nil
	}
	return le
}

// Attempt is one try of a request on a backend's current harness: it runs
// f with the harness's client and reports a harness lost during f as a
// *LostError, having put it aside so that the next try gets a fresh one.
// what names the request in its errors ("call hidden.py:solve").
type Attempt func(ctx context.Context, what string, f func(*Client) error) error

// retryLost runs attempt, and once more when it lost its harness: a harness
// that died between requests, or was abandoned by another request, is no
// fault of this one. A harness that missed its deadline on this request
// (ErrDeadline) is not tried again: the request would likely hang another.
func retryLost(ctx context.Context, attempt func() error) error {
	err := attempt()
	if le := lost(ctx, err); le == nil || errors.Is(le, ErrDeadline) {
		return err
	}
	return attempt()
}

// AnalyseRetrying runs an analyse request through attempt, on a fresh
// harness once more if the first was lost. An analysis has no input to
// blame: a harness lost twice is an error.
func AnalyseRetrying(ctx context.Context, req AnalyseRequest, attempt Attempt) (Analysis, error) {
	return retrying(ctx, attempt, "analyse "+req.FunctionName, func(c *Client) (Analysis, error) {
		return c.Analyse(ctx, req)
	})
}

// GenerateRetrying runs a generate request through attempt, on a fresh
// harness once more if the first was lost; a generator that loses it twice
// is an error.
func GenerateRetrying(ctx context.Context, req GenerateRequest, attempt Attempt) ([]json.RawMessage, error) {
	return retrying(ctx, attempt, "generate with "+req.Program.Name(), func(c *Client) ([]json.RawMessage, error) {
		return c.Generate(ctx, req)
	})
}

// retrying runs request through attempt, once more if the first attempt
// lost its harness, and returns what the last attempt's request returned.
func retrying[T any](ctx context.Context, attempt Attempt, what string, request func(*Client) (T, error)) (T, error) {
	var out T
	err := retryLost(ctx, func() error {
		return attempt(ctx, what, func(c *Client) error {
			var err error
			out, err = request(c)
			return err
		})
	})
	return out, err
}

// crashedByHarness is the Error of an outcome whose call lost the harness.
func crashedByHarness(reason string) string {
	return "the call killed the sandbox's harness (" + reason + "); a fresh one replaced it"
}

// CallIsolating runs a call through attempt so that a lost harness is the
// outcome of the input that lost it, never an error of the whole request:
// the request gets a second try on a fresh harness; if that is lost too,
// the inputs are split in halves, each run on a fresh harness, down to the
// input whose call loses it, which gets StatusCrashed. Every other input
// keeps its own outcome. Errors other than a lost harness, and
// cancellation, are returned as they are.
func CallIsolating(ctx context.Context, req CallRequest, attempt Attempt) ([]Outcome, error) {
	what := "call " + req.Program.Name()
	return callIsolating(ctx, req, func(ctx context.Context, req CallRequest) ([]Outcome, error) {
		var out []Outcome
		err := attempt(ctx, what, func(c *Client) error {
			var err error
			out, err = c.Call(ctx, req)
			return err
		})
		return out, err
	})
}

// callIsolating is CallIsolating over one try of a call.
func callIsolating(ctx context.Context, req CallRequest, call func(context.Context, CallRequest) ([]Outcome, error)) ([]Outcome, error) {
	var out []Outcome
	err := retryLost(ctx, func() error {
		var err error
		out, err = call(ctx, req)
		return err
	})
	if le := lost(ctx, err); le != nil {
		return bisect(ctx, req, call, le)
	}
	return out, err
}

// bisect runs req's inputs again after le lost the harness on all of them.
func bisect(ctx context.Context, req CallRequest, call func(context.Context, CallRequest) ([]Outcome, error), le *LostError) ([]Outcome, error) {
	if len(req.Inputs) <= 1 {
		out := make([]Outcome, len(req.Inputs))
		for i := range out {
			out[i] = Outcome{Status: StatusCrashed, Error: crashedByHarness(le.Reason)}
		}
		return out, nil
	}
	mid := len(req.Inputs) / 2
	out := make([]Outcome, 0, len(req.Inputs))
	for _, inputs := range [][]json.RawMessage{req.Inputs[:mid], req.Inputs[mid:]} {
		part := req
		part.Inputs = inputs
		o, err := call(ctx, part)
		if le := lost(ctx, err); le != nil {
			o, err = bisect(ctx, part, call, le)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, o...)
	}
	return out, nil
}
