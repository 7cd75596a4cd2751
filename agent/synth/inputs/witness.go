package inputs

import (
	"math"
	"slices"
	"unicode"
)

// Bounds of NearMisses: the observed strings mutated (nearMissSources),
// and the variants of each.
const (
	MaxNearMissSources = 6
	nearMissesEach     = 4
)

// Witness draws an input of the category cat (see task.Categories) within
// the generator's limits, for the shapes whose categories random draws
// rarely reach (an empty list, a strictly descending one); ok is false when
// the shape or the limits leave no such input to build.
func (g *Generator) Witness(cat string) (any, bool) {
	if g.Shape != "list" {
		return nil, false
	}
	lo, hi := int64(math.Ceil(g.Limits.lo)), int64(math.Floor(g.Limits.hi))
	if g.Limits.floats || hi < lo {
		return nil, false
	}
	n := min(max(g.Limits.MinLen, 4), g.Limits.MaxLen)
	switch cat {
	case "empty":
		return []any{}, true
	case "single":
		return []any{g.num()}, true
	case "long":
		if g.Limits.MaxLen < 8 {
			return nil, false
		}
		return g.list(max(8, g.Limits.MinLen)), true
	case "has_zero", "has_negative":
		v := int64(0)
		if cat == "has_negative" {
			if lo > -1 {
				return nil, false
			}
			v = g.intIn(lo, min(hi, -1))
		}
		if v < lo || v > hi || n < 1 {
			return nil, false
		}
		xs := g.list(n)
		xs[g.Rand.Intn(n)] = v
		return xs, true
	case "repeated_value", "all_equal":
		v := g.num()
		xs := make([]any, max(n, 2))
		for i := range xs {
			xs[i] = v
		}
		return xs, true
	case "ascending", "descending":
		n = max(n, 3)
		if hi-lo+1 < int64(n) {
			return nil, false
		}
		vals := g.Rand.Perm(int(min(hi-lo+1, 1<<16)))[:n]
		slices.Sort(vals)
		if cat == "descending" {
			slices.Reverse(vals)
		}
		xs := make([]any, n)
		for i, v := range vals {
			xs[i] = lo + int64(v)
		}
		return xs, true
	}
	return nil, false
}

// NearMisses returns strings one step from the observed ones given: a
// character inserted, one character or a character and its mirror image
// replaced by another of a different class (a letter by a digit, a space, a sign), one
// character's case changed. Such a change keeps most of what the input
// was (a palindrome stays one when both mirrored places change) and
// tells apart programs that read the classes differently (isalpha and
// isalnum).
func (g *Generator) NearMisses(sources []any) []any {
	if g.Shape != "string" {
		return nil
	}
	var strs []string
	for _, v := range sources {
		if s, ok := v.(string); ok && s != "" {
			strs = append(strs, s)
		}
	}
	others := func(r rune) []rune {
		var out []rune
		for _, c := range []rune("7 a.Z-0") {
			if charClass(c) != charClass(r) && (len(g.Limits.Alphabet) == 0 || slices.Contains(g.Limits.Alphabet, c)) {
				out = append(out, c)
			}
		}
		return out
	}
	var out []any
	for _, s := range strs {
		rs := []rune(s)
		for range nearMissesEach {
			v := slices.Clone(rs)
			i := g.Rand.Intn(len(v))
			switch g.Rand.Intn(4) {
			case 0:
				// An insertion: a program that drops the class sees the
				// input unchanged, one that keeps it does not.
				cs := others(v[i])
				if len(cs) == 0 || len(v)+1 > g.Limits.MaxLen {
					continue
				}
				v = slices.Insert(v, i, cs[g.Rand.Intn(len(cs))])
			case 1, 2:
				cs := others(v[i])
				if len(cs) == 0 {
					continue
				}
				c := cs[g.Rand.Intn(len(cs))]
				v[i] = c
				if g.Rand.Intn(2) == 0 {
					v[len(v)-1-i] = c
				}
			default:
				switch {
				case unicode.IsLower(v[i]):
					v[i] = unicode.ToUpper(v[i])
				case unicode.IsUpper(v[i]):
					v[i] = unicode.ToLower(v[i])
				default:
					continue
				}
			}
			out = append(out, string(v))
		}
	}
	return out
}

// charClass is a character's class: letter, digit, space or other.
func charClass(r rune) int {
	switch {
	case unicode.IsLetter(r):
		return 0
	case unicode.IsDigit(r):
		return 1
	case unicode.IsSpace(r):
		return 2
	}
	return 3
}
