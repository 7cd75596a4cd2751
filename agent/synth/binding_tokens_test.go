package synth

import (
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// A list of tokens of several sorts binds as their texts, the same texts
// the emitted helper makes in Python; anything else is not a token list.
func TestTokensBinding(t *testing.T) {
	cases := []struct {
		in   string
		want []string // nil: not a token list
	}{
		{`[3, -4, "max", "neg"]`, []string{"3", "-4", "max", "neg"}},
		{`[["push", 5], ["pop"], ["push", -12]]`, []string{"push 5", "pop", "push -12"}},
		{`[["type", "ab"], ["backspace", 2], ["undo"]]`, []string{"type ab", "backspace 2", "undo"}},
		{`[]`, []string{}},
		{`[[1, 2], [3, 4]]`, nil},
		{`["two words", 3]`, nil},
		{`[1.5, "x"]`, nil},
		{`[[]]`, nil},
		{`[true, "x"]`, nil},
		{`{"a": 1}`, nil},
	}
	var bound []string
	for _, c := range cases {
		v, err := task.Decode(json.RawMessage(c.in))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := dsl.TokenList(v)
		if c.want == nil {
			if ok {
				t.Errorf("tokenList(%s) = %q, want no token list", c.in, got)
			}
			if tokensBinding([]any{v}) != nil {
				t.Errorf("tokensBinding(%s) bound", c.in)
			}
			continue
		}
		if !ok || !slices.Equal(got, c.want) {
			t.Errorf("tokenList(%s) = %q, %v; want %q", c.in, got, ok, c.want)
		}
		b := tokensBinding([]any{v})
		if b == nil {
			t.Fatalf("tokensBinding(%s) = nil", c.in)
		}
		env, err := b.Env(v)
		if err != nil || !slices.Equal(env[0].([]string), c.want) {
			t.Errorf("env(%s) = %v, %v", c.in, env, err)
		}
		bound = append(bound, c.in)
	}
	// The Python helper makes the same texts.
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: the helper's texts are not checked")
	}
	script := tokensHelper + "\nimport json, sys\nprint(json.dumps([[token(t) for t in x] for x in json.loads(sys.argv[1])]))\n"
	out, err := exec.Command(py, "-c", script, "["+strings.Join(bound, ",")+"]").CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	var got [][]string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	for i, in := range bound {
		v, _ := task.Decode(json.RawMessage(in))
		want, _ := dsl.TokenList(v)
		if !slices.Equal(got[i], want) {
			t.Errorf("python token texts of %s = %q, want %q", in, got[i], want)
		}
	}
}

// An input of kind other that is a list of tokens gets the tokens
// binding; one the DSL binds otherwise keeps its own.
func TestOtherBindingFallsBackToTokens(t *testing.T) {
	cases := []struct {
		inputs []string
		shape  string
	}{
		{[]string{`[1, 2, "max"]`, `[3]`}, "tokens"},
		{[]string{`[["push", 1], ["pop"]]`}, "tokens"},
		{[]string{`[1, 2, 3]`}, "list"},
		{[]string{`["a", "b"]`}, "words"},
		{[]string{`[[1, 2], [3, 4]]`}, "pairs"},
	}
	for _, c := range cases {
		var ins []any
		for _, s := range c.inputs {
			v, _ := task.Decode(json.RawMessage(s))
			ins = append(ins, v)
		}
		b, err := newBinding(task.Task{Kind: task.KindOther, InputType: "a list"}, ins)
		if err != nil || b.Shape != c.shape {
			t.Errorf("binding of %v: %+v, %v; want shape %s", c.inputs, b, err, c.shape)
		}
	}
}
