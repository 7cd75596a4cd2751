package bank

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create it): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// objectsRegistry is the built-in registry plus keep_large.
func objectsRegistry(t testing.TB) *Registry {
	t.Helper()
	f, err := DecodeFunction(readTestdata(t, "keep_large.json"))
	if err != nil {
		t.Fatal(err)
	}
	reg, err := NewRegistry().WithFunction("keep_large", f)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func objectsGraph(t testing.TB) *Graph {
	t.Helper()
	g, err := DecodeGraph("spec", readTestdata(t, "objects.json"))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func indentJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		t.Fatal(err)
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}

func TestGoldenObjects(t *testing.T) {
	ev := &Evaluator{Registry: objectsRegistry(t)}
	res, err := ev.Evaluate(context.Background(), objectsGraph(t))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "objects.outputs.golden", indentJSON(t, res.Outputs))
	golden(t, "objects.trace.golden", indentJSON(t, res.Trace))
	golden(t, "objects.dependencies.golden", indentJSON(t, res.Dependencies))

	// Independent checks of the golden content, so that a wrong golden file
	// cannot pass unnoticed.
	want, err := NewGrid([][]int{
		{0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
		{0, 0, 0, 0, 0, 2, 0, 0, 0, 0},
		{0, 1, 1, 0, 0, 0, 0, 0, 0, 0},
		{0, 1, 1, 0, 0, 0, 0, 0, 0, 0},
		{0, 4, 0, 0, 3, 3, 3, 0, 0, 0},
		{0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Outputs["result"]; !got.Equal(want) {
		t.Errorf("result = %s, want %s", got.Canonical(), want.Canonical())
	}
	if got, want := res.Outputs["count"], Index(2); !got.Equal(want) {
		t.Errorf("count = %s, want %s", got.Canonical(), want.Canonical())
	}
	objs, _ := res.Outputs["original"].Items()
	if got, want := len(objs), 4; got != want {
		t.Fatalf("components = %d, want %d", got, want)
	}
	shifted, _ := res.Values["shifted"].Items()
	for i, s := range shifted {
		so, _ := s.Object()
		sel, _ := res.Values["selected"].Items()
		o, _ := sel[i].Object()
		if so.Origin != o.Origin || so.Source != o.Source {
			t.Errorf("shifted[%d] lost its origin or source", i)
		}
	}
	var paths []string
	for _, e := range res.Trace {
		paths = append(paths, e.Path)
	}
	for _, p := range []string{"root/objects", "root/selected/item_0", "root/selected/item_0/size", "root/shifted/item_1", "root/cleared/item_0", "root/placed/item_1", "root/count"} {
		found := false
		for _, q := range paths {
			found = found || q == p
		}
		if !found {
			t.Errorf("trace has no entry %s", p)
		}
	}
	if got, want := res.Dependencies["count"], []string{"background", "count", "grid", "minimum", "objects", "selected"}; !cmp.Equal(got, want) {
		t.Errorf("dependencies of count = %v, want %v", got, want)
	}
}
