package synth

import (
	"strings"
	"unsafe"
)

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

// Chunk sizes: an enumerator's first chunk of a type is small (most
// enumerators are the short searches of holes and sketches), and each
// next one twice the last, up to maxChunkBytes: a large search takes its
// memory in pieces of megabytes, each faulted in whole when it is made
// (see newChunk).
const (
	minChunkBytes = 64 << 10
	maxChunkBytes = 4 << 20
)

// chunks is an arena's or a store's memory for one element type: the
// chunk in use, its length, and a generation that changes with each new
// chunk, so that a mark taken in an earlier chunk rewinds nothing.
type chunks[T any] struct {
	buf  []T
	gen  int
	size int
}

// chunkMark is a position in an arena's chunks of one type: the chunk's
// generation in the high 32 bits, the length used in the low 32 (a chunk
// holds at most maxChunkBytes). An arenaMark of four words is kept in
// registers; of four pairs of words, each evaluation copied it through
// the stack, with 16-byte loads of 8-byte stores the processor cannot
// forward (1.2% of BenchmarkEnumerate's CPU).
type chunkMark uint64

// arenaMark is a position in an arena to rewind to.
type arenaMark struct{ ints, floats, bools, pairs chunkMark }

func (c *chunks[T]) take(n int) []T {
	if c.buf == nil || len(c.buf)+n > cap(c.buf) {
		size := c.nextSize()
		if n > size {
			return make([]T, n)
		}
		c.buf, c.size = newChunk[T](size, hasPointers[T]()), size
		c.gen++
	}
	i := len(c.buf)
	c.buf = c.buf[:i+n]
	return c.buf[i : i+n : i+n]
}

// hasPointers reports whether T may hold pointers: the types of a chunk
// without them (numbers, truth values, pairs) are the bulk of a search's
// memory, and their chunks are not zeroed (see noZeroSlice). Every user of
// such a chunk writes an element before it reads it: a kernel its
// results, try the failed environments of a new column (clearBad).
func hasPointers[T any]() bool {
	switch any(*new(T)).(type) {
	case int64, float64, bool, pair:
		return false
	}
	return true
}

// noZeroSlice returns a slice of n elements of a type without pointers
// whose memory is not zeroed. Memory the collector has freed (the
// enumerator of the last search) is zeroed again by make, a pass over
// hundreds of megabytes that were about to be written anyway;
// strings.Builder's Grow is the standard library's way to heap memory
// that is not. The memory is a []byte to the collector, which neither
// scans it nor needs to: T holds no pointers. Chunks are at least
// minChunkBytes long, large objects aligned to a page, so that any T is
// aligned; a smaller request (which the allocator might pack at any
// byte) is made by make.
func noZeroSlice[T any](n int) []T {
	elem := int(unsafe.Sizeof(*new(T)))
	if n*elem < 1<<10 {
		return make([]T, n)
	}
	var b strings.Builder
	b.Grow(n * elem)
	b.WriteByte(0)
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.StringData(b.String()))), n)
}

// nextSize is the length of the next chunk: minChunkBytes worth of
// elements first, then twice the last, up to maxChunkBytes worth.
func (c *chunks[T]) nextSize() int {
	elem := int(unsafe.Sizeof(*new(T)))
	if c.size == 0 {
		return max(1, minChunkBytes/elem)
	}
	return max(c.size, min(2*c.size, maxChunkBytes/elem))
}

func (c *chunks[T]) mark() chunkMark { return chunkMark(uint64(c.gen)<<32 | uint64(len(c.buf))) }

func (c *chunks[T]) rewind(m chunkMark) {
	if uint32(m>>32) == uint32(c.gen) {
		c.buf = c.buf[:uint32(m)]
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

// store holds what the enumerator keeps of its new programs in chunks
// (growing like an arena's): nodes, bank entries, the nodes' children and the
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
	// The slice headers of the columns (boxSlice).
	hints    chunks[[]int64]
	hfloats  chunks[[]float64]
	hbools   chunks[[]bool]
	hstrs    chunks[[]string]
	hlints   chunks[[][]int64]
	hlfloats chunks[[][]float64]
	hlbools  chunks[[][]bool]
	hlstrs   chunks[[][]string]
	hlpairs  chunks[[][]pair]
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

// freshColumn returns a column of n values of type t in the store, for a
// kernel to write its results into: the enumerator keeps it, without a
// copy, as the column of the first new program it evaluates with it. Its
// values are those of the chunk's memory (zero, or what an earlier use
// wrote): a kernel writes the values of the environments it does not
// mark bad, and clearBad zeroes the others.
func (s *store) freshColumn(t valType, n int) any {
	switch t {
	case tInt:
		return boxSlice(&s.hints, s.ints.take(n))
	case tFloat:
		return boxSlice(&s.hfloats, s.floats.take(n))
	case tBool:
		return boxSlice(&s.hbools, s.bools.take(n))
	case tStr:
		return boxSlice(&s.hstrs, s.strs.take(n))
	case tListInt:
		return boxSlice(&s.hlints, s.lints.take(n))
	case tListFloat:
		return boxSlice(&s.hlfloats, s.lfloats.take(n))
	case tListBool:
		return boxSlice(&s.hlbools, s.lbools.take(n))
	case tListStr:
		return boxSlice(&s.hlstrs, s.lstrs.take(n))
	case tListPair:
		return boxSlice(&s.hlpairs, s.lpairs.take(n))
	}
	panic("synth: no column for type " + t.String())
}

// boxSlice returns c as an interface value whose slice header lives in
// heads (one element of a chunk) instead of in a heap allocation of its
// own, which converting c to any makes: a million new programs were a
// million 24-byte objects for the collector to allocate and scan. The
// header is never written again, as an interface's value must not be.
func boxSlice[E any](heads *chunks[[]E], c []E) any {
	p := &heads.take(1)[0]
	*p = c
	// A nil slice converts to an interface without an allocation; its
	// type word is kept and its data word pointed at the header.
	v := any([]E(nil))
	(*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1] = unsafe.Pointer(p)
	return v
}

func copyInto[T any](dst, src []T) []T {
	copy(dst, src)
	return dst
}
