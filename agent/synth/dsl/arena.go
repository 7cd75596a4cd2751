package dsl

import (
	"strings"
	"unsafe"
)

// Arena hands out the slices of the results a kernel computes for one
// program on every environment. Most programs the enumerator evaluates
// are equivalent to one it already has; it then rewinds the arena to the
// mark it took before the evaluation, so that their results cost neither
// a heap allocation nor garbage. A new program's results stay where they
// are, packed beside the others. A nil arena allocates from the heap.
type Arena struct {
	ints   chunks[int64]
	floats chunks[float64]
	bools  chunks[bool]
	pairs  chunks[Pair]
	// env holds the arguments of the typed lambda being called: lambdas
	// are shared by all searches, their arguments are not.
	env lamEnv
}

// lamEnv is the environment for a typed lambda's arguments: the arena's,
// or a new one outside the enumerator.
func (a *Arena) lamEnv() *lamEnv {
	if a == nil {
		return new(lamEnv)
	}
	return &a.env
}

// Chunk sizes: an enumerator's first chunk of a type is small (most
// enumerators are the short searches of holes and sketches), and each
// next one twice the last, up to maxChunkBytes: a large search takes its
// memory in pieces of megabytes, each faulted in whole when it is made
// (see NewChunk).
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
	// m is charged with the memory of each new chunk (nil: nobody counts).
	m Meter
}

// Meter counts the memory a search's structures take from the heap: an
// arena, a store and a hash set charge it with each chunk or table they
// make (bytes > 0) and give back what a larger table replaces (bytes <
// 0). Charges come a chunk at a time, never per program.
type Meter interface {
	Charge(bytes int64)
}

// chunkMark is a position in an arena's chunks of one type: the chunk's
// generation in the high 32 bits, the length used in the low 32 (a chunk
// holds at most maxChunkBytes). An ArenaMark of four words is kept in
// registers; of four pairs of words, each evaluation copied it through
// the stack, with 16-byte loads of 8-byte stores the processor cannot
// forward (1.2% of BenchmarkEnumerate's CPU).
type chunkMark uint64

// ArenaMark is a position in an arena to rewind to.
type ArenaMark struct{ ints, floats, bools, pairs chunkMark }

func (c *chunks[T]) Take(n int) []T {
	if c.buf == nil || len(c.buf)+n > cap(c.buf) {
		size := c.nextSize()
		if n > size {
			c.charge(n)
			return make([]T, n)
		}
		c.buf, c.size = NewChunk[T](size, hasPointers[T]()), size
		c.gen++
		c.charge(size)
	}
	i := len(c.buf)
	c.buf = c.buf[:i+n]
	return c.buf[i : i+n : i+n]
}

// charge charges the chunks' meter with n elements.
func (c *chunks[T]) charge(n int) {
	if c.m != nil {
		c.m.Charge(int64(n) * int64(unsafe.Sizeof(*new(T))))
	}
}

