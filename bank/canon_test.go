package bank

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
)

// referenceParse is the parser the bank used before its own: encoding/json's
// token stream with the same strictness. parseJSON must accept exactly
// what it accepts and return the same tree.
func referenceParse(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := referenceValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

func referenceValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, fmt.Errorf("JSON nested deeper than %d levels", maxJSONDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := map[string]any{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, errors.New("object key is not a string")
				}
				if _, dup := m[k]; dup {
					return nil, fmt.Errorf("duplicate key %q", k)
				}
				v, err := referenceValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				m[k] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return m, nil
		case '[':
			xs := []any{}
			for dec.More() {
				v, err := referenceValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				xs = append(xs, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return xs, nil
		default:
			return nil, fmt.Errorf("unexpected %q", t)
		}
	default:
		return t, nil
	}
}

var parseSeeds = []string{
	`{"kind":"grid","data":[[0,1],[2,3]]}`,
	` [1, -0, 0.5e-3, 1E+2, -12.25e7] `,
	`{"a":{"b":[true,false,null,"x"]},"c":""}`,
	`{"a\nb":1,"\u2028\"":{"":[]},"c":"}\\\"]","d":[{"e":"{"}]}`,
	`"\u00e9\ud83d\ude00\ud800\udc00\ud800x\udc00\u0041\"\\\/\b\f\n\r\t"`,
	"\"caf\xc3\xa9 \xff\xfe bad\"",
	`{"a":1,"a":2}`,
	`{"a":1}{}`,
	`[1,]`,
	`[01]`,
	`-`,
	`1.`,
	`1e`,
	`.5`,
	`tru`,
	`nul`,
	`"\x"`,
	`"\u12"`,
	"\"a\tb\"",
	`{"a" 1}`,
	`{1:2}`,
	`[1 2]`,
	``,
	`   `,
	`{"x":[` + strings.Repeat("[", 199) + strings.Repeat("]", 199) + `]}`,
	strings.Repeat("[", 201) + strings.Repeat("]", 201),
	strings.Repeat("[", 202) + strings.Repeat("]", 202),
	"\ufeff{}",
	`123456789012345678901234567890`,
	`{"a":"b"}  `,
	`[] x`,
}

func TestParseJSONMatchesReference(t *testing.T) {
	for _, s := range parseSeeds {
		checkParse(t, []byte(s))
	}
}

// FuzzParseJSON: the bank's parser and encoding/json's token stream agree
// on every input: both reject it, or both return the same tree.
func FuzzParseJSON(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkParse)
}

func checkParse(t *testing.T, data []byte) {
	got, gerr := parseJSON(data)
	want, werr := referenceParse(data)
	if (gerr == nil) != (werr == nil) {
		t.Fatalf("%q: parseJSON error %v, reference error %v", data, gerr, werr)
	}
	if gerr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: parseJSON = %#v, reference = %#v", data, got, want)
	}
	checkField(t, data, got)
}

// checkField: jsonField finds, in the canonical encoding of an object,
// each field's value as canonicalJSON encodes it and no other key; on any
// other input it may fail, but not panic.
func checkField(t *testing.T, data []byte, tree any) {
	jsonField(data, 0, "a")
	m, ok := tree.(map[string]any)
	if !ok {
		return
	}
	c, err := canonicalJSON(m)
	if err != nil {
		return // not finite, say
	}
	for k, v := range m {
		want, _ := canonicalJSON(v)
		s, e, ok := jsonField(c, 0, k)
		if !ok || !bytes.Equal(c[s:e], want) {
			t.Fatalf("%s: field %q: %v %q, want %q", c, k, ok, c[s:min(max(s, e), len(c))], want)
		}
	}
	if _, _, ok := jsonField(c, 0, "no such key\x00"); ok {
		t.Fatalf("%s: found a key it does not have", c)
	}
}

