// Package bank is the versioned store of typed computations that the
// reconstruct workflow and controllers observe, edit and commit
// (docs/bank.md).
//
// # Core (in memory)
//
//   - Value: every kind of docs/bank.md with strict decoding (DecodeValue; errors
//     name the path of the bad field, e.g. "inputs.grid.data[3]: row length
//     4, want 5"), canonical JSON (Value.Canonical) and content hashes
//     (Value.Hash, "sha256:" + hex). Constructors: Scalar, Index, Color,
//     Flag, PointValue, Text, NewGrid, NewProgram, NewExample, JSONValue,
//     List.
//   - Registry: the built-in operations with typed signatures and versions,
//     user functions (typed sub-graphs, Registry.WithFunction), registered
//     programs (Registry.WithProgram) and Registry.Identity.
//   - Graph: inputs, op / map / filter / fold / choice nodes and outputs;
//     Validate checks names, references, kinds and cycles before anything
//     runs; ApplyEdits applies up to 64 graph edits to a copy.
//   - Evaluator: demand-driven evaluation with a call budget shared by
//     per-item calls, a trace with paths like root/shifted/item_0, and the
//     potential dependencies of every output. program.apply runs through an
//     injected ProgramRunner (a sandbox); the bank never runs untrusted code
//     in process.
//   - Compare: residuals of an output against a typed target.
//
// # Bank (durable)
//
// New(store, Options{Logger, Runner, Budget}) returns a Bank over a Store;
// bank/sqlite provides the embedded SQLite Store (sqlite.Open(ctx, path)).
// Revision content is stored content-addressed: each input value and the
// graph structure under its hash, an input value over ChunkThreshold as a
// tree of content-defined chunks (content.go), so that a revision costs
// about what it changed. A Bank keeps recently used graph structures
// parsed and validated by hash (cache.go).
//
//   - Act(ctx, rawJSON) Response runs one protocol action (observe, propose,
//     commit, fork, undo, compare, create, checkout, register, list, log,
//     events) and never panics on bad input; the CLI and serve --stdio use
//     it. The protocol (Act, Response, ActionError and its codes, the table
//     of actions and their fields) is protocol.go; the operations are one
//     file per group: action_observe.go, action_propose.go,
//     action_commit.go, action_workspace.go (create, fork, undo, checkout),
//     action_compare.go, action_register.go and action_list.go (list, log,
//     events).
//   - Typed equivalents: Observe, Propose, Commit, Fork, Undo, Compare,
//     Checkout, Register, RegisterProgram, Workspaces, Log, Load, Registry.
//
// For the workflow (issue 8):
//
//	rec, err := b.Create(ctx, "task", &bank.Graph{Inputs: inputs, Outputs: outputs}, "start")
//	rec, err = b.Update(ctx, "task", rec.Name, map[string]bank.Value{"program": prog}, nil, "iter_003")
//	err = b.AppendEvents(ctx, "task", []bank.Event{{RunID: id, Type: "iteration", Data: raw}})
//	events, err := b.Events(ctx, "task")
//
// Update appends a revision that adds or replaces inputs (examples as
// list[example], programs as program values), guarded by the expected
// head (ErrStale otherwise). Events get the current time when Time is zero;
// Data is stored canonically. Every write is one transaction.
package bank
