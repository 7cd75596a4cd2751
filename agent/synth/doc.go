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
//
// # Where things are
//
// The agent:
//   - agent.go: Agent, Options and Write (one search per new set of
//     examples, going on with a search that found nothing while the
//     examples stay the same and the run's time lasts, the notes, the
//     constant program written when the DSL cannot express the task).
//     A cancelled context stops a session within milliseconds and writes
//     nothing; Options.MaxPrograms bounds searches by programs instead of
//     time, so that a loaded machine finds the same programs.
//   - propose.go: Propose, choosing inputs that split the programs still
//     consistent, then inputs covering missing categories; the JSON values
//     of proposals.
//
// The DSL:
//   - value.go: the types (int, float, bool, str and lists of them, lists
//     of pairs), conversion from and to JSON, comparison with the expected
//     outputs.
//   - dsl.go: operators, programs (node) and lambdas, their evaluation.
//   - vec.go: typed value vectors: a program's values on every example as
//     one typed column and a mask of the examples where it raised, their
//     hashing and boxing.
//   - kernel.go: typed operators: one typed Go function gives an operator
//     its evaluation over boxed values, its kernel over columns (what the
//     enumerator runs) and its typed lowering in lambda bodies.
//   - lambda_typed.go: lambda bodies compiled over typed values.
//   - arena.go: the arena kernels take list results from (rewound when a
//     program is a duplicate) and the store of the programs the bank
//     keeps.
//   - arith.go: integer and float arithmetic with Python's semantics.
//   - python.go: the translation of a program into a candidate.py.
//
// The operators:
//   - catalog.go: the one catalogue, assembled once, in the order the
//     enumerator tries operators.
//   - ops.go: the settings beside a signature (rare, comprehension, extra
//     cost, the Python builtin it is), the constructors of families of
//     operators, the conditional, and the generic helpers over lists;
//     ops_typed.go the typed helpers (lambda calls, map, filter, sort by
//     a key, indexing) the operators are written with.
//   - ops_int.go, ops_float.go, ops_string.go, ops_list.go, ops_pair.go,
//     ops_geometry.go, ops_loop.go: the operators by the values they work
//     on, each with its Python helpers; a few (iroot, find of a string or
//     a list, occurrences, codes, rotate_right) are operators of whole
//     programs only, kept out of the lambda bodies; ops_extra.go holds
//     operators of sketches' holes only (int of a string).
//
// The search:
//   - problem.go: a Write request as the enumerator sees it: how inputs bind
//     to variables, the examples' environments and outputs;
//     binding_args.go the several arguments of one input, binding_tokens.go
//     a list of tokens (integers beside words, records) bound as their
//     texts.
//   - consts.go: constants mined from the task's text.
//   - lambdas.go: the lambda banks (enumerated once per process, per mined
//     constants, bounded by counts and never by the clock) and the lambdas added by hand: conditional, keyed,
//     anchored.
//   - enum.go: the enumerator: the bank of programs by type and size,
//     levels, observational equivalence, the search's clock (time or
//     programs evaluated) and cancellation, and the jobs and reductions
//     the sweeps share.
//   - hash.go: hashing programs' values and the set of hashes.
//   - gc.go: the garbage collector's target while a search runs.
//   - search.go: one search: the enumerator's levels and, around them, the
//     strategies below; a search stopped by its clock resumes where it
//     stopped (the level it was cut in, then larger sizes).
//   - rivals.go: the programs a proposal tells apart: every program
//     consistent with the examples up to two sizes past the smallest.
//
// The strategies of a search, one file each:
//   - strategy_table.go: categorical outputs named by a table over a
//     computed value (checked on every new program).
//   - strategy_switch.go: list transducers whose output is a state set
//     or kept by intervals of the element (hysteresis, a toggle), learned
//     in one pass over the positions, with rival programs at the ends of
//     each threshold's gap (after size 4, first); then strategy_walk.go
//     (a walk on a grid, each command character's move learned),
//     strategy_queue.go (jobs served in order by one server) and the
//     whole-list map of strategy_window.go (each element against the
//     list's sum and length).
//   - strategy_loops.go: whole programs that are one loop over an integer
//     input, checked example by example (after size 4, next).
//   - strategy_sweep_inputs.go: every lambda with every one-lambda operator
//     over the inputs, one lambda size at a time, reduced as it goes
//     (after size 4, next).
//   - strategy_sweep_derived.go: the same over derived lists (cumsum(xs),
//     s.split()) (after size 4, last).
//   - strategy_conditional.go: "t if c else e" from two programs each right
//     on part of the examples (after each size from 3).
//   - strategy_modulus.go: "program % m" for the usual moduli m the
//     constants do not reach, from the programs congruent to the outputs
//     (after each size from 2).
//   - strategy_families.go: the sketches for programs beyond the sizes
//     reached, run after size 4 after the sweeps, in this order:
//     strategy_template_dp.go (1-D recurrences over an integer),
//     strategy_template_digits.go (digit lists in base b combined with a
//     carry or borrow), strategy_template_digitvalue.go (digit lists read
//     as numbers, a function of the numbers searched as a hole, digits
//     written back), strategy_template_stack.go (tokens run on a stack,
//     operator codes' meanings learned), strategy_template_interp.go
//     (token lists run on a stack, each word's stack effect learned by
//     backtracking over the examples), strategy_brackets.go (a string's
//     brackets scanned with a stack), strategy_state.go (a small state
//     updated by every element, the output the state or a function of
//     it), strategy_diffusion.go (error diffusion: a threshold and a
//     carried error) and strategy_window.go (position-wise decomposition: each
//     output position a data point of a scalar function of a window, the
//     previous output, the other list, searched by the enumerator as a
//     hole), then strategy_template_listdp.go (recurrences over a list's
//     elements: two back, or a pairwise table as for the longest
//     increasing subsequence), strategy_indices.go (a list of indices as
//     a truth function of each index's elements), strategy_first.go (the
//     first position at which a function of the element, the prefix and
//     the rest holds), strategy_pairs.go (the first pair of indices or
//     slice for which a condition holds) and
//     strategy_words.go (a string mapped word by word, with a condition
//     picking the words that change) and strategy_chunks.go (a string
//     cut into units of a fixed width, each mapped, joined again).
//   - LastResort (strategy_families.go): the sketches that fit too
//     easily to stand beside the enumerated programs, tried when a search
//     ends with nothing consistent: strategy_template_chartable.go (a
//     value per character solved as a linear system, optionally with the
//     subtractive rule of Roman numerals).
//
// Input proposal:
//   - propose_template.go: the template of inputs read from the task's
//     description, and the phrases of its constraints.
//   - propose_random.go: inputs drawn by the task's kind, or from the
//     template.
//   - propose_mutate.go: inputs mutated from the observed ones, keeping
//     their structure.
//   - propose_lesson.go: what a rejection by the hidden program teaches
//     about the inputs it accepts.
//
// internal/selfcheck is a development command that measures the
// synthesizer on a task set without the workflow.
//
// Tests are named after the file they test; helpers_test.go holds the
// shared helpers, and golden_test.go records under testdata/golden/ what
// the synthesizer does independently of the clock (the catalogue, the
// lambda banks, the enumeration order, the programs found, the inputs
// proposed), so that a change of behaviour shows as a diff.
package synth
