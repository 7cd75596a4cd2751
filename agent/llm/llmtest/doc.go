// Package llmtest is an in-process fake of an OpenAI-compatible endpoint
// for tests: it speaks the chat-completions wire format (tool_calls,
// usage, OpenAI's error envelope, Retry-After), answers from a script of
// replies or a Handler, and records every request it receives. Solver is a
// Handler that behaves like a model that knows the hidden program, for
// end-to-end runs.
package llmtest
