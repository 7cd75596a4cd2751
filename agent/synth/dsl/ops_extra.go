package dsl

import (
	"strings"
	"unicode"
)

// stringHoleOps are string operators of sketches' holes only (scalarOps):
// a hole reads a piece of a string (a word, a chunk, a token), and the
// number written in it is part of what the piece says ("a3" is a letter
// and a count). In whole programs they would only add a shortcut over the
// inputs the levels have no use for.
func stringHoleOps() []*Operator {
	return []*Operator{
		op1("int_of", FamScalar, pyIntOf, pyOnly(func(a []Code) Code { return Call("int", a[0]) })),
	}
}

// pyIntOf is Python's int(s) for a string: surrounding whitespace, an
// optional sign, decimal digits with single underscores between them. It
// fails where Python raises ValueError, and also on digits beyond ASCII
// (Python reads every Unicode decimal digit) and on values beyond int64
// (where Python's integers grow).
func pyIntOf(s string) (int64, bool) {
	s = strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f })
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			if s[i-1] == '_' {
				return 0, false
			}
			continue
		}
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if v > (1<<63-1-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	if neg {
		v = -v
	}
	return v, true
}
