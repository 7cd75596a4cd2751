package dsl

import (
	"os/exec"
	"slices"
	"testing"
)

// multisetInputs are pairs of lists with repeats, interleavings and empty
// sides.
var multisetInputs = []string{
	"[[], []]", "[[1, 2, 3], []]", "[[], [1]]", "[[5, 5, 5], [5, 5]]", "[[1, 2, 1], [1]]", "[[2, 1, 2, 1], [1, 2, 3]]",
	"[[-5, 6, -2, 0, -9, 0, 9, 9, -5, 1], [1, -6, 5, -2, 8, 5, -6, -7, -7]]", "[[4, -3, -7], [4, -7, -3, -4]]", "[[3, 3], [3, 3, 3]]",
}

// TestMultisetPythonMatchesGo checks the multiset operators against their
// Python helpers (collections.Counter).
func TestMultisetPythonMatchesGo(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: cannot compare emitted Python with the Go evaluator")
	}
	for _, name := range []string{"multiset_minus", "multiset_common"} {
		t.Run(name, func(t *testing.T) {
			checkLibCase(t, py, libCase{name: name, vars: []string{"xs", "ys"}, types: []Type{ListInt, ListInt}, inputs: multisetInputs,
				prog: func(t *testing.T) *Node { return app(findOp(t, name, ListInt, ListInt), vr(0), vr(1)) }})
		})
	}
}

// TestMultisetKeep pins which occurrences each operator keeps.
func TestMultisetKeep(t *testing.T) {
	tests := []struct {
		name          string
		xs, ys        []int64
		minus, common []int64
	}{
		{"empty", nil, nil, []int64{}, []int64{}},
		{"first occurrences taken", []int64{1, 2, 1}, []int64{1}, []int64{2, 1}, []int64{1}},
		{"multiplicity", []int64{5, 5, 5}, []int64{5, 5, 7}, []int64{5}, []int64{5, 5}},
		{"order of the first list", []int64{3, 1, 2}, []int64{2, 3}, []int64{1}, []int64{3, 2}},
		{"long second list", []int64{1}, slices.Repeat([]int64{2}, 100), []int64{1}, []int64{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := multisetKeep(nil, tc.xs, tc.ys, false); !slices.Equal(got, tc.minus) {
				t.Errorf("minus = %v, want %v", got, tc.minus)
			}
			if got := multisetKeep(&Arena{}, tc.xs, tc.ys, true); !slices.Equal(got, tc.common) {
				t.Errorf("common = %v, want %v", got, tc.common)
			}
		})
	}
}

// TestPositionsPythonMatchesGo checks the counts of equal and different
// positions of lists and strings against Python's zip.
func TestPositionsPythonMatchesGo(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: cannot compare emitted Python with the Go evaluator")
	}
	strs := []string{`["", ""]`, `["abc", ""]`, `["abc", "abd"]`, `["héllo", "hallo!"]`, `["aaaa", "aa"]`, `["xyz", "zyx"]`}
	for _, name := range []string{"matches", "mismatches"} {
		for _, c := range []libCase{
			{name: name + "_lists", vars: []string{"xs", "ys"}, types: []Type{ListInt, ListInt}, inputs: multisetInputs,
				prog: func(t *testing.T) *Node { return app(findOp(t, name, ListInt, ListInt), vr(0), vr(1)) }},
			{name: name + "_strings", vars: []string{"s", "t"}, types: []Type{Str, Str}, inputs: strs,
				prog: func(t *testing.T) *Node { return app(findOp(t, name, Str, Str), vr(0), vr(1)) }},
		} {
			t.Run(c.name, func(t *testing.T) { checkLibCase(t, py, c) })
		}
	}
}
