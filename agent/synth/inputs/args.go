package inputs

import (
	"regexp"
	"slices"
	"strings"
)

// Several arguments in one list, typed by the words that describe them:
// "[xs, k]: a list of integers and a rotation amount", "[text, banned]: a
// sentence and a list of banned words", "[item, quantity, price]: the
// name of an item, how many were bought and the price of one in cents".

// argsTemplate reads an input that is several arguments in one list, a
// bracketed tuple of names typed by the words around it: "[xs, k]: a list
// of integers and a rotation amount", "a list [numbers, target] of an
// integer list and an integer", "three integers [a, b, c]", "[s, t]: two
// strings". It returns nil unless the words give exactly one part per
// name. A part whose words name no type is an integer the constraints may
// type otherwise (retypeByClauses).
func argsTemplate(inputType string) *Template {
	m := NamesTupleRe.FindStringSubmatchIndex(inputType)
	if m == nil || strings.Count(inputType[:m[0]], "[") != strings.Count(inputType[:m[0]], "]") {
		// No names, or names nested in a larger bracket ("[[x1, y1],
		// [x2, y2]]"): the template parser reads those.
		return nil
	}
	var names []string
	for _, n := range strings.Split(inputType[m[2]:m[3]], ",") {
		names = append(names, strings.TrimSpace(n))
	}
	after := inputType[m[1]:]
	desc := inputType[:m[0]] + " " + after
	if a := strings.TrimSpace(after); strings.HasPrefix(a, ":") {
		desc = a[1:]
	}
	items := typedItems(desc, len(names))
	if len(items) != len(names) {
		return nil
	}
	tup := &Template{Kind: TkTuple, Elems: items, sameLen: sameLenRe.MatchString(desc)}
	for i, it := range items {
		it.names = append(nameWords([]string{names[i]}), it.names...)
		if it.Kind == TkList {
			it.Elems[0].names = append(nameWords([]string{names[i]}), it.Elems[0].names...)
		}
	}
	return tup
}

// itemCutRe splits a description of arguments at "and" and ";"; itemCommaRe
// also at commas ("a starting population, a growth rate, the capacity of
// the habitat and a number of years").
var (
	qualifierRe = regexp.MustCompile(`(?i)^(?:[a-z-]+\s+){0,3}first$|^(?:in\s+)?(?:strictly\s+)?(?:non-?)?(?:increasing|decreasing|ascending|descending|sorted)(?:\s+order)?$`)
	itemSplitRe = regexp.MustCompile(`(?i)\s+and\s+|\s*;\s*`)
	itemCommaRe = regexp.MustCompile(`(?i)\s+and\s+|\s*[;,]\s*`)
)

// typedItems reads a description of arguments into one template per
// argument: "an integer list and an integer", "two strings of lowercase
// letters", "the base (2 to 10) and two digit lists of the same length",
// "a list of four integers". The parts are the text between "and"s, each
// cut at its first comma (what follows it qualifies the part: "two digit
// lists of the same length, least significant digit first"), or, when
// that does not give want parts, the text between commas and "and"s too.
// Parts that name a type are preferred to parts that do not; nil when no
// reading gives want parts (or, with want 0, when a part names no type).
func typedItems(desc string, want int) []*Template {
	var first []*Template
	for _, untyped := range []bool{false, true} {
		for _, commas := range []bool{false, true} {
			items := itemsOf(desc, commas, untyped)
			if first == nil && !untyped && !commas {
				first = items
			}
			if items != nil && len(items) == want {
				return items
			}
		}
	}
	return first
}

