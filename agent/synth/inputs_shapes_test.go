package synth

import (
	"math/rand"
	"strings"
	"testing"
	"unicode"
)

// normalized keeps the letters and digits of s, in lower case.
func normalized(s string) string {
	var sb strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			sb.WriteRune(unicode.ToLower(r))
		}
	}
	return sb.String()
}

// mismatchedPairs counts the mirrored positions of s that differ.
func mismatchedPairs(s string) int {
	r, n := []rune(s), 0
	for i := 0; i < len(r)/2; i++ {
		if r[i] != r[len(r)-1-i] {
			n++
		}
	}
	return n
}

// String proposals must tell apart the usual readings of "palindrome":
// exact ones, ones that hold only once case and punctuation are ignored,
// and near misses whose letters and digits differ at a single mirrored pair
// (which a program
// comparing a coarser image of the string, such as its vowel pattern,
// still calls palindromes).
func TestStringProposalShapes(t *testing.T) {
	g := &generator{rng: rand.New(rand.NewSource(7)), shape: "string", lim: shapeLimits{maxLen: 14}}
	kinds := map[string]func(s string) bool{
		"exact palindrome": func(s string) bool { return len(s) >= 4 && s == reverseString(s) },
		"palindrome up to case and punctuation": func(s string) bool {
			n := normalized(s)
			return len(n) >= 3 && n == reverseString(n) && s != reverseString(s)
		},
		"near miss": func(s string) bool { n := normalized(s); return len(n) >= 6 && mismatchedPairs(n) == 1 },
	}
	counts := map[string]int{}
	for range 400 {
		s := g.str(4 + g.rng.Intn(11))
		for name, is := range kinds {
			if is(s) {
				counts[name]++
			}
		}
	}
	for name := range kinds {
		if counts[name] < 10 {
			t.Errorf("%d of 400 strings are a %s, want at least 10", counts[name], name)
		}
	}
}

// Near misses stay within a restricted alphabet.
func TestNearMissKeepsAlphabet(t *testing.T) {
	g := &generator{rng: rand.New(rand.NewSource(3)), shape: "string", lim: shapeLimits{maxLen: 12, alphabet: []rune("01")}}
	for range 300 {
		s := g.str(8)
		if strings.Trim(s, "01") != "" {
			t.Fatalf("string %q leaves the alphabet 01", s)
		}
	}
}
