package synth

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// secondLargest is the second largest distinct value, or None (null) when
// there are fewer than two.
func secondLargest(v any) any {
	var xs []int64
	for _, e := range v.([]any) {
		xs = append(xs, int64(num(e)))
	}
	slices.Sort(xs)
	xs = slices.Compact(xs)
	if len(xs) < 2 {
		return nil
	}
	return xs[len(xs)-2]
}

// Null outputs are matched by programs that fail there, and the emitted
// function returns None where the expression raises.
func TestNullableOutputs(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: cannot run the emitted program")
	}
	c := familyCase{name: "second_largest", kind: task.KindList, typ: "list of integers",
		inputs: []string{"[3, 1, 2]", "[5]", "[4, 4]", "[7, -2, 7, 0]", "[]", "[1, 9, 9, 8]", "[-3, -8]", "[6, 6, 6, 2]",
			"[10, 20, 30]", "[0, 1]", "[9, 3, 5, 12]", "[2]", "[-4, 4, 8, 8]", "[100, 50, 13]", "[5, 11, 7, 6]"},
		probe: []string{"[2, 2]", "[40, 21, 35]", "[0]", "[-1, -1, -5]", "[17, 3, 17, 16]"},
		f:     secondLargest}
	p, err := newProblem(taskFor(c), examplesFor(t, c, c.inputs))
	if err != nil {
		t.Fatalf("problem: %v", err)
	}
	if !p.Nullable {
		t.Fatal("problem with null outputs is not nullable")
	}
	res := search(p, testSpec())
	if !res.solved {
		t.Fatalf("no consistent program; best %v passes %d of %d", res.best, res.passed, len(p.Outs))
	}
	src := dsl.Program{Root: res.best, Binding: p.B.Line, Vars: p.B.Names, Round: p.Round, Nullable: p.Nullable}.Python("solve", "")
	if !strings.Contains(src, "return None") {
		t.Errorf("emitted program has no None branch:\n%s", src)
	}
	inputs := append(append([]string{}, c.inputs...), c.probe...)
	got := runCandidate(t, py, src, inputs)
	for i, in := range inputs {
		v, _ := task.Decode(json.RawMessage(in))
		want, _ := json.Marshal(secondLargest(v))
		if !task.Equal(got[i], want, 1e-9) {
			t.Errorf("solve(%s) = %s, want %s\n%s", in, got[i], want, src)
		}
	}
}

func TestNullOutputTypes(t *testing.T) {
	tests := []struct {
		name    string
		outs    []string
		wantErr bool
	}{
		{"every output null", []string{"null", "null"}, true},
		{"empty lists and null", []string{"[]", "null"}, false},
		{"numbers and null", []string{"3", "null"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := outputsProblem(tc.outs)
			if gotErr := err != nil; gotErr != tc.wantErr {
				t.Fatalf("newProblem error = %v, want an error: %v", err, tc.wantErr)
			}
			if err == nil && !p.Nullable {
				t.Error("problem with a null output is not nullable")
			}
		})
	}
}

// outputsProblem is a list task's problem with the given outputs (JSON
// texts), on the inputs [0], [1], ...
func outputsProblem(outs []string) (*dsl.Problem, error) {
	var exs []task.Example
	for i, o := range outs {
		exs = append(exs, task.Example{Input: json.RawMessage(fmt.Sprintf("[%d]", i)), Output: json.RawMessage(o)})
	}
	return newProblem(task.Task{Kind: task.KindList, InputType: "list of integers"}, exs)
}
