package dsl

import (
	"encoding/json"
	"testing"
)

// The outputs say whether they are rounded: written with at most ten
// decimals, one of them a decimal no short binary fraction has, they are
// read as rounded to the most decimals seen; dyadic ones keep the old
// tolerance of six decimals; longer ones are exact.
func TestOutputRounding(t *testing.T) {
	tests := []struct {
		name string
		outs []string
		want int
	}{
		{"probabilities to four decimals", []string{"0.1127", "0.0", "0.5"}, 4},
		{"money to two decimals", []string{"46.4", "128.09", "0.0"}, 2},
		{"halves and quarters say nothing", []string{"1.5", "1.0", "0.0", "0.75"}, 6},
		{"a long binary fraction says nothing", []string{"0.927001953125"}, -1},
		{"a long decimal is exact", []string{"1.5", "2.9289682539682538"}, -1},
		{"an exponent is exact", []string{"1e-05", "0.25"}, -1},
		{"integers are not floats", []string{"3", "4"}, -1},
		{"lists of floats", []string{"[0.3, 1.25]", "[]"}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Problem{Round: -1}
			if err := p.SetOutputs(decodeAll(t, tc.outs)); err != nil {
				t.Fatal(err)
			}
			if p.Round != tc.want {
				t.Errorf("Round = %d, want %d", p.Round, tc.want)
			}
		})
	}
}

// A program is emitted rounded only when some example needs the rounding.
func TestRoundFor(t *testing.T) {
	p := &Problem{Round: -1}
	if err := p.SetOutputs(decodeAll(t, []string{"0.1127", "0.5", "null"})); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		vals []any
		want int
	}{
		{"exact values are not rounded", []any{0.1127, 0.5, ErrV}, -1},
		{"a value matching once rounded is", []any{73.0 / 648, 0.5, ErrV}, 4},
		{"a wrong value does not ask for rounding", []any{0.2, 0.5, ErrV}, -1},
		{"failures ask for nothing", []any{ErrV, 0.5, ErrV}, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := p.RoundFor(tc.vals); got != tc.want {
				t.Errorf("RoundFor = %d, want %d", got, tc.want)
			}
		})
	}
	// Rounded is Python's round(v, 4): correctly rounded decimals, ties
	// of the exact binary value to even.
	for _, c := range [][2]float64{{73.0 / 648, 0.1127}, {2.675, 2.675}, {0.00005, 0.0001}} {
		if got := p.Rounded(c[0]); got != c[1] {
			t.Errorf("Rounded(%v) = %v, want %v", c[0], got, c[1])
		}
	}
}

func decodeAll(t *testing.T, raws []string) []any {
	t.Helper()
	out := make([]any, len(raws))
	for i, r := range raws {
		v, ok := DecodeRaw(json.RawMessage(r))
		if !ok {
			t.Fatalf("bad JSON %s", r)
		}
		out[i] = v
	}
	return out
}
