package dsl

import (
	"os/exec"
	"strconv"
	"testing"
)

// exprInputs are well-formed and malformed expressions: precedence,
// signs, parentheses, spaces, leading zeros, stray characters, nesting at
// and past the bound. (Results beyond int64 fail in Go where Python's
// integers grow, as everywhere in the DSL: TestEvalExpr covers them.)
var exprInputs = []string{
	`"16+20-12-5+3"`, `"999-999+1"`, `"10-20"`, `"7"`, `"007+1"`, `"2+3*4"`, `"2*3+4"`, `"11*11-2-35*9*7"`,
	`"0*9*9+3+10-558*3"`, `"(2+3)*4"`, `"2*(3-(4+5))"`, `"-5+2"`, `"--5"`, `"+-+3"`, `" 1 + 2 * 3 "`, `"3*-2"`,
	`""`, `" "`, `"+"`, `"1+"`, `"1++2"`, `"*2"`, `"(1+2"`, `"1+2)"`, `"()"`, `"1 2"`, `"1/2"`, `"x"`, `"1a"`, `"١+1"`,
	`"9223372036854775807+0"`, `"-9223372036854775807-1"`,
	`"` + deepSigns(99) + `1"`, `"` + deepSigns(100) + `1"`, `"` + deepParens(99) + `"`, `"` + deepParens(100) + `"`,
}

func deepSigns(n int) string {
	out := ""
	for range n {
		out += "-"
	}
	return out
}

func deepParens(n int) string {
	out := ""
	for range n {
		out += "("
	}
	out += "1"
	for range n {
		out += ")"
	}
	return out
}

// TestEvalExprPythonMatchesGo checks both expression readings against
// their Python helpers on every input.
func TestEvalExprPythonMatchesGo(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: cannot compare emitted Python with the Go evaluator")
	}
	for _, name := range []string{"eval_expr", "eval_ltr"} {
		t.Run(name, func(t *testing.T) {
			checkLibCase(t, py, libCase{name: name, vars: []string{"s"}, types: []Type{Str}, inputs: exprInputs,
				prog: func(t *testing.T) *Node { return app(findOp(t, name, Str), vr(0)) }})
		})
	}
}

// TestEvalExpr pins the two readings' values.
func TestEvalExpr(t *testing.T) {
	tests := []struct {
		in   string
		prec int64
		ltr  int64
		bad  bool
	}{
		{in: "16+20-12-5+3", prec: 22, ltr: 22},
		{in: "2+3*4", prec: 14, ltr: 20},
		{in: "11*11-2-35*9*7", prec: -2086, ltr: 5292},
		{in: "2*(3-(4+5))", prec: -12, ltr: -12},
		{in: " -3 * -2 ", prec: 6, ltr: 6},
		{in: "1+", bad: true},
		{in: "1 2", bad: true},
		{in: "(1", bad: true},
		{in: "9223372036854775807+1", bad: true},
		{in: "9999999999999999999", bad: true},
		{in: "3037000500*3037000500", bad: true},
	}
	for _, tc := range tests {
		t.Run(strconv.Quote(tc.in), func(t *testing.T) {
			p, okP := evalExpr(tc.in, true)
			l, okL := evalExpr(tc.in, false)
			if tc.bad {
				if okP || okL {
					t.Fatalf("evalExpr(%q) = %d, %d; want failures", tc.in, p, l)
				}
				return
			}
			if !okP || !okL || p != tc.prec || l != tc.ltr {
				t.Errorf("evalExpr(%q) = %d (%v), %d (%v); want %d, %d", tc.in, p, okP, l, okL, tc.prec, tc.ltr)
			}
		})
	}
}
