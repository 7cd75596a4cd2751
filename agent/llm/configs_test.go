package llm_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/reconstruct/reconstruct/agent/llm"
	"github.com/reconstruct/reconstruct/agent/llm/llmtest"
	"github.com/reconstruct/reconstruct/config"
)

// The test is outside package llm because config, which it loads the
// files with, takes its defaults from llm.

// The example configurations in configs/ must load, describe the
// quickstart task and give settings New accepts.
func TestExampleConfigs(t *testing.T) {
	tests := []struct {
		file, baseURL, keyEnv, mode string
	}{
		{"llm-openai.yaml", "https://api.openai.com/v1", "OPENAI_API_KEY", llm.ToolModeTools},
		{"llm-vllm.yaml", "http://127.0.0.1:8000/v1", "", llm.ToolModeTools},
		{"llm-ollama.yaml", "http://127.0.0.1:11434/v1", "", llm.ToolModeTools},
		{"llm-llamacpp.yaml", "http://127.0.0.1:8080/v1", "", llm.ToolModeText},
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
			_, err = llm.New(context.Background(), llm.Options{
				BaseURL: srv.URL, Model: l.Model, APIKeyEnv: l.APIKeyEnv, Temperature: &temp,
				MaxTokens: l.MaxTokens, MaxTurns: l.MaxTurns, RequestTimeout: l.RequestTimeout,
				Retries: l.Retries, ToolMode: l.ToolMode, Sandbox: llm.NewFakeSandbox(),
			})
			if err != nil {
				t.Errorf("New: %v", err)
			}
		})
	}
}
