package llm

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/reconstruct/reconstruct/agent/llm/llmtest"
	"github.com/reconstruct/reconstruct/config"
)

// The example configurations in configs/ must load, describe the
// quickstart task and give settings New accepts.
func TestExampleConfigs(t *testing.T) {
	tests := []struct {
		file, baseURL, keyEnv, mode string
	}{
		{"llm-openai.yaml", "https://api.openai.com/v1", "OPENAI_API_KEY", ToolModeTools},
		{"llm-vllm.yaml", "http://127.0.0.1:8000/v1", "", ToolModeTools},
		{"llm-ollama.yaml", "http://127.0.0.1:11434/v1", "", ToolModeTools},
		{"llm-llamacpp.yaml", "http://127.0.0.1:8080/v1", "", ToolModeText},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			cfg, err := config.Load(config.Options{File: filepath.Join("..", "..", "configs", tt.file)})
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			l := cfg.Agent.LLM
			if cfg.Agent.Kind != "llm" || l.BaseURL != tt.baseURL || l.APIKeyEnv != tt.keyEnv || l.ToolMode != tt.mode || l.Model == "" {
				t.Errorf("agent section = %+v", cfg.Agent)
			}
			if cfg.Task.Name != "running_max" || cfg.Task.FunctionName != "solve" || cfg.Task.Kind != "list" {
				t.Errorf("task section = %+v", cfg.Task)
			}
			// The same settings against the fake endpoint.
			srv := llmtest.NewServer(t)
			if l.APIKeyEnv != "" {
				t.Setenv(l.APIKeyEnv, "sk-test")
			}
			temp := l.Temperature
			_, err = New(context.Background(), Options{
				BaseURL: srv.URL, Model: l.Model, APIKeyEnv: l.APIKeyEnv, Temperature: &temp,
				MaxTokens: l.MaxTokens, MaxTurns: l.MaxTurns, RequestTimeout: l.RequestTimeout,
				Retries: l.Retries, ToolMode: l.ToolMode, Sandbox: newFakeSandbox(),
			})
			if err != nil {
				t.Errorf("New: %v", err)
			}
		})
	}
}
