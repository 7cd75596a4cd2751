package inputs

import (
	"regexp"
	"strconv"
	"strings"
)

// Lists of records a program keeps a running tally of (a score keeper's
// "5", "-2", "+", "D" and "C"): numbers written as strings, whose examples
// the description quotes ("a number as a string such as \"5\" or
// \"-2\""), and tokens that need values kept before them ("\"+\" always
// comes after at least two kept scores"). A token drawn where too few
// values stand before it is refused by the program, whatever else the
// input holds.

var (
	// numberTextRe is a number written as a string, with the quoted
	// examples that show it.
	numberTextRe = regexp.MustCompile(`(?i)\b(?:an?\s+)?(?:number|integer|score|value)s?\s+(?:written\s+)?as\s+(?:a\s+)?(?:strings?|text)\s*,?\s*(?:such\s+as|like|e\.\s?g\.|for\s+example)\s+((?:"[^"]*"(?:\s*,\s*|\s+or\s+|\s+and\s+)?)+)`)
	// needsRe is quoted tokens that come only after a count of kept
	// values: "\"+\" always comes after at least two kept scores",
	// "\"D\" and \"C\" after at least one".
	needsRe  = regexp.MustCompile(`(?i)((?:"[^"]+"(?:\s*,\s*|\s+and\s+|\s+or\s+)?)+)\s+(?:(?:always|only|must)\s+)?(?:(?:comes?|appears?|follows?|be)\s+)?(?:only\s+)?after\s+at\s+least\s+(\w+)`)
	quotedRe = regexp.MustCompile(`"([^"]*)"`)
)

// numbersAsText replaces the quoted examples of a number written as a
// string by one part that draws such numbers: a string of an integer in
// the range its constraints state.
func numbersAsText(root *Template, inputType string) {
	m := numberTextRe.FindStringSubmatch(inputType)
	if m == nil {
		return
	}
	examples := map[string]bool{}
	for _, q := range quotedRe.FindAllStringSubmatch(m[1], -1) {
		if _, err := strconv.ParseInt(q[1], 10, 64); err != nil {
			return
		}
		examples[q[1]] = true
	}
	isExample := func(e *Template) bool {
		s, ok := e.lit.(string)
		return e.Kind == tkLit && ok && examples[s]
	}
	root.walk(func(n *Template) {
		if n.Kind != tkAlt {
			return
		}
		var kept []*Template
		replaced := false
		for _, e := range n.Elems {
			if !isExample(e) {
				kept = append(kept, e)
				continue
			}
			if !replaced {
				kept = append(kept, &Template{Kind: TkInt, asText: true, names: []string{"number"}, lo: defaultIntLo, hi: defaultIntHi})
				replaced = true
			}
		}
		n.Elems = kept
	})
}

// tokenNeeds reads the tokens that come only after a count of kept values
// into the lists whose elements may be those tokens.
func tokenNeeds(root *Template, constraints string) {
	needs := map[string]int{}
	for _, clause := range strings.Split(constraints, ";") {
		for _, m := range needsRe.FindAllStringSubmatch(clause, -1) {
			k, ok := countOf(m[2])
			if !ok {
				continue
			}
			for _, q := range quotedRe.FindAllStringSubmatch(m[1], -1) {
				needs[q[1]] = k
			}
		}
	}
	if len(needs) == 0 {
		return
	}
	root.walk(func(n *Template) {
		if n.Kind != TkList || n.Elems[0].Kind != tkAlt {
			return
		}
		own := map[string]int{}
		for _, e := range n.Elems[0].Elems {
			if s, ok := e.lit.(string); ok && e.Kind == tkLit {
				if k, ok := needs[s]; ok {
					own[s] = k
				}
			}
		}
		if len(own) > 0 {
			n.needs = own
		}
	})
}

// keptBefore walks a list of records and reports whether every token that
// needs kept values has enough before it. What each token does to the
// tally is unknown, so the count is a floor: every other record may add a
// value, every token that needs some may take one away.
func (n *Template) keptBefore(xs []any) bool {
	kept := 0
	for _, x := range xs {
		s, _ := x.(string)
		k, ok := n.needs[s]
		switch {
		case !ok:
			kept++
		case kept < k:
			return false
		default:
			kept--
		}
	}
	return true
}

// ruledList draws a list of k records in which every token that needs
// kept values has enough before it: a token drawn too early is drawn
// again, and after a few tries replaced by another record.
func (g *TemplateGenerator) ruledList(n *Template, k int) []any {
	out := make([]any, 0, k)
	for len(out) < k {
		var v any
		for tries := 0; tries < 20; tries++ {
			v = g.Draw(n.Elems[0])
			if n.keptBefore(append(out[:len(out):len(out)], v)) {
				break
			}
			v = nil
		}
		if v == nil {
			break
		}
		out = append(out, v)
	}
	return out
}
