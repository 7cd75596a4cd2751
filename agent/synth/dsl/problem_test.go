package dsl

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
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

// Objects are outputs too: the same keys every time make a record, one
// component per key; keys that vary make the pair of the keys in sorted
// order and their values; what neither can hold stays unsupported, with
// the output named.
func TestObjectOutputs(t *testing.T) {
	tests := []struct {
		name   string
		outs   []string
		keys   []string // a record's keys
		object bool     // keys and values
		parts  []Type
		err    string
	}{
		{name: "a record of two counts", outs: []string{`{"low": 1, "high": 5}`, `{"high": 0, "low": -2}`},
			keys: []string{"high", "low"}, parts: []Type{Int, Int}},
		{name: "a record of a count and a list", outs: []string{`{"distance": 3, "order": [1, 2]}`, `{"distance": 0, "order": []}`},
			keys: []string{"distance", "order"}, parts: []Type{Int, ListInt}},
		{name: "counts per word", outs: []string{`{"a": 2, "cat": 1}`, `{}`, `{"the": 3}`},
			object: true, parts: []Type{ListStr, ListInt}},
		{name: "one key is not a record", outs: []string{`{"n": 1}`, `{"n": 2}`},
			object: true, parts: []Type{ListStr, ListInt}},
		{name: "values of mixed kinds under varying keys", outs: []string{`{"a": 1}`, `{"b": "x", "c": 2}`},
			err: `output {"a":1}: objects are searched when they have the same keys every time or values of one kind`},
		{name: "a null value under varying keys", outs: []string{`{"a": null}`, `{"b": 1, "c": 2}`},
			err: `output {"a":null}: objects are searched`},
		{name: "an object beside a number", outs: []string{`{"a": 1}`, `3`},
			err: `output {"a":1}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Problem{Round: -1, Envs: make([][]any, len(tc.outs))}
			err := p.SetOutputs(decodeAll(t, tc.outs))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrUnsupported) {
					t.Fatalf("err = %v, want ErrUnsupported naming %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Out != Tuple || p.Object != tc.object || !slices.Equal(p.Keys, tc.keys) {
				t.Fatalf("type %v, object %v, keys %v; want a tuple, object %v, keys %v", p.Out, p.Object, p.Keys, tc.object, tc.keys)
			}
			var got []Type
			for _, part := range p.Parts {
				got = append(got, part.Out)
			}
			if !slices.Equal(got, tc.parts) {
				t.Errorf("parts %v, want %v", got, tc.parts)
			}
		})
	}
}
