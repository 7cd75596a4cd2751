package oracle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/sandbox"
)

func raws(ss ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(ss))
	for i, s := range ss {
		out[i] = json.RawMessage(s)
	}
	return out
}

// script writes an executable shell script.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "oracle.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCommandOracle(t *testing.T) {
	// Doubles a number read on stdin; rejects negatives with exit 1.
	double := script(t, `read x
if [ "$x" -lt 0 ]; then echo "negative input" >&2; exit 1; fi
echo $((x * 2))
`)
	tests := []struct {
		name    string
		argv    []string
		timeout time.Duration
		inputs  []json.RawMessage
		want    []Answer
		wantErr string
	}{
		{name: "answers", argv: []string{double}, inputs: raws("2", "5"), want: []Answer{{Output: json.RawMessage("4")}, {Output: json.RawMessage("10")}}},
		{name: "non-zero exit rejects the input", argv: []string{double}, inputs: raws("3", "-1"), want: []Answer{{Output: json.RawMessage("6")}, {Invalid: "negative input"}}},
		{name: "timeout twice fails the task", argv: []string{script(t, "sleep 10\n")}, timeout: 200 * time.Millisecond, inputs: raws("1"),
			wantErr: "did not answer in time on input 1 (1), limit 200ms per input (task.oracle.timeout)"},
		{name: "killed by a signal twice fails the task", argv: []string{script(t, "kill -9 $$\n")}, inputs: raws("1", "2"), wantErr: "crashed on input 1 (1)"},
		{name: "slow once, then an answer", argv: []string{script(t, "read x\nif [ ! -e \"$0.once\" ]; then touch \"$0.once\"; sleep 10; fi\necho $x\n")},
			timeout: time.Second, inputs: raws("7"), want: []Answer{{Output: json.RawMessage("7")}}},
		{name: "missing executable is an infrastructure error", argv: []string{filepath.Join(t.TempDir(), "nope")}, inputs: raws("1"), wantErr: "no such file"},
		{name: "output that is not JSON is an infrastructure error", argv: []string{script(t, "echo not json\n")}, inputs: raws("1"), wantErr: "not one JSON value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			timeout := tt.timeout
			if timeout == 0 {
				timeout = 5 * time.Second
			}
			got, err := NewCommand(tt.argv, t.TempDir(), timeout).Query(context.Background(), tt.inputs)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("answers = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestHTTPOracle(t *testing.T) {
	tests := []struct {
		name     string
		handler  func(n int32, w http.ResponseWriter, r *http.Request)
		retries  int
		want     Answer
		wantErr  string
		wantHits int32
	}{
		{name: "answers", retries: 2, wantHits: 1, want: Answer{Output: json.RawMessage(`{"y":1}`)},
			handler: func(_ int32, w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, `{"y":1}`) }},
		{name: "4xx rejects the input", retries: 2, wantHits: 1, want: Answer{Invalid: "bad input"},
			handler: func(_ int32, w http.ResponseWriter, _ *http.Request) {
				http.Error(w, "bad input", http.StatusBadRequest)
			}},
		{name: "5xx is retried", retries: 2, wantHits: 3, want: Answer{Output: json.RawMessage(`7`)},
			handler: func(n int32, w http.ResponseWriter, _ *http.Request) {
				if n < 3 {
					http.Error(w, "busy", http.StatusServiceUnavailable)
					return
				}
				fmt.Fprint(w, `7`)
			}},
		{name: "429 is retried, not a rejection", retries: 1, wantHits: 2, want: Answer{Output: json.RawMessage(`8`)},
			handler: func(n int32, w http.ResponseWriter, _ *http.Request) {
				if n == 1 {
					http.Error(w, "slow down", http.StatusTooManyRequests)
					return
				}
				fmt.Fprint(w, `8`)
			}},
		{name: "5xx until the retries run out", retries: 2, wantHits: 3, wantErr: "gave up after 3 attempts",
			handler: func(_ int32, w http.ResponseWriter, _ *http.Request) {
				http.Error(w, "down", http.StatusInternalServerError)
			}},
		{name: "timeouts are retried", retries: 1, wantHits: 2, want: Answer{Output: json.RawMessage(`9`)},
			handler: func(n int32, w http.ResponseWriter, r *http.Request) {
				if n == 1 {
					select {
					case <-time.After(2 * time.Second):
					case <-r.Context().Done():
					}
					return
				}
				fmt.Fprint(w, `9`)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var hits atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
					t.Errorf("request %s %s", r.Method, r.Header.Get("Content-Type"))
				}
				tt.handler(hits.Add(1), w, r)
			}))
			defer srv.Close()
			o := NewHTTP(srv.URL, 300*time.Millisecond, tt.retries)
			o.BaseDelay = time.Millisecond
			got, err := o.Query(context.Background(), raws(`{"x":1}`))
			if hits.Load() != tt.wantHits {
				t.Errorf("server hit %d times, want %d", hits.Load(), tt.wantHits)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got[0]) != fmt.Sprint(tt.want) {
				t.Errorf("answer = %s, want %s", got[0], tt.want)
			}
		})
	}
}