// hasPointers reports whether T may hold pointers: the types of a chunk
// without them (numbers, truth values, pairs) are the bulk of a search's
// memory, and their chunks are not zeroed (see noZeroSlice). Every user of
// such a chunk writes an element before it reads it: a kernel its
// results, try the failed environments of a new column (clearBad).
func hasPointers[T any]() bool {
	switch any(*new(T)).(type) {
	case int64, float64, bool, Pair:
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

func (c *chunks[T]) Mark() chunkMark { return chunkMark(uint64(c.gen)<<32 | uint64(len(c.buf))) }

func (c *chunks[T]) Rewind(m chunkMark) {
	if uint32(m>>32) == uint32(c.gen) {
		c.buf = c.buf[:uint32(m)]
	}
}

// SetMeter has the arena's chunks charged to m.
func (a *Arena) SetMeter(m Meter) {
	a.ints.m, a.floats.m, a.bools.m, a.pairs.m = m, m, m, m
}

// Mark returns the arena's position, to rewind to when the program
// whose results follow it is a duplicate.
func (a *Arena) Mark() ArenaMark {
	return ArenaMark{a.ints.Mark(), a.floats.Mark(), a.bools.Mark(), a.pairs.Mark()}
}

// Rewind gives back everything taken since m.
func (a *Arena) Rewind(m ArenaMark) {
	a.ints.Rewind(m.ints)
	a.floats.Rewind(m.floats)
	a.bools.Rewind(m.bools)
	a.pairs.Rewind(m.pairs)
}

// alloc is make([]T, n) from an arena (the heap when ar is nil or T has
// no chunks), except that memory from an arena is not zeroed: the caller
// writes every element before it reads it (rewound memory holds what an
// earlier evaluation wrote).
func alloc[T any](ar *Arena, n int) []T {
	var out []T
	if ar == nil {
		return make([]T, n)
	}
	switch p := any(&out).(type) {
	case *[]int64:
		*p = ar.ints.Take(n)
	case *[]float64:
		*p = ar.floats.Take(n)
	case *[]bool:
		*p = ar.bools.Take(n)
	case *[]Pair:
		*p = ar.pairs.Take(n)
	default:
		out = make([]T, n)
	}
	return out
}

// allocCap is make([]T, 0, n) from an arena: room for n elements to be
// appended (beyond n, append moves them to the heap).
func allocCap[T any](ar *Arena, n int) []T { return alloc[T](ar, n)[:0] }

// Store holds what the enumerator keeps of its new programs in chunks
// (growing like an arena's): nodes, bank entries, the nodes' children and the
// values, a few allocations for thousands of programs instead of several
// for each. Nothing in it is ever given back.
type Store struct {
	nodes   chunks[Node]
	entries chunks[Entry]
	Kids    chunks[*Node]
	ints    chunks[int64]
	floats  chunks[float64]
	Bools   chunks[bool]
	strs    chunks[string]
	lints   chunks[[]int64]
	lfloats chunks[[]float64]
	lbools  chunks[[]bool]
	lstrs   chunks[[]string]
	lpairs  chunks[[]Pair]
	// The slice headers of the columns (boxSlice).
	hints    chunks[[]int64]
	hfloats  chunks[[]float64]
	hbools   chunks[[]bool]
	hstrs    chunks[[]string]
	hlints   chunks[[][]int64]
	hlfloats chunks[[][]float64]
	hlbools  chunks[[][]bool]
	hlstrs   chunks[[][]string]
	hlpairs  chunks[[][]Pair]
}

// SetMeter has the store's chunks charged to m.
func (s *Store) SetMeter(m Meter) {
	s.nodes.m, s.entries.m, s.Kids.m = m, m, m
	s.ints.m, s.floats.m, s.Bools.m, s.strs.m = m, m, m, m
	s.lints.m, s.lfloats.m, s.lbools.m, s.lstrs.m, s.lpairs.m = m, m, m, m, m
	s.hints.m, s.hfloats.m, s.hbools.m, s.hstrs.m = m, m, m, m
	s.hlints.m, s.hlfloats.m, s.hlbools.m, s.hlstrs.m, s.hlpairs.m = m, m, m, m, m
}

// Node returns a new node in the store.
func (s *Store) Node(n Node) *Node {
	p := &s.nodes.Take(1)[0]
	*p = n
	return p
}

// Entry returns a new bank entry in the store.
func (s *Store) Entry(e Entry) *Entry {
	p := &s.entries.Take(1)[0]
	*p = e
	return p
}

// FreshColumn returns a column of n values of type t in the store, for a
// kernel to write its results into: the enumerator keeps it, without a
// copy, as the column of the first new program it evaluates with it. Its
// values are those of the chunk's memory (zero, or what an earlier use
// wrote): a kernel writes the values of the environments it does not
// mark bad, and clearBad zeroes the others.
func (s *Store) FreshColumn(t Type, n int) any {
	switch t {
	case Int:
		return boxSlice(&s.hints, s.ints.Take(n))
	case Float:
		return boxSlice(&s.hfloats, s.floats.Take(n))
	case Bool:
		return boxSlice(&s.hbools, s.Bools.Take(n))
	case Str:
		return boxSlice(&s.hstrs, s.strs.Take(n))
	case ListInt:
		return boxSlice(&s.hlints, s.lints.Take(n))
	case ListFloat:
		return boxSlice(&s.hlfloats, s.lfloats.Take(n))
	case ListBool:
		return boxSlice(&s.hlbools, s.lbools.Take(n))
	case ListStr:
		return boxSlice(&s.hlstrs, s.lstrs.Take(n))
	case ListPair:
		return boxSlice(&s.hlpairs, s.lpairs.Take(n))
	}
	panic("synth: no column for type " + t.String())
}

// boxSlice returns c as an interface value whose slice header lives in
// heads (one element of a chunk) instead of in a heap allocation of its
// own, which converting c to any makes: a million new programs were a
// million 24-byte objects for the collector to allocate and scan. The
// header is never written again, as an interface's value must not be.
func boxSlice[E any](heads *chunks[[]E], c []E) any {
	p := &heads.Take(1)[0]
	*p = c
	// A nil slice converts to an interface without an allocation; its
	// type word is kept and its data word pointed at the header.
	v := any([]E(nil))
	(*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1] = unsafe.Pointer(p)
	return v
}

// CopyInto appends src to dst, reusing dst's memory.
func CopyInto[T any](dst, src []T) []T {
	copy(dst, src)
	return dst
}
