package llm

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	openai "github.com/sashabaranov/go-openai"

	"github.com/reconstruct/reconstruct/agent/llm/llmtest"
	"github.com/reconstruct/reconstruct/task"
)

func TestNewConfigErrors(t *testing.T) {
	srv := llmtest.NewServer(t)
	t.Setenv("LLMTEST_EMPTY_KEY", "")
	tests := []struct {
		name  string
		opts  Options
		wants []string
	}{
		{"missing key", Options{BaseURL: srv.URL, Model: "m", APIKeyEnv: "LLMTEST_EMPTY_KEY"}, []string{SettingAPIKeyEnv, "LLMTEST_EMPTY_KEY"}},
		{"no base url", Options{Model: "m"}, []string{SettingBaseURL}},
		{"no model", Options{BaseURL: srv.URL}, []string{SettingModel}},
		{"bad tool mode", Options{BaseURL: srv.URL, Model: "m", ToolMode: "json"}, []string{SettingToolMode, `"json"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Sandbox = newFakeSandbox()
			_, err := New(context.Background(), tt.opts)
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("err = %v, want ErrConfig", err)
			}
			for _, w := range tt.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %s", err, w)
				}
			}
		})
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("configuration errors made %d requests", n)
	}
}

func TestNewSendsKeyAndChecksEndpoint(t *testing.T) {
	srv := llmtest.NewServer(t)
	t.Setenv("LLMTEST_KEY", "sk-test")
	if _, err := New(context.Background(), Options{BaseURL: srv.URL, Model: llmtest.DefaultModel, APIKeyEnv: "LLMTEST_KEY", Sandbox: newFakeSandbox()}); err != nil {
		t.Fatalf("New: %v", err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Method != http.MethodGet || reqs[0].Path != "/v1/models" {
		t.Fatalf("requests = %+v, want one GET /v1/models", reqs)
	}
	if got, want := reqs[0].Header.Get("Authorization"), "Bearer sk-test"; got != want {
		t.Errorf("Authorization = %q, want %q", got, want)
	}
}

func TestNewUnreachableEndpoint(t *testing.T) {
	srv := llmtest.NewServer(t)
	url := srv.URL
	srv.Close()
	_, err := New(context.Background(), Options{BaseURL: url, Model: "m", Sandbox: newFakeSandbox()})
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if !strings.Contains(err.Error(), SettingBaseURL) || !strings.Contains(err.Error(), url) {
		t.Errorf("error %q does not name %s and the URL", err, SettingBaseURL)
	}
}

func TestNewWrongRoute(t *testing.T) {
	srv := llmtest.NewServer(t)
	_, err := New(context.Background(), Options{BaseURL: strings.TrimSuffix(srv.URL, "/v1"), Model: "m", Sandbox: newFakeSandbox()})
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), SettingBaseURL) || !strings.Contains(err.Error(), "/v1") {
		t.Fatalf("err = %v, want ErrConfig naming %s and /v1", err, SettingBaseURL)
	}
}

func TestSamplingSettings(t *testing.T) {
	zero, warm := 0.0, 0.7
	tests := []struct {
		name      string
		model     string
		temp      *float64
		maxTokens int
		wantTemp  float32
		wantMax   int
		wantMaxC  int
	}{
		{"server default", "llama3", nil, 0, 0, 0, 0},
		{"greedy", "llama3", &zero, 256, math.SmallestNonzeroFloat32, 256, 0},
		{"warm", "qwen2.5-coder", &warm, 512, 0.7, 512, 0},
		{"reasoning model", "o3-mini", &warm, 512, 0, 0, 512},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &Agent{opts: Options{Model: tt.model, Temperature: tt.temp, MaxTokens: tt.maxTokens}}
			var req openai.ChatCompletionRequest
			a.fillSampling(&req)
			if req.Temperature != tt.wantTemp || req.MaxTokens != tt.wantMax || req.MaxCompletionTokens != tt.wantMaxC || req.Model != tt.model {
				t.Errorf("got temperature %v max_tokens %d max_completion_tokens %d model %q, want %v %d %d %q",
					req.Temperature, req.MaxTokens, req.MaxCompletionTokens, req.Model, tt.wantTemp, tt.wantMax, tt.wantMaxC, tt.model)
			}
		})
	}
}

func TestCheckFallsBackToAChatPing(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Text("pong", 1, 1))
	srv.NoModels = true
	if _, err := New(context.Background(), Options{BaseURL: srv.URL, Model: "m", Sandbox: newFakeSandbox()}); err != nil {
		t.Fatalf("New: %v", err)
	}
	chats := srv.ChatRequests()
	if len(chats) != 1 || chats[0].MaxTokens != 1 {
		t.Errorf("ping requests = %+v, want one with max_tokens 1", chats)
	}
}

// TestWithDefaults: a count, duration or tolerance that is 0 or negative
// gets its default; Retries alone keeps "none" (negative) apart from unset.
func TestWithDefaults(t *testing.T) {
	defaults := Options{MaxTurns: DefaultMaxTurns, RequestTimeout: DefaultRequestTimeout, Retries: DefaultRetries,
		ToolMode: DefaultToolMode, Atol: task.DefaultAtol, ShownFailures: DefaultShownFailures,
		Backoff: DefaultBackoff, MaxBackoff: DefaultMaxBackoff}
	set := Options{MaxTurns: 7, RequestTimeout: time.Second, Retries: 2, ToolMode: ToolModeText, Atol: 0.5,
		ShownFailures: 4, Backoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond}
	negative := defaults
	negative.Retries = 0
	tests := []struct {
		name string
		in   Options
		want Options
	}{
		{"unset", Options{}, defaults},
		{"negative", Options{MaxTurns: -1, RequestTimeout: -time.Second, Retries: -1, Atol: -1, ShownFailures: -1,
			Backoff: -time.Second, MaxBackoff: -time.Second}, negative},
		{"set", set, set},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.in.withDefaults()
			if got.Log == nil {
				t.Error("no logger")
			}
			got.Log = nil
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreUnexported(Options{})); diff != "" {
				t.Errorf("withDefaults (-want +got):\n%s", diff)
			}
		})
	}
}
