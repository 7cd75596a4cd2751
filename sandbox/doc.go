// Package sandbox runs untrusted Python (candidates, hidden programs, input
// generators) outside the orchestrator's process. It defines the Sandbox
// interface, the request and outcome types, and the embedded resident
// harness (harness.py) that both backends run: sandbox/process (namespaces
// and rlimits) and sandbox/docker (containers).
//
// A program's outcome (ok, raised, timed out, out of memory, output too
// large) is data in Outcome; a Go error means the sandbox itself failed.
package sandbox
