// Package binding binds tasks from Python: a factory named module:callable,
// called with a task's arguments, returns an object holding the task's
// fields (input_type, kind, an oracle callable, random_inputs, hooks). The
// binding's code never runs in this process: Load reads its modules' sources
// (reading is not running), and every call — the factory, the oracle, the
// generator, the hooks — runs in a sandbox child through a small shim
// (python/shim.py) that imports them from the sources read at Load. The
// package also embeds the pure-Python modules users import:
// reconstruct_binding (the ReconstructionTask dataclass) and reconstruct_bank
// (a client of `reconstruct bank serve --stdio`).
package binding
