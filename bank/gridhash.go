package bank

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"hash"
	"slices"
	"sync"
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
//
// The rows from the changed band to the end must still be hashed at every
// step (SHA-256 cannot skip what follows a change). A grid a fold changes
// in place keeps its canonical encoding, patched cell by cell, so that
// those rows are hashed straight from it instead of being encoded again,
// and reuses its buffer of states.

// hashBand is the number of rows between two saved hash states.
const hashBand = 8

// gridDataStart is the offset of the rows' opening bracket in a grid's
// canonical encoding, after `{"data":`. In that encoding, with colors of
// one digit, row r is the separator before it ('[' or ','), then "[",
// then a digit and a comma per cell with the last comma replaced by "]":
// 2·Cols+2 bytes from gridDataStart + r·(2·Cols+2).
const gridDataStart = len(`{"data":`) // len(gridPrefix)

// gridPrefix and gridSuffix open and close a grid's canonical encoding.
var gridPrefix, gridSuffix = []byte(`{"data":`), []byte(`],"kind":"grid"}`)

// stateSize is the length of a saved SHA-256 state.
var stateSize = len(must(sha256.New().(encoding.BinaryAppender).AppendBinary(nil)))

func must[T any](x T, err error) T {
	if err != nil {
		panic(err)
	}
	return x
}

// gridHash is a grid's hash and the hash states before each band: states
// holds stateSize bytes per band; band k's is the state after `{"data":`
// and rows [0, k·hashBand), each with the separator before it.
type gridHash struct {
	sum    string
	states []byte
}

// gridCache is what a Grid remembers about its hash.
type gridCache struct {
	hashed atomic.Pointer[gridHash]
	// prefix holds, in its states, the valid leading states of the grid
	// this one was copied from, or of itself before it was changed in
	// place, set by the operation that changed it, before the grid is
	// shared (its sum is empty). It belongs to this grid, and its states
	// have room for every band's: the hash that takes it fills in the
	// rest and keeps it as the grid's gridHash.
	prefix atomic.Pointer[gridHash]
	// enc is the grid's canonical encoding while a fold owns the grid and
	// changes it in place (see Grid.own); nil otherwise.
	enc []byte
}

func (g *Grid) bands() int { return (g.Rows + hashBand - 1) / hashBand }

// kept is the length of h's states valid for a grid of rows × cols like
// h's grid and changed from row first on; 0 if none is.
func (g *Grid) kept(h *gridHash, first, rows, cols int) int {
	if h == nil || rows != g.Rows || cols != g.Cols {
		return 0
	}
	return max(0, min(first/hashBand, len(h.states)/stateSize-1)+1) * stateSize
}

// derive records that g is a copy of base changed from row first on.
func (g *Grid) derive(base *Grid, first int) {
	h := base.cache.hashed.Load()
	n := g.kept(h, first, base.Rows, base.Cols)
	if n == 0 {
		return
	}
	// g's own buffer: base's states are base's, and may be changed in
	// place if base is a fold's state.
	states := make([]byte, n, g.bands()*stateSize)
	copy(states, h.states)
	g.cache.prefix.Store(&gridHash{states: states})
}

// reuse prepares g, about to be changed from row first on in place, to
// be hashed again from its saved states.
func (g *Grid) reuse(first int) {
	h := g.cache.hashed.Swap(nil)
	n := g.kept(h, first, g.Rows, g.Cols)
	if n == 0 {
		g.cache.prefix.Store(nil)
		return
	}
	h.sum, h.states = "", h.states[:n]
	g.cache.prefix.Store(h)
}

// own readies g, about to be changed in place by the fold that owns it,
// to keep its canonical encoding in step with its cells (setCell).
func (g *Grid) own() {
	if g.cache.enc == nil {
		g.cache.enc = GridValue(g).Canonical()
	}
}

// release drops the encoding own kept: the fold is done changing g.
func (g *Grid) release() { g.cache.enc = nil }

// setCell sets cell i of a grid that is not shared yet (a copy an
// operation made, or a fold's own state).
func (g *Grid) setCell(i int, color uint8) {
	g.Cells[i] = color
	if g.cache.enc != nil {
		r, c := i/g.Cols, i%g.Cols
		g.cache.enc[gridDataStart+r*(2*g.Cols+2)+2+2*c] = '0' + color
	}
}

// hash returns the grid value's content hash.
func (g *Grid) hash() string {
	if h := g.cache.hashed.Load(); h != nil {
		return h.sum
	}
	bands := g.bands()
	d := digests.Get().(*digest)
	defer digests.Put(d)
	d.Reset()
	// h.states are valid; hashing starts at the last of them.
	h := g.cache.prefix.Swap(nil)
	start, resumed := 0, false
	if h != nil {
		if k := len(h.states) / stateSize; k > 0 && k <= bands && d.UnmarshalBinary(h.states[(k-1)*stateSize:k*stateSize]) == nil {
			start, resumed = k-1, true
		} else {
			d.Reset()
			h.states = h.states[:0]
		}
	} else {
		h = &gridHash{}
	}
	if cap(h.states) < bands*stateSize {
		h.states = append(make([]byte, 0, bands*stateSize), h.states...)
	}
	if !resumed {
		d.Write(gridPrefix)
	}
	for b := start; b < bands; b++ {
		if len(h.states) <= b*stateSize {
			h.states, _ = d.AppendBinary(h.states)
		}
		d.Write(g.band(b, d.scratch[:0]))
	}
	d.Write(gridSuffix)
	d.Sum(d.sum[:0])
	h.sum = hashName(d.sum)
	if !g.cache.hashed.CompareAndSwap(nil, h) {
		return g.cache.hashed.Load().sum
	}
	return h.sum
}

// digest is a SHA-256 state with room for what hashing a grid needs
// beside it, kept for reuse: a fold hashes one grid per step.
type digest struct {
	sha
	sum     [sha256.Size]byte
	scratch [hashBand * (2*MaxGridSide + 2)]byte
}

// sha is what a grid's hash needs of crypto/sha256's digest: to write,
// sum, and save and restore its state.
type sha interface {
	hash.Hash
	encoding.BinaryAppender
	encoding.BinaryUnmarshaler
}

var digests = sync.Pool{New: func() any { return &digest{sha: sha256.New().(sha)} }}

// band returns the canonical bytes of band b's rows, each with the
// separator before it: a slice of the kept encoding, or encoded into buf.
func (g *Grid) band(b int, buf []byte) []byte {
	first, end := b*hashBand, min((b+1)*hashBand, g.Rows)
	if enc := g.cache.enc; enc != nil {
		stride := 2*g.Cols + 2
		return enc[gridDataStart+first*stride : gridDataStart+end*stride]
	}
	for r := first; r < end; r++ {
		sep := byte(',')
		if r == 0 {
			sep = '['
		}
		buf = appendRow(append(buf, sep), g.Cells[r*g.Cols:(r+1)*g.Cols])
	}
	return buf
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
