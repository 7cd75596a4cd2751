// Package sketch holds the sketches of the synthesizer: programs of a
// fixed shape whose holes are learned from the examples, for the tasks
// that the enumerator's sizes do not reach. Each sketch splits a
// problem (dsl.Problem) into the data points of its holes — a function
// of a window of a list, the action of a state machine, the rule of one
// word, a digit loop's carry, a stack's operator codes — and either
// learns a hole in one pass over the examples or has it filled by the
// search's enumerator, which it reaches only through the Holes interface
// of its Search. A program found is offered to the search as one node
// whose operator runs the whole sketch, and whose Python is a loop.
//
// The search (package synth) runs the sketches in its own order: the
// machines, walks, queues and the whole-list map after size 4, then the
// sweeps, then Families; LastResort when nothing fits.
//
// # Where things are
//
//   - families.go: Search and Holes, the order of Families and
//     LastResort, the helpers every sketch shares.
//   - switch.go: list transducers whose output is a state set or kept by
//     intervals of the element; walk.go walks on a grid; queue.go jobs
//     served in order by one server; state.go a small state updated by
//     every element; diffusion.go error diffusion.
//   - window.go: position-wise decomposition (each output position a data
//     point of a function of a window, the previous output, the other
//     list) and the whole-list map.
//   - dp.go, listdp.go: recurrences over an integer and over a list's
//     elements; align.go tables over two sequences' prefixes; shifts.go
//     two sequences compared at every amount one is rotated or shifted
//     by (seqpair.go reads a problem as two sequences); orbit.go an
//     integer iterated under a map.
//   - digits.go, digitvalue.go: numbers as lists of digits (a carry or a
//     borrow; digits read as numbers and written back).
//   - stack.go, interp.go: tokens run on a stack (operator codes; each
//     word's stack effect); brackets.go a string's brackets.
//   - indices.go, first.go, pairs.go: lists of indices, the first position
//     or the first pair for which a condition holds; neighbours.go the
//     positions where a test of an element and its neighbours holds.
//   - words.go, chunks.go: a string mapped word by word, or cut into units
//     of a fixed width; wordtable.go two functions of a word chosen by a
//     condition or a table of words, wordcut.go words cut before their
//     first vowel or digit.
//   - guard.go: a number where a condition holds and None elsewhere.
//   - chartable.go: a value per character solved as a linear system (the
//     last resort).
package sketch
