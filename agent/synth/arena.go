package synth

import "unsafe"

// arena hands out the slices of the results a kernel computes for one
// program on every environment. Most programs the enumerator evaluates
// are equivalent to one it already has; it then rewinds the arena to the
// mark it took before the evaluation, so that their results cost neither
// a heap allocation nor garbage. A new program's results stay where they
// are, packed beside the others. A nil arena allocates from the heap.
type arena struct {
	ints   chunks[int64]
	floats chunks[float64]
	bools  chunks[bool]
	pairs  chunks[pair]
	// env holds the arguments of the typed lambda being called: lambdas
	// are shared by all searches, their arguments are not.
	env lamEnv
}

// lamEnv is the environment for a typed lambda's arguments: the arena's,
// or a new one outside the enumerator.
func (a *arena) lamEnv() *lamEnv {
	if a == nil {
		return new(lamEnv)
	}
	return &a.env
}

// arenaChunk is the number of elements of one chunk of an arena: a whole
// list of maxLen elements fits in one.
const arenaChunk = 1 << 17

// chunks is an arena's memory for one element type: the chunk in use,
// and a generation that changes with each new chunk, so that a mark taken
// in an earlier chunk rewinds nothing. size is a chunk's length
// (arenaChunk when 0).
type chunks[T any] struct {
	buf  []T
	gen  int
	size int
}

// chunkMark is a position in an arena's chunks of one type.
type chunkMark struct{ gen, used int }

// arenaMark is a position in an arena to rewind to.
type arenaMark struct{ ints, floats, bools, pairs chunkMark }

func (c *chunks[T]) take(n int) []T {
	size := c.size
	if size == 0 {
		size = arenaChunk
	}
	if n > size {
		return make([]T, n)
	}
	if c.buf == nil || len(c.buf)+n > cap(c.buf) {
		c.buf = make([]T, 0, size)
		c.gen++
	}
	i := len(c.buf)
	c.buf = c.buf[:i+n]
	return c.buf[i : i+n : i+n]
}

func (c *chunks[T]) mark() chunkMark { return chunkMark{c.gen, len(c.buf)} }

func (c *chunks[T]) rewind(m chunkMark) {
	if m.gen == c.gen {
		c.buf = c.buf[:m.used]
	}
}

func (a *arena) mark() arenaMark {
	return arenaMark{a.ints.mark(), a.floats.mark(), a.bools.mark(), a.pairs.mark()}
}

// rewind gives back everything taken since m.
func (a *arena) rewind(m arenaMark) {
	a.ints.rewind(m.ints)
	a.floats.rewind(m.floats)
	a.bools.rewind(m.bools)
	a.pairs.rewind(m.pairs)
}

// alloc is make([]T, n) from an arena (the heap when ar is nil or T has
// no chunks), except that memory from an arena is not zeroed: the caller
// writes every element before it reads it (rewound memory holds what an
// earlier evaluation wrote).
func alloc[T any](ar *arena, n int) []T {
	var out []T
	if ar == nil {
		return make([]T, n)
	}
	switch p := any(&out).(type) {
	case *[]int64:
		*p = ar.ints.take(n)
	case *[]float64:
		*p = ar.floats.take(n)
	case *[]bool:
		*p = ar.bools.take(n)
	case *[]pair:
		*p = ar.pairs.take(n)
	default:
		out = make([]T, n)
	}
	return out
}

// allocCap is make([]T, 0, n) from an arena: room for n elements to be
// appended (beyond n, append moves them to the heap).
func allocCap[T any](ar *arena, n int) []T { return alloc[T](ar, n)[:0] }

// store holds what the enumerator keeps of its new programs in chunks of
// about storeChunkBytes: nodes, bank entries, the nodes' children and the
// values, a few allocations for thousands of programs instead of several
// for each. Nothing in it is ever given back.
type store struct {
	nodes   chunks[node]
	entries chunks[entry]
	kids    chunks[*node]
	ints    chunks[int64]
	floats  chunks[float64]
	bools   chunks[bool]
	strs    chunks[string]
	lints   chunks[[]int64]
	lfloats chunks[[]float64]
	lbools  chunks[[]bool]
	lstrs   chunks[[]string]
	lpairs  chunks[[]pair]
}

// storeChunkBytes is the size of a store's chunk.
const storeChunkBytes = 64 << 10

func newStore() *store {
	var s store
	s.nodes.size = storeChunkBytes / int(unsafe.Sizeof(node{}))
	s.entries.size = storeChunkBytes / int(unsafe.Sizeof(entry{}))
	s.kids.size = storeChunkBytes / 8
	s.ints.size, s.floats.size, s.bools.size = storeChunkBytes/8, storeChunkBytes/8, storeChunkBytes
	s.strs.size = storeChunkBytes / 16
	s.lints.size, s.lfloats.size, s.lbools.size, s.lstrs.size, s.lpairs.size = storeChunkBytes/24, storeChunkBytes/24, storeChunkBytes/24, storeChunkBytes/24, storeChunkBytes/24
	return &s
}

// node returns a new node in the store.
func (s *store) node(n node) *node {
	p := &s.nodes.take(1)[0]
	*p = n
	return p
}

// entry returns a new bank entry in the store.
func (s *store) entry(e entry) *entry {
	p := &s.entries.take(1)[0]
	*p = e
	return p
}

// column copies the first n values of a column into the store.
func (s *store) column(data any, n int) any {
	switch c := data.(type) {
	case []int64:
		return copyInto(s.ints.take(n), c)
	case []float64:
		return copyInto(s.floats.take(n), c)
	case []bool:
		return copyInto(s.bools.take(n), c)
	case []string:
		return copyInto(s.strs.take(n), c)
	case [][]int64:
		return copyInto(s.lints.take(n), c)
	case [][]float64:
		return copyInto(s.lfloats.take(n), c)
	case [][]bool:
		return copyInto(s.lbools.take(n), c)
	case [][]string:
		return copyInto(s.lstrs.take(n), c)
	case [][]pair:
		return copyInto(s.lpairs.take(n), c)
	}
	panic("synth: not a column")
}

func copyInto[T any](dst, src []T) []T {
	copy(dst, src)
	return dst
}
