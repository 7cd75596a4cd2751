// Package process is the embedded process sandbox: it runs the resident
// Python harness (sandbox.Harness) as a child process of the orchestrator,
// isolated with Linux namespaces (PID, mount and, unless asked otherwise,
// network), rlimits and, when the orchestrator runs as root, an unprivileged
// user id for the untrusted code. It is the lightweight alternative to
// sandbox/docker; docs/security.md says what it does and does not protect.
package process
