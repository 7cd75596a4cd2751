package synth

import (
	"slices"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// repeatsArgument reports whether the values out (failed where bad) of
// op applied to the picked programs are those of one of its arguments,
// value for value and failure for failure: its hash is then the
// argument's, in the set (the argument is a program of the bank, of op's
// result type). Values the same on every environment (same, and then
// the arguments' too) are compared on the first.
func repeatsArgument(op *dsl.Operator, out any, bad []bool, picked []*dsl.Entry, n int, same bool) bool {
	if same {
		n = 1
	}
	for j, t := range op.Args {
		if t == op.Ret && sameValues(out, bad, picked[j].Col, n) {
			return true
		}
	}
	return false
}

// sameValues reports whether the column data (failed where bad) holds the
// values of v (of data's type) on the first n environments; values equal
// by == hash alike (floatKey included).
func sameValues(data any, bad []bool, v dsl.Vec, n int) bool {
	switch c := data.(type) {
	case []int64:
		return sameRows(c, v.Data.([]int64), bad, v.Bad, n, func(x, y int64) bool { return x == y })
	case []float64:
		return sameRows(c, v.Data.([]float64), bad, v.Bad, n, func(x, y float64) bool { return x == y })
	case []bool:
		return sameRows(c, v.Data.([]bool), bad, v.Bad, n, func(x, y bool) bool { return x == y })
	case []string:
		return sameRows(c, v.Data.([]string), bad, v.Bad, n, func(x, y string) bool { return x == y })
	case [][]int64:
		return sameRows(c, v.Data.([][]int64), bad, v.Bad, n, slices.Equal[[]int64])
	case [][]float64:
		return sameRows(c, v.Data.([][]float64), bad, v.Bad, n, slices.Equal[[]float64])
	case [][]bool:
		return sameRows(c, v.Data.([][]bool), bad, v.Bad, n, slices.Equal[[]bool])
	case [][]string:
		return sameRows(c, v.Data.([][]string), bad, v.Bad, n, slices.Equal[[]string])
	case [][]dsl.Pair:
		return sameRows(c, v.Data.([][]dsl.Pair), bad, v.Bad, n, slices.Equal[[]dsl.Pair])
	}
	return false
}

// sameRows reports whether a (failed where bad) and b (failed where
// bBad, nil for nowhere) fail alike and agree by eq everywhere else, in one
// pass that stops at the first environment that differs.
func sameRows[T any](a, b []T, bad, bBad []bool, n int, eq func(x, y T) bool) bool {
	a, b, bad = a[:n], b[:n], bad[:n]
	for i := range a {
		failed := bBad != nil && bBad[i]
		if bad[i] != failed || (!failed && !eq(a[i], b[i])) {
			return false
		}
	}
	return true
}
