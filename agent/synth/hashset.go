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
	if len(s.slots) == 0 {
		return false
	}
	mask := uint64(len(s.slots) - 1)
	for i := uint64(h) & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case h:
			return true
		case emptySlot:
			return false
		}
	}
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
	mask := uint64(len(s.slots) - 1)
	for i := uint64(h) & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case h:
			return false
		case emptySlot:
			s.slots[i] = h
			s.n++
			return true
		}
	}
}

func (s *hashSet) grow() {
	old := s.slots
	s.slots = make([]hasher, max(64, 2*len(old)))
	s.n = 0
	mask := uint64(len(s.slots) - 1)
	for _, h := range old {
		if h == emptySlot {
			continue
		}
		i := uint64(h) & mask
		for s.slots[i] != emptySlot {
			i = (i + 1) & mask
		}
		s.slots[i] = h
		s.n++
	}
}