// referenceTree is the node as a JSON tree, the way the bank encoded nodes
// before it wrote them directly; canonicalJSON of it is the reference
// encoding.
func referenceTree(n *Node) map[string]any {
	refs := func(m map[string]string) map[string]any {
		out := make(map[string]any, len(m))
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	m := map[string]any{"id": n.ID}
	switch n.Form() {
	case "op":
		m["op"] = n.Op
		m["args"] = refs(n.Args)
	case "choice":
		m["choice"] = map[string]any{"if": n.Choice.If, "then": n.Choice.Then, "else": n.Choice.Else}
	default:
		a := n.apply()
		t := map[string]any{"op": a.Op, "items": a.Items, "bindings": refs(a.Bindings)}
		if n.Fold != nil {
			t["state"] = a.State
		}
		m[n.Form()] = t
	}
	return m
}

// referenceGraphJSON is the reference encoding of a graph, with or without
// its inputs.
func referenceGraphJSON(t testing.TB, g *Graph, inputs bool) []byte {
	t.Helper()
	nodes := make([]any, len(g.Nodes))
	for i := range g.Nodes {
		nodes[i] = referenceTree(&g.Nodes[i])
	}
	outs := map[string]any{}
	for k, v := range g.Outputs {
		outs[k] = v
	}
	tree := map[string]any{"nodes": nodes, "outputs": outs}
	if inputs {
		in := map[string]any{}
		for k, v := range g.Inputs {
			in[k] = json.RawMessage(v.Canonical())
		}
		tree["inputs"] = in
	}
	b, err := canonicalJSON(tree)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkGraphEncoding: Structure, MarshalJSON (and marshalWith, from the
// structure) and node encodings equal the reference encodings.
func checkGraphEncoding(t testing.TB, g *Graph) {
	t.Helper()
	if got, want := g.Structure(), referenceGraphJSON(t, g, false); !bytes.Equal(got, want) {
		t.Fatalf("Structure:\n got %s\nwant %s", got, want)
	}
	got, err := g.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := referenceGraphJSON(t, g, true)
	if !bytes.Equal(got, want) {
		t.Fatalf("MarshalJSON:\n got %s\nwant %s", got, want)
	}
	if got := g.marshalWith(g.Structure()); !bytes.Equal(got, want) {
		t.Fatalf("marshalWith:\n got %s\nwant %s", got, want)
	}
}

func TestGraphEncodingMatchesReference(t *testing.T) {
	g, err := DecodeGraph("spec", readTestdata(t, "objects.json"))
	if err != nil {
		t.Fatal(err)
	}
	g.Nodes = append(g.Nodes,
		Node{ID: "q\"uote", Op: "x.y", Args: map[string]string{"b": "z", "a": "é"}},
		Node{ID: "noargs", Op: "x"},
		Node{ID: "c", Choice: &Choice{If: "f", Then: "t", Else: "e"}},
		Node{ID: "m", Map: &Apply{Op: "o", Items: "i", Bindings: map[string]string{"k": "v", "a": "b"}}},
		Node{ID: "f", Filter: &Apply{Op: "o", Items: "i"}},
		Node{ID: "fo", Fold: &Apply{Op: "o", Items: "i", State: "s", Bindings: map[string]string{}}})
	checkGraphEncoding(t, g)
	f, err := DecodeFunction(readTestdata(t, "keep_large.json"))
	if err != nil {
		t.Fatal(err)
	}
	nodes := make([]any, len(f.Nodes))
	for i := range f.Nodes {
		nodes[i] = referenceTree(&f.Nodes[i])
	}
	params := map[string]any{}
	for k, v := range f.Params {
		params[k] = string(v)
	}
	want, err := canonicalJSON(map[string]any{"params": params, "nodes": nodes, "output": f.Output})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.canonical(); !bytes.Equal(got, want) {
		t.Fatalf("function:\n got %s\nwant %s", got, want)
	}
}