// itemsOf reads the parts of desc (split at commas too when commas is
// set); a part naming no type is an untyped integer when untyped is set,
// else the reading fails (nil).
func itemsOf(desc string, commas, untyped bool) []*Template {
	split := itemSplitRe
	if commas {
		split = itemCommaRe
	}
	var out []*Template
	for _, part := range split.Split(desc, -1) {
		part = strings.TrimSpace(part)
		if i := strings.Index(part, ","); i >= 0 {
			part = part[:i]
		}
		var rng *span
		if pm := parenRe.FindStringSubmatch(part); pm != nil {
			if s, _, ok := valueSpan(pm[1]); ok {
				rng = &s
			} else if c := bareSpanRe.FindStringSubmatch(pm[1]); c != nil {
				rng = &span{int64(atoi(c[1])), int64(atoi(c[2]))}
			}
			part = parenRe.ReplaceAllString(part, " ")
		}
		words := strings.Fields(strings.ToLower(part))
		if len(words) == 0 || qualifierRe.MatchString(part) {
			// "largest first", "in increasing order": a qualifier of the
			// part before, not a part.
			continue
		}
		count, listAt, countAt := 1, -1, -1
		for i, w := range words {
			if n, ok := numberWords[w]; ok && countAt < 0 && w != "single" {
				count, countAt = n, i
			}
			if (w == "list" || w == "lists" || w == "array" || w == "arrays") && listAt < 0 {
				listAt = i
			}
		}
		if countAt < 0 && len(words) == 1 && words[0] == "a" {
			continue
		}
		el := itemLeaf(words, rng)
		if el == nil {
			if !untyped {
				return nil
			}
			el = &Template{Kind: TkInt, names: normWords(words)}
		}
		sameLen := sameLenRe.MatchString(part)
		if listAt < 0 && countAt < 0 && el.typed && pluralHead(words) {
			// "the values of the notes": a plural with no count is a list.
			listAt = len(words)
		}
		if listAt >= 0 && !(countAt > listAt && count > 1) {
			// A list per count ("two integer lists"), unless the count
			// follows the list ("a list of four integers").
			ename := normWords(words)
			el.names = ename
			for range count {
				out = append(out, &Template{Kind: TkList, Elems: []*Template{cloneNode(el)}, sortKey: -2, names: ename, sameLenMember: sameLen && count > 1})
			}
			continue
		}
		for range count {
			c := cloneNode(el)
			c.sameLenMember = sameLen && count > 1
			out = append(out, c)
		}
	}
	return out
}

// stringWords name an argument that is text.
var stringWords = []string{"string", "strings", "word", "words", "text", "texts", "sentence", "sentences", "phrase", "phrases",
	"noun", "nouns", "name", "names", "message", "messages", "title", "titles", "identifier", "identifiers"}

// pluralWords are the type words of a part that, plural and uncounted,
// make it a list.
var pluralWords = []string{"integers", "ints", "numbers", "values", "strings", "words", "texts", "names", "digits", "bits"}

// pluralHead reports whether the first type word of a part is a plural
// ("the values of the notes", not "a number of coin tosses").
func pluralHead(words []string) bool {
	for _, w := range words {
		if slices.Contains(pluralWords, w) {
			return true
		}
		if slices.Contains(stringWords, w) || slices.Contains(intWords, w) {
			return false
		}
	}
	return false
}

// intWords name an argument that is an integer.
var intWords = []string{"integer", "integers", "int", "ints", "number", "numbers", "amount", "limit", "target", "base", "value", "values", "index", "count", "k", "n"}

// itemLeaf is the value an argument's words name: a string, a bit, a
// digit or an integer; nil when they name no type.
func itemLeaf(words []string, rng *span) *Template {
	has := func(ws ...string) bool {
		for _, w := range words {
			if slices.Contains(ws, w) {
				return true
			}
		}
		return false
	}
	n := &Template{Kind: TkInt, names: normWords(words), typed: true}
	switch {
	case has(stringWords...):
		n.Kind = TkStr
	case has("bit", "bits", "binary", "0/1"):
		n.lo, n.hi, n.ranged = 0, 1, true
	case has("digit", "digits") && !has("base"):
		n.lo, n.hi, n.ranged = 0, 9, true
	case has(intWords...):
	default:
		return nil
	}
	if rng != nil && n.Kind == TkInt {
		n.lo, n.hi, n.ranged = rng.lo, rng.hi, true
	}
	if n.Kind == TkInt && !n.ranged {
		switch {
		case has("non-negative", "nonnegative"):
			n.lo, n.hi, n.ranged = 0, defaultIntHi, true
		case has("positive"):
			n.lo, n.hi, n.ranged = 1, defaultIntHi, true
		}
	}
	return n
}

// cloneNode copies a template.
func cloneNode(n *Template) *Template {
	c := *n
	c.names = slices.Clone(n.names)
	c.exclude = slices.Clone(n.exclude)
	c.alphabet = slices.Clone(n.alphabet)
	c.Elems = nil
	for _, e := range n.Elems {
		c.Elems = append(c.Elems, cloneNode(e))
	}
	return &c
}
