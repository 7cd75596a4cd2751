package bank

import (
	"context"
	"testing"
)

// FuzzDecodeValue: decoding never panics, and whatever decodes re-encodes
// canonically to something that decodes to the same hash.
func FuzzDecodeValue(f *testing.F) {
	for _, s := range []string{
		`{"kind":"grid","data":[[0,1],[2,3]]}`,
		`{"kind":"list[index]","data":[]}`,
		`{"kind":"json","data":{"a":[1,2.5,"x",null]}}`,
		`{"kind":"object","data":{"source":"` + id1 + `","origin":"` + id1 + `","frame":[3,3],"pixels":[[0,0,1],[0,1,2]]}}`,
		`{"kind":"scalar","data":-0.0}`,
		`{"kind":"example","data":{"input":1,"output":[1e5],"source":"agent"}}`,
		`{"kind":"point","data":[1,-2]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := DecodeValue("v", data)
		if err != nil {
			return
		}
		c := v.Canonical()
		w, err := DecodeValue("v", c)
		if err != nil {
			t.Fatalf("canonical form %s does not decode: %v", c, err)
		}
		if string(w.Canonical()) != string(c) {
			t.Fatalf("canonical form not stable: %s vs %s", c, w.Canonical())
		}
	})
}

// FuzzValidateGraph: decoding and validating arbitrary graphs never
// panics; a graph that validates also evaluates without panicking within a
// small budget.
func FuzzValidateGraph(f *testing.F) {
	f.Add(readTestdata(f, "objects.json"))
	f.Add([]byte(`{"inputs":{"a":{"kind":"index","data":1}},"nodes":[{"id":"x","op":"number.add","args":{"a":"a","b":"a"}},{"id":"c","choice":{"if":"f","then":"x","else":"a"}},{"id":"f","op":"number.lt","args":{"a":"a","b":"x"}}],"outputs":{"o":"c"}}`))
	f.Add([]byte(`{"inputs":{"l":{"kind":"list[index]","data":[1,2]}},"nodes":[{"id":"s","op":"list.sum","args":{"items":"l"}}],"outputs":{"s":"s","l":"l"}}`))
	reg := objectsRegistry(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := DecodeGraph("spec", data)
		if err != nil {
			return
		}
		checkGraphEncoding(t, g)
		if _, err := Validate(reg, g); err != nil {
			return
		}
		checkUntraced(t, reg, g, 1000)
	})
}

// checkUntraced: evaluating without a trace gives the same outputs,
// values and outcome as evaluating with one.
func checkUntraced(t *testing.T, reg *Registry, g *Graph, budget int) {
	t.Helper()
	traced, terr := (&Evaluator{Registry: reg, Budget: budget}).Evaluate(context.Background(), g)
	quiet, qerr := (&Evaluator{Registry: reg, Budget: budget, untraced: true}).Evaluate(context.Background(), g)
	if (terr == nil) != (qerr == nil) || terr != nil && terr.Error() != qerr.Error() {
		t.Fatalf("traced: %v, untraced: %v", terr, qerr)
	}
	if traced == nil || quiet == nil {
		if (traced == nil) != (quiet == nil) {
			t.Fatalf("traced result %v, untraced %v", traced, quiet)
		}
		return
	}
	for id, h := range traced.hashes {
		if v, ok := traced.Values[id]; !ok || v.Hash() != h {
			t.Fatalf("the trace's hash of %s is %s, not the value's", id, h)
		}
	}
	if len(quiet.Trace) != 0 {
		t.Errorf("untraced evaluation recorded %d trace entries", len(quiet.Trace))
	}
	for _, m := range []struct {
		name string
		a, b map[string]Value
	}{{"outputs", traced.Outputs, quiet.Outputs}, {"values", traced.Values, quiet.Values}} {
		if len(m.a) != len(m.b) {
			t.Fatalf("%s: traced %d, untraced %d", m.name, len(m.a), len(m.b))
		}
		for k, v := range m.a {
			if w, ok := m.b[k]; !ok || !v.Equal(w) {
				t.Fatalf("%s.%s differs between traced and untraced evaluation", m.name, k)
			}
		}
	}
}

func TestUntracedEvaluationAgrees(t *testing.T) {
	reg := objectsRegistry(t)
	g, err := DecodeGraph("spec", readTestdata(t, "objects.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int{0, 3, 12} {
		checkUntraced(t, reg, g, budget)
	}
}
