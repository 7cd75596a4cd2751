// Package dsl is the synthesizer's language: the types of its values
// (int, float, bool, str, lists of them, lists of pairs) and their JSON
// forms, programs (Node) of operators (Operator) over variables,
// constants and lambdas, the catalogue of every operator in the order
// the enumerator tries them, and the translation of a program into the
// Python of a candidate.py.
//
// Programs are evaluated natively in Go with Python's semantics (floor
// division, modulo sign, banker's rounding): one typed Go function gives
// an operator its evaluation over boxed values, its kernel over a column
// of values (Vec: a program's values on every example at once, what the
// enumerator runs) and its lowering in lambda bodies. The arena holds the
// lists kernels return and the store the programs a bank keeps.
//
// A Problem is what a search is asked: the examples' environments (the
// inputs bound to variables by a Binding), their outputs in one type,
// and how a program's values are matched against them. Sketches split a
// problem into sub-problems of their own; the search (package synth)
// builds the problem of a task.
//
// # Where things are
//
//   - value.go: the types, conversion from and to JSON, comparison with
//     the expected outputs.
//   - dsl.go: operators, programs (Node) and lambdas, their evaluation.
//   - vec.go: typed value vectors (a program's values as one typed column
//     and a mask of the examples where it raised), their hashing and
//     boxing; hash.go the hashing of values and the set of hashes;
//     entry.go a program with its values.
//   - kernel.go: typed operators (evaluation, kernel, lowering from one
//     typed function); lambda_typed.go lambda bodies compiled over typed
//     values; lambdas.go the lambda banks.
//   - arena.go: the arena kernels take list results from and the store
//     of the programs a bank keeps; chunk_*.go their memory.
//   - arith.go: integer and float arithmetic with Python's semantics.
//   - catalog.go: the one catalogue, assembled once, in the order the
//     enumerator tries operators.
//   - ops.go, ops_typed.go: the building blocks of operators and their
//     typed helpers; ops_int.go, ops_float.go, ops_string.go,
//     ops_list.go, ops_pair.go, ops_geometry.go, ops_loop.go: the
//     operators by the values they work on, each with its Python
//     helpers; ops_grammar.go strings read as arithmetic expressions;
//     ops_multiset.go lists read as multisets; ops_positions.go two
//     sequences compared position by position;
//     ops_extra.go the operators of sketches' holes only.
//   - split.go: the components of outputs (lists of one length, records,
//     objects of varying keys) and their join; ordefault.go a value where
//     a program raises.
//   - python.go: the translation of a program into a candidate.py.
//   - problem.go: the problem and its binding, the matching of values
//     against the outputs; labels.go categorical outputs.
package dsl
