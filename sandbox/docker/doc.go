// Package docker is the container backend of sandbox.Sandbox: each Sandbox
// is one hardened container (no network, all capabilities dropped,
// no-new-privileges, read-only root filesystem, tmpfs /tmp, non-root user,
// memory, CPU and process limits) whose main process is the resident
// harness, attached over stdin and stdout. A run uses two: the agent's
// (workspace at /workspace, read-write) and the oracle's (the hidden
// program's directory at /oracle, read-only, held-out tests hidden).
//
// It also owns the runner image (BuildImage: a debootstrap root filesystem
// with python3 and the harness, imported without any registry), the probe
// behind `sandbox.kind: auto` (Available) and the clean-up of containers a
// crashed process left behind (Prune). It talks to the engine through the
// docker/docker client, honouring DOCKER_HOST and negotiating the API
// version. docs/security.md says what it guarantees.
package docker
