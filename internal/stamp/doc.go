// Package stamp heads every record reconstruct writes for later reading
// (result.json, each events.jsonl line and so each checkpoint, the recorded
// run configuration, the candidates manifest) with the record's format
// version, the version of the reconstruct that wrote it and the digest of
// the sandbox harness it ran with. A reader refuses a record of a newer
// major format with a message saying so, and reads older ones: a record
// without a stamp is of format 1, the format before stamps.
package stamp
