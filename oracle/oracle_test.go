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
		{name: "timeout rejects the input", argv: []string{script(t, "sleep 10\n")}, timeout: 200 * time.Millisecond, inputs: raws("1"), want: []Answer{{Invalid: "timeout: no answer within 200ms"}}},
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

// fakeRunner returns scripted outcomes.
type fakeRunner struct {
	outcomes []sandbox.Outcome
	err      error
}

func (f fakeRunner) Call(context.Context, sandbox.CallRequest) ([]sandbox.Outcome, error) {
	return f.outcomes, f.err
}

func (f fakeRunner) Generate(context.Context, sandbox.GenerateRequest) ([]json.RawMessage, error) {
	return nil, f.err
}

func TestPythonOracleOutcomes(t *testing.T) {
	tests := []struct {
		name    string
		outcome sandbox.Outcome
		want    Answer
		wantErr bool
	}{
		{"ok", sandbox.Outcome{Status: sandbox.StatusOK, Output: json.RawMessage("1")}, Answer{Output: json.RawMessage("1")}, false},
		{"raised: invalid input", sandbox.Outcome{Status: sandbox.StatusError, Error: "ValueError: no"}, Answer{Invalid: "error: ValueError: no"}, false},
		{"timeout: invalid input", sandbox.Outcome{Status: sandbox.StatusTimeout}, Answer{Invalid: "timeout"}, false},
		{"cannot load: infrastructure", sandbox.Outcome{Status: sandbox.StatusLoad, Error: "SyntaxError"}, Answer{}, true},
		{"crashed: infrastructure", sandbox.Outcome{Status: sandbox.StatusCrashed}, Answer{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := NewPython(fakeRunner{outcomes: []sandbox.Outcome{tt.outcome}}, "hidden.py", "f", sandbox.Limits{})
			got, err := o.Query(context.Background(), raws("1"))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if err == nil && fmt.Sprint(got[0]) != fmt.Sprint(tt.want) {
				t.Errorf("answer = %s, want %s", got[0], tt.want)
			}
		})
	}
	sandboxDown := errors.New("sandbox down")
	if _, err := NewPython(fakeRunner{err: sandboxDown}, "hidden.py", "f", sandbox.Limits{}).Query(context.Background(), raws("1")); !errors.Is(err, sandboxDown) {
		t.Errorf("sandbox failure: %v", err)
	}
}
