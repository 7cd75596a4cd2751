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
		if _, err := Validate(reg, g); err != nil {
			return
		}
		_, _ = (&Evaluator{Registry: reg, Budget: 1000}).Evaluate(context.Background(), g)
	})
}
