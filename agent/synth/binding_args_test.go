package synth

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

func TestArgsBinding(t *testing.T) {
	tests := []struct {
		name, typ, constr string
		inputs            []string
		want              string // the binding line and types, or "none"
	}{
		{name: "list and int", typ: "[xs, k]: a list of integers and a rotation amount", constr: "xs has 0 to 10 integers between -9 and 9; k between -9 and 9",
			inputs: []string{`[[1, 2], 3]`}, want: "xs, k = input_data [list[int] int]"},
		{name: "names typed by the constraints", typ: "a list [numbers, target]", constr: "numbers: 0 to 12 integers between -10 and 10; target: an integer between -30 and 30",
			want: "numbers, target = input_data [list[int] int]"},
		{name: "two strings keep the list binding", typ: "[s, t]: two strings", constr: "each string 0 to 49 printable characters",
			want: "none"},
		{name: "three strings bind by name", typ: "[text, source, target]: a text and two strings of the same length",
			inputs: []string{`["abc", "a", "b"]`}, want: "text, source, target = input_data [str str str]"},
		{name: "four integers keep the list binding", typ: "a list of four integers [a, b, c, d]", constr: "each from -1000 to 1000",
			want: "none"},
		{name: "two lists and an int", typ: "[a, b, limit]: two integer lists of equal length and a non-negative limit", constr: "0 to 10 integers",
			want: "a, b, limit = input_data [list[int] list[int] int]"},
		{name: "reserved names", typ: "[list, max]: an integer list and an integer", want: "list_, max_ = input_data [list[int] int]"},
		{name: "an observed input that does not fit", typ: "[xs, k]: a list of integers and a rotation amount",
			inputs: []string{`[[1, 2], 3, 4]`}, want: "none"},
		{name: "a tuple of records", typ: "list of integer pairs [a, b]", want: "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tk := task.Task{Kind: task.KindOther, InputType: tt.typ, InputConstraints: tt.constr}
			b := argsBinding(tk, decodeAll(t, tt.inputs...), &dsl.Binding{})
			got := "none"
			if b != nil {
				got = fmt.Sprintf("%s %v", b.Line, b.Types)
			}
			if got != tt.want {
				t.Errorf("binding %q, want %q", got, tt.want)
			}
		})
	}
}

// TestArgsBindingSolves writes programs over several named arguments and
// runs the emitted Python on inputs it has not seen.
func TestArgsBindingSolves(t *testing.T) {
	testenv.NeedPython(t)
	if testing.Short() {
		t.Skip("searches take seconds")
	}
	tests := []struct {
		c     familyCase
		probe []string
	}{
		{c: familyCase{name: "count of the target", kind: task.KindOther, typ: "[xs, k]: a list of integers and an integer",
			inputs: []string{"[[1, 2, 1], 1]", "[[], 3]", "[[3, 3, 3], 3]", "[[4, 5], 6]", "[[0, 1, 0, 0], 0]", "[[7], 7]"},
			f: func(v any) any {
				p := v.([]any)
				k, _ := intValue(p[1])
				n := 0
				for _, x := range ints(p[0]) {
					if x == k {
						n++
					}
				}
				return n
			}}, probe: []string{"[[2, 2, 5, 2], 2]", "[[9, 8], 1]"}},
		// A character mapping given as two arguments: str.translate.
		{c: familyCase{name: "character mapping", kind: task.KindOther, typ: "[s, old, new]: a word and two strings of one length",
			inputs: []string{`["banana", "an", "xy"]`, `["code", "", ""]`, `["level", "ev", "ab"]`, `["moon", "o", "0"]`},
			f: func(v any) any {
				p := v.([]any)
				from, to := []rune(p[1].(string)), []rune(p[2].(string))
				return strings.Map(func(r rune) rune {
					if i := slices.Index(from, r); i >= 0 {
						return to[i]
					}
					return r
				}, p[0].(string))
			}}, probe: []string{`["mississippi", "sp", "zq"]`, `["abc", "cba", "xyz"]`}},
	}
	for _, tt := range tests {
		t.Run(tt.c.name, func(t *testing.T) {
			a := New(Options{Shared: testShared, Seed: 1, TimeLimit: 20 * time.Second})
			dir := t.TempDir()
			res, err := a.Write(context.Background(), agent.WriteRequest{Task: taskFor(tt.c), Examples: examplesFor(t, tt.c, tt.c.inputs), Workspace: dir})
			if err != nil {
				t.Fatal(err)
			}
			src := handedOver(t, res, dir)
			got := runCandidate(t, "python3", string(src), tt.probe)
			for i, in := range tt.probe {
				v, _ := task.Decode(json.RawMessage(in))
				want, _ := json.Marshal(tt.c.f(v))
				if string(got[i]) != string(want) {
					t.Errorf("%s on %s = %s, want %s\n%s", tt.c.name, in, got[i], want, src)
				}
			}
		})
	}
}
