package bank_test

import (
	"encoding/json"
	"testing"

	"github.com/reconstruct/reconstruct/bank"
)

// TestAppendJSON: responses built by hand, with what the actions of the
// other tests rarely produce (nil collections, strings that need escaping,
// targets, errors with feedback as details), encode as encoding/json
// encodes them (encodeResponse fails otherwise).
func TestAppendJSON(t *testing.T) {
	odd := "quote\" back\\ <html>&amp; \u2028\u2029 ctl\x01\x1f tab\t nl\n bad\xff\xfe é 日本"
	one, step, keep := bank.Index(1), 3, true
	small := bank.Text(odd)
	score := 0.5
	fb := &bank.Feedback{
		Workspace: odd, BaseRevision: "r000001", Registry: "sha256:ab", Accepted: true,
		Outputs: map[string]bank.Value{"b": one, "a": small, odd: bank.Scalar(1.5)},
		Targets: map[string]bank.TargetResult{"a": {Before: bank.Residual{Output: "a", Status: "match", Match: true, Score: &score, WantKind: bank.KindText}}},
		Differences: bank.Differences{
			Outputs:       []bank.ValueDiff{{Name: "a", Before: "sha256:1", After: "sha256:2", Kind: bank.KindText}, {Name: odd}},
			Intermediates: nil,
		},
		Trace: []bank.TraceEntry{
			{Path: "root/a", Op: "number.add", Kind: bank.KindIndex, Result: "sha256:3", Value: &one},
			{Path: "root/f/item_0", Op: "keep", Kind: bank.KindFlag, Keep: &keep, Step: &step},
			{Path: "root/c", Branch: "then"},
			{Path: odd, Op: "x", Error: odd},
		},
		Calls:       7,
		Protected:   []bank.ProtectedCheck{{Output: "a", OK: false, Reason: odd}},
		Constraints: nil,
		Receipt:     bank.Receipt{ProposalID: "sha256:4", Payload: json.RawMessage(`{"a":[1,2,{"b":null}],"c":"<&>"}`), Signature: "hmac-sha256:5"},
	}
	obs := &bank.Observation{Workspace: "w", Revision: "r000002", Registry: "sha256:6",
		Inputs: map[string]bank.Value{"x": bank.PointValue(1, 2)}, Graph: json.RawMessage(`{"nodes":[],"outputs":{}}`),
		Outputs: map[string]bank.Value{}, Dependencies: map[string][]string{"o": {"n1", "x"}, "p": nil},
		Trace: []bank.TraceEntry{}, Calls: 0, Error: odd}
	for _, tc := range []struct {
		name string
		resp bank.Response
	}{
		{"feedback", bank.Response{OK: true, Action: "propose", Result: fb}},
		{"empty feedback", bank.Response{OK: true, Action: "propose", Result: &bank.Feedback{}}},
		{"nil feedback", bank.Response{OK: true, Action: "propose", Result: (*bank.Feedback)(nil)}},
		{"rejected with feedback", bank.Response{Action: "propose", Error: &bank.ActionError{Code: bank.CodeConstraintFailed, Message: odd, Details: fb}}},
		{"observation", bank.Response{OK: true, Action: "observe", Result: obs}},
		{"empty observation", bank.Response{OK: true, Action: "observe", Result: &bank.Observation{}}},
		{"other result", bank.Response{OK: true, Action: "list", Result: map[string]any{"z": []int{1}, "a": odd}}},
		{"error details", bank.Response{Action: odd, Error: &bank.ActionError{Code: "c", Message: "m", Details: map[string]any{"trace": fb.Trace}}}},
		{"bare", bank.Response{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			encodeResponse(t, tc.resp)
		})
	}
}

// TestAppendJSONFails: what encoding/json refuses (a zero Value, an empty
// payload) does not encode.
func TestAppendJSONFails(t *testing.T) {
	for _, resp := range []bank.Response{
		{OK: true, Result: &bank.Feedback{Outputs: map[string]bank.Value{"a": {}}}},
		{OK: true, Result: &bank.Observation{Trace: []bank.TraceEntry{{Path: "p", Value: &bank.Value{}}}}},
		{OK: true, Result: &bank.Feedback{Receipt: bank.Receipt{Payload: json.RawMessage{}}}},
	} {
		if _, err := resp.AppendJSON(nil); err == nil {
			t.Errorf("%+v: no error", resp.Result)
		}
		if _, err := json.Marshal(resp); err == nil {
			t.Errorf("%+v: encoding/json gives no error either", resp.Result)
		}
	}
}
