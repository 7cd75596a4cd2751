package bank

import (
	"math/rand/v2"
	"sync"
	"testing"
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
