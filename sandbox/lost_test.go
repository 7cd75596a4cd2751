package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// scriptedHarness stands for a backend's harness: an attempt at a call
// loses the harness when one of its inputs is "kill" (or, the first
// diesOnce attempts, whatever they run), and hangs it past its deadline on
// "hang"; other inputs return themselves.
type scriptedHarness struct {
	diesOnce int
	fail     error // returned by every attempt when set
	attempts [][]string
}

func (h *scriptedHarness) attempt(ctx context.Context, req CallRequest) ([]Outcome, error) {
	var ins []string
	for _, in := range req.Inputs {
		var s string
		_ = json.Unmarshal(in, &s)
		ins = append(ins, s)
	}
	h.attempts = append(h.attempts, ins)
	if h.fail != nil {
		return nil, h.fail
	}
	if h.diesOnce > 0 {
		h.diesOnce--
		return nil, fmt.Errorf("call: %w", &LostError{Reason: "killed from outside", Err: ErrHarnessExited})
	}
	out := make([]Outcome, len(ins))
	for i, s := range ins {
		switch s {
		case "kill":
			return nil, fmt.Errorf("call: %w", &LostError{Reason: "harness exited: exit code 137", Err: ErrHarnessExited})
		case "hang":
			return nil, fmt.Errorf("call: %w", &LostError{Reason: "missed its deadline", Err: fmt.Errorf("%w: %w", ErrClientBroken, ErrDeadline)})
		}
		out[i] = Outcome{Status: StatusOK, Output: json.RawMessage(`"` + s + `"`)}
	}
	return out, nil
}

func request(inputs ...string) CallRequest {
	req := CallRequest{Program: Program{Source: "def f(x): return x", Function: "f"}}
	for _, in := range inputs {
		req.Inputs = append(req.Inputs, json.RawMessage(`"`+in+`"`))
	}
	return req
}

// brief is each outcome as "ok <output>" or "<status>: <error>".
func brief(out []Outcome) []string {
	var s []string
	for _, o := range out {
		if o.OK() {
			s = append(s, "ok "+string(o.Output))
		} else {
			s = append(s, string(o.Status)+": "+o.Error)
		}
	}
	return s
}

