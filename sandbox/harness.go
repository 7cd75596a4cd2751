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
// The wire protocol (JSON lines on stdin and stdout) is spoken by Client.
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
