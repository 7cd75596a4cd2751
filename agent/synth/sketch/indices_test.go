package sketch

import (
	"testing"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Outputs that are not increasing indices of the lists are not index sets
// (increasing indices in range are).
func TestNewIndexSetDeclines(t *testing.T) {
	cases := []struct {
		name string
		outs [][]int64
		want bool
	}{
		{"out of range", [][]int64{{0, 3}, {1}}, false},
		{"not increasing", [][]int64{{1, 0}, {2}}, false},
		{"repeated", [][]int64{{1, 1}, {0}}, false},
		{"increasing indices in range", [][]int64{{0, 2}, {1}}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &dsl.Problem{B: &dsl.Binding{Names: []string{"xs"}, Types: []dsl.Type{dsl.ListInt}, Line: "xs = input_data"},
				Envs: [][]any{{[]int64{5, 6, 7}}, {[]int64{1, 2, 3}}}, Outs: []any{c.outs[0], c.outs[1]},
				Out: dsl.ListInt, Ok: []dsl.Type{dsl.ListInt}, Round: -1}
			if _, good := newIndexSet(p); good != c.want {
				t.Errorf("outputs %v read as index sets: %v, want %v", c.outs, good, c.want)
			}
		})
	}
}
