package sketch

import (
	"strings"
	"testing"
	"unicode"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// clockValid is a 24-hour time HH:MM.
func clockValid(s string) bool {
	if len(s) != 5 || s[2] != ':' {
		return false
	}
	for _, k := range []int{0, 1, 3, 4} {
		if s[k] < '0' || s[k] > '9' {
			return false
		}
	}
	return (s[0]-'0')*10+s[1]-'0' <= 23 && (s[3]-'0')*10+s[4]-'0' <= 59
}

// codeValid is two letters, a dash and a number from 100 to 899.
func codeValid(s string) bool {
	if len(s) != 6 || s[2] != '-' || !unicode.IsLetter(rune(s[0])) || !unicode.IsLetter(rune(s[1])) {
		return false
	}
	v := 0
	for _, c := range s[3:] {
		if c < '0' || c > '9' {
			return false
		}
		v = v*10 + int(c-'0')
	}
	return v >= 100 && v <= 899
}

// The validator of a fixed-width text: a time, a code with letters and a
// bounded number (both bounds needed); none for texts of several lengths,
// for too few accepted examples, or for a result that is not a truth
// value.
func TestPattern(t *testing.T) {
	clock := []string{"00:00", "23:59", "12:34", "07:05", "19:45", "24:00", "12:60", "1:30", "12:3", "12:30:", "::", "9999", "", "29:10",
		"1:2:3", "23:7a", "22:59", "30:00", "1234:", "00:99"}
	codes := []string{"AB-100", "ZZ-899", "QX-512", "AA-345", "AB-099", "AB-900", "A1-300", "AB+300", "AB-30", "AB-3a0", "XY-000", "MN-999", "CD-777"}
	tests := []struct {
		name  string
		ins   []string
		f     func(string) any
		want  bool
		parts []string // in the program found
	}{
		{"clock", clock, func(s string) any { return clockValid(s) }, true, []string{"int(s[:2]) <= 23", "int(s[3:]) <= 59", `s[2] == ":"`}},
		{"code", codes, func(s string) any { return codeValid(s) }, true, []string{"100 <= int(s[3:])", "int(s[3:]) <= 899", `s[:2].isalpha()`}},
		{"several lengths", []string{"1:2", "12:34", "1:23", "0:0", "", "::", "1", "12", "123", "12:3:4"},
			func(s string) any { return strings.Count(s, ":") == 1 }, false, nil},
		{"too few accepted", clock[5:], func(s string) any { return clockValid(s) || s == "12:34" }, false, nil},
		{"not a truth value", clock, func(s string) any { return int64(len(s)) }, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, src := fitText(t, "Pattern", Pattern, tt.ins, tt.f, tt.want)
			if got == nil {
				return
			}
			for _, part := range tt.parts {
				if !strings.Contains(src, part) {
					t.Errorf("the program has no %q:\n%s", part, src)
				}
			}
			if strings.Contains(src, "0 <= int(s[:2])") {
				t.Errorf("a lower bound of 0 the examples do not need:\n%s", src)
			}
		})
	}
}

// fitText runs the text strategy run (named name) on f's outputs on ins
// and checks that it finds a program exactly when want says so, whose
// values match every output. It returns the program (nil when none) and
// its Python.
func fitText(t *testing.T, name string, run func(*Search, *dsl.Problem, func(*dsl.Node, []any) bool) bool, ins []string, f func(string) any, want bool) (*dsl.Node, string) {
	t.Helper()
	p := textProblem(ins, f)
	var got *dsl.Node
	var vals []any
	found := run(&Search{Envs: p.Envs}, p, func(n *dsl.Node, v []any) bool { got, vals = n, v; return true })
	if found != want {
		t.Fatalf("%s = %v, want %v (program %v)", name, found, want, got)
	}
	if !found {
		return nil, ""
	}
	for i := range p.Outs {
		if !p.MatchesAt(i, vals[i]) {
			t.Errorf("%q: got %v, want %v", ins[i], vals[i], p.Outs[i])
		}
	}
	return got, dsl.Program{Root: got, Binding: "s = input_data", Vars: []string{"s"}, Round: -1}.Python("solve", "")
}

// textProblem is the problem of f's outputs on texts: a truth value, or
// an integer when f gives one.
func textProblem(ins []string, f func(string) any) *dsl.Problem {
	p := &dsl.Problem{B: &dsl.Binding{Names: []string{"s"}, Types: []dsl.Type{dsl.Str}}, Round: -1, Out: dsl.Bool}
	if _, isBool := f("").(bool); !isBool {
		p.Out = dsl.Int
	}
	for _, in := range ins {
		p.Envs = append(p.Envs, []any{in})
		p.Outs = append(p.Outs, f(in))
	}
	return p
}
