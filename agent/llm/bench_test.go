package llm

import (
	"context"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/agent/llm/llmtest"
)

// BenchmarkWriteSession measures the agent's own cost of a three-turn
// session (file_write, check_candidate, done) against the in-process fake
// server and the fake sandbox: prompts, JSON, HTTP on loopback, tools.
func BenchmarkWriteSession(b *testing.B) {
	solver := &llmtest.Solver{Program: runningMaxSrc, Inputs: func(k, n int) []any { return nil }, PromptTokens: 1, CompletionTokens: 1}
	srv := llmtest.NewServerFunc(b, solver.Handle)
	a, err := New(context.Background(), Options{BaseURL: srv.URL, Model: llmtest.DefaultModel, Sandbox: newFakeSandbox(), RequestTimeout: 5 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	ws := b.TempDir()
	for b.Loop() {
		req := writeReqB(ws)
		if _, err := a.Write(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
