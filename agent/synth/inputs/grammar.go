package inputs

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Strings with a grammar of characters, read from a string's constraints:
// items joined by separators ("numbers of 1 to 3 digits joined by + and
// -, no spaces") and segments in order ("exactly 10 characters: nine
// digits, then a digit or X"). A random string over the characters they
// name seldom has the shape, and the hidden program refuses it.

var (
	// joinedRe is "ITEMS joined by SEPARATORS": the items (a noun that
	// names characters, with its counts), the separators after "by".
	joinedRe = regexp.MustCompile(`(?i)\b((?:[a-z-]+\s+)?(?:numbers?|integers?|words?|terms?|groups?|blocks?|digits?|letters?|codes?)(?:\s+of\s+[^,;:]*?)?)\s+(?:joined|separated|connected|linked)\s+by\s+([^;]+)`)
	// thenRe separates the segments of a sequence.
	thenRe = regexp.MustCompile(`(?i)\s*,?\s*(?:and\s+)?then\s+|\s*,?\s+followed\s+by\s+`)
	// segmentRe is one segment: its count ("nine", "a", "2 to 4") and
	// what its characters are.
	segmentRe = regexp.MustCompile(`(?i)^(?:(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|single)(?:\s+to\s+(\d+))?\s+)?(.+)$`)
	// separatorWords are separators written as words.
	separatorWords = map[string]rune{"space": ' ', "spaces": ' ', "comma": ',', "commas": ',', "dash": '-', "dashes": '-',
		"hyphen": '-', "hyphens": '-', "dot": '.', "dots": '.', "period": '.', "periods": '.', "slash": '/', "slashes": '/',
		"colon": ':', "colons": ':', "semicolon": ';', "semicolons": ';', "underscore": '_', "underscores": '_', "plus": '+'}
)

// grammarTemplate reads a string of joined items or of segments in order
// from its constraints, or nil.
func grammarTemplate(constraints string) *Template {
	total := &Template{minLen: 0, maxLen: 20}
	for _, c := range countsIn(constraints) {
		if slices.Contains(charNouns, c.noun) {
			total.minLen, total.maxLen = int(c.n.lo), int(c.n.hi)
			break
		}
	}
	if m := joinedRe.FindStringSubmatch(constraints); m != nil {
		if n := joinedTemplate(m[1], m[2], total); n != nil {
			return n
		}
	}
	for _, clause := range strings.Split(constraints, ";") {
		if i := strings.Index(clause, ":"); i >= 0 {
			clause = clause[i+1:]
		}
		if n := sequenceTemplate(clause); n != nil {
			return n
		}
	}
	return nil
}

// joinedTemplate is items of the item phrase ("numbers of 1 to 3 digits")
// joined by the separators of the separator phrase ("+, - and *, no
// spaces": the phrase ends at a comma before a word).
func joinedTemplate(item, seps string, total *Template) *Template {
	var sepSet []rune
	for i, chunk := range strings.Split(seps, ",") {
		chunk = strings.TrimSpace(chunk)
		if i > 0 && (chunk == "" || unicode.IsLetter([]rune(chunk)[0]) && !strings.HasPrefix(strings.ToLower(chunk), "and ") && !strings.HasPrefix(strings.ToLower(chunk), "or ")) {
			break
		}
		for _, w := range strings.Fields(chunk) {
			if r, ok := separatorWords[strings.ToLower(w)]; ok && !slices.Contains(sepSet, r) {
				sepSet = append(sepSet, r)
				continue
			}
			for _, r := range w {
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsSpace(r) && !slices.Contains(sepSet, r) {
					sepSet = append(sepSet, r)
				}
			}
		}
	}
	low := strings.ToLower(item)
	el := &Template{Kind: TkStr, minLen: 1, maxLen: 3, counted: true}
	switch {
	case strings.Contains(low, "number") || strings.Contains(low, "integer") || strings.Contains(low, "digit"):
		el.alphabet = []rune("0123456789")
	default:
		el.alphabet = alphabetFrom(item)
		if len(el.alphabet) == 0 {
			el.alphabet = []rune(letters)
		}
		el.maxLen = 6
	}
	if cs := countsIn(item); len(cs) > 0 {
		el.minLen, el.maxLen = max(int(cs[0].n.lo), 1), int(cs[0].n.hi)
	}
	el.alphabet = slices.DeleteFunc(el.alphabet, func(r rune) bool { return slices.Contains(sepSet, r) })
	if len(sepSet) == 0 || len(el.alphabet) == 0 || el.maxLen < el.minLen {
		return nil
	}
	sep := &Template{Kind: TkStr, minLen: 1, maxLen: 1, alphabet: sepSet, counted: true}
	return &Template{Kind: tkJoined, Elems: []*Template{el, sep}, minLen: max(total.minLen, el.minLen), maxLen: max(total.maxLen, el.minLen)}
}

