package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

func TestRetryAfter(t *testing.T) {
	tests := []struct {
		header string
		want   time.Duration
		ok     bool
	}{
		{"", 0, false},
		{"3", 3 * time.Second, true},
		{"0.5", 500 * time.Millisecond, true},
		{"soon", 0, false},
		{"-1", 0, false},
		{time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat), 0, true},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.header != "" {
			h.Set("Retry-After", tt.header)
		}
		got, ok := retryAfter(h)
		if got != tt.want || ok != tt.ok {
			t.Errorf("retryAfter(%q) = %v, %v, want %v, %v", tt.header, got, ok, tt.want, tt.ok)
		}
	}
	future := time.Now().Add(time.Minute).UTC().Format(http.TimeFormat)
	if got, ok := retryAfter(http.Header{"Retry-After": {future}}); !ok || got < 50*time.Second || got > time.Minute {
		t.Errorf("retryAfter(date in a minute) = %v, %v", got, ok)
	}
}

func TestClassifyErrors(t *testing.T) {
	api := func(status int, typ, code, msg string) error {
		e := &openai.APIError{HTTPStatusCode: status, Type: typ, Message: msg}
		if code != "" {
			e.Code = code
		}
		return fmt.Errorf("wrapped: %w", e)
	}
	tests := []struct {
		name      string
		err       error
		retryable bool
		context   bool
	}{
		{"429", api(429, "requests", "rate_limit_exceeded", "slow down"), true, false},
		{"500", api(500, "server_error", "", "boom"), true, false},
		{"503 raw body", &openai.RequestError{HTTPStatusCode: 503, Body: []byte("<html>down</html>")}, true, false},
		{"408", api(408, "", "", "timeout"), true, false},
		{"timeout", fmt.Errorf("post: %w", context.DeadlineExceeded), true, false},
		{"connection refused", errors.New("dial tcp 127.0.0.1:1: connect: connection refused"), true, false},
		{"401", api(401, "invalid_request_error", "invalid_api_key", "bad key"), false, false},
		{"client check", openai.ErrReasoningModelMaxTokensDeprecated, false, false},
		{"openai context", api(400, "invalid_request_error", "context_length_exceeded", "too long"), false, true},
		{"vllm context", api(400, "BadRequestError", "", "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens"), false, true},
		{"llama.cpp context", api(400, "exceed_context_size_error", "", "the request exceeds the available context size, try increasing it"), false, true},
		{"raw context", &openai.RequestError{HTTPStatusCode: 400, Body: []byte("prompt is longer than the context window")}, false, true},
		{"other 400", api(400, "invalid_request_error", "", "tools are not supported"), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := retryable(tt.err); got != tt.retryable {
				t.Errorf("retryable = %v, want %v", got, tt.retryable)
			}
			if got := isContextLength(tt.err); got != tt.context {
				t.Errorf("isContextLength = %v, want %v", got, tt.context)
			}
		})
	}
}

func TestBackoffGrowsAndCaps(t *testing.T) {
	a := &Agent{opts: Options{Backoff: time.Second, MaxBackoff: 8 * time.Second}}
	for attempt, ceil := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second, 8 * time.Second} {
		for range 50 {
			if d := a.backoff(attempt); d < ceil/2 || d > ceil {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", attempt, d, ceil/2, ceil)
			}
		}
	}
	if d := a.backoff(200); d < 4*time.Second || d > 8*time.Second {
		t.Errorf("backoff(200) = %v, want capped", d)
	}
}
