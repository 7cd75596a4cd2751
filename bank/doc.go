// Package bank is the versioned store of typed computations that the
// reconstruct workflow and controllers observe, edit and commit
// (shared/spec/PROTOCOL.md and BANK.md).
//
// The in-memory core:
//
//   - Value: every kind of BANK.md with strict decoding (DecodeValue, errors
//     name the path of the bad field), canonical JSON (Value.Canonical) and
//     content hashes (Value.Hash, "sha256:" + hex).
//   - Registry: the built-in operations with typed signatures and versions,
//     user functions (typed sub-graphs, Registry.WithFunction), registered
//     programs (Registry.WithProgram) and the registry identity
//     (Registry.Identity).
//   - Graph: inputs, op / map / filter / fold / choice nodes and outputs;
//     Validate checks names, references, kinds and cycles before anything
//     runs; ApplyEdits applies up to 64 graph edits to a copy.
//   - Evaluator: demand-driven evaluation with a call budget shared by
//     per-item calls, a trace with paths like root/shifted/item_0, and the
//     potential dependencies of every output. program.apply runs through
//     an injected ProgramRunner (a sandbox); the bank never runs untrusted
//     code in process.
//   - Compare: residuals of outputs against typed targets.
package bank
