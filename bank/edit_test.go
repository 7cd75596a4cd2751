package bank

import (
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
)

func mustEdits(t *testing.T, s string) []Edit {
	t.Helper()
	tree, err := parseJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	es, err := decodeEdits("graph_edits", tree)
	if err != nil {
		t.Fatalf("decode edits: %v", err)
	}
	return es
}

func TestApplyEdits(t *testing.T) {
	base := mustGraph(t, `[{"id":"product","op":"number.mul","args":{"a":"one","b":"two"}},{"id":"unused","op":"number.neg","args":{"a":"one"}}]`, `{"answer":"product"}`)
	reg := NewRegistry()
	tests := []struct {
		name, edits string
		want        string // canonical structure, or
		wantErr     string // from ApplyEdits or Validate
	}{
		{"rebind", `[{"kind":"rebind","node":"product","argument":"b","ref":"one"}]`,
			`{"nodes":[{"args":{"a":"one","b":"one"},"id":"product","op":"number.mul"},{"args":{"a":"one"},"id":"unused","op":"number.neg"}],"outputs":{"answer":"product"}}`, ""},
		{"replace add remove set", `[
		  {"kind":"replace_node","node":"product","value":{"id":"product","op":"number.add","args":{"a":"one","b":"two"}}},
		  {"kind":"add_node","value":{"id":"total","op":"number.add","args":{"a":"product","b":"two"}}},
		  {"kind":"remove_node","node":"unused"},
		  {"kind":"set_output","output":"answer","ref":"total"}]`,
			`{"nodes":[{"args":{"a":"one","b":"two"},"id":"product","op":"number.add"},{"args":{"a":"product","b":"two"},"id":"total","op":"number.add"}],"outputs":{"answer":"total"}}`, ""},
		{"rebind unknown argument", `[{"kind":"rebind","node":"product","argument":"c","ref":"one"}]`, "", `node "product" has no argument "c"`},
		{"rebind missing node", `[{"kind":"rebind","node":"nope","argument":"a","ref":"one"}]`, "", `no node "nope"`},
		{"replace renames", `[{"kind":"replace_node","node":"product","value":{"id":"other","op":"number.add","args":{"a":"one","b":"two"}}}]`, "", `replacement id "other" differs`},
		{"add existing", `[{"kind":"add_node","value":{"id":"unused","op":"number.neg","args":{"a":"one"}}}]`, "", `node "unused" exists`},
		{"remove referenced", `[{"kind":"remove_node","node":"product"}]`, "", `outputs.answer: reference "product" does not name`},
		{"rebind creates kind error", `[{"kind":"rebind","node":"product","argument":"b","ref":"half"}]`, "", `kind scalar, want index`},
		{"rebind creates cycle", `[{"kind":"rebind","node":"product","argument":"b","ref":"product"}]`, "", `cycle`},
		{"later edit fixes earlier", `[{"kind":"rebind","node":"product","argument":"b","ref":"half"},{"kind":"rebind","node":"product","argument":"a","ref":"half"}]`,
			`{"nodes":[{"args":{"a":"half","b":"half"},"id":"product","op":"number.mul"},{"args":{"a":"one"},"id":"unused","op":"number.neg"}],"outputs":{"answer":"product"}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := string(base.Structure())
			g, err := ApplyEdits(base, mustEdits(t, tt.edits))
			if err == nil {
				_, err = Validate(reg, g)
			}
			if string(base.Structure()) != before {
				t.Fatal("ApplyEdits modified its input")
			}
			if testenv.WantErr(t, err, tt.wantErr) {
				return
			}
			if got := string(g.Structure()); got != tt.want {
				t.Errorf("graph = %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestEditDecodeErrors(t *testing.T) {
	many := "[" + strings.Repeat(`{"kind":"remove_node","node":"x"},`, 64) + `{"kind":"remove_node","node":"x"}]`
	tests := []struct{ name, in, want string }{
		{"too many", many, "graph_edits: 65 given, at most 64 allowed"},
		{"unknown kind", `[{"kind":"rename"}]`, `unknown edit kind "rename"`},
		{"missing field", `[{"kind":"rebind","node":"x","ref":"y"}]`, `graph_edits[0]: missing field "argument"`},
		{"extra field", `[{"kind":"remove_node","node":"x","ref":"y"}]`, `unknown field "ref"`},
		{"bad node value", `[{"kind":"add_node","value":{"id":"x"}}]`, `graph_edits[0].value`},
	}
	for _, tt := range tests {
		tree, _ := parseJSON([]byte(tt.in))
		if _, err := decodeEdits("graph_edits", tree); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestCompare(t *testing.T) {
	grid := func(rows ...[]int) Value {
		v, err := NewGrid(rows)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	big := make([][]int, 20)
	bigWant := make([][]int, 20)
	for i := range big {
		big[i], bigWant[i] = make([]int, 20), make([]int, 20)
		for j := range bigWant[i] {
			bigWant[i][j] = 1
		}
	}
	js := func(s string) Value { v, _ := JSONValue([]byte(s)); return v }
	tests := []struct {
		name          string
		got           Value
		present       bool
		want          Value
		status        string
		score         float64 // -1: no score
		scalar, categ int
		cells         int
		truncated     bool
	}{
		{"missing output", Value{}, false, Index(1), "missing_output", -1, 0, 0, 0, false},
		{"kind mismatch", Scalar(1), true, Index(1), "kind_mismatch", 0, 0, 0, 0, false},
		{"scalar within atol", Scalar(1 + 1e-12), true, Scalar(1), "match", 1, 0, 0, 0, false},
		{"scalar error", Scalar(1.5), true, Scalar(1), "mismatch", 0, 1, 0, 0, false},
		{"color categorical", Color(1), true, Color(2), "mismatch", 0, 0, 1, 0, false},
		{"grid shape", grid([]int{1, 2}), true, grid([]int{1}, []int{2}), "shape_mismatch", 0, 0, 0, 0, false},
		{"grid cells", grid([]int{1, 2}, []int{3, 4}), true, grid([]int{1, 2}, []int{3, 5}), "mismatch", 0.75, 0, 0, 1, false},
		{"grid cells capped", grid(big...), true, grid(bigWant...), "mismatch", 0, 0, 0, 256, true},
		{"list length", List(KindIndex, []Value{Index(1)}), true, List(KindIndex, nil), "shape_mismatch", 0, 0, 0, 0, false},
		{"json mixed", js(`{"a":[1,2.0000001],"b":"x","c":true}`), true, js(`{"a":[1,2],"b":"y","c":true}`), "mismatch", 0.5, 1, 1, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Compare("out", tt.got, tt.present, tt.want, -1)
			if r.Status != tt.status {
				t.Errorf("status = %s, want %s", r.Status, tt.status)
			}
			if tt.score < 0 {
				if r.Score != nil {
					t.Errorf("score = %v, want none", *r.Score)
				}
			} else if r.Score == nil || *r.Score != tt.score {
				t.Errorf("score = %v, want %v", r.Score, tt.score)
			}
			if len(r.ScalarErrors) != tt.scalar || len(r.Mismatches) != tt.categ || len(r.Cells) != tt.cells || r.Truncated != tt.truncated {
				t.Errorf("scalar %d categorical %d cells %d truncated %v, want %d %d %d %v",
					len(r.ScalarErrors), len(r.Mismatches), len(r.Cells), r.Truncated, tt.scalar, tt.categ, tt.cells, tt.truncated)
			}
			if r.Match != (tt.status == "match") {
				t.Errorf("match = %v with status %s", r.Match, r.Status)
			}
		})
	}
	if r := Compare("out", grid(big...), true, grid(bigWant...), DefaultAtol); r.CellCount != 400 {
		t.Errorf("cell mismatch count = %d, want 400 (uncapped)", r.CellCount)
	}
}

func TestRegistryIdentity(t *testing.T) {
	a, b := NewRegistry(), NewRegistry()
	if a.Identity() != b.Identity() {
		t.Fatal("identity is not deterministic")
	}
	f, err := DecodeFunction(readTestdata(t, "keep_large.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := a.WithFunction("keep_large", f)
	if err != nil {
		t.Fatal(err)
	}
	if c.Identity() == a.Identity() {
		t.Error("adding a function kept the registry identity")
	}
	if _, ok := a.Lookup("keep_large"); ok {
		t.Error("WithFunction modified the original registry")
	}
	opA, _ := a.Lookup("object.paint")
	opC, _ := c.Lookup("object.paint")
	if opA.Digest != opC.Digest || opA.Version != opC.Version {
		t.Error("adding a function changed an existing operation's definition")
	}
	if _, err := c.WithFunction("keep_large", f); err == nil {
		t.Error("registering a taken name succeeded")
	}
	if _, err := c.WithFunction("number.add", f); err == nil {
		t.Error("shadowing a built-in succeeded")
	}
	bad, _ := DecodeFunction([]byte(`{"params":{"item":"object"},"nodes":[{"id":"s","op":"object.size","args":{"item":"item"}}],"output":"missing"}`))
	if _, err := a.WithFunction("bad", bad); err == nil || !strings.Contains(err.Error(), `outputs.output: reference "missing"`) {
		t.Errorf("invalid function: err = %v", err)
	}
	rec, _ := DecodeFunction([]byte(`{"params":{"item":"object"},"nodes":[{"id":"s","op":"self","args":{"item":"item"}}],"output":"s"}`))
	if _, err := a.WithFunction("self", rec); err == nil || !strings.Contains(err.Error(), `unknown operation "self"`) {
		t.Errorf("recursive function: err = %v", err)
	}
	if got, want := len(a.Names()), 31; got != want {
		t.Errorf("built-ins = %d, want %d", got, want)
	}
}