// sequenceTemplate is segments in order ("nine digits, then a digit or
// X"), or nil when the clause names fewer than two or a segment names no
// characters.
func sequenceTemplate(clause string) *Template {
	parts := thenRe.Split(strings.TrimSpace(clause), -1)
	if len(parts) < 2 {
		return nil
	}
	n := &Template{Kind: tkSeq}
	for _, p := range parts {
		p = strings.TrimSpace(strings.TrimRight(p, ".,"))
		m := segmentRe.FindStringSubmatch(p)
		if m == nil {
			return nil
		}
		lo, hi := 1, 1
		if c, ok := segmentCount(m[1]); ok {
			lo, hi = c, c
		}
		if m[2] != "" {
			hi = atoi(m[2])
		}
		al := alphabetFrom(m[3])
		if len(al) == 0 || hi < lo || hi > 100 {
			return nil
		}
		n.Elems = append(n.Elems, &Template{Kind: TkStr, minLen: lo, maxLen: hi, alphabet: al, counted: true})
		n.minLen += lo
		n.maxLen += hi
	}
	return n
}

// segmentCount is countOf reading "a" and "an" as one too.
func segmentCount(w string) (int, bool) {
	switch strings.ToLower(w) {
	case "a", "an":
		return 1, true
	}
	return countOf(w)
}

// drawGrammar draws a string of joined items or of segments (a few tries
// for one within the total length).
func (g *TemplateGenerator) drawGrammar(n *Template) string {
	s := g.grammarOnce(n)
	for tries := 0; tries < 20 && !n.matchesGrammar(s); tries++ {
		s = g.grammarOnce(n)
	}
	return s
}

func (g *TemplateGenerator) grammarOnce(n *Template) string {
	var sb strings.Builder
	switch n.Kind {
	case tkSeq:
		for _, e := range n.Elems {
			sb.WriteString(g.Draw(e).(string))
		}
	case tkJoined:
		item, sep := n.Elems[0], n.Elems[1]
		target := max(g.length(n.minLen, n.maxLen), item.minLen)
		sb.WriteString(g.Draw(item).(string))
		for sb.Len()+1+item.minLen <= target {
			s := g.Draw(item).(string)
			if room := target - sb.Len() - 1; len(s) > room {
				s = s[:room]
			}
			sb.WriteString(g.Draw(sep).(string))
			sb.WriteString(s)
		}
	}
	return sb.String()
}

// matchesGrammar reports whether a string has the shape of a joined or
// sequence template.
func (n *Template) matchesGrammar(s string) bool {
	rs := []rune(s)
	in := func(e *Template, r rune) bool { return slices.Contains(e.alphabet, r) }
	switch n.Kind {
	case tkSeq:
		// ok[i]: the first i characters can be the segments so far.
		ok := make([]bool, len(rs)+1)
		ok[0] = true
		for _, e := range n.Elems {
			next := make([]bool, len(rs)+1)
			for i := range ok {
				if !ok[i] {
					continue
				}
				for k := 0; k <= e.maxLen && i+k <= len(rs); k++ {
					if k > 0 && !in(e, rs[i+k-1]) {
						break
					}
					if k >= e.minLen {
						next[i+k] = true
					}
				}
			}
			ok = next
		}
		return ok[len(rs)]
	case tkJoined:
		if len(rs) < n.minLen || len(rs) > n.maxLen {
			return false
		}
		item, sep := n.Elems[0], n.Elems[1]
		run := 0
		for _, r := range rs {
			switch {
			case in(sep, r):
				if run < item.minLen || run > item.maxLen {
					return false
				}
				run = 0
			case in(item, r):
				run++
			default:
				return false
			}
		}
		return run >= item.minLen && run <= item.maxLen
	}
	return true
}
