package bank

import (
	"context"
	"fmt"
	"testing"
)

func BenchmarkComponents256(b *testing.B) {
	// Stripes of 3×3 blocks in several colors: about 4,000 components.
	g := &Grid{Rows: 256, Cols: 256, Cells: make([]uint8, 256*256)}
	for r := 0; r < 256; r++ {
		for c := 0; c < 256; c++ {
			if r%4 != 3 && c%4 != 3 {
				g.Cells[r*256+c] = uint8(1 + (r/4+c/4)%9)
			}
		}
	}
	args := map[string]Value{"grid": GridValue(g), "background": Color(0)}
	b.ReportAllocs()
	for b.Loop() {
		l, err := opComponents(nil, args)
		if err != nil {
			b.Fatal(err)
		}
		if xs, _ := l.Items(); len(xs) != 64*64 {
			b.Fatalf("%d components", len(xs))
		}
	}
}

// chainGraph is n number.add nodes, each adding one to the previous.
func chainGraph(n int) *Graph {
	g := &Graph{Inputs: map[string]Value{"one": Index(1)}, Outputs: map[string]string{}}
	prev := "one"
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("n%04d", i)
		g.Nodes = append(g.Nodes, Node{ID: id, Op: "number.add", Args: map[string]string{"a": prev, "b": "one"}})
		prev = id
	}
	g.Outputs["last"] = prev
	return g
}

func BenchmarkGraph1000ValidateEvaluate(b *testing.B) {
	g := chainGraph(1000)
	ev := &Evaluator{Registry: NewRegistry()}
	b.ReportAllocs()
	for b.Loop() {
		res, err := ev.Evaluate(context.Background(), g)
		if err != nil {
			b.Fatal(err)
		}
		if !res.Outputs["last"].Equal(Index(1001)) {
			b.Fatal("wrong result")
		}
	}
}

func BenchmarkFold10000Objects(b *testing.B) {
	// 10,000 single-pixel objects painted onto a 128×128 grid.
	g := &Grid{Rows: 128, Cols: 128, Cells: make([]uint8, 128*128)}
	items := make([]Value, 10000)
	src := GridValue(g).Hash()
	for i := range items {
		px := []Pixel{{int64(i / 100), int64(i % 100), uint8(1 + i%9)}}
		items[i] = ObjectValue(&Object{Source: src, Origin: originOf(src, px), Frame: [2]int64{128, 128}, Pixels: px})
	}
	graph := &Graph{
		Inputs: map[string]Value{"objs": List(KindObject, items), "g": GridValue(g), "bg": Color(0), "no": Flag(false)},
		Nodes: []Node{{ID: "out", Fold: &Apply{Op: "object.paint", Items: "objs", State: "g",
			Bindings: map[string]string{"background": "bg", "overwrite": "no"}}}},
		Outputs: map[string]string{"out": "out"},
	}
	ev := &Evaluator{Registry: NewRegistry()}
	b.ReportAllocs()
	for b.Loop() {
		res, err := ev.Evaluate(context.Background(), graph)
		if err != nil {
			b.Fatal(err)
		}
		if res.Calls != 10000 {
			b.Fatalf("%d calls", res.Calls)
		}
	}
}
