// Package judge decides whether a program's outcomes match the expected
// outputs of a set of examples, and says why each one that does not fails.
// It is the one comparison used by the workflow's evaluation, the agents'
// own checks, candidate rescoring and the sweep's held-out scoring, so that
// a candidate passes or fails the same way wherever it is judged.
package judge
