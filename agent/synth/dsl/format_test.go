package dsl

import (
	"bytes"
	"encoding/json"
	"math"
	"os/exec"
	"strconv"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
)

// The formats write numbers as Python's str() and format() do, ties and
// signs included; python3 agrees on every case.
func TestFormatWriteMatchesPython(t *testing.T) {
	tenth := 0.1 // a variable: constant arithmetic would be exact
	cases := []struct {
		f    Format
		v    any
		want string
		ok   bool
	}{
		{Format{FmtStr, 0}, int64(-8), "-8", true},
		{Format{FmtStr, 0}, 2.5, "2.5", true},
		{Format{FmtStr, 0}, 25.0, "25.0", true},
		{Format{FmtStr, 0}, 1e16, "1e+16", true},
		{Format{FmtStr, 0}, 1e-5, "1e-05", true},
		{Format{FmtStr, 0}, tenth + 2*tenth, "0.30000000000000004", true},
		{Format{FmtStr, 0}, math.Inf(1), "inf", true},
		{Format{FmtStr, 0}, "word", "word", true},
		{Format{FmtPad, 2}, int64(7), "07", true},
		{Format{FmtPad, 2}, int64(123), "123", true},
		{Format{FmtPad, 3}, int64(-5), "-05", true},
		{Format{FmtPad, 2}, int64(-5), "-5", true},
		{Format{FmtPad, 2}, int64(0), "00", true},
		{Format{FmtPad, 2}, 2.5, "", false},
		{Format{FmtFixed, 2}, 442.2, "442.20", true},
		{Format{FmtFixed, 2}, int64(5), "5.00", true},
		{Format{FmtFixed, 2}, 0.125, "0.12", true}, // an exact tie: to even
		{Format{FmtFixed, 2}, 0.375, "0.38", true},
		{Format{FmtFixed, 2}, 2.675, "2.67", true}, // 2.67499999... in binary
		{Format{FmtFixed, 2}, 1.005, "1.00", true},
		{Format{FmtFixed, 0}, 0.5, "0", true},
		{Format{FmtFixed, 0}, 1.5, "2", true},
		{Format{FmtFixed, 0}, 2.5, "2", true},
		{Format{FmtFixed, 1}, 24.95, "24.9", true},
		{Format{FmtFixed, 1}, 22.857142857142858, "22.9", true},
		{Format{FmtFixed, 1}, math.Copysign(0, -1), "-0.0", true},
		{Format{FmtFixed, 2}, -0.001, "-0.00", true},
		{Format{FmtFixed, 1}, 1e16, "10000000000000000.0", true},
		{Format{FmtFixed, 2}, 123456789.125, "123456789.12", true},
		{Format{FmtFixed, 3}, 1e22, "10000000000000000000000.000", true},
		{Format{FmtFixed, 2}, math.Inf(-1), "-inf", true},
		{Format{FmtFixed, 2}, math.NaN(), "nan", true},
		{Format{FmtFixed, 2}, "word", "", false},
	}
	var script []string
	for _, c := range cases {
		got, ok := c.f.Write(c.v)
		if ok != c.ok || got != c.want {
			t.Errorf("%s of %v = %q (ok %v), want %q (ok %v)", c.f, c.v, got, ok, c.want, c.ok)
		}
		script = append(script, pyFormatExpr(c.f, c.v))
	}
	testenv.NeedPython(t)
	src := "import json\nout = []\nfor e in json.loads(input()):\n    try:\n        out.append(eval(e))\n    except Exception:\n        out.append(None)\nprint(json.dumps(out))\n"
	in, _ := json.Marshal(script)
	cmd := exec.Command("python3", "-c", src)
	cmd.Stdin = bytes.NewReader(append(in, '\n'))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, out)
	}
	var py []*string
	if err := json.Unmarshal(out, &py); err != nil {
		t.Fatalf("decode %s: %v", out, err)
	}
	for i, c := range cases {
		got, ok := c.f.Write(c.v)
		switch {
		case py[i] == nil && ok:
			t.Errorf("%s: python raises, Go writes %q", script[i], got)
		case py[i] != nil && (!ok || *py[i] != got):
			t.Errorf("%s: python %q, Go %q (ok %v)", script[i], *py[i], got, ok)
		}
	}
}

// pyFormatExpr is the Python expression of a format applied to v, as the
// emitted programs write it.
func pyFormatExpr(f Format, v any) string {
	var lit string
	switch x := v.(type) {
	case int64:
		lit = strconv.FormatInt(x, 10)
	case float64:
		switch {
		case math.IsNaN(x):
			lit = `float("nan")`
		case math.IsInf(x, 1):
			lit = `float("inf")`
		case math.IsInf(x, -1):
			lit = `float("-inf")`
		default:
			lit = "float(" + strconv.Quote(strconv.FormatFloat(x, 'g', -1, 64)) + ")"
		}
	case string:
		lit = strconv.Quote(x)
	}
	return FormatOp(f, Float).Py(nil, nil, []Code{Atom(lit)}).S
}

// ReadFormat reads a hole's texts as numbers in one format, or refuses
// them (the hole is then a string).
func TestReadFormat(t *testing.T) {
	cases := []struct {
		texts []string
		want  Format
		ok    bool
	}{
		{[]string{"17", "-8", "0"}, Format{FmtStr, 0}, true},
		{[]string{"07", "59", "00"}, Format{FmtPad, 2}, true},
		{[]string{"-05", "123"}, Format{FmtPad, 3}, true},
		{[]string{"-05", "1234"}, Format{}, false},
		{[]string{"442.20", "0.00", "2.10"}, Format{FmtFixed, 2}, true},
		{[]string{"25.0", "22.9"}, Format{FmtFixed, 1}, true},
		{[]string{"2.5", "3.25", "4.0"}, Format{FmtStr, 0}, true},
		{[]string{"2.50", "3.25", "4.0"}, Format{}, false},
		{[]string{"5", "2.5"}, Format{}, false},
		{[]string{"A", "B"}, Format{}, false},
		{[]string{"1.2.3"}, Format{}, false},
		{[]string{"-"}, Format{}, false},
		{[]string{".5"}, Format{}, false},
	}
	for _, c := range cases {
		f, vals, ok := ReadFormat(c.texts)
		if ok != c.ok || ok && f != c.want {
			t.Errorf("ReadFormat(%q) = %v (ok %v), want %v (ok %v)", c.texts, f, ok, c.want, c.ok)
			continue
		}
		for i, v := range vals {
			if s, _ := f.Write(v); s != c.texts[i] {
				t.Errorf("ReadFormat(%q): %v writes %q", c.texts, v, s)
			}
		}
	}
}
