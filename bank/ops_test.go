package bank

import (
	"context"
	"strings"
	"testing"
)

func val(t testing.TB, s string) Value {
	t.Helper()
	v, err := DecodeValue("test", []byte(s))
	if err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

// obj extracts the components of rows (background 0).
func objs(t testing.TB, rows [][]int) []Value {
	t.Helper()
	g, err := NewGrid(rows)
	if err != nil {
		t.Fatal(err)
	}
	l, err := opComponents(nil, map[string]Value{"grid": g, "background": Color(0)})
	if err != nil {
		t.Fatal(err)
	}
	xs, _ := l.Items()
	return xs
}

func TestOperations(t *testing.T) {
	reg := NewRegistry()
	gridA := `{"kind":"grid","data":[[1,1,0],[0,2,0],[0,0,0]]}`
	ones := objs(t, [][]int{{1, 1, 0}, {0, 2, 0}, {0, 0, 0}})
	multi := ObjectValue(&Object{Source: id1, Origin: id1, Frame: [2]int64{3, 3}, Pixels: []Pixel{{0, 0, 1}, {0, 1, 2}}})
	tests := []struct {
		op      string
		args    map[string]Value
		want    string // canonical result, or
		wantErr string
	}{
		{"number.add", map[string]Value{"a": Index(2), "b": Index(3)}, `{"data":5,"kind":"index"}`, ""},
		{"number.add", map[string]Value{"a": Index(1 << 62), "b": Index(1 << 62)}, "", "index overflow"},
		{"number.add", map[string]Value{"a": Scalar(0.1), "b": Scalar(0.2)}, `{"data":0.30000000000000004,"kind":"scalar"}`, ""},
		{"number.sub", map[string]Value{"a": Index(2), "b": Index(5)}, `{"data":-3,"kind":"index"}`, ""},
		{"number.mul", map[string]Value{"a": Index(1 << 40), "b": Index(1 << 40)}, "", "index overflow"},
		{"number.mul", map[string]Value{"a": Scalar(1e300), "b": Scalar(1e300)}, "", "overflows"},
		{"number.div", map[string]Value{"a": Index(-7), "b": Index(2)}, `{"data":-4,"kind":"index"}`, ""},
		{"number.div", map[string]Value{"a": Index(7), "b": Index(-2)}, `{"data":-4,"kind":"index"}`, ""},
		{"number.div", map[string]Value{"a": Index(6), "b": Index(3)}, `{"data":2,"kind":"index"}`, ""},
		{"number.div", map[string]Value{"a": Index(1), "b": Index(0)}, "", "division by zero"},
		{"number.div", map[string]Value{"a": Scalar(1), "b": Scalar(0)}, "", "division by zero"},
		{"number.div", map[string]Value{"a": Scalar(7), "b": Scalar(2)}, `{"data":3.5,"kind":"scalar"}`, ""},
		{"number.min", map[string]Value{"a": Index(2), "b": Index(-1)}, `{"data":-1,"kind":"index"}`, ""},
		{"number.max", map[string]Value{"a": Scalar(2), "b": Scalar(-1)}, `{"data":2.0,"kind":"scalar"}`, ""},
		{"number.neg", map[string]Value{"a": Index(-9223372036854775808)}, "", "index overflow"},
		{"number.abs", map[string]Value{"a": Scalar(-2.5)}, `{"data":2.5,"kind":"scalar"}`, ""},
		{"number.lt", map[string]Value{"a": Index(1), "b": Index(2)}, `{"data":true,"kind":"flag"}`, ""},
		{"number.le", map[string]Value{"a": Index(2), "b": Index(2)}, `{"data":true,"kind":"flag"}`, ""},
		{"number.eq", map[string]Value{"a": Scalar(0.1), "b": Scalar(0.1)}, `{"data":true,"kind":"flag"}`, ""},
		{"number.ge", map[string]Value{"a": Index(1), "b": Index(2)}, `{"data":false,"kind":"flag"}`, ""},
		{"number.gt", map[string]Value{"a": Index(9007199254740993), "b": Index(9007199254740992)}, `{"data":true,"kind":"flag"}`, ""},
		{"flag.and", map[string]Value{"a": Flag(true), "b": Flag(false)}, `{"data":false,"kind":"flag"}`, ""},
		{"flag.or", map[string]Value{"a": Flag(true), "b": Flag(false)}, `{"data":true,"kind":"flag"}`, ""},
		{"flag.not", map[string]Value{"a": Flag(true)}, `{"data":false,"kind":"flag"}`, ""},
		{"grid.size", map[string]Value{"grid": val(t, gridA)}, `{"data":[3,3],"kind":"point"}`, ""},
		{"grid.blank", map[string]Value{"size": PointValue(2, 3), "color": Color(5)}, `{"data":[[5,5,5],[5,5,5]],"kind":"grid"}`, ""},
		{"grid.blank", map[string]Value{"size": PointValue(0, 3), "color": Color(5)}, "", "out of range"},
		{"grid.blank", map[string]Value{"size": PointValue(257, 3), "color": Color(5)}, "", "out of range"},
		{"grid.components", map[string]Value{"grid": val(t, `{"kind":"grid","data":[[0]]}`), "background": Color(0)}, `{"data":[],"kind":"list[object]"}`, ""},
		{"object.size", map[string]Value{"item": ones[0]}, `{"data":2,"kind":"index"}`, ""},
		{"object.color", map[string]Value{"item": ones[1]}, `{"data":2,"kind":"color"}`, ""},
		{"object.color", map[string]Value{"item": multi}, "", "ambiguous color: the object has colors 1 and 2"},
		{"object.bbox", map[string]Value{"item": ones[0]}, `{"data":[[0,0],[0,1]],"kind":"list[point]"}`, ""},
		{"object.paint", map[string]Value{"item": ones[0], "state": val(t, `{"kind":"grid","data":[[0,3]]}`), "background": Color(0), "overwrite": Flag(false)}, "", "destination [0, 1] has color 3, not the background 0"},
		{"object.paint", map[string]Value{"item": ones[0], "state": val(t, `{"kind":"grid","data":[[0,3]]}`), "background": Color(0), "overwrite": Flag(true)}, `{"data":[[1,1]],"kind":"grid"}`, ""},
		{"object.paint", map[string]Value{"item": ones[1], "state": val(t, `{"kind":"grid","data":[[0,3]]}`), "background": Color(0), "overwrite": Flag(true)}, "", "pixel [1, 1] is outside the 1×2 grid"},
		{"object.erase", map[string]Value{"item": ones[0], "state": val(t, gridA), "background": Color(7)}, `{"data":[[7,7,0],[0,2,0],[0,0,0]],"kind":"grid"}`, ""},
		{"object.erase", map[string]Value{"item": ones[1], "state": val(t, `{"kind":"grid","data":[[0,0,0],[0,3,0],[0,0,0]]}`), "background": Color(0)}, "", "pixel [1, 1] has color 3 in the grid, the object has 2"},
		{"list.length", map[string]Value{"items": List(KindGrid, nil)}, `{"data":0,"kind":"index"}`, ""},
		{"list.sum", map[string]Value{"items": List(KindScalar, nil)}, `{"data":0.0,"kind":"scalar"}`, ""},
		{"list.sum", map[string]Value{"items": List(KindIndex, []Value{Index(2), Index(3)})}, `{"data":5,"kind":"index"}`, ""},
		{"list.concat", map[string]Value{"a": List(KindColor, []Value{Color(1)}), "b": List(KindColor, []Value{Color(2)})}, `{"data":[1,2],"kind":"list[color]"}`, ""},
		{"list.concat", map[string]Value{"a": List(KindColor, nil), "b": List(KindColor, nil)}, `{"data":[],"kind":"list[color]"}`, ""},
		{"list.reverse", map[string]Value{"items": List(KindIndex, []Value{Index(1), Index(2), Index(3)})}, `{"data":[3,2,1],"kind":"list[index]"}`, ""},
	}
	for _, tt := range tests {
		op, ok := reg.Lookup(tt.op)
		if !ok {
			t.Fatalf("no operation %s", tt.op)
		}
		r := &run{ctx: context.Background(), ev: &Evaluator{Registry: reg}, budget: 10}
		got, err := r.call("root/x", op, tt.args, nil)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: err = %v, want %q", tt.op, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.op, err)
			continue
		}
		if string(got.Canonical()) != tt.want {
			t.Errorf("%s = %s, want %s", tt.op, got.Canonical(), tt.want)
		}
	}
}

