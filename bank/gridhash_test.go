package bank

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

func randomGrid(rng *rand.Rand, rows, cols int) *Grid {
	g := &Grid{Rows: rows, Cols: cols, Cells: make([]uint8, rows*cols)}
	for i := range g.Cells {
		g.Cells[i] = uint8(rng.IntN(10))
	}
	return g
}

// TestGridHashIsTheCanonicalHash: however a grid was made (decoded, or
// painted and erased step by step from grids hashed or not), its hash is
// the SHA-256 of its canonical encoding.
func TestGridHashIsTheCanonicalHash(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range [][2]int{{1, 1}, {1, 7}, {3, 5}, {8, 8}, {9, 3}, {17, 17}, {64, 3}, {128, 128}, {256, 256}} {
		g := randomGrid(rng, size[0], size[1])
		for step := 0; step < 40; step++ {
			want := HashBytes(GridValue(g).Canonical())
			if step%3 != 2 { // leave some grids unhashed
				if got := GridValue(g).Hash(); got != want {
					t.Fatalf("%dx%d step %d: hash %s, want %s", g.Rows, g.Cols, step, got, want)
				}
			}
			r, c := rng.IntN(g.Rows), rng.IntN(g.Cols)
			obj := &Object{Source: id1, Origin: id1, Frame: [2]int64{int64(g.Rows), int64(g.Cols)},
				Pixels: []Pixel{{int64(r), int64(c), uint8(rng.IntN(10))}}}
			args := map[string]Value{"item": ObjectValue(obj), "state": GridValue(g), "background": Color(int64(g.At(r, c))), "overwrite": Flag(true)}
			op := opPaint
			if step%4 == 3 {
				obj.Pixels[0].Color = g.At(r, c)
				op = opErase
			}
			v, err := op(nil, args)
			if err != nil {
				t.Fatal(err)
			}
			g, _ = v.Grid()
		}
		if got, want := GridValue(g).Hash(), HashBytes(GridValue(g).Canonical()); got != want {
			t.Fatalf("%dx%d: final hash %s, want %s", g.Rows, g.Cols, got, want)
		}
	}
}

func TestGridHashConcurrent(t *testing.T) {
	g := randomGrid(rand.New(rand.NewPCG(3, 4)), 100, 100)
	want := HashBytes(GridValue(g).Canonical())
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := GridValue(g).Hash(); got != want {
				t.Errorf("hash %s, want %s", got, want)
			}
		})
	}
	wg.Wait()
}

func TestAppendRow(t *testing.T) {
	for n := 0; n < 12; n++ {
		row := make([]uint8, n)
		want := "["
		for i := range row {
			row[i] = uint8((i * 7) % 10)
			if i > 0 {
				want += ","
			}
			want += string(rune('0' + row[i]))
		}
		want += "]"
		if got := string(appendRow([]byte("x"), row)); got != "x"+want {
			t.Errorf("appendRow(%v) = %s, want x%s", row, got, want)
		}
	}
}

// TestFoldStepHashes: a fold that paints its own state in place (and
// keeps the state's encoding in step) traces, at every step, the hash of
// the canonical encoding of the grid that step made, as a replay that
// copies the grid at every step computes it; and the fold's result is
// that grid, equal cell by cell.
func TestFoldStepHashes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, size := range [][2]int{{1, 1}, {3, 5}, {9, 3}, {17, 17}, {40, 9}, {128, 128}} {
		rows, cols := size[0], size[1]
		blank := &Grid{Rows: rows, Cols: cols, Cells: make([]uint8, rows*cols)}
		// Objects over disjoint cells, several pixels each, in random
		// rows, so that painting and then erasing them all is valid.
		cells := rng.Perm(rows * cols)[:min(rows*cols, 60)]
		var objs []Value
		for len(cells) > 0 {
			n := min(len(cells), 1+rng.IntN(3))
			var px []Pixel
			for _, i := range cells[:n] {
				px = append(px, Pixel{int64(i / cols), int64(i % cols), uint8(1 + rng.IntN(9))})
			}
			cells = cells[n:]
			slices.SortFunc(px, func(a, b Pixel) int { return cmp.Or(cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col)) })
			objs = append(objs, ObjectValue(&Object{Source: id1, Origin: id1, Frame: [2]int64{int64(rows), int64(cols)}, Pixels: px}))
		}
		g := &Graph{
			Inputs: map[string]Value{"objs": List(KindObject, objs), "g": GridValue(blank), "bg": Color(0), "no": Flag(false)},
			Nodes: []Node{
				{ID: "painted", Fold: &Apply{Op: "object.paint", Items: "objs", State: "g", Bindings: map[string]string{"background": "bg", "overwrite": "no"}}},
				{ID: "erased", Fold: &Apply{Op: "object.erase", Items: "objs", State: "painted", Bindings: map[string]string{"background": "bg"}}},
			},
			Outputs: map[string]string{"painted": "painted", "erased": "erased"},
		}
		res, err := (&Evaluator{Registry: NewRegistry()}).Evaluate(context.Background(), g)
		if err != nil {
			t.Fatalf("%dx%d: %v", rows, cols, err)
		}
		// The replay: each step on a copy (no run, so never in place).
		var want []string
		state := GridValue(blank)
		for _, op := range []func(*call, map[string]Value) (Value, error){opPaint, opErase} {
			for _, o := range objs {
				v, err := op(nil, map[string]Value{"item": o, "state": state, "background": Color(0), "overwrite": Flag(false)})
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, HashBytes(v.Canonical()))
				state = v
			}
		}
		var got []string
		for _, e := range res.Trace {
			if e.Step != nil {
				got = append(got, e.Result)
			}
		}
		if diff := gocmp.Diff(want, got); diff != "" {
			t.Fatalf("%dx%d: step hashes (-replay +fold):\n%s", rows, cols, diff)
		}
		painted, _ := res.Outputs["painted"].Grid()
		if h := res.Outputs["painted"].Hash(); h != HashBytes(res.Outputs["painted"].Canonical()) || h != want[len(objs)-1] {
			t.Fatalf("%dx%d: painted grid hash %s, want %s", rows, cols, h, want[len(objs)-1])
		}
		if !slices.ContainsFunc(painted.Cells, func(c uint8) bool { return c != 0 }) {
			t.Fatalf("%dx%d: nothing painted", rows, cols)
		}
		if !res.Outputs["erased"].Equal(GridValue(blank)) {
			t.Fatalf("%dx%d: erasing everything painted does not give the blank grid", rows, cols)
		}
	}
}
