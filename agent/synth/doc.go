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
// # Packages
//
// The synthesizer is four packages, each importing only those below it:
//
//   - dsl: the language: values and their types, programs, operators and
//     their catalogue, kernels over columns of values, the arena, the
//     problem a search is asked, Python emission.
//   - inputs: the inputs proposed: constraint phrases, the template of
//     inputs, random and mutated inputs, lessons from rejections.
//   - sketch: programs of a fixed shape whose holes are learned from the
//     examples; a sketch reaches the enumerator only through the Holes of
//     its Search, which this package implements.
//   - synth (this package): the agent, the search and its enumerator, the
//     lambda banks, the problem of a task, the rivals a proposal tells
//     apart, and the strategies that work on the enumerator's bank.
//
// # Where things are
//
// The agent:
//   - agent.go: Agent, Options and Write (one search per new set of
//     examples, going on with a search that found nothing while the
//     examples stay the same and the run's budget lasts, the notes, the
//     constant program written when the DSL cannot express the task);
//     searchleft.go whether the last search has strategies left and, when
//     not, what it tried (workflow.Searcher); refit.go a sketch's
//     program learned again first when new examples contradict it.
//     A cancelled context stops a session within milliseconds and writes
//     nothing; Options.MaxPrograms bounds searches by programs instead of
//     time, so that a loaded machine finds the same programs.
//   - propose.go: Propose, choosing inputs that split the candidate from
//     its rivals, then probes, then inputs that split the programs still
//     consistent, then inputs covering missing categories; probes.go the
//     inputs built to probe the candidate in the pool.
//   - rivals.go: the programs a proposal tells apart: every program
//     consistent with the examples up to two sizes past the smallest, and
//     their near misses (the candidate's too).
//   - verify.go: the candidate the last Write wrote, its rivals split by
//     a proposal and the report of it (workflow.RivalSearcher).
//
// The problem of a task:
//   - problem.go: a Write request as the enumerator sees it: how inputs
//     bind to variables (the dsl.Problem and dsl.Binding built from the
//     task and its examples); binding_args.go the several arguments of
//     one input, binding_tokens.go a list of tokens (integers beside
//     words, records) bound as their texts.
//   - consts.go: constants mined from the task's text.
//
// The search:
//   - lambdas.go: Shared, the lambda banks shared by the searches of a
//     run, a sweep or a worker (built once per set of mined constants,
//     bounded by counts and never by the clock, kept for the last
//     SharedOptions.TaskBanks sets), and the lambdas added by hand:
//     conditional, keyed, anchored.
//   - enum.go: the enumerator: the bank of programs by type and size,
//     levels, observational equivalence, the search's clock (time or
//     programs evaluated) and cancellation; enum_sweep.go the jobs and
//     reductions the sweeps share.
//   - gc.go: the garbage collector's target while a search runs.
//   - search.go: one search: the enumerator's levels and, around them, the
//     strategies below and the sketches; a search stopped by its clock
//     resumes where it stopped (the level it was cut in, then larger
//     sizes).
//   - holes.go: the enumerator filling a sketch's holes (sketch.Holes).
//   - split.go: component-wise outputs (lists of one length, records and
//     objects) and text templates, each part searched on its own and
//     joined; split_template.go, split_keyed.go the templates and their
//     category words; split_derive.go a component made of solved ones.
//
// The strategies that work on the enumerator's bank, one file each:
//   - strategy_table.go: categorical outputs named by a table over a
//     computed value (checked on every new program).
//   - strategy_loops.go: whole programs that are one loop over an integer
//     input, checked example by example (after size 4).
//   - strategy_sweep_inputs.go: every lambda with every one-lambda operator
//     over the inputs, one lambda size at a time, reduced as it goes
//     (after size 4); strategy_sweep_derived.go the same over derived
//     lists (cumsum(xs), s.split()).
//   - strategy_conditional.go: "t if c else e" from two programs each right
//     on part of the examples (after each size from 3).
//   - strategy_modulus.go: "program % m" for the usual moduli m the
//     constants do not reach, from the programs congruent to the outputs
//     (after each size from 2).
//
// At size 4 the search runs the sketches' machines, walks, queues and the
// whole-list map, then the loops and sweeps above, then sketch.Families;
// sketch.LastResort when a search ends with nothing consistent, then its
// partial programs with a default where they raise (orDefault).
//
// internal/selfcheck is a development command that measures the
// synthesizer on a task set through the workflow.
//
// Tests are named after the file they test; the tests of the sketches run
// them with the enumerator and are here (sketch_*_test.go). helpers_test.go
// holds the shared helpers, and golden_test.go records under
// testdata/golden/ what the synthesizer does independently of the clock
// (the catalogue, the lambda banks, the enumeration order, the programs
// found, the inputs proposed), so that a change of behaviour shows as a
// diff.
package synth
