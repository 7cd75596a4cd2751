package inputs

import (
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"unicode"

	"github.com/reconstruct/reconstruct/task"
)

// This file lists every input a task's description allows, when the
// description bounds every part of an input and they are few: a run whose
// every valid input was observed has verified its program on the whole
// domain. Unlike the readings that guide proposals, it takes no default
// for a part the description leaves open (a length, a range, an
// alphabet): a domain listed too small would claim a verification that
// was not made. One listed too large only costs queries the hidden program
// rejects.

var (
	// integerRe says a description's numbers are integers.
	integerRe = regexp.MustCompile(`(?i)\b(?:integers?|ints?|bits?|binary|digits?|0\s+or\s+1)\b`)
	// notIntegerRe says some of them may not be.
	notIntegerRe = regexp.MustCompile(`(?i)\b(?:floats?|reals?|decimals?|fractions?|fractional|real\s+numbers?)\b`)
	// digitsRe says the numbers are decimal digits.
	digitsRe = regexp.MustCompile(`(?i)\bdigits?\b`)
)

// lengthNouns are the nouns a string's length is counted in.
var lengthNouns = []string{"character", "char", "letter", "digit", "bit"}

// FiniteInputs lists every input the description of t allows — its
// input_type, input_constraints and domain — when it bounds every part of
// an input and they are at most max: an integer within a stated range,
// a pair of integers within one, a list of a stated length range of such
// integers, a string of a stated length range over a stated alphabet. from
// says which settings it read. ok is false for anything else.
func FiniteInputs(t task.Task, max int) (inputs []json.RawMessage, from string, ok bool) {
	text := t.InputType + "; " + t.InputConstraints
	if notIntegerRe.MatchString(text) && t.Kind != task.KindString {
		return nil, "", false
	}
	from = "task.input_constraints"
	// read are the parts of the constraint text the listing reads: any
	// other number there may bound the inputs in a way it does not know.
	var read [][2]int
	values := func() ([]any, bool) {
		span, at, stated := valueSpan(t.InputConstraints)
		if stated {
			read = append(read, at)
		}
		if d := t.Domain; d != nil {
			lo, hi := math.Ceil(d.Lo), math.Floor(d.Hi)
			if lo > hi || hi-lo+1 > float64(max) {
				return nil, false
			}
			from = "task.input_constraints, task.domain"
			return intRange(int64(lo), int64(hi)), true
		}
		if stated && span.hi-span.lo+1 <= int64(max) {
			return intRange(span.lo, span.hi), true
		}
		if digitsRe.MatchString(text) {
			return intRange(0, 9), true
		}
		return nil, false
	}
	var all []any
	switch t.Kind {
	case task.KindInt:
		if t.Domain != nil {
			// The domain alone bounds it (task.FiniteInputs).
			return nil, "", false
		}
		vs, ok := values()
		if !ok {
			return nil, "", false
		}
		all = vs
	case task.KindPair:
		vs, ok := values()
		if !ok || !integerRe.MatchString(text) || len(vs)*len(vs) > max {
			return nil, "", false
		}
		for _, a := range vs {
			for _, b := range vs {
				all = append(all, []any{a, b})
			}
		}
	case task.KindList:
		lo, hi, at, ok := lengthsIn(t.InputConstraints, nil)
		read = append(read, at)
		if !ok || !integerRe.MatchString(text) {
			return nil, "", false
		}
		vs, ok := values()
		if !ok {
			return nil, "", false
		}
		if all, ok = sequences(vs, lo, hi, max, func(xs []any) any { return xs }); !ok {
			return nil, "", false
		}
	case task.KindString:
		lo, hi, at, ok := lengthsIn(t.InputConstraints, lengthNouns)
		read = append(read, at)
		alphabet := alphabetFrom(t.InputConstraints)
		if !ok || len(alphabet) == 0 {
			return nil, "", false
		}
		vs := make([]any, len(alphabet))
		for i, r := range alphabet {
			vs[i] = string(r)
		}
		join := func(xs []any) any {
			s := ""
			for _, x := range xs {
				s += x.(string)
			}
			return s
		}
		if all, ok = sequences(vs, lo, hi, max, join); !ok {
			return nil, "", false
		}
	default:
		return nil, "", false
	}
	if len(all) == 0 || len(all) > max || unread(t.InputConstraints, read) || unread(t.InputType, nil) {
		return nil, "", false
	}
	for _, v := range all {
		inputs = append(inputs, Encode(v))
	}
	return inputs, from, true
}

// perRe follows a count that is not an input's length: "one character
// per roll".
var perRe = regexp.MustCompile(`(?i)^\s*[a-z]+\s+(?:per|each|for|of each)\b`)

// lengthsIn is the length range of a text's first count phrase, of one of
// nouns (any noun when nil), and where its numbers are; ok is false when
// it states none.
func lengthsIn(text string, nouns []string) (lo, hi int, at [2]int, ok bool) {
	for _, c := range countsIn(text) {
		if nouns == nil || slices.Contains(nouns, c.noun) {
			if perRe.MatchString(text[c.at[1]:]) {
				return 0, 0, at, false
			}
			return int(c.n.lo), int(c.n.hi), c.at, true
		}
	}
	return 0, 0, at, false
}

// unread reports whether text holds a digit outside the parts read and
// outside character ranges ("a-c", "0-9").
func unread(text string, read [][2]int) bool {
	covered := make([]bool, len(text))
	for _, r := range read {
		for i := max(r[0], 0); i < min(r[1], len(text)); i++ {
			covered[i] = true
		}
	}
	for _, m := range charRangeRe.FindAllStringIndex(text, -1) {
		for i := m[0]; i < m[1]; i++ {
			covered[i] = true
		}
	}
	for i, r := range text {
		if unicode.IsDigit(r) && !covered[i] {
			return true
		}
	}
	return false
}

// intRange is the integers lo to hi.
func intRange(lo, hi int64) []any {
	out := make([]any, 0, hi-lo+1)
	for x := lo; x <= hi; x++ {
		out = append(out, x)
	}
	return out
}

// sequences lists every sequence of lo to hi elements of vs, each made a
// value by value; ok is false when they are more than max.
func sequences(vs []any, lo, hi, max int, value func([]any) any) ([]any, bool) {
	n, total := 1, 0
	for l := 0; l <= hi; l++ {
		if l >= lo {
			total += n
		}
		if total > max {
			return nil, false
		}
		if l < hi {
			if len(vs) > 0 && n > max/len(vs) {
				return nil, false
			}
			n *= len(vs)
		}
	}
	var out []any
	var grow func(prefix []any)
	grow = func(prefix []any) {
		if len(prefix) >= lo {
			out = append(out, value(append([]any{}, prefix...)))
		}
		if len(prefix) == hi {
			return
		}
		for _, v := range vs {
			grow(append(prefix, v))
		}
	}
	grow(nil)
	return out, true
}
