package inputs

import (
	"regexp"
	"strings"
)

// Standard notations a description may name instead of spelling out
// their grammar: Roman numerals ("a Roman numeral ... in standard
// subtractive form") and the rolls of a game of ten-pin bowling ("X a
// strike, / a spare, - a miss"). A random string over their characters is
// almost never one, and no lesson from a rejection teaches a whole game:
// every exercise on such a notation is drawn from the notation's rules.

// bowlingRe names the rolls of a game of ten-pin bowling.
var bowlingRe = regexp.MustCompile(`(?i)\bten-?pin\s+bowling\b|\bbowling\b.*\brolls?\b|\brolls?\b.*\bbowling\b`)

// The lengths of a complete game: twelve strikes, or ten frames of two
// rolls and a bonus roll.
const (
	minBowlingLine = 12
	maxBowlingLine = 21
)

// bowlingEdges are the games at the edges: the perfect game, every roll
// a miss, a spare in every frame, nine pins in every frame, a strike
// only in the last frame.
var bowlingEdges = []any{"XXXXXXXXXXXX", "--------------------", "5/5/5/5/5/5/5/5/5/5/5", "9-9-9-9-9-9-9-9-9-9-", "------------------XXX"}

// romanNumeral writes n (1 to 3999) in Roman numerals, in standard
// subtractive form.
func romanNumeral(n int64) string {
	vals := []int64{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	var sb strings.Builder
	for i, v := range vals {
		for ; n >= v; n -= v {
			sb.WriteString(syms[i])
		}
	}
	return sb.String()
}

// bowlingLine draws the rolls of a complete game: ten frames, a strike
// ending its frame, the tenth frame's bonus rolls after a strike or a
// spare. Strikes and spares come often enough that their bonuses are
// exercised.
func (g *Generator) bowlingLine() string {
	var sb strings.Builder
	// roll draws a ball at standing pins and writes it: a ball at a full
	// rack (fresh) is a strike when it takes them all, a later one a spare.
	roll := func(standing int, fresh bool) int {
		var pins int
		switch r := g.Rand.Intn(10); {
		case r < 3:
			pins = standing
		case r < 4:
			pins = 0
		default:
			pins = g.Rand.Intn(standing + 1)
		}
		switch {
		case pins == standing && fresh:
			sb.WriteByte('X')
		case pins == standing:
			sb.WriteByte('/')
		case pins == 0:
			sb.WriteByte('-')
		default:
			sb.WriteByte(byte('0' + pins))
		}
		return pins
	}
	for frame := range 10 {
		first := roll(10, true)
		if first == 10 {
			if frame == 9 {
				if second := roll(10, true); second == 10 {
					roll(10, true)
				} else {
					roll(10-second, false)
				}
			}
			continue
		}
		if second := roll(10-first, false); frame == 9 && first+second == 10 {
			roll(10, true)
		}
	}
	return sb.String()
}

// isBowlingLine reports whether s is the rolls of a complete game: a
// near miss of an observed game seldom is.
func isBowlingLine(s string) bool {
	pos := 0
	// roll reads a ball at standing pins (fresh: a full rack) and
	// returns the pins it took, or -1.
	roll := func(standing int, fresh bool) int {
		if pos >= len(s) {
			return -1
		}
		c := s[pos]
		pos++
		switch {
		case c == 'X' && fresh:
			return 10
		case c == '/' && !fresh:
			return standing
		case c == '-':
			return 0
		case c >= '1' && c <= '9' && int(c-'0') < standing:
			return int(c - '0')
		}
		return -1
	}
	for frame := range 10 {
		first := roll(10, true)
		switch {
		case first < 0:
			return false
		case first == 10:
			if frame == 9 {
				second := roll(10, true)
				if second < 0 {
					return false
				}
				if second == 10 && roll(10, true) < 0 || second < 10 && roll(10-second, false) < 0 {
					return false
				}
			}
			continue
		}
		second := roll(10-first, false)
		if second < 0 || frame == 9 && first+second == 10 && roll(10, true) < 0 {
			return false
		}
	}
	return pos == len(s)
}

// isRomanNumeral reports whether s is a numeral in standard subtractive
// form.
func isRomanNumeral(s string) bool {
	vals := map[byte]int64{'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100, 'D': 500, 'M': 1000}
	n := int64(0)
	for i := 0; i < len(s); i++ {
		v, ok := vals[s[i]]
		if !ok {
			return false
		}
		if i+1 < len(s) && vals[s[i+1]] > v {
			n -= v
		} else {
			n += v
		}
	}
	return n >= 1 && n <= 3999 && romanNumeral(n) == s
}
