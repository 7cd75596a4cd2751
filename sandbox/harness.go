package sandbox

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
)

// Harness is the source of the resident Python harness (harness.py) that both
// backends run inside their sandbox, as `python3 -I -u -c Harness [flags]`.
//
// Flags (all optional):
//
//	--uid N --gid N   run untrusted code as this user and group (the
//	                  harness itself must be root to drop to them)
//	--harden NS       the harness runs in new PID and mount namespaces (NS is
//	                  the caller's mount namespace, from /proc/self/ns/mnt, so
//	                  that the harness can refuse to touch a shared one): it
//	                  builds a root of its own holding only the system
//	                  directories, the interpreter and its working directory,
//	                  all read-only and nosuid, a private /proc and a small
//	                  tmpfs on /dev/shm; the host's root is detached. When the
//	                  kernel refuses that, every host mount is made read-only
//	                  instead (and the harness warns on stderr).
//	--hide REL        with --harden: cover the file REL of the working
//	                  directory with an empty one (repeatable)
//	--scratch DIR     with --harden: bind no host directory; work in DIR, an
//	                  empty read-only directory of the private root (or in
//	                  the private /tmp with --shell)
//	--shell CMD       with --harden: build the same root with the working
//	                  directory writable, drop every capability and exec
//	                  `/bin/sh -c CMD` instead of serving (the agent's shell)
//	--ready FD        with --shell: write a byte to FD and close it just
//	                  before the shell starts
//	--connect PATH    speak the protocol over a connection to the Unix
//	                  socket PATH, made before the first request is read,
//	                  instead of stdin and stdout (the Docker sandbox: see
//	                  docker/socket.go)
//
// Every request runs in a child forked by a zygote: a process forked before
// the first request is read (or started afresh when one dies), so a child
// never holds another request's data. A child sets no_new_privs, drops its
// capabilities (and its uid, with --uid) and its rlimits before it runs
// untrusted code. The exception is a program marked "resident": its first
// request's child loads it and stays, serving the next call and generate
// requests of the same program and limits (see Program.Resident).
//
// # Wire protocol
//
// One JSON object per line on the harness's stdin, one response line per
// request on its stdout, in request order (the harness serves one request at
// a time). Every response echoes the request's "id"; a line that is not a
// JSON object gets {"id": null, "ok": false, "error": ...} and the harness
// stays up. Any request may fail as {"id", "ok": false, "error"}.
//
//	{"id", "op": "ping"}
//	  → {"id", "ok": true, "version": HarnessVersion}
//	{"id", "op": "call", "program": {"source"|"path", "function", "resident"},
//	 "inputs": [...], "limits": {"timeout": s, "memory_bytes": n, "output_bytes": n}}
//	  → {"id", "ok": true, "s": "oe…", "ns": [n, ...], "v": [value, ...]}
//	{"id", "op": "analyse", "source", "function_name", "inputs", "outputs"}
//	  → {"id", "ok": true, "analysis": {...Analysis...}}
//	{"id", "op": "generate", "program", "k", "exclude", "seed", "limits"}
//	  → {"id", "ok": true, "inputs": [...]}
//
// A call's outcomes travel as three columns with one entry per input, so
// that neither end handles an object per input: "s" holds one status code
// per input (o ok, e error, t timeout, m memory, l output_limit, b
// bad_output, c crashed, L load_error), "ns" the call's wall time in
// nanoseconds, and "v" the returned value (code o) or the error text (a
// JSON string). A child sends its results to the harness in the same form
// ({"t": "outs", "s", "ns", "v"}, the next inputs of its job in order); the
// harness checks every column before it takes them. A program given by "path" has its directory put on sys.path. Limits
// left out take the Default values. A generate request runs
// generate(k, exclude, random.Random(seed)), whose load and call share
// limits.timeout; its failures (raises, wrong count, not JSON) are ok=false
// responses. Analyse runs under a fixed 10 s limit.
//
//go:embed harness.py
var Harness string

// HarnessVersion is the version the harness reports to a ping; Client.Ping
// callers compare it to detect a stale harness.
const HarnessVersion = "2"

// HarnessSHA256 is the hex SHA-256 of Harness, for stamping artefacts with
// the exact harness that evaluated them.
func HarnessSHA256() string {
	sum := sha256.Sum256([]byte(Harness))
	return hex.EncodeToString(sum[:])
}
