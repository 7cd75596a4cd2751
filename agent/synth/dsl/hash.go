package dsl

import (
	"math"
	"math/bits"
)

// Observational equivalence: the values of a program on every environment
// are hashed, and a set of hashes keeps the first program of each.

// Hasher accumulates a 64-bit FNV-1a style hash of values; programs whose
// value vectors hash alike are treated as observationally equivalent.
type Hasher uint64

// FnvOffset is the hash of nothing, where every hash starts.
const FnvOffset Hasher = 14695981039346656037

// Mix adds x to the hash.
func (h Hasher) Mix(x uint64) Hasher {
	h ^= Hasher(x)
	h *= 1099511628211
	h ^= h >> 29
	return h
}

func floatKey(f float64) uint64 {
	if math.IsNaN(f) {
		return 0x7ff8000000000001
	}
	if math.Abs(f) < 1e9 {
		return uint64(int64(math.Round(f * 1e7)))
	}
	return math.Float64bits(float32ish(f))
}

func float32ish(f float64) float64 { return float64(float32(f)) }

// errHash is what a failed value (ErrV) adds to a hash.
const errHash = 0xdeadbeef

// Value adds one boxed value to the hash; the typed methods below add a
// value of their type alike, without boxing it (HashColumn).
func (h Hasher) Value(v any) Hasher {
	switch x := v.(type) {
	case errT:
		return h.Mix(errHash)
	case int64:
		return h.ofInt(x)
	case float64:
		return h.ofFloat(x)
	case bool:
		return h.ofBool(x)
	case string:
		return h.ofStr(x)
	case []int64:
		return h.ofInts(x)
	case []float64:
		return h.ofFloats(x)
	case []bool:
		return h.ofBools(x)
	case []string:
		return h.ofStrs(x)
	case []Pair:
		return h.ofPairs(x)
	case []any:
		h = h.Mix(12).Mix(uint64(len(x)))
		for _, e := range x {
			h = h.Value(e)
		}
		return h
	}
	return h.Mix(11)
}

func (h Hasher) ofInt(x int64) Hasher { return h.Mix(1).Mix(uint64(x)) }

func (h Hasher) ofFloat(x float64) Hasher { return h.Mix(2).Mix(floatKey(x)) }

func (h Hasher) ofBool(x bool) Hasher {
	if x {
		return h.Mix(3)
	}
	return h.Mix(4)
}

func (h Hasher) ofStr(x string) Hasher {
	h = h.Mix(5).Mix(uint64(len(x)))
	for i := 0; i < len(x); i++ {
		h = h.Mix(uint64(x[i]))
	}
	return h
}

// ofInts hashes the elements two at a time, each pair through one 128-bit
// multiplication (wyhash's step), in two chains (four elements a round)
// that the processor runs side by side: a quarter of the dependent
// multiplications of mixing them one by one, on the enumerator's
// commonest values, whose lists are long.
func (h Hasher) ofInts(x []int64) Hasher {
	h = h.Mix(6).Mix(uint64(len(x)))
	if len(x) >= 4 {
		g := h ^ 0x8ebc6af09c88c6e3
		for ; len(x) >= 4; x = x[4:] {
			h = h.pair(uint64(x[0]), uint64(x[1]))
			g = g.pair2(uint64(x[2]), uint64(x[3]))
		}
		h = h.pair(uint64(g), uint64(len(x)))
	}
	for ; len(x) >= 2; x = x[2:] {
		h = h.pair(uint64(x[0]), uint64(x[1]))
	}
	if len(x) == 1 {
		h = h.Mix(uint64(x[0]))
	}
	return h
}

// pair mixes two words into the hash with one 128-bit multiplication.
func (h Hasher) pair(a, b uint64) Hasher {
	hi, lo := bits.Mul64(a^uint64(h)^0xa0761d6478bd642f, b^0xe7037ed1a0b428db)
	return Hasher(hi ^ lo)
}

// pair2 is pair with other constants, for a second chain.
func (h Hasher) pair2(a, b uint64) Hasher {
	hi, lo := bits.Mul64(a^uint64(h)^0x589965cc75374cc3, b^0x1d8e4e27c47d124f)
	return Hasher(hi ^ lo)
}

func (h Hasher) ofFloats(x []float64) Hasher {
	h = h.Mix(7).Mix(uint64(len(x)))
	for _, e := range x {
		h = h.Mix(floatKey(e))
	}
	return h
}

func (h Hasher) ofBools(x []bool) Hasher {
	h = h.Mix(8).Mix(uint64(len(x)))
	for _, e := range x {
		if e {
			h = h.Mix(1)
		} else {
			h = h.Mix(2)
		}
	}
	return h
}

func (h Hasher) ofStrs(x []string) Hasher {
	h = h.Mix(9).Mix(uint64(len(x)))
	for _, e := range x {
		h = h.ofStr(e)
	}
	return h
}

func (h Hasher) ofPairs(x []Pair) Hasher {
	h = h.Mix(10).Mix(uint64(len(x)))
	for _, e := range x {
		h = h.Mix(uint64(e[0])).Mix(uint64(e[1]))
	}
	return h
}

// HashSet is a set of value hashes: open addressing with linear probing
// over a power-of-two table. The enumerator asks it once for every
// program it evaluates, so it is kept simpler and denser than a Go map:
// one probe is usually one cache line.
type HashSet struct {
	slots []Hasher
	n     int
	// zero records the hash 0, which marks free slots in the table.
	zero bool
	// m is charged with each larger table, less the one it replaces.
	m Meter
}

// SetMeter has the set's tables charged to m.
func (s *HashSet) SetMeter(m Meter) { s.m = m }

// GrowBytes is the memory the next Insert of a new hash takes for a
// larger table (0 when the table has room): a search at its memory
// bound asks before it inserts. The table it replaces is garbage then,
// but both are alive while the hashes move.
func (s *HashSet) GrowBytes() int64 {
	if 4*(s.n+1) > 3*len(s.slots) {
		return 8 * int64(max(64, 2*len(s.slots)))
	}
	return 0
}

const emptySlot Hasher = 0

// Has reports whether h is in the set.
func (s *HashSet) Has(h Hasher) bool {
	if h == emptySlot {
		return s.zero
	}
	return len(s.slots) > 0 && s.slots[s.slot(h)] == h
}

// Insert adds h; it reports whether h was new.
func (s *HashSet) Insert(h Hasher) bool {
	if h == emptySlot {
		fresh := !s.zero
		s.zero = true
		return fresh
	}
	if 4*(s.n+1) > 3*len(s.slots) {
		s.grow()
	}
	i := s.slot(h)
	if s.slots[i] == h {
		return false
	}
	s.slots[i] = h
	s.n++
	return true
}

// slot returns the index of h's slot, or of the free slot it would take.
func (s *HashSet) slot(h Hasher) uint64 {
	mask := uint64(len(s.slots) - 1)
	i := uint64(h) & mask
	for s.slots[i] != h && s.slots[i] != emptySlot {
		i = (i + 1) & mask
	}
	return i
}

func (s *HashSet) grow() {
	old := s.slots
	// A large table is written at random: NewChunk faults it in whole.
	n := max(64, 2*len(old))
	s.slots = NewChunk[Hasher](n, true)[:n]
	if s.m != nil {
		s.m.Charge(8 * int64(n-len(old)))
	}
	for _, h := range old {
		if h != emptySlot {
			s.slots[s.slot(h)] = h
		}
	}
}
