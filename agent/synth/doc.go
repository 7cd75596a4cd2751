// Package synth is the built-in program-by-example synthesizer: an Agent that
// needs no language model. Write enumerates programs of a small typed DSL
// bottom-up by size, merging programs that are observationally equivalent on
// the known inputs, and translates the smallest program consistent with
// every example into idiomatic Python. Propose keeps the programs that are
// still consistent and queries the inputs on which they disagree most.
//
// Programs are evaluated natively in Go with Python's semantics (floor
// division, modulo sign, banker's rounding), so the emitted candidate.py
// behaves like the program the enumerator checked.
package synth
