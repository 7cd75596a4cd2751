// Package inputs makes the inputs the synthesizer proposes: it reads the
// bounds and the template of a task's inputs from its description
// (constraint phrases such as "1 to 20 integers between -100 and 100",
// input types such as "a list of (name, score) pairs"), draws inputs by
// the task's kind or from the template, mutates the observed inputs
// keeping their structure, and learns from the inputs the hidden program
// rejected what it accepts.
//
// It works on JSON values (int64, float64, json.Number, string, []any,
// map[string]any) and knows nothing of programs: the synthesizer's
// Propose (package synth) chooses among the inputs it makes those that
// tell the programs still consistent apart.
//
// # Where things are
//
//   - constraints.go: the phrases of a description that bound its inputs.
//   - args.go: several arguments in one list, typed by the words that
//     describe them ("[text, banned]: a sentence and a list of banned
//     words").
//   - clauses.go: what a clause of the constraints says of the argument
//     it names ("rate from 0 to 1.5 with at most two decimals", "noun 1
//     to 12 lowercase letters", "no letter twice in source").
//   - template.go: the template of inputs read from a description (one
//     Template node per part: a number, a float, a string, a list, a
//     tuple, an object, a postfix expression...).
//   - grammar.go: strings with a grammar of characters (items joined by
//     separators, segments in order).
//   - notations.go: standard notations a description names (Roman
//     numerals, the rolls of a bowling game).
//   - records.go: lists of records kept in a running tally (numbers
//     written as strings, tokens that need values kept before them).
//   - random.go: inputs drawn by the task's kind within Limits, or from
//     the template (TemplateGenerator).
//   - mutate.go: inputs mutated from the observed ones (Observation).
//   - lesson.go: what a rejection by the hidden program teaches (Lesson).
//   - construct.go: inputs built to probe a candidate (Construct): its
//     arguments in relations, the boundaries of its constants, an input
//     of every coverage category; fit.go what a relation may put in an
//     argument's place.
//   - values.go: JSON values: copies, order, lengths, whether an input
//     keeps its template's shape.
package inputs
