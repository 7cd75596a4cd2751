package inputs

import "math"

// A relation between two arguments moves a value of one into the place of
// the other: the height of a ball into the place of the fraction it keeps
// at each bounce, a word into the place of a count. A hidden program
// refuses such inputs, and each refusal costs the proposal an attempt. A
// value built for an argument's place must therefore look like the values
// observed there: a number within the range observed there (an integer
// where only integers were), a list or string no longer than the longest
// observed there, with elements, or characters of classes (witness.go), observed there.

// place is what the observed inputs show of one argument's place.
type place struct {
	seen bool
	// Numbers observed: their range, and whether all were integers.
	numbers        bool
	lo, hi         float64
	integers       bool
	lists, strings bool
	// Lists and strings observed: their longest length; the range of the
	// lists' numeric elements (elems), the classes of the strings'
	// characters.
	maxLen  int
	elems   *place
	classes map[int]bool
}

// profile is what the sources show of each argument's place (nil when the
// sources are no tuples of one length).
func profile(srcs []any) []*place {
	var out []*place
	for _, src := range srcs {
		args, ok := src.([]any)
		if !ok || (out != nil && len(args) != len(out)) {
			return nil
		}
		if out == nil {
			out = make([]*place, len(args))
			for i := range out {
				out[i] = &place{}
			}
		}
		for i, a := range args {
			out[i].observe(a)
		}
	}
	return out
}

func (p *place) observe(v any) {
	if f, ok := numberOf(v); ok {
		if !p.numbers {
			p.lo, p.hi, p.integers = f, f, true
		}
		p.numbers, p.seen = true, true
		p.lo, p.hi = math.Min(p.lo, f), math.Max(p.hi, f)
		p.integers = p.integers && f == math.Trunc(f)
		return
	}
	switch x := v.(type) {
	case []any:
		p.lists, p.seen = true, true
		p.maxLen = max(p.maxLen, len(x))
		if p.elems == nil {
			p.elems = &place{}
		}
		for _, e := range x {
			p.elems.observe(e)
		}
	case string:
		p.strings, p.seen = true, true
		rs := []rune(x)
		p.maxLen = max(p.maxLen, len(rs))
		if p.classes == nil {
			p.classes = map[int]bool{}
		}
		for _, r := range rs {
			p.classes[charClass(r)] = true
		}
	}
}

// fits reports whether v looks like the values observed at p (true for a
// place nothing was observed at).
func (p *place) fits(v any) bool {
	if p == nil || !p.seen {
		return true
	}
	if f, ok := numberOf(v); ok {
		return p.numbers && f >= p.lo && f <= p.hi && (!p.integers || f == math.Trunc(f))
	}
	switch x := v.(type) {
	case []any:
		if !p.lists || len(x) > p.maxLen {
			return false
		}
		for _, e := range x {
			if _, ok := numberOf(e); ok && !p.elems.fits(e) {
				return false
			}
		}
		return true
	case string:
		rs := []rune(x)
		if !p.strings || len(rs) > p.maxLen {
			return false
		}
		for _, r := range rs {
			if !p.classes[charClass(r)] {
				return false
			}
		}
		return true
	}
	return true
}
