package inputs

import (
	"testing"

	"github.com/reconstruct/reconstruct/task"
)

// A description that bounds every part of an input lists its inputs; one
// that leaves a part open (no length, no range, no alphabet, numbers that
// may be floats) lists none, whatever the readings that guide proposals
// would take by default.
func TestFiniteInputs(t *testing.T) {
	tests := []struct {
		name string
		t    task.Task
		max  int
		n    int // inputs listed; 0: none
		from string
		has  []string
	}{
		{name: "an integer in a stated range", t: task.Task{Kind: task.KindInt, InputType: "an integer", InputConstraints: "one integer between 0 and 9"},
			max: 100, n: 10, from: "task.input_constraints", has: []string{"0", "9"}},
		{name: "an int task's domain is task.FiniteInputs'", t: task.Task{Kind: task.KindInt, InputType: "an integer", InputConstraints: "one integer between 0 and 9", Domain: &task.Domain{Lo: 0, Hi: 9}},
			max: 100},
		{name: "an integer with no range", t: task.Task{Kind: task.KindInt, InputType: "an integer"}, max: 100},
		{name: "a list of bits", t: task.Task{Kind: task.KindList, InputType: "list of bits", InputConstraints: "0 to 3 bits"},
			max: 100, n: 1 + 2 + 4 + 8, from: "task.input_constraints", has: []string{"[]", "[0,1,1]"}},
		{name: "a list of integers within the domain", t: task.Task{Kind: task.KindList, InputType: "list of integers", InputConstraints: "1 to 2 integers", Domain: &task.Domain{Lo: -1, Hi: 1}},
			max: 100, n: 3 + 9, from: "task.input_constraints, task.domain", has: []string{"[-1]", "[1,-1]"}},
		{name: "a list of unstated length", t: task.Task{Kind: task.KindList, InputType: "list of integers", InputConstraints: "each between 0 and 1"}, max: 100},
		{name: "a list of numbers that may be floats", t: task.Task{Kind: task.KindList, InputType: "list of floats", InputConstraints: "0 to 2 numbers between 0 and 1"}, max: 100},
		{name: "a list too long to list", t: task.Task{Kind: task.KindList, InputType: "list of bits", InputConstraints: "0 to 12 bits"}, max: 1000},
		{name: "a pair of integers", t: task.Task{Kind: task.KindPair, InputType: "a pair of integers", InputConstraints: "each between 1 and 3"},
			max: 100, n: 9, from: "task.input_constraints", has: []string{"[1,3]", "[3,3]"}},
		{name: "a pair of numbers", t: task.Task{Kind: task.KindPair, InputType: "a pair of numbers", InputConstraints: "each between 1 and 3"}, max: 100},
		{name: "a string over a stated alphabet", t: task.Task{Kind: task.KindString, InputType: "a string", InputConstraints: "at most 2 characters from a-c"},
			max: 100, n: 1 + 3 + 9, from: "task.input_constraints", has: []string{`""`, `"ca"`}},
		{name: "a string of digits", t: task.Task{Kind: task.KindString, InputType: "a string", InputConstraints: "1 to 2 digits"},
			max: 200, n: 10 + 100, from: "task.input_constraints", has: []string{`"07"`}},
		{name: "a string with no alphabet", t: task.Task{Kind: task.KindString, InputType: "a string", InputConstraints: "1 to 2 characters"}, max: 100},
		{name: "a count that is not a length", t: task.Task{Kind: task.KindString, InputType: "the rolls of a game",
			InputConstraints: "one character per roll: X a strike, / a spare, - a miss, 1 to 9 the pins knocked down"}, max: 100},
		{name: "a number the listing does not read", t: task.Task{Kind: task.KindInt, InputType: "an integer", InputConstraints: "one integer between 0 and 9, never 5 twice"}, max: 100},
		{name: "a number in the input type", t: task.Task{Kind: task.KindList, InputType: "a list of 3 bits or more", InputConstraints: "0 to 3 bits"}, max: 100},
		{name: "points are not listed", t: task.Task{Kind: task.KindPoints, InputType: "points", InputConstraints: "1 to 2 points, coordinates between 0 and 1"}, max: 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, from, ok := FiniteInputs(tt.t, tt.max)
			if ok != (tt.n > 0) || len(got) != tt.n || from != tt.from {
				t.Fatalf("FiniteInputs = %d inputs from %q, %v; want %d from %q", len(got), from, ok, tt.n, tt.from)
			}
			seen := map[string]bool{}
			for _, in := range got {
				c := task.MustCanonical(in)
				if seen[c] {
					t.Errorf("input %s listed twice", c)
				}
				seen[c] = true
			}
			for _, h := range tt.has {
				if !seen[h] {
					t.Errorf("input %s not listed", h)
				}
			}
		})
	}
}
