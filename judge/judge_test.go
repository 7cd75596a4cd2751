package judge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

func ex(in, out string) task.Example {
	return task.Example{Input: json.RawMessage(in), Output: json.RawMessage(out)}
}

func ok(out string) sandbox.Outcome {
	return sandbox.Outcome{Status: sandbox.StatusOK, Output: json.RawMessage(out)}
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name     string
		examples []task.Example
		outcomes []sandbox.Outcome
		atol     float64
		want     Verdict
	}{
		{
			name: "no examples",
			want: Verdict{},
		},
		{
			name:     "all equal, floats within atol",
			examples: []task.Example{ex(`1`, `2`), ex(`[1]`, `0.5`)},
			outcomes: []sandbox.Outcome{ok(`2`), ok(`0.5000000001`)},
			atol:     1e-9,
			want:     Verdict{Passed: 2, Total: 2},
		},
		{
			name:     "float outside atol is a wrong value",
			examples: []task.Example{ex(`1`, `0.5`)},
			outcomes: []sandbox.Outcome{ok(`0.51`)},
			atol:     1e-9,
			want: Verdict{Total: 1, Failures: []Failure{
				{Input: json.RawMessage(`1`), Expected: json.RawMessage(`0.5`), Actual: json.RawMessage(`0.51`)},
			}},
		},
		{
			name:     "failed calls carry status and error",
			examples: []task.Example{ex(`1`, `1`), ex(`2`, `2`), ex(`3`, `3`)},
			outcomes: []sandbox.Outcome{
				{Status: sandbox.StatusError, Error: "ZeroDivisionError: division by zero"},
				{Status: sandbox.StatusTimeout},
				ok(`3`),
			},
			want: Verdict{Passed: 1, Total: 3, Failures: []Failure{
				{Input: json.RawMessage(`1`), Expected: json.RawMessage(`1`), Error: "error: ZeroDivisionError: division by zero"},
				{Input: json.RawMessage(`2`), Expected: json.RawMessage(`2`), Error: "timeout"},
			}},
		},
		{
			name:     "missing outcomes fail as crashed",
			examples: []task.Example{ex(`1`, `1`), ex(`2`, `2`)},
			outcomes: []sandbox.Outcome{ok(`1`)},
			want: Verdict{Passed: 1, Total: 2, Failures: []Failure{
				{Input: json.RawMessage(`2`), Expected: json.RawMessage(`2`), Error: "crashed: " + NoOutcome},
			}},
		},
		{
			name:     "more outcomes than examples",
			examples: []task.Example{ex(`1`, `1`)},
			outcomes: []sandbox.Outcome{ok(`1`), ok(`9`)},
			want:     Verdict{Passed: 1, Total: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compare(tt.examples, tt.outcomes, tt.atol)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Compare() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFailureJSON(t *testing.T) {
	tests := []struct {
		name string
		f    Failure
		want string
	}{
		{"wrong value", Failure{Input: json.RawMessage(`1`), Expected: json.RawMessage(`2`), Actual: json.RawMessage(`3`)}, `{"input":1,"expected":2,"actual":3}`},
		{"failed call", Failure{Input: json.RawMessage(`1`), Expected: json.RawMessage(`2`), Error: "timeout"}, `{"input":1,"expected":2,"error":"timeout"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.f)
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// A candidate's output deeper than a record can hold is described in its
// failure, not quoted (feedback is recorded in the journal and the bank).
func TestDeepOutputIsDescribed(t *testing.T) {
	deep := strings.Repeat("[", 300) + strings.Repeat("]", 300)
	v := Compare([]task.Example{{Input: json.RawMessage(`1`), Output: json.RawMessage(`2`)}},
		[]sandbox.Outcome{{Status: sandbox.StatusOK, Output: json.RawMessage(deep)}}, 0)
	if v.Passed != 0 || len(v.Failures) != 1 {
		t.Fatalf("verdict %+v", v)
	}
	if f := v.Failures[0]; f.Actual != nil || !strings.Contains(f.Error, "nested 300 levels deep") {
		t.Errorf("failure %+v, want the depth described and no value", f)
	}
}
