package dsl

import (
	"math"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The fast forms of divisors and uniqueOrdered against their plain
// definitions.
func TestDivisorsMatchesDefinition(t *testing.T) {
	var op *Operator
	for _, o := range Catalog.Top {
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

// joinedInt against building the string and parsing it.
func TestJoinedInt(t *testing.T) {
	lists := [][]int64{{}, {0}, {0, 0, 7}, {1, 2, 3}, {12, 3}, {-1, 2}, {1, -2}, {-0, 5}, {1, 0, 1, 1}, {1, 2}, {10, 11},
		{9, 2, 2, 3, 3, 7, 2, 0, 3, 6, 8, 5, 4, 7, 7, 5, 8, 0, 7}, {9, 2, 2, 3, 3, 7, 2, 0, 3, 6, 8, 5, 4, 7, 7, 5, 8, 0, 8}, {math.MinInt64}}
	h := FnvOffset
	for i := 0; i < 2000; i++ {
		n := int(uint64(h) % 5)
		l := make([]int64, n)
		for j := range l {
			h = h.Mix(uint64(i*7 + j))
			l[j] = int64(uint64(h)%23) - 3
		}
		lists = append(lists, l)
	}
	for _, xs := range lists {
		var sb strings.Builder
		for _, x := range xs {
			sb.WriteString(strconv.FormatInt(x, 10))
		}
		for _, base := range []int64{2, 10} {
			want, err := strconv.ParseInt(sb.String(), int(base), 64)
			if sb.String() == "-9223372036854775808" {
				err = strconv.ErrRange // outside what joinedInt keeps (-n must fit)
			}
			got, ok := joinedInt(xs, base)
			if ok != (err == nil) || ok && got != want {
				t.Fatalf("joinedInt(%v, %d) = %d, %v; want %d, %v", xs, base, got, ok, want, err)
			}
		}
	}
}

// The digit operators, which compute their digits arithmetically into an
// arena, against Python's str() and bin() of the number (by strconv),
// through both Eval and the kernel; and divisors of the numbers with the
// most divisors below its bound, whose pairs fill its stack buffers.
func TestDigitOpsMatchStrings(t *testing.T) {
	digitsOfString := func(s string) []int64 {
		out := []int64{}
		for _, c := range s {
			out = append(out, int64(c-'0'))
		}
		return out
	}
	sumOf := func(xs []int64) int64 {
		s := int64(0)
		for _, x := range xs {
			s += x
		}
		return s
	}
	divisorsOf := func(n int64) []int64 {
		out := []int64{}
		for d := int64(1); d <= n; d++ {
			if n%d == 0 {
				out = append(out, d)
			}
		}
		return out
	}
	for _, n := range []int64{0, 1, 7, 10, 99, 100, 907, -907, 1 << 40, math.MaxInt64, math.MinInt64, math.MinInt64 + 1, 55440, 83160, 98280, 100_000, 100_001} {
		abs := strconv.FormatUint(absU(n), 10)
		cases := []struct {
			op   string
			want any
		}{
			{"digits", digitsOfString(abs)},
			{"digit_sum", sumOf(digitsOfString(abs))},
			{"bits", ErrV},
			{"divisors", ErrV},
		}
		if n >= 0 {
			cases[2].want = digitsOfString(strconv.FormatInt(n, 2))
		}
		if n <= 100_000 {
			cases[3].want = divisorsOf(n)
		}
		for _, c := range cases {
			op := findOp(t, c.op, Int)
			got := op.Eval(nil, []any{n})
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s(%d) = %v, want %v", c.op, n, got, c.want)
			}
			var ar Arena
			out := NewColumn(op.Ret, 1)
			bad := []bool{false}
			op.Kern(&ar, nil, []Vec{{Data: []int64{n}}}, 1, out, bad)
			kerned := any(ErrV)
			if !bad[0] {
				kerned = (Vec{Data: out}).Boxed()[0]
			}
			if !reflect.DeepEqual(kerned, c.want) {
				t.Errorf("%s(%d) by its kernel = %v, want %v", c.op, n, kerned, c.want)
			}
		}
	}
}

// TestMaxAbsPythonMatchesGo checks the largest absolute value of a list
// of floats against its Python emission, the empty list's default and
// integers among the floats included.
func TestMaxAbsPythonMatchesGo(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: cannot compare emitted Python with the Go evaluator")
	}
	floats := []string{"[]", "[0.0]", "[-2.5]", "[0.1, 0.2, -0.3]", "[-96.18, 77.0, 19.68]", "[-0.0, 0.0]", "[1e300, -1e301]", "[-27, 3.5]"}
	for _, c := range []libCase{
		{name: "floats", vars: []string{"xs"}, types: []Type{ListFloat}, inputs: floats,
			prog: func(t *testing.T) *Node { return app(findOp(t, "max_abs", ListFloat), vr(0)) }},
	} {
		t.Run(c.name, func(t *testing.T) { checkLibCase(t, py, c) })
	}
}

// TestMaxAbs pins the largest absolute value of a list of floats: 0.0 for
// an empty list, a negative zero's 0.
func TestMaxAbs(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want any
	}{
		{"empty", []float64{}, 0.0},
		{"a negative largest", []float64{3, -7.5, 2}, 7.5},
		{"floats", []float64{-96.18, 77, 19.68}, 96.18},
		{"negative zero", []float64{math.Copysign(0, -1)}, 0.0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := EvalNode(app(findOp(t, "max_abs", ListFloat), vr(0)), []any{tc.in})
			if got != tc.want {
				t.Errorf("max_abs(%v) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}
