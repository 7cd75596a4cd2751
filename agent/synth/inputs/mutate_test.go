package inputs

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

func decodeAll(t *testing.T, raws ...string) []any {
	t.Helper()
	var out []any
	for _, r := range raws {
		v, ok := dsl.DecodeRaw(json.RawMessage(r))
		if !ok {
			t.Fatalf("bad JSON %s", r)
		}
		out = append(out, v)
	}
	return out
}

// TestMutants checks that mutations keep the structure of the observed
// inputs: keys, tuple shapes and tags, the ranges and lengths seen, orders
// and token streams.
func TestMutants(t *testing.T) {
	tests := []struct {
		name  string
		obs   []string
		valid func(v any) error
	}{
		{name: "object keys and observed ranges",
			obs: []string{`{"cap": 2, "keys": [1, 3, 3]}`, `{"cap": 4, "keys": [0, 5]}`, `{"cap": 3, "keys": []}`},
			valid: func(v any) error {
				m, ok := v.(map[string]any)
				if !ok || len(m) != 2 {
					return fmt.Errorf("keys lost")
				}
				if err := intWithin(m["cap"], 2, 4); err != nil {
					return err
				}
				ks, err := listIn(m["keys"], 0, 3)
				if err != nil {
					return err
				}
				for _, k := range ks {
					if err := intWithin(k, 0, 5); err != nil {
						return err
					}
				}
				return nil
			}},
		{name: "tagged tuples keep their arity",
			obs: []string{`[["push", 3], ["pop"], ["add"]]`, `[["push", -2], ["push", 5], ["mul"]]`},
			valid: func(v any) error {
				xs, err := listIn(v, 2, 3)
				if err != nil {
					return err
				}
				for _, e := range xs {
					ins := e.([]any)
					switch {
					case ins[0] == "push" && len(ins) == 2:
						if err := intWithin(ins[1], -2, 5); err != nil {
							return err
						}
					case len(ins) == 1 && ins[0] != "push":
					default:
						return fmt.Errorf("bad instruction %v", ins)
					}
				}
				return nil
			}},
		{name: "sorted lists stay sorted",
			obs: []string{`[[0, 2], [3, 1], [3, 4], [9, 2]]`, `[[1, 1], [2, 2], [8, 3]]`},
			valid: func(v any) error {
				xs, err := listIn(v, 3, 4)
				if err != nil {
					return err
				}
				if !slices.IsSortedFunc(xs, compareValues) {
					return fmt.Errorf("%v is not sorted", xs)
				}
				return nil
			}},
		{name: "token streams keep their structure",
			obs: []string{`["3", "4", "+", "2", "*"]`, `["7", "1", "-"]`},
			valid: func(v any) error {
				xs := v.([]any)
				if len(xs) != 5 && len(xs) != 3 {
					return fmt.Errorf("length of %v changed", xs)
				}
				for i, tok := range xs {
					digit := isDigits(tok.(string))
					wantDigit := i < 2 || (len(xs) == 5 && i == 3)
					if digit != wantDigit {
						return fmt.Errorf("token class changed in %v", xs)
					}
				}
				return nil
			}},
		{name: "grid rows keep one length",
			obs: []string{`[[0, 1, 1], [1, 0, 0]]`, `[[1, 1, 0], [0, 0, 1], [1, 1, 1]]`},
			valid: func(v any) error {
				xs, err := listIn(v, 2, 3)
				if err != nil {
					return err
				}
				for _, r := range xs {
					if _, err := listIn(r, 3, 3); err != nil {
						return err
					}
				}
				return nil
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obs := decodeAll(t, tt.obs...)
			o := Observe(obs, nil, NewLesson())
			rng := rand.New(rand.NewSource(3))
			made := 0
			for range 300 {
				v, ops := o.Mutant(rng, obs, MutationOps, 3)
				if v == nil {
					continue
				}
				made++
				if len(ops) == 0 {
					t.Fatalf("mutant %s without operations", Encode(v))
				}
				if err := tt.valid(RoundTrip(v)); err != nil {
					t.Fatalf("mutant %s by %v: %v", Encode(v), ops, err)
				}
			}
			if made < 100 {
				t.Errorf("only %d of 300 mutations succeeded", made)
			}
		})
	}
}
