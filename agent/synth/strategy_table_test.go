package synth

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

func TestSetLabels(t *testing.T) {
	tests := []struct {
		name string
		outs []string
		want []any
	}{
		{"three repeated strings", []string{`"cw"`, `"ccw"`, `"cw"`, `"flat"`, `"ccw"`, `"flat"`}, []any{"cw", "ccw", "flat"}},
		{"two strings", []string{`"no"`, `"yes"`, `"no"`, `"no"`}, []any{"no", "yes"}},
		{"too few repeats", []string{`"a"`, `"b"`, `"c"`, `"a"`}, nil},
		{"five grades", []string{`"A"`, `"B"`, `"C"`, `"D"`, `"F"`, `"A"`, `"B"`, `"C"`, `"D"`, `"F"`}, []any{"A", "B", "C", "D", "F"}},
		{"too many labels", []string{`"a"`, `"b"`, `"c"`, `"d"`, `"e"`, `"f"`, `"g"`, `"h"`, `"i"`,
			`"a"`, `"b"`, `"c"`, `"d"`, `"e"`, `"f"`, `"g"`, `"h"`, `"i"`}, nil},
		{"one string", []string{`"a"`, `"a"`, `"a"`}, nil},
		{"numbers", []string{"1", "2", "1", "2"}, nil},
		{"null among them", []string{`"a"`, "null", `"a"`, "null"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := outputsProblem(tc.outs)
			if err != nil {
				t.Fatalf("newProblem: %v", err)
			}
			if diff := cmp.Diff(tc.want, p.Labels); diff != "" {
				t.Errorf("labels (-want +got):\n%s", diff)
			}
		})
	}
}

// signWord names the sign of a list's sum; sizeWord says whether a list
// is longer than three.
func signWord(v any) any {
	s := int64(0)
	for _, x := range ints(v) {
		s += x
	}
	switch {
	case s > 0:
		return "positive"
	case s < 0:
		return "negative"
	}
	return "zero"
}

func sizeWord(v any) any {
	if len(ints(v)) > 3 {
		return "long"
	}
	return "short"
}

// Few repeated string outputs are names of a computed value: the search
// finds the value and the emitted program names it by a table (a
// conditional expression for a truth value) or by intervals of a number
// (strategy_intervals.go), which also name every one-to-one table of
// integers.
func TestTabledOutputs(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: cannot run the emitted program")
	}
	inputs := []string{"[3, 1, 2]", "[-5]", "[4, -4]", "[7, -2, 7, 0]", "[]", "[1, -9, 9, -8]", "[-3, -8]", "[6, -6, 6, 2, 1]",
		"[10, 20, 30]", "[0]", "[9, -30, 5, 12]", "[2]", "[-4, 4, -8, 8]", "[-100, 50, 13]", "[5, 11, 7, 6]"}
	probe := []string{"[2, -2]", "[-40, 21, 35, 1]", "[0, 0, 0, 0, 0]", "[-1]", "[17, 3, -17, 16]", "[1, 1]"}
	tests := []struct {
		c      familyCase
		wantOp string
	}{
		{familyCase{name: "sum_sign_word", kind: task.KindList, typ: "list of integers", f: signWord}, "intervals{"},
		{familyCase{name: "size_word", kind: task.KindList, typ: "list of integers", f: sizeWord}, "intervals{"},
	}
	for _, tc := range tests {
		t.Run(tc.c.name, func(t *testing.T) {
			p, err := newProblem(taskFor(tc.c), examplesFor(t, tc.c, inputs))
			if err != nil {
				t.Fatalf("problem: %v", err)
			}
			res := search(p, testSpec())
			if !res.solved {
				t.Fatalf("no consistent program; best %v passes %d of %d", res.best, res.passed, len(p.Outs))
			}
			src := dsl.Program{Root: res.best, Binding: p.B.Line, Vars: p.B.Names, Round: p.Round}.Python("solve", "")
			if !strings.HasPrefix(res.best.Op.Name, tc.wantOp) {
				t.Errorf("found %v, want %s...:\n%s", res.best, tc.wantOp, src)
			}
			all := append(append([]string{}, inputs...), probe...)
			got := runCandidate(t, py, src, all)
			for i, in := range all {
				v, _ := task.Decode(json.RawMessage(in))
				want, _ := json.Marshal(tc.c.f(v))
				if !task.Equal(got[i], want, 1e-9) {
					t.Errorf("solve(%s) = %s, want %s\n%s", in, got[i], want, src)
				}
			}
		})
	}
}

// A value the examples never named has no label: the table raises there
// rather than guessing.
func TestTableUnseenKey(t *testing.T) {
	op := tableOp(dsl.Int, []any{int64(1), int64(-1)}, []any{"up", "down"})
	tests := []struct {
		key  any
		want any
	}{
		{int64(1), "up"},
		{int64(-1), "down"},
		{int64(0), dsl.ErrV},
	}
	for _, tc := range tests {
		if got := op.Eval(nil, []any{tc.key}); got != tc.want {
			t.Errorf("table(%v) = %v, want %v", tc.key, got, tc.want)
		}
	}
}
