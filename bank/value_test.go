package bank

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"testing/quick"
)

const id1 = "sha256:1111111111111111111111111111111111111111111111111111111111111111"

func TestDecodeValueErrors(t *testing.T) {
	prog := `{"language":"python","function":"f","source":"def f(x): return x","sha256":"00"}`
	tests := []struct {
		name, in, want string
	}{
		{"not an object", `[1]`, `inputs.v: want an object {"kind", "data"}, got array`},
		{"missing data", `{"kind":"index"}`, `inputs.v: missing field "data"`},
		{"unknown field", `{"kind":"index","data":1,"x":2}`, `inputs.v: unknown field "x"`},
		{"duplicate key", `{"kind":"index","data":1,"data":2}`, `duplicate key "data"`},
		{"trailing data", `{"kind":"index","data":1} 2`, `unexpected data after the JSON value`},
		{"unknown kind", `{"kind":"matrix","data":1}`, `inputs.v.kind: unknown kind "matrix"`},
		{"nested list kind", `{"kind":"list[list[index]]","data":[]}`, `unknown kind "list[list[index]]"`},
		{"index from float", `{"kind":"index","data":1.5}`, `inputs.v.data: want an integer, got 1.5`},
		{"index from 1.0", `{"kind":"index","data":1.0}`, `want an integer, got 1.0`},
		{"index from flag", `{"kind":"index","data":true}`, `want an integer, got boolean`},
		{"scalar from string", `{"kind":"scalar","data":"1"}`, `want a number, got string`},
		{"scalar overflow", `{"kind":"scalar","data":1e999}`, `number 1e999 out of range`},
		{"color range", `{"kind":"color","data":10}`, `inputs.v.data: color 10 out of range 0-9`},
		{"flag from number", `{"kind":"flag","data":1}`, `want a boolean, got number`},
		{"point length", `{"kind":"point","data":[1]}`, `want [row, column], got 1 elements`},
		{"grid ragged", `{"kind":"grid","data":[[1,2,3,4,5],[1,2,3,4,5],[1,2,3,4,5],[1,2,3,4]]}`, `inputs.v.data[3]: row length 4, want 5`},
		{"grid empty", `{"kind":"grid","data":[]}`, `grid has 0 rows, want 1 to 256`},
		{"grid empty row", `{"kind":"grid","data":[[]]}`, `inputs.v.data[0]: row length 0, want 1 to 256`},
		{"grid cell color", `{"kind":"grid","data":[[0,11]]}`, `inputs.v.data[0][1]: color 11 out of range 0-9`},
		{"grid too tall", `{"kind":"grid","data":[` + strings.Repeat(`[0],`, 256) + `[0]]}`, `grid has 257 rows`},
		{"object duplicate", `{"kind":"object","data":{"source":"` + id1 + `","origin":"` + id1 + `","frame":[3,3],"pixels":[[0,0,1],[0,0,2]]}}`, `inputs.v.data.pixels[1]: duplicate coordinate [0, 0]`},
		{"object unsorted", `{"kind":"object","data":{"source":"` + id1 + `","origin":"` + id1 + `","frame":[3,3],"pixels":[[1,0,1],[0,0,2]]}}`, `pixels[1]: pixels not sorted`},
		{"object bad id", `{"kind":"object","data":{"source":"abc","origin":"` + id1 + `","frame":[3,3],"pixels":[[0,0,1]]}}`, `inputs.v.data.source: want an identifier`},
		{"object no pixels", `{"kind":"object","data":{"source":"` + id1 + `","origin":"` + id1 + `","frame":[3,3],"pixels":[]}}`, `object has no pixels`},
		{"object missing frame", `{"kind":"object","data":{"source":"` + id1 + `","origin":"` + id1 + `","pixels":[[0,0,1]]}}`, `missing field "frame"`},
		{"text from number", `{"kind":"text","data":3}`, `want a string, got number`},
		{"program digest", `{"kind":"program","data":` + prog + `}`, `inputs.v.data.sha256: digest "00" does not match`},
		{"program language", `{"kind":"program","data":{"language":"ruby","function":"f","source":"","sha256":""}}`, `unsupported language "ruby"`},
		{"example source", `{"kind":"example","data":{"input":1,"output":2,"source":"oracle"}}`, `unknown example source "oracle"`},
		{"list element", `{"kind":"list[color]","data":[1,2,12]}`, `inputs.v.data[2]: color 12 out of range 0-9`},
		{"list not array", `{"kind":"list[index]","data":{}}`, `want an array for list[index], got object`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeValue("inputs.v", []byte(tt.in))
			if err == nil {
				t.Fatalf("DecodeValue(%s) succeeded, want error %q", tt.in, tt.want)
			}
			if got := err.Error(); !strings.Contains(got, tt.want) {
				t.Errorf("error = %q, want it to contain %q", got, tt.want)
			}
		})
	}
}

