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
//	--harden NS       the harness runs in a private mount namespace (NS is the
//	                  caller's, from /proc/self/ns/mnt, so that the harness can
//	                  refuse to touch a shared one): remount everything
//	                  read-only, mount a private /proc (in a new PID
//	                  namespace) and a small tmpfs on /dev/shm
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
//	{"id", "op": "call", "program": {"source"|"path", "function"},
//	 "inputs": [...], "limits": {"timeout": s, "memory_bytes": n, "output_bytes": n}}
//	  → {"id", "ok": true, "outcomes": [{"status", "output", "error", "seconds"}, ...]}
//	{"id", "op": "analyse", "source", "function_name", "inputs", "outputs"}
//	  → {"id", "ok": true, "analysis": {...Analysis...}}
//	{"id", "op": "generate", "program", "k", "exclude", "seed", "limits"}
//	  → {"id", "ok": true, "inputs": [...]}
//
// A call's outcomes use the Status values; "output" is present only for
// "ok". A program given by "path" has its directory put on sys.path. Limits
// left out take the Default values. A generate request runs
// generate(k, exclude, random.Random(seed)), whose load and call share
// limits.timeout; its failures (raises, wrong count, not JSON) are ok=false
// responses. Analyse runs under a fixed 10 s limit.
//
//go:embed harness.py
var Harness string

// HarnessVersion is the version the harness reports to a ping; Client.Ping
// callers compare it to detect a stale harness.
const HarnessVersion = "1"

// HarnessSHA256 is the hex SHA-256 of Harness, for stamping artefacts with
// the exact harness that evaluated them.
func HarnessSHA256() string {
	sum := sha256.Sum256([]byte(Harness))
	return hex.EncodeToString(sum[:])
}
