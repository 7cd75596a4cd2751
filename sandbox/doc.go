// Package sandbox runs untrusted Python (candidates, hidden programs, input
// generators) outside the orchestrator's process. It defines the Sandbox
// interface, the request and outcome types, and the embedded resident
// harness (harness.py) that both backends run: sandbox/process (namespaces
// and rlimits) and sandbox/docker (containers).
//
// A program's outcome (ok, raised, timed out, out of memory, output too
// large) is data in Outcome; a Go error means the sandbox itself failed. A
// call that kills the harness is data too: both backends run calls through
// CallIsolating, which makes it that input's StatusCrashed outcome. What
// else the backends share lives here as well: Limits.WithDefaultsFrom,
// Program.Name, CappedOutput (the agent's shell output) and Stage, the copy
// of a hidden program's directory that its sandbox sees instead of the
// directory itself.
package sandbox
