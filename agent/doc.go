// Package agent defines the Agent interface the workflow drives: one Write
// call is one coding session that leaves candidate.py in the workspace, one
// Propose call chooses the next inputs to query. Implementations live in
// sub-packages: synth (built-in enumerative synthesizer), llm (an
// OpenAI-compatible model with sandboxed tools) and replay (a recorded
// script). Agents never query the oracle and never see held-out tests.
package agent
