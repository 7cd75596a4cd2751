package synth

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/reconstruct/reconstruct/task"
)

// maxMined bounds the constants taken from a task's text.
const maxMined = 8

// minedConsts returns the integers written in the task's visible
// description of the function: its name ("pow_mod97", "sum_multiples_3_5")
// and its input type ("list of 3 integers"), in digits or as words
// (numberWords). Programs by example routinely
// seed their constant pool this way: a modulus or a bound named in the
// description is rarely among a fixed set of small constants. The input
// constraints are left out: their numbers bound the inputs ("between -50
// and 50"), and as constants they only slow the search down. The
// exception is a name that says "mod" without giving the modulus
// ("fib_mod"): the constraints' nonzero numbers are then candidates for it
// (results modulo 1000 for inputs up to 1000). The result has no repeats,
// keeps the order of first appearance and holds at most maxMined values.
func minedConsts(t task.Task) []int64 {
	var out []int64
	add := func(text string, zero bool) {
		for _, v := range numbersIn(text) {
			if (zero || v != 0) && len(out) < maxMined && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	add(t.Name, true)
	add(t.InputType, true)
	for _, text := range []string{t.Name, t.InputType} {
		for _, w := range words(text) {
			if v, ok := numberWords[w]; ok && len(out) < maxMined && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	if slices.Contains(words(t.Name), "mod") {
		add(t.InputConstraints, false)
	}
	return out
}

// numberWords are the numbers a task's text may write as words ("sevens
// not fives", "six-sided dice", "a rate in percent"), beyond the
// constants every search has (0, 1, 2, 3, 10): "two lists" or "one
// integer" would only rebuild the lambda banks for nothing.
var numberWords = func() map[string]int64 {
	m := map[string]int64{"percent": 100, "percentage": 100, "percentages": 100, "dozen": 12, "dozens": 12,
		"hundred": 100, "hundreds": 100, "thousand": 1000, "thousands": 1000}
	for v, w := range []string{4: "four", "five", "six", "seven", "eight", "nine", 11: "eleven", "twelve", "thirteen", "fourteen",
		"fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"} {
		if w != "" {
			m[w] = int64(v)
			// The plural: "fives", "sixes", "twenties".
			switch {
			case strings.HasSuffix(w, "x"):
				m[w+"es"] = int64(v)
			case strings.HasSuffix(w, "y"):
				m[w[:len(w)-1]+"ies"] = int64(v)
			default:
				m[w+"s"] = int64(v)
			}
		}
	}
	return m
}()

// words splits a name at every character that is not a letter or digit
// ("algorithm_fib_mod" gives algorithm, fib, mod), in lower case.
func words(name string) []string {
	return strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// numbersIn returns the integers in text: every maximal run of digits,
// negative when a '-' directly precedes it and does not follow a letter or
// digit ("-50" but not the "3" of "x-3"). Runs too long for an int64 are
// skipped.
func numbersIn(text string) []int64 {
	var out []int64
	for i := 0; i < len(text); {
		if !isDigit(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isDigit(text[j]) {
			j++
		}
		v, err := strconv.ParseInt(text[i:j], 10, 64)
		if err == nil {
			if i > 0 && text[i-1] == '-' && (i == 1 || !isWordByte(text[i-2])) {
				v = -v
			}
			out = append(out, v)
		}
		i = j
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordByte(c byte) bool {
	return isDigit(c) || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// withConsts appends to pool the values of extra it lacks, as constants of
// the pool's integer type.
func withConsts(pool []any, extra []int64) []any {
	out := append([]any{}, pool...)
	for _, v := range extra {
		if !slices.Contains(out, any(v)) {
			out = append(out, v)
		}
	}
	return out
}
