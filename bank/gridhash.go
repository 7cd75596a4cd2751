package bank

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"hash"
	"slices"
	"sync/atomic"
)

// Grid hashes. A fold that paints objects onto a grid makes a new grid per
// step, and the trace records each one's hash: the SHA-256 of the whole
// canonical grid value. Hashing it from scratch every step cost nearly all
// of such a fold. Instead, hashing a grid keeps the SHA-256 state reached
// before every band of hashBand rows; a grid an operation made by changing
// a copy of another (object.paint, object.erase) starts from the other's
// state before the band of the first row it changed. The hash is the same
// as hashing the canonical bytes in one go.

// hashBand is the number of rows between two saved hash states.
const hashBand = 8

// gridHash is a grid's hash and the hash states before each band:
// states[k] is the state after `{"data":` and rows [0, k·hashBand), each
// with the separator before it.
type gridHash struct {
	sum    string
	states [][]byte
}

// gridCache is what a Grid remembers about its hash.
type gridCache struct {
	hashed atomic.Pointer[gridHash]
	// prefix holds the valid leading states of the grid this one was
	// copied from, set by the operation that made it, before the grid is
	// shared.
	prefix [][]byte
}

// derive records that g is a copy of base changed from row first on.
func (g *Grid) derive(base *Grid, first int) {
	h := base.cache.hashed.Load()
	if h == nil || base.Rows != g.Rows || base.Cols != g.Cols {
		return
	}
	k := min(first/hashBand, len(h.states)-1)
	g.cache.prefix = h.states[: k+1 : k+1]
}

// reuse prepares g, about to be changed from row first on in place, to
// be hashed again from its saved states.
func (g *Grid) reuse(first int) {
	h := g.cache.hashed.Swap(nil)
	if h == nil {
		g.cache.prefix = nil
		return
	}
	k := min(first/hashBand, len(h.states)-1)
	g.cache.prefix = h.states[: k+1 : k+1]
}

// hash returns the grid value's content hash.
func (g *Grid) hash() string {
	if h := g.cache.hashed.Load(); h != nil {
		return h.sum
	}
	bands := (g.Rows + hashBand - 1) / hashBand
	states := make([][]byte, 0, bands)
	d := sha256.New()
	start := 0
	if k := len(g.cache.prefix); k > 0 && k <= bands {
		if err := d.(encoding.BinaryUnmarshaler).UnmarshalBinary(g.cache.prefix[k-1]); err == nil {
			states = append(states, g.cache.prefix...)
			start = k - 1
		} else {
			d.Reset()
		}
	}
	if start == 0 && len(states) == 0 {
		d.Write([]byte(`{"data":`))
	}
	// All the states of this grid go into one buffer.
	saved := make([]byte, 0, (bands-len(states)+1)*110)
	var scratch [2*MaxGridSide + 2]byte
	for b := start; b < bands; b++ {
		if b >= len(states) {
			at := len(saved)
			saved, _ = d.(encoding.BinaryAppender).AppendBinary(saved)
			states = append(states, saved[at:len(saved):len(saved)])
		}
		for r := b * hashBand; r < min((b+1)*hashBand, g.Rows); r++ {
			sep := byte(',')
			if r == 0 {
				sep = '['
			}
			d.Write(appendRow(append(scratch[:0], sep), g.Cells[r*g.Cols:(r+1)*g.Cols]))
		}
	}
	d.Write([]byte(`],"kind":"grid"}`))
	h := &gridHash{sum: sumName(d), states: states}
	g.cache.prefix = nil
	if !g.cache.hashed.CompareAndSwap(nil, h) {
		return g.cache.hashed.Load().sum
	}
	return h.sum
}

func sumName(d hash.Hash) string {
	var sum [32]byte
	d.Sum(sum[:0])
	return hashName(sum)
}

// appendRow appends "[c0,c1,…]" (colors are single digits), eight cells
// at a time.
func appendRow(b []byte, row []uint8) []byte {
	if len(row) == 0 {
		return append(b, "[]"...)
	}
	n := len(b)
	need := 2*len(row) + 1
	b = slices.Grow(b, need)[:n+need]
	out := b[n:]
	out[0], out[need-1] = '[', ']'
	cells := out[1:]
	i := 0
	for ; i+8 <= len(row); i += 8 {
		x := binary.LittleEndian.Uint64(row[i:])
		binary.LittleEndian.PutUint64(cells[2*i:], spread(uint32(x))+digitsAndCommas)
		binary.LittleEndian.PutUint64(cells[2*i+8:], spread(uint32(x>>32))+digitsAndCommas)
	}
	for ; i < len(row); i++ {
		cells[2*i], cells[2*i+1] = '0'+row[i], ','
	}
	// The last cell's comma is the closing bracket.
	out[need-1] = ']'
	return b
}

// digitsAndCommas turns four cells spread over two bytes each into "d,"
// four times: '0' added to each cell, ',' in between.
const digitsAndCommas = 0x2c302c302c302c30

// spread moves the four bytes of x to the even bytes of the result.
func spread(x uint32) uint64 {
	v := uint64(x)
	v = (v | v<<16) & 0x0000ffff0000ffff
	return (v | v<<8) & 0x00ff00ff00ff00ff
}
