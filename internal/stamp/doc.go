// Package stamp heads every record reconstruct writes for later reading
// (result.json, each events.jsonl line and so each checkpoint, each
// examples.jsonl line, the recorded run configuration, the candidates
// manifest, a sweep's summary.json) with the record's format version, the
// version of the reconstruct that wrote it and the digest of the sandbox
// harness it ran with. Records whose bytes are their identity — a sweep's
// tree listings (content-addressed) and the bank's receipts (signed) —
// carry their format alone, and are read by the same rule: a reader
// refuses a record of a newer major format with the one message of Check
// (errors.Is ErrNewerFormat), and reads older ones; a record without a
// stamp is of format 1, the format before stamps.
//
// The producer is read from the build information once: the version a
// release sets as it is linked (VersionVar, with -ldflags -X), else the
// module's, and the VCS revision; nothing sets it at run time, and
// `reconstruct version` prints the same build (This). The package imports nothing of the project, so that every
// package (the bank's included) can read records by this rule.
package stamp
