package sketch

import "testing"

// solveIntegerSystem tells a unique solution from free unknowns, and has
// no answer for an inconsistent or fractional system.
func TestSolveIntegerSystem(t *testing.T) {
	cases := []struct {
		name   string
		rows   [][]int64
		ys     []int64
		want   []int64
		unique bool
		good   bool
		// biasFirst pivots the last unknown first.
		biasFirst bool
	}{
		{"unique", [][]int64{{1, 1}, {1, -1}}, []int64{5, 1}, []int64{3, 2}, true, true, false},
		{"free unknown is 0", [][]int64{{1, 1}}, []int64{4}, []int64{4, 0}, false, true, false},
		{"inconsistent", [][]int64{{1, 1}, {2, 2}}, []int64{1, 3}, nil, false, false, false},
		{"fractional", [][]int64{{2}}, []int64{3}, nil, false, false, false},
		{"overdetermined", [][]int64{{1, 0}, {0, 1}, {1, 1}}, []int64{2, 3, 5}, []int64{2, 3}, true, true, false},
		{"a pivot of 1 preferred", [][]int64{{3, 1}}, []int64{10}, []int64{0, 10}, false, true, false},
		{"fractional with free unknowns as 0", [][]int64{{2, 3}}, []int64{3}, nil, false, false, false},
		{"bias first", [][]int64{{2, 3}}, []int64{3}, []int64{0, 1}, false, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			solve := solveIntegerSystem
			if c.biasFirst {
				solve = solveBiasFirst
			}
			got, unique, good := solve(c.rows, c.ys)
			if good != c.good || unique != c.unique || (good && !slicesEqual(got, c.want)) {
				t.Errorf("got %v unique %v good %v, want %v %v %v", got, unique, good, c.want, c.unique, c.good)
			}
		})
	}
}

func slicesEqual(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