// fakeRunner returns scripted outcomes: calls[i] for the i-th call, the
// last one again after that.
type fakeRunner struct {
	calls [][]sandbox.Outcome
	n     *int
	err   error
}

func (f fakeRunner) Call(_ context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error) {
	if f.err != nil {
		return nil, f.err
	}
	i := min(*f.n, len(f.calls)-1)
	*f.n++
	return f.calls[i][:len(req.Inputs)], nil
}

func (f fakeRunner) Generate(context.Context, sandbox.GenerateRequest) ([]json.RawMessage, error) {
	return nil, f.err
}

func TestPythonOracleOutcomes(t *testing.T) {
	ok := sandbox.Outcome{Status: sandbox.StatusOK, Output: json.RawMessage("1")}
	timeout := sandbox.Outcome{Status: sandbox.StatusTimeout, Error: "the call took longer than 2s and was killed"}
	tests := []struct {
		name      string
		calls     [][]sandbox.Outcome
		want      Answer
		wantCalls int
		wantFail  string // FailureError.Kind
		wantErr   bool
	}{
		{name: "ok", calls: [][]sandbox.Outcome{{ok}}, want: Answer{Output: json.RawMessage("1")}, wantCalls: 1},
		{name: "raised: invalid input", calls: [][]sandbox.Outcome{{{Status: sandbox.StatusError, Error: "ValueError: no"}}},
			want: Answer{Invalid: "error: ValueError: no"}, wantCalls: 1},
		{name: "timeout once, then an answer", calls: [][]sandbox.Outcome{{timeout}, {ok}}, want: Answer{Output: json.RawMessage("1")}, wantCalls: 2},
		{name: "timeout twice: the task fails", calls: [][]sandbox.Outcome{{timeout}}, wantFail: FailTimeout, wantCalls: 2},
		{name: "out of memory twice: the task fails", calls: [][]sandbox.Outcome{{{Status: sandbox.StatusMemory}}}, wantFail: FailMemory, wantCalls: 2},
		{name: "crashed twice: the task fails", calls: [][]sandbox.Outcome{{{Status: sandbox.StatusCrashed, Error: "exit status 3"}}}, wantFail: FailCrash, wantCalls: 2},
		{name: "cannot load: infrastructure", calls: [][]sandbox.Outcome{{{Status: sandbox.StatusLoad, Error: "SyntaxError"}}}, wantErr: true, wantCalls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := 0
			o := NewPython(fakeRunner{calls: tt.calls, n: &n}, "hidden.py", "f", sandbox.Limits{})
			got, err := o.Query(context.Background(), raws("[1, 2]"))
			if n != tt.wantCalls {
				t.Errorf("%d calls, want %d", n, tt.wantCalls)
			}
			var fail *FailureError
			switch {
			case tt.wantFail != "":
				if !errors.As(err, &fail) || fail.Kind != tt.wantFail || fail.Index != 1 || string(fail.Input) != "[1, 2]" {
					t.Fatalf("err = %v, want a %s failure of input 1", err, tt.wantFail)
				}
				if msg := err.Error(); !strings.Contains(msg, "input 1 ([1, 2])") || (tt.wantFail == FailTimeout && !strings.Contains(msg, "2s per input (task.oracle.timeout)")) {
					t.Errorf("message %q does not name the input and the limit", msg)
				}
			case tt.wantErr:
				if err == nil || errors.As(err, &fail) {
					t.Fatalf("err = %v, want an infrastructure error", err)
				}
			case err != nil:
				t.Fatal(err)
			case fmt.Sprint(got[0]) != fmt.Sprint(tt.want):
				t.Errorf("answer = %s, want %s", got[0], tt.want)
			}
		})
	}
	sandboxDown := errors.New("sandbox down")
	if _, err := NewPython(fakeRunner{err: sandboxDown}, "hidden.py", "f", sandbox.Limits{}).Query(context.Background(), raws("1")); !errors.Is(err, sandboxDown) {
		t.Errorf("sandbox failure: %v", err)
	}
}
