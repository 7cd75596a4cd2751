package dsl

import (
	"math"
	"testing"
)

// TestEqualTo checks the comparison of a program's value with an expected
// output: numbers numerically, floats within atol, lists element-wise
// with equal lengths, other types exactly.
func TestEqualTo(t *testing.T) {
	const atol = 1e-9
	tests := []struct {
		name      string
		got, want any
		equal     bool
	}{
		{"equal integers", int64(3), int64(3), true},
		{"different integers", int64(3), int64(4), false},
		{"float for an integer", 3.0000000001, int64(3), true},
		{"float off an integer", 3.1, int64(3), false},
		{"integer for a float", int64(2), 2.0, true},
		{"floats within atol", 0.1 + 0.2, 0.3, true},
		{"floats apart", 0.3, 0.31, false},
		{"infinities", math.Inf(1), math.Inf(1), true},
		{"infinity for a large float", math.Inf(1), math.MaxFloat64, false},
		{"bools", true, true, true},
		{"bool for an integer", true, int64(1), false},
		{"strings", "ab", "ab", true},
		{"strings differ", "ab", "abc", false},
		{"integer lists", []int64{1, 2}, []int64{1, 2}, true},
		{"empty lists", []int64{}, []int64(nil), true},
		{"lists of other lengths", []int64{1}, []int64{1, 2}, false},
		{"float list for an integer list", []float64{1, 2.0000000001}, []int64{1, 2}, true},
		{"integer list for a float list", []int64{1, 2}, []float64{1, 2.5}, false},
		{"float lists within atol", []float64{0.1 + 0.2}, []float64{0.3}, true},
		{"bool lists", []bool{true, false}, []bool{true, false}, true},
		{"string lists differ", []string{"a"}, []string{"b"}, false},
		{"pair lists", []Pair{{1, 2}}, []Pair{{1, 2}}, true},
		{"pair lists differ", []Pair{{1, 2}}, []Pair{{2, 1}}, false},
		{"string for a list", "a", []string{"a"}, false},
		{"an error", ErrV, int64(0), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := EqualTo(tc.got, tc.want, atol); got != tc.equal {
				t.Errorf("equalTo(%#v, %#v) = %v, want %v", tc.got, tc.want, got, tc.equal)
			}
		})
	}
}
