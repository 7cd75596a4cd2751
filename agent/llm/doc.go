// Package llm implements agent.Agent with a model behind any
// OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama, the
// llama.cpp server), driven through github.com/sashabaranov/go-openai.
//
// One Write call is one coding session: a system prompt describing the task
// and the working discipline, a user message with every observed example and
// the previous feedback, then a loop of model turns in which the model calls
// sandboxed tools (bash, file_read, file_write, apply_patch,
// check_candidate, synthesize, done) until it finishes, repeats itself or
// runs out of turns. Servers without tool calling use a plain-text mode in
// which the program is taken from the last fenced python block. One Propose
// call asks the model for exactly k inputs through the propose_inputs tool.
//
// Endpoint failures are retried with exponential backoff and jitter; what is
// left after the retries is an error wrapping ErrUnavailable, and a
// configuration the endpoint refuses is an error wrapping ErrConfig. Both
// mean an infrastructure failure (exit 3). Everything the model does wrong
// (broken tool arguments, paths outside the workspace, a wrong program) is
// data sent back to the model, never an error.
//
// Package llmtest holds an in-process fake OpenAI-compatible server for
// tests.
package llm
