package synth

// hashSet is a set of value hashes: open addressing with linear probing
// over a power-of-two table. The enumerator asks it once for every
// program it evaluates, so it is kept simpler and denser than a Go map:
// one probe is usually one cache line.
type hashSet struct {
	slots []hasher
	n     int
	// zero records the hash 0, which marks free slots in the table.
	zero bool
}

const emptySlot hasher = 0

// has reports whether h is in the set.
func (s *hashSet) has(h hasher) bool {
	if h == emptySlot {
		return s.zero
	}
	return len(s.slots) > 0 && s.slots[s.slot(h)] == h
}

// insert adds h; it reports whether h was new.
func (s *hashSet) insert(h hasher) bool {
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
func (s *hashSet) slot(h hasher) uint64 {
	mask := uint64(len(s.slots) - 1)
	i := uint64(h) & mask
	for s.slots[i] != h && s.slots[i] != emptySlot {
		i = (i + 1) & mask
	}
	return i
}

func (s *hashSet) grow() {
	old := s.slots
	s.slots = make([]hasher, max(64, 2*len(old)))
	for _, h := range old {
		if h != emptySlot {
			s.slots[s.slot(h)] = h
		}
	}
}