func TestComponentsAndIdentity(t *testing.T) {
	rows := [][]int{{1, 1, 0, 2}, {0, 1, 0, 2}, {3, 0, 1, 0}}
	xs := objs(t, rows)
	g, _ := NewGrid(rows)
	var got []string
	for _, x := range xs {
		o, _ := x.Object()
		if o.Source != g.Hash() {
			t.Errorf("source = %s, want the grid hash %s", o.Source, g.Hash())
		}
		if o.Frame != [2]int64{3, 4} {
			t.Errorf("frame = %v, want [3 4]", o.Frame)
		}
		got = append(got, string(x.DataJSON()[strings.Index(string(x.DataJSON()), `"pixels"`):]))
	}
	// Ordered by first pixel in row-major order; diagonal cells are apart.
	want := []string{
		`"pixels":[[0,0,1],[0,1,1],[1,1,1]],"source":"` + g.Hash() + `"}`,
		`"pixels":[[0,3,2],[1,3,2]],"source":"` + g.Hash() + `"}`,
		`"pixels":[[2,0,3]],"source":"` + g.Hash() + `"}`,
		`"pixels":[[2,2,1]],"source":"` + g.Hash() + `"}`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d components, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("component %d = %s, want %s", i, got[i], want[i])
		}
	}
	// Translation and recoloring keep the origin; the value changes.
	reg := NewRegistry()
	r := &run{ctx: context.Background(), ev: &Evaluator{Registry: reg}, budget: 10}
	tr, _ := reg.Lookup("object.translate")
	moved, err := r.call("root/t", tr, map[string]Value{"item": xs[0], "offset": PointValue(5, -1)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rc, _ := reg.Lookup("object.recolor")
	recol, err := r.call("root/r", rc, map[string]Value{"item": moved, "color": Color(4)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	o0, _ := xs[0].Object()
	o2, _ := recol.Object()
	if o2.Origin != o0.Origin || o2.Source != o0.Source {
		t.Error("translate+recolor lost the origin")
	}
	if got, want := string(recol.DataJSON()), `{"frame":[3,4],"origin":"`+o0.Origin+`","pixels":[[5,-1,4],[5,0,4],[6,0,4]],"source":"`+o0.Source+`"}`; got != want {
		t.Errorf("recolored = %s, want %s", got, want)
	}
	if o0.Pixels[0].Row != 0 || o0.Pixels[0].Color != 1 {
		t.Error("translate modified its input")
	}
	if recol.Hash() == xs[0].Hash() {
		t.Error("a changed object kept its hash")
	}
}