func TestCallIsolating(t *testing.T) {
	killed := "crashed: " + crashedByHarness("harness exited: exit code 137")
	tests := []struct {
		name     string
		harness  scriptedHarness
		inputs   []string
		want     []string
		attempts [][]string
		wantErr  string
	}{
		{
			name:     "healthy harness: one attempt",
			inputs:   []string{"a", "b"},
			want:     []string{`ok "a"`, `ok "b"`},
			attempts: [][]string{{"a", "b"}},
		},
		{
			name:     "a harness lost from outside: the request runs again",
			harness:  scriptedHarness{diesOnce: 1},
			inputs:   []string{"a", "b"},
			want:     []string{`ok "a"`, `ok "b"`},
			attempts: [][]string{{"a", "b"}, {"a", "b"}},
		},
		{
			name:     "one input kills the harness: it crashes, the others run in halves",
			inputs:   []string{"a", "kill", "c", "d"},
			want:     []string{`ok "a"`, killed, `ok "c"`, `ok "d"`},
			attempts: [][]string{{"a", "kill", "c", "d"}, {"a", "kill", "c", "d"}, {"a", "kill"}, {"a"}, {"kill"}, {"c", "d"}},
		},
		{
			name:     "a single input that kills the harness crashes after one more try",
			inputs:   []string{"kill"},
			want:     []string{killed},
			attempts: [][]string{{"kill"}, {"kill"}},
		},
		{
			name:     "every input kills the harness",
			inputs:   []string{"kill", "kill", "kill"},
			want:     []string{killed, killed, killed},
			attempts: [][]string{{"kill", "kill", "kill"}, {"kill", "kill", "kill"}, {"kill"}, {"kill", "kill"}, {"kill"}, {"kill"}},
		},
		{
			name:     "a harness that misses its deadline is not tried again",
			inputs:   []string{"hang"},
			want:     []string{"crashed: " + crashedByHarness("missed its deadline")},
			attempts: [][]string{{"hang"}},
		},
		{
			name:     "an error of the sandbox is returned as it is",
			harness:  scriptedHarness{fail: errors.New("start harness: no python")},
			inputs:   []string{"a"},
			attempts: [][]string{{"a"}},
			wantErr:  "start harness: no python",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.harness
			out, err := callIsolating(context.Background(), request(tt.inputs...), h.attempt)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("got error %v, want %q", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatalf("CallIsolating: %v", err)
			}
			if diff := cmp.Diff(tt.want, brief(out)); diff != "" {
				t.Errorf("outcomes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.attempts, h.attempts); diff != "" {
				t.Errorf("attempts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCallIsolatingCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := callIsolating(ctx, request("a", "b"), func(ctx context.Context, req CallRequest) ([]Outcome, error) {
		n++
		cancel()
		return nil, &LostError{Reason: "abandoned", Err: fmt.Errorf("%w: %w", ErrClientBroken, context.Canceled)}
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want the cancellation", err)
	}
	if n != 1 {
		t.Errorf("%d attempts after the cancellation, want 1", n)
	}
}

func TestRetryLost(t *testing.T) {
	lostErr := &LostError{Reason: "harness exited", Err: ErrHarnessExited}
	deadline := &LostError{Reason: "missed its deadline", Err: ErrDeadline}
	remote := &RemoteError{Op: "generate", Message: "ValueError: k"}
	tests := []struct {
		name     string
		errs     []error // the attempts' errors in turn
		attempts int
		want     error
	}{
		{"success", []error{nil}, 1, nil},
		{"lost, then success", []error{lostErr, nil}, 2, nil},
		{"lost twice", []error{lostErr, lostErr, nil}, 2, lostErr},
		{"deadline", []error{deadline, nil}, 1, deadline},
		{"refused by a healthy harness", []error{remote, nil}, 1, remote},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := 0
			err := retryLost(context.Background(), func() error {
				n++
				return tt.errs[n-1]
			})
			if err != tt.want {
				t.Errorf("got %v, want %v", err, tt.want)
			}
			if n != tt.attempts {
				t.Errorf("%d attempts, want %d", n, tt.attempts)
			}
		})
	}
}

func TestLostErrorUnwraps(t *testing.T) {
	err := fmt.Errorf("call f: %w", &LostError{Reason: "exit code 9", Err: ErrHarnessExited})
	if !errors.Is(err, ErrHarnessExited) {
		t.Errorf("%v does not wrap ErrHarnessExited", err)
	}
	if got, want := err.Error(), "call f: harness lost: exit code 9"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestLimitsWithDefaultsFrom(t *testing.T) {
	configured := Limits{Timeout: 5e9, MemoryBytes: 1 << 30}
	tests := []struct {
		name string
		l, d Limits
		want Limits
	}{
		{"request wins", Limits{Timeout: 1e9, MemoryBytes: 1 << 20, OutputBytes: 10}, configured, Limits{Timeout: 1e9, MemoryBytes: 1 << 20, OutputBytes: 10}},
		{"configured fills the request's zeros", Limits{OutputBytes: 10}, configured, Limits{Timeout: 5e9, MemoryBytes: 1 << 30, OutputBytes: 10}},
		{"defaults fill the rest", Limits{}, configured, Limits{Timeout: 5e9, MemoryBytes: 1 << 30, OutputBytes: DefaultOutputBytes}},
		{"nothing configured", Limits{}, Limits{}, Limits{Timeout: DefaultCallTimeout, MemoryBytes: DefaultMemoryBytes, OutputBytes: DefaultOutputBytes}},
		{"negative is unset", Limits{Timeout: -1, MemoryBytes: -1, OutputBytes: -1}, configured, Limits{Timeout: 5e9, MemoryBytes: 1 << 30, OutputBytes: DefaultOutputBytes}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.l.WithDefaultsFrom(tt.d); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestProgramName(t *testing.T) {
	tests := []struct {
		p    Program
		want string
	}{
		{Program{Path: "/task/hidden.py", Function: "solve"}, "/task/hidden.py:solve"},
		{Program{Source: "def f(x): return x", Function: "f"}, "<source>:f"},
	}
	for _, tt := range tests {
		if got := tt.p.Name(); got != tt.want {
			t.Errorf("Name() = %q, want %q", got, tt.want)
		}
	}
}

func TestCappedOutput(t *testing.T) {
	tests := []struct {
		name      string
		limit     int64
		writes    []string
		want      string
		truncated bool
	}{
		{"under the limit", 10, []string{"abc", "def"}, "abcdef", false},
		{"exactly the limit", 6, []string{"abc", "def"}, "abcdef", false},
		{"cut inside a write", 4, []string{"abc", "def"}, "abcd", true},
		{"nothing fits", 0, []string{"abc"}, "", true},
		{"later writes dropped", 3, []string{"abc", "d", "e"}, "abc", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewCappedOutput(tt.limit)
			for _, w := range tt.writes {
				if n, err := c.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v; want all of it taken", w, n, err)
				}
			}
			got, truncated := c.Result()
			if got != tt.want || truncated != tt.truncated {
				t.Errorf("Result() = %q, %v; want %q, %v", got, truncated, tt.want, tt.truncated)
			}
		})
	}
}
