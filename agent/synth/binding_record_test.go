package synth

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/task"
)

func TestRecordAndTupleBinding(t *testing.T) {
	tests := []struct {
		name, typ string
		inputs    []string
		want      string // the binding line, the types and the shape, or "none"
	}{
		{name: "a record of a list and an int", typ: "object {\"start\": floor, \"requests\": [floor, ...]}",
			inputs: []string{`{"start": 7, "requests": [1, 9]}`, `{"requests": [], "start": 3}`},
			want:   `requests, start = input_data["requests"], input_data["start"] [list[int] int] record`},
		{name: "a record of points", typ: "object",
			inputs: []string{`{"center": [1, 2], "radius": 3, "points": [[0, 0], [4, 5]]}`},
			want:   `center, points, radius = input_data["center"], input_data["points"], input_data["radius"] [list[int] list[pair] int] record`},
		{name: "a record of floats", typ: "object",
			inputs: []string{`{"rate": 0.5, "n": 3}`, `{"rate": 2, "n": 1}`},
			want:   `n, rate = input_data["n"], input_data["rate"] [float float] record`},
		{name: "reserved keys", typ: "object",
			inputs: []string{`{"list": [1], "max": 2}`},
			want:   `list_, max_ = input_data["list"], input_data["max"] [list[int] int] record`},
		{name: "keys that differ", typ: "object",
			inputs: []string{`{"a": 1}`, `{"b": 1}`}, want: "none"},
		{name: "a key that is no name", typ: "object",
			inputs: []string{`{"two words": 1}`}, want: "none"},
		{name: "a value the DSL does not hold", typ: "object",
			inputs: []string{`{"a": {"b": 1}}`}, want: "none"},
		{name: "values of two types", typ: "object",
			inputs: []string{`{"a": 1}`, `{"a": "x"}`}, want: "none"},
		{name: "two rectangles", typ: "two rectangles [[x1, y1, x2, y2], [x3, y3, x4, y4]]",
			inputs: []string{`[[0, 0, 1, 1], [5, 5, 6, 6]]`, `[[2, 3, 4, 5], [1, 1, 1, 1]]`},
			want:   `a, b = input_data [list[int] list[int]] tuple`},
		{name: "two segments", typ: "two segments [[[x1, y1], [x2, y2]], [[x3, y3], [x4, y4]]]",
			inputs: []string{`[[[0, 0], [4, 0]], [[1, 0], [3, 1]]]`, `[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]`},
			want:   `a, b = input_data [list[pair] list[pair]] tuple`},
		{name: "parts named by the description", typ: "[xs, ys, k]: two lists and a count",
			inputs: []string{`[[1, 2], [[3, 4]], 1]`, `[[], [[1, 1], [2, 2]], 0]`},
			want:   `xs, ys, k = input_data [list[int] list[pair] int] tuple`},
		{name: "one observed tuple is not enough", typ: "two rectangles",
			inputs: []string{`[[0, 0, 1, 1], [5, 5, 6, 6]]`}, want: "none"},
		{name: "lists of rows of two lengths", typ: "grid",
			inputs: []string{`[[0, 1, 0], [1, 1, 0]]`, `[[0, 1], [1, 0], [0, 0]]`}, want: "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := newBinding(task.Task{Kind: task.KindOther, InputType: tt.typ}, decodeAll(t, tt.inputs...))
			got := "none"
			switch {
			case err == nil && b.Shape == "tokens":
				got = "tokens"
			case err == nil:
				got = fmt.Sprintf("%s %v %s", b.Line, b.Types, b.Shape)
			}
			if got != tt.want {
				t.Errorf("binding %q (%v), want %q", got, err, tt.want)
			}
		})
	}
}

// TestRecordAndTupleBindingSolve writes programs over records and tuples
// of structures and runs the emitted Python on inputs it has not seen.
func TestRecordAndTupleBindingSolve(t *testing.T) {
	testenv.NeedPython(t)
	if testing.Short() {
		t.Skip("searches take seconds")
	}
	record := func(v any) (int64, []int64) {
		m := v.(map[string]any)
		k, _ := intValue(m["limit"])
		return k, ints(m["values"])
	}
	tests := []familyCase{
		{name: "the values above a limit in a record", kind: task.KindOther, typ: "object {\"values\": [int, ...], \"limit\": int}",
			inputs: []string{`{"values": [1, 5, 3], "limit": 2}`, `{"values": [], "limit": 0}`, `{"values": [7, 7, 0, 9], "limit": 7}`,
				`{"limit": -1, "values": [-3, 0, 4]}`, `{"values": [2], "limit": 5}`, `{"values": [6, 1, 8, 2], "limit": 1}`},
			probe: []string{`{"values": [10, 20, 30], "limit": 15}`, `{"limit": 100, "values": [1]}`},
			f: func(v any) any {
				k, xs := record(v)
				n := 0
				for _, x := range xs {
					if x > k {
						n++
					}
				}
				return n
			}},
		{name: "the sum of one list and the largest of another", kind: task.KindOther, typ: "two lists of integers",
			inputs: []string{`[[[1, 2], [3, 4]], [5, 6, 7]]`, `[[[0, 0]], [1]]`, `[[[2, 2], [1, 1], [0, 5]], [9, -1]]`, `[[[4, 1]], [0, 0]]`},
			probe:  []string{`[[[7, 1], [1, 7]], [-5, -4]]`, `[[[0, 3]], [2, 8, 1]]`},
			f: func(v any) any {
				p := v.([]any)
				n := int64(len(p[0].([]any)))
				m := int64(-1 << 62)
				for _, x := range ints(p[1]) {
					m = max(m, x)
				}
				return n + m
			}},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			a := New(Options{Shared: testShared, Seed: 1, TimeLimit: 20 * time.Second})
			dir := t.TempDir()
			res, err := a.Write(context.Background(), agent.WriteRequest{Task: taskFor(c), Examples: examplesFor(t, c, c.inputs), Workspace: dir})
			if err != nil {
				t.Fatal(err)
			}
			src := handedOver(t, res, dir)
			got := runCandidate(t, "python3", string(src), c.probe)
			for i, in := range c.probe {
				v, _ := task.Decode(json.RawMessage(in))
				want, _ := json.Marshal(c.f(v))
				if string(got[i]) != string(want) {
					t.Errorf("%s on %s = %s, want %s\n%s", c.name, in, got[i], want, src)
				}
			}
		})
	}
}
