package inputs

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The clauses of input_constraints that speak of one argument by its
// name ("text 0 to 40 characters: letters of either case and single
// spaces between words, no space at either end", "rate from 0 to 1.5 with
// at most two decimals", "source and target 0 to 8 lowercase letters
// each, of equal length, with no letter twice in source"): the argument a
// clause is about (its subject) gets what the clause says, whatever comma
// the clause holds.

var (
	// decimalsRe says a number has decimals: "with at most two
	// decimals", "one decimal place", "a real number".
	decimalsRe = regexp.MustCompile(`(?i)\b(?:(one|two|three|four|\d)\s+)?decimals?\b|\breal\s+numbers?\b|\bfloats?\b`)
	// decimalNumRe is a number written with a decimal point.
	decimalNumRe = regexp.MustCompile(`-?\d+\.(\d+)`)
	// wordsModeRe says a text is words separated by single spaces.
	wordsModeRe = regexp.MustCompile(`(?i)\bsingle\s+spaces?\b|\bno\s+spaces?\s+at\s+(?:either|both)\s+ends?\b`)
	// distinctRe says no character or element occurs twice, in the part
	// named after "in" when it names one.
	distinctRe = regexp.MustCompile(`(?i)\bno\s+(?:letter|character|char|digit|value|number|element|word|item)s?\s+(?:occurs\s+|appears\s+|is\s+)?(?:twice|more\s+than\s+once|repeated)(?:\s+in\s+([a-z_]\w*))?|\b(?:all\s+)?(?:distinct|unique)\b`)
	// negationRe is a phrase that names what a text does not hold ("no
	// spaces", "no sign in front of the first number", "without
	// digits"), up to the next comma: its characters are not the text's.
	negationRe = regexp.MustCompile(`(?i)\b(?:no|without|never|not)\s+(?:a\s+|an\s+|any\s+)?[\w-]+[^,;]*[,;]?`)
)

// subjectStop are the words that end the name a clause starts with.
var subjectStop = map[string]bool{"from": true, "between": true, "has": true, "have": true, "holds": true, "hold": true,
	"is": true, "are": true, "an": true, "a": true, "of": true, "must": true, "up": true, "at": true, "exactly": true,
	"each": true, "all": true, "both": true, "in": true, "with": true, "every": true, "whole": true, "lists": true, "list": true}

// topParts are the parts a clause may name: the positions of a tuple, the
// values of an object.
func topParts(root *Template) []*Template {
	if root != nil && (root.Kind == TkTuple || root.Kind == tkObject) {
		return root.Elems
	}
	return nil
}

// clauseSubject is the parts a clause starts by naming: "text 0 to 40
// characters", "source and target 0 to 8 lowercase letters", "population
// an integer from 1 to 1000", "numbers: 0 to 12 integers".
func clauseSubject(clause string, parts []*Template) []*Template {
	var out []*Template
	for _, f := range strings.Fields(clause) {
		w := strings.ToLower(strings.TrimRight(f, ":,."))
		if w == "" || w[0] == '-' || w[0] >= '0' && w[0] <= '9' || subjectStop[w] {
			break
		}
		if _, ok := numberWords[w]; ok {
			break
		}
		if w != "and" && w != "the" {
			for _, h := range bestMatches(parts, nameWords([]string{w})) {
				if !slices.Contains(out, h) {
					out = append(out, h)
				}
			}
		}
		if f != strings.TrimRight(f, ":,.") {
			break
		}
	}
	return out
}

// stringsUnder are the strings of some parts, themselves or their
// elements.
func stringsUnder(parts []*Template) []*Template {
	var out []*Template
	for _, p := range parts {
		p.walk(func(n *Template) {
			if n.Kind == TkStr && len(n.Choices) == 0 {
				out = append(out, n)
			}
		})
	}
	return out
}

// retypeByClauses gives the parts a clause speaks of the type it says:
// a number "with at most two decimals" or with a bound written with
// decimals is a float; an argument of no stated type whose characters
// are counted ("noun 1 to 12 lowercase letters") is a string.
func retypeByClauses(root *Template, text string) {
	parts := topParts(root)
	for _, clause := range strings.Split(text, ";") {
		subj := clauseSubject(clause, parts)
		for _, h := range subj {
			switch {
			case h.Kind == TkInt && decimalsIn(clause) > 0:
				h.Kind, h.decimals = TkFloat, decimalsIn(clause)
			case h.Kind == TkInt && !h.typed && countsCharacters(clause):
				h.Kind, h.typed = TkStr, true
			}
		}
	}
}

// decimalsIn is how many decimals a clause allows a number (0: none
// stated).
func decimalsIn(clause string) int {
	d := 0
	if m := decimalsRe.FindStringSubmatch(clause); m != nil {
		d = 2
		if n, ok := countOf(m[1]); ok && n > 0 {
			d = n
		}
	}
	for _, m := range decimalNumRe.FindAllStringSubmatch(clause, -1) {
		d = max(d, len(m[1]))
	}
	return d
}

// countsCharacters reports whether a clause counts characters or letters.
func countsCharacters(clause string) bool {
	for _, c := range countsIn(clause) {
		if slices.Contains(charNouns, c.noun) {
			return true
		}
	}
	return false
}

// parseNum reads a bound that may have decimals.
func parseNum(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// setRange gives a number part the range a clause states.
func setRange(h *Template, lo, hi float64) {
	switch h.Kind {
	case TkInt:
		h.lo, h.hi, h.ranged = int64(math.Ceil(lo)), int64(math.Floor(hi)), true
	case TkFloat:
		h.flo, h.fhi, h.ranged = lo, hi, true
	}
}

// clauseTraits gives the strings a clause is about what it says of their
// shape: words separated by single spaces, no character twice, one
// length for the parts it names together ("of equal length").
func clauseTraits(root *Template, clause string, hits []*Template) {
	parts := topParts(root)
	if wordsModeRe.MatchString(clause) {
		for _, h := range hits {
			if slices.Contains(h.alphabet, ' ') {
				h.words = true
			}
		}
	}
	if m := distinctRe.FindStringSubmatch(clause); m != nil {
		targets := hits
		if m[1] != "" {
			targets = nil
			for _, p := range bestMatches(parts, nameWords([]string{m[1]})) {
				targets = append(targets, stringsUnder([]*Template{p})...)
				if p.Kind == TkList {
					targets = append(targets, p)
				}
			}
		}
		for _, h := range targets {
			h.distinct = true
		}
	}
	if subj := clauseSubject(clause, parts); sameLenRe.MatchString(clause) && len(subj) >= 2 {
		for _, h := range subj {
			h.sameLenMember = true
		}
		root.sameLen = true
	}
}
