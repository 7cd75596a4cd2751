package dsl

import (
	"encoding/json"
	"os/exec"
	"testing"
)

// int_of reads a number as Python's int(s) does, and fails where it
// raises; python3, when present, agrees on every input.
func TestIntOf(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"7", 7, true},
		{"007", 7, true},
		{"-12", -12, true},
		{"+3", 3, true},
		{" 42\n", 42, true},
		{"1_000", 1000, true},
		{"9223372036854775807", 1<<63 - 1, true},
		{"-9223372036854775807", -(1<<63 - 1), true},
		{"", 0, false},
		{"-", 0, false},
		{"a3", 0, false},
		{"3.0", 0, false},
		{"1__0", 0, false},
		{"_1", 0, false},
		{"1_", 0, false},
		{"+-1", 0, false},
		{"1 2", 0, false},
	}
	op := findOp(t, "int_of", Str)
	var inputs []string
	for _, c := range cases {
		got := op.Eval(nil, []any{c.in})
		if c.ok && got != c.want || !c.ok && !IsErr(got) {
			t.Errorf("int_of(%q) = %v, want %v (ok %v)", c.in, got, c.want, c.ok)
		}
		inputs = append(inputs, c.in)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: cannot compare with Python's int()")
	}
	in, _ := json.Marshal(inputs)
	script := "import json, sys\nout = []\nfor s in json.loads(sys.argv[1]):\n    try:\n        out.append(int(s))\n" +
		"    except ValueError:\n        out.append(None)\nprint(json.dumps(out))\n"
	out, err := exec.Command(py, "-c", script, string(in)).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	var got []*int64
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("decode %s: %v", out, err)
	}
	for i, c := range cases {
		switch {
		case got[i] == nil && c.ok:
			t.Errorf("python int(%q) raises, Go reads %d", c.in, c.want)
		case got[i] != nil && (!c.ok || *got[i] != c.want):
			t.Errorf("python int(%q) = %d, Go %v (ok %v)", c.in, *got[i], c.want, c.ok)
		}
	}
}
