package sketch

import (
	"encoding/json"
	"math"
	"os/exec"
	"slices"
	"testing"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// stepRange is Python's list(range(start, stop, step)) on every start and
// stop from -7 to 7 and step from -4 to 4 (0 fails, as Python raises).
func TestStepRangeMatchesPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: cannot compare with Python's range")
	}
	out, err := exec.Command(py, "-c", `import json
print(json.dumps([list(range(a, b, c)) if c else None for a in range(-7, 8) for b in range(-7, 8) for c in range(-4, 5)]))`).Output()
	if err != nil {
		t.Fatal(err)
	}
	var want [][]int64
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	k := 0
	for a := int64(-7); a <= 7; a++ {
		for b := int64(-7); b <= 7; b++ {
			for c := int64(-4); c <= 4; c++ {
				got, good := stepRange(a, b, c)
				switch {
				case c == 0 && good:
					t.Errorf("range(%d, %d, 0) = %v, want a failure", a, b, got)
				case c != 0 && (!good || !slices.Equal(got, want[k]) || rangeLen(a, b, c) != int64(len(want[k]))):
					t.Errorf("range(%d, %d, %d) = %v (%v), Python %v", a, b, c, got, good, want[k])
				}
				k++
			}
		}
	}
}

// A range longer than dsl.MaxLen fails, and so does one whose bounds'
// difference overflows.
func TestStepRangeBounds(t *testing.T) {
	cases := []struct {
		start, stop, step int64
		good              bool
	}{
		{0, dsl.MaxLen, 1, true},
		{0, dsl.MaxLen + 1, 1, false},
		{dsl.MaxLen, 0, -1, true},
		{-(1 << 61), 1 << 61, 1 << 60, true},
		{math.MinInt64 + 1, math.MaxInt64, 1 << 62, false},
		{math.MinInt64, math.MaxInt64, 1, false},
	}
	for _, c := range cases {
		if _, good := stepRange(c.start, c.stop, c.step); good != c.good {
			t.Errorf("stepRange(%d, %d, %d) good = %v, want %v", c.start, c.stop, c.step, good, c.good)
		}
	}
}

// The moduli of a filter are the common divisor of the kept numbers and
// the factors that the dropped multiples of it share.
func TestModuli(t *testing.T) {
	cases := []struct {
		name          string
		kept, dropped []int64
		want          []any
	}{
		{"sevens not fives", []int64{84, 91, 98, 112}, []int64{85, 105, 110}, []any{int64(7), int64(15), int64(3), int64(5)}},
		{"sevens not thirty-fives", []int64{7, 14, 21, 28}, []int64{35, 70, 8}, []any{int64(7), int64(5)}},
		{"evens", []int64{2, 4, -6}, []int64{1, 3}, []any{int64(2)}},
		{"no common divisor", []int64{2, 3}, []int64{4}, nil},
	}
	for _, c := range cases {
		if got := moduli(c.kept, c.dropped); !slices.Equal(got, c.want) {
			t.Errorf("%s: moduli = %v, want %v", c.name, got, c.want)
		}
	}
}

// A condition is one test, its negation, or two tests joined by and or
// or, the smallest that fits.
func TestConjunction(t *testing.T) {
	test := func(name string, size int, b ...bool) *term {
		return &term{n: &dsl.Node{Var: -1, Const: name, Size: size}, typ: dsl.Bool, b: b}
	}
	p := test("p", 3, true, true, false, false)
	q := test("q", 3, true, false, true, false)
	cases := []struct {
		name string
		want []bool
		ok   bool
		size int
	}{
		{"one test", []bool{true, true, false, false}, true, 3},
		{"negated", []bool{false, false, true, true}, true, 4},
		{"and", []bool{true, false, false, false}, true, 7},
		{"and not", []bool{false, true, false, false}, true, 8},
		{"or", []bool{true, true, true, false}, true, 7},
		{"xor is not two tests", []bool{false, true, true, false}, false, 0},
	}
	for _, c := range cases {
		got := conjunction([]*term{p, q}, c.want)
		if (got != nil) != c.ok || got != nil && got.Size != c.size {
			t.Errorf("%s: conjunction = %v, want found %v of size %d", c.name, got, c.ok, c.size)
			continue
		}
		if got == nil {
			continue
		}
		// Evaluate the condition over the tests' values.
		var eval func(n *dsl.Node, k int) bool
		eval = func(n *dsl.Node, k int) bool {
			switch n.Op {
			case nil:
				if n.Const == "p" {
					return p.b[k]
				}
				return q.b[k]
			case opNot:
				return !eval(n.Kids[0], k)
			case opAnd:
				return eval(n.Kids[0], k) && eval(n.Kids[1], k)
			}
			return eval(n.Kids[0], k) || eval(n.Kids[1], k)
		}
		for k, w := range c.want {
			if eval(got, k) != w {
				t.Errorf("%s: %v at %d is %v, want %v", c.name, got, k, !w, w)
			}
		}
	}
}