func TestDecodeValueCanonical(t *testing.T) {
	src := "def f(x):\n    return x\n"
	prog, err := NewProgram("f", src)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ in, want string }{
		{`{"kind":"scalar","data":2}`, `{"data":2.0,"kind":"scalar"}`},
		{`{"kind":"scalar","data":-0.0}`, `{"data":0.0,"kind":"scalar"}`},
		{`{"kind":"scalar","data":1.5e3}`, `{"data":1500.0,"kind":"scalar"}`},
		{`{ "data" : 3 , "kind" : "index" }`, `{"data":3,"kind":"index"}`},
		{`{"kind":"list[index]","data":[]}`, `{"data":[],"kind":"list[index]"}`},
		{`{"kind":"json","data":{"b":[1,1.0,"<&>"],"a":null}}`, `{"data":{"a":null,"b":[1,1.0,"<&>"]},"kind":"json"}`},
		{`{"kind":"grid","data":[[1,2],[3,4]]}`, `{"data":[[1,2],[3,4]],"kind":"grid"}`},
		{`{"kind":"example","data":{"source":"random","output":[1 ,2],"input":{"y":1,"x":2}}}`, `{"data":{"input":{"x":2,"y":1},"output":[1,2],"source":"random"},"kind":"example"}`},
		{string(prog.Canonical()), string(prog.Canonical())},
	}
	for _, tt := range tests {
		v, err := DecodeValue("v", []byte(tt.in))
		if err != nil {
			t.Errorf("DecodeValue(%s): %v", tt.in, err)
			continue
		}
		if got := string(v.Canonical()); got != tt.want {
			t.Errorf("canonical of %s = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// randomValue builds a random valid value of a random kind.
func randomValue(r *rand.Rand, depth int) Value {
	switch r.Intn(12) {
	case 0:
		return Scalar((r.Float64() - 0.5) * float64(r.Int63n(1<<40)))
	case 1:
		return Index(r.Int63() - r.Int63())
	case 2:
		return Color(r.Int63n(10))
	case 3:
		return Flag(r.Intn(2) == 0)
	case 4:
		return PointValue(r.Int63n(1000)-500, r.Int63n(1000)-500)
	case 5:
		rows, cols := 1+r.Intn(8), 1+r.Intn(8)
		g := &Grid{Rows: rows, Cols: cols, Cells: make([]uint8, rows*cols)}
		for i := range g.Cells {
			g.Cells[i] = uint8(r.Intn(10))
		}
		return GridValue(g)
	case 6:
		g := GridValue(&Grid{Rows: 3, Cols: 3, Cells: []uint8{1, 1, 0, 0, 2, 0, 3, 3, 3}})
		objs, _ := opComponents(nil, map[string]Value{"grid": g, "background": Color(0)})
		xs, _ := objs.Items()
		return xs[r.Intn(len(xs))]
	case 7:
		b := make([]rune, r.Intn(12))
		for i := range b {
			b[i] = rune(r.Intn(0x3000) + 1)
		}
		return Text(string(b))
	case 8:
		v, _ := JSONValue([]byte(`{"z":[1,2.5,"x",null,true],"a":{"b":-0}}`))
		return v
	case 9:
		p, _ := NewProgram("solve", "def solve(x):\n    return x\n")
		return p
	case 10:
		e, _ := NewExample([]byte(`[1,2]`), []byte(`3`), "initial")
		return e
	default:
		if depth > 0 {
			return List(KindIndex, nil)
		}
		proto := randomValue(r, depth+1)
		for proto.Kind().IsList() {
			proto = randomValue(r, depth+1)
		}
		n := r.Intn(4)
		items := []Value{}
		for i := 0; i < n; i++ {
			v := randomValue(r, depth+1)
			for v.Kind() != proto.Kind() {
				v = randomValue(r, depth+1)
			}
			items = append(items, v)
		}
		return List(proto.Kind(), items)
	}
}

func TestCanonicalRoundTripProperty(t *testing.T) {
	prop := func(seed int64) bool {
		r := rand.New(rand.NewSource(seed))
		v := randomValue(r, 0)
		c := v.Canonical()
		w, err := DecodeValue("v", c)
		if err != nil {
			t.Logf("decode %s: %v", c, err)
			return false
		}
		c2 := w.Canonical()
		c3, err := Canonicalize(c)
		if err != nil {
			t.Logf("canonicalize %s: %v", c, err)
			return false
		}
		return string(c) == string(c2) && string(c) == string(c3) && v.Hash() == w.Hash() && w.Equal(v)
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 2000}); err != nil {
		t.Error(err)
	}
}

func TestHashesAreStable(t *testing.T) {
	// Fixed identifiers: changing the canonical encoding breaks every stored
	// bank, so these must never change.
	tests := []struct {
		in, want string
	}{
		{`{"kind":"index","data":2}`, "sha256:94cb0c6484656586246daf7637aa860824976423357649a5e07ef3bb301be009"}, // sha256sum of {"data":2,"kind":"index"}
		{`{"kind":"flag","data":true}`, "sha256:2287a4313a2d59d4d3dd231f842ba6f5081508c03a6c3e860ada6da70f12a8af"},
	}
	for _, tt := range tests {
		v, err := DecodeValue("v", []byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Hash(); got != tt.want {
			t.Errorf("hash of %s = %s, want %s", tt.in, got, tt.want)
		}
	}
	// Re-ordered keys and white space do not change the hash.
	a, _ := DecodeValue("a", []byte(`{"kind":"json","data":{"x":1,"y":[1, 2]}}`))
	b, _ := DecodeValue("b", []byte(` { "data" : { "y" : [1,2], "x" : 1 }, "kind" : "json" } `))
	if a.Hash() != b.Hash() {
		t.Errorf("hash depends on key order: %s vs %s", a.Hash(), b.Hash())
	}
}

// TestDecodedDataTypes: every base kind has a decoder of its data, and the
// data it decodes has the Go type the kind's constructor stores, which the
// accessors (Int, Grid, …) and the encoder expect.
func TestDecodedDataTypes(t *testing.T) {
	prog, err := NewProgram("f", "def f(x):\n    return x\n")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in   string
		want Value // the constructor's value of the kind, for its data type
	}{
		{`{"kind":"scalar","data":2}`, Scalar(0)},
		{`{"kind":"index","data":3}`, Index(0)},
		{`{"kind":"color","data":3}`, Color(0)},
		{`{"kind":"flag","data":true}`, Flag(false)},
		{`{"kind":"point","data":[1,2]}`, Value{KindPoint, Point{}}},
		{`{"kind":"grid","data":[[1]]}`, GridValue(nil)},
		{`{"kind":"object","data":{"source":"` + id1 + `","origin":"` + id1 + `","frame":[1,1],"pixels":[[0,0,1]]}}`, ObjectValue(nil)},
		{`{"kind":"text","data":"a"}`, Text("")},
		{`{"kind":"json","data":{"a":[1]}}`, Value{KindJSON, json.RawMessage(nil)}},
		{string(prog.Canonical()), ProgramValue(nil)},
		{`{"kind":"example","data":{"input":1,"output":2,"source":"agent"}}`, ExampleValue(nil)},
	}
	decoded := map[Kind]bool{}
	for _, tt := range tests {
		v, err := DecodeValue("v", []byte(tt.in))
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		decoded[v.Kind()] = true
		if v.Kind() != tt.want.Kind() || fmt.Sprintf("%T", v.data) != fmt.Sprintf("%T", tt.want.data) {
			t.Errorf("%s: decoded %s holding %T, want %s holding %T", tt.in, v.Kind(), v.data, tt.want.Kind(), tt.want.data)
		}
	}
	for _, k := range baseKinds {
		if _, ok := dataDecoders[k]; !ok || !decoded[k] {
			t.Errorf("kind %s: decoder %v, tested %v", k, ok, decoded[k])
		}
	}
}
