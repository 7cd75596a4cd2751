package bank

import (
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
