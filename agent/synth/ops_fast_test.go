package synth

import (
	"slices"
	"testing"
)

// The fast forms of divisors and uniqueOrdered against their plain
// definitions.
func TestDivisorsMatchesDefinition(t *testing.T) {
	var op *Op
	for _, o := range listOps {
		if o.Name == "divisors" {
			op = o
		}
	}
	if op == nil {
		t.Fatal("no divisors operator")
	}
	for n := int64(-3); n <= 3000; n++ {
		want := []int64{}
		for d := int64(1); d <= n; d++ {
			if n%d == 0 {
				want = append(want, d)
			}
		}
		got, ok := op.Eval(nil, []any{n}).([]int64)
		if !ok || !slices.Equal(got, want) {
			t.Fatalf("divisors(%d) = %v, want %v", n, got, want)
		}
	}
}

func TestUniqueOrdered(t *testing.T) {
	tests := []struct {
		name string
		in   []int64
		want []int64
	}{
		{"empty", []int64{}, []int64{}},
		{"repeats keep the first", []int64{3, 1, 3, 2, 1}, []int64{3, 1, 2}},
		{"long list hashed", append(slices.Repeat([]int64{5, 4}, 20), 9), []int64{5, 4, 9}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := uniqueOrdered(tc.in)
			if got == nil || !slices.Equal(got, tc.want) {
				t.Errorf("uniqueOrdered(%v) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}
