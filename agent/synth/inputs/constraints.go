package inputs

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/reconstruct/reconstruct/task"
)

// The phrases of a task's description that bound its inputs, read by one
// parser: character sets ("a-z", "from [a-z]", "lowercase letters",
// "printable characters", "digits, _ and space"), counts ("0 to 12
// integers", "exactly 3 points", "a list of four integers", "up to 16
// bits"), ranges ("between -20 and 20", "from -20 to 20", "-9..9", "in
// [-10, 10]", "0 or 1") and typed items ("an integer list and an integer",
// "two strings", "two lists of the same length"). template.go
// builds the template of inputs from them.

// numberWords are the counts written as words.
var numberWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "single": 1, "both": 2, "pair": 2}

// countOf reads a count written as digits or as a word; ok is false for
// anything else.
func countOf(w string) (int, bool) {
	if n, err := strconv.Atoi(w); err == nil && n >= 0 {
		return n, true
	}
	n, ok := numberWords[strings.ToLower(w)]
	return n, ok
}

var (
	// charRangeRe is a range of characters: "a-z", "[a-c]", "A-Z", "0-9".
	charRangeRe = regexp.MustCompile(`\[?\b([a-zA-Z0-9])\s?-\s?([a-zA-Z0-9])\b\]?`)
	// quotedCharRe is one quoted character: "+", '*'.
	quotedCharRe = regexp.MustCompile(`["']([^"'\w\s])["']`)
	// lowerWordsRe and upperWordsRe are words or text of one case
	// ("lowercase words separated by single spaces"): letters of that case.
	lowerWordsRe = regexp.MustCompile(`\blower[- ]?case\s+(?:words?|text|strings?|sentences?)\b`)
	upperWordsRe = regexp.MustCompile(`\bupper[- ]?case\s+(?:words?|text|strings?|sentences?)\b`)
)

// printable is the printable ASCII characters, space included.
func printable() string {
	var sb strings.Builder
	for r := ' '; r <= '~'; r++ {
		sb.WriteRune(r)
	}
	return sb.String()
}

// alphabetFrom reads the characters a string may hold from a constraint
// text ("lowercase letters and space", "each F, L or R", "brackets
// ()[]{}", "from a-z", "printable ASCII characters"); nil when the text
// names none.
func alphabetFrom(text string) []rune {
	var out []rune
	add := func(s string) {
		for _, r := range s {
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	text = negationRe.ReplaceAllString(text, " ")
	ranged := false
	for _, m := range charRangeRe.FindAllStringSubmatch(text, -1) {
		a, b := rune(m[1][0]), rune(m[2][0])
		if a > b || unicode.IsDigit(a) != unicode.IsDigit(b) {
			continue
		}
		for r := a; r <= b; r++ {
			add(string(r))
		}
		ranged = true
	}
	rest := charRangeRe.ReplaceAllString(text, " ")
	low := strings.ToLower(rest)
	switch {
	case strings.Contains(low, "printable"):
		add(printable())
	case strings.Contains(low, "lowercase letter"), strings.Contains(low, "lower-case letter"), strings.Contains(low, "lower case letter"),
		lowerWordsRe.MatchString(low):
		add(letters)
	case strings.Contains(low, "uppercase letter"), strings.Contains(low, "upper-case letter"), strings.Contains(low, "upper case letter"),
		upperWordsRe.MatchString(low):
		add(strings.ToUpper(letters))
	case strings.Contains(low, "letter") && !ranged:
		add(letters + strings.ToUpper(letters))
	}
	if strings.Contains(low, "upper case") && !strings.Contains(low, "letter") && len(out) == 0 {
		add(strings.ToUpper(letters))
	}
	if strings.Contains(low, "digit") && !ranged {
		add("0123456789")
	}
	if strings.Contains(low, "space") {
		add(" ")
	}
	if strings.Contains(low, "underscore") {
		add("_")
	}
	if strings.Contains(low, "each") || strings.Contains(low, " or ") {
		for _, m := range singleRe.FindAllString(rest, -1) {
			add(m)
		}
	}
	for _, m := range quotedCharRe.FindAllStringSubmatch(rest, -1) {
		add(m[1])
	}
	// Symbols written out: a word of punctuation only ("()[]{}", ".,!?-'",
	// "+"), a separator after it not counted.
	for _, w := range strings.Fields(rest) {
		if len(w) > 1 {
			w = strings.TrimRight(w, ",;:")
		}
		if w == "" || strings.ContainsFunc(w, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '"' }) {
			continue
		}
		add(w)
	}
	return out
}

// span is a closed range of counts or values.
type span struct{ lo, hi int64 }

var (
	countSpanRe  = regexp.MustCompile(`(?i)(?:\b(?:from\s+)?(\d+)\s+to\s+(\d+)|\bat\s+most\s+(\d+)|\bup\s+to\s+(\d+)|\bexactly\s+(\d+|[a-z]+)|\b(one|two|three|four|five|six|seven|eight|nine|ten)\b)((?:\s+[a-z][a-z/-]*){1,3})`)
	valueSpanRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\bbetween\s+(-?\d+)\s+and\s+(-?\d+)`),
		regexp.MustCompile(`(?i)\bfrom\s+(-?\d+)\s+to\s+(-?\d+)`),
		regexp.MustCompile(`(-?\d+)\s*\.\.\s*(-?\d+)`),
		regexp.MustCompile(`(?i)\bin\s+\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]`),
		regexp.MustCompile(`(?i)\b(?:values?|each|coordinates?|members?)\s+(-?\d+)\s+to\s+(-?\d+)`),
		regexp.MustCompile(`(?i)^\s*(-?\d+)\s+to\s+(-?\d+)\s*$`),
	}
	bitsRe = regexp.MustCompile(`(?i)\b(?:0\s+or\s+1|0/1|bits?|binary)\b`)
)

// countNouns are the nouns a count is usually of.
var countNouns = []string{"integer", "number", "element", "item", "value", "digit", "bit", "character", "char",
	"letter", "token", "point", "pair", "string", "word", "record", "event", "operation", "transaction",
	"instruction", "customer", "request", "row", "cell", "round", "position", "entry", "entrie", "vertice", "vertex", "float", "score"}

// countPhrase is "0 to 12 integers": the span of a count and the noun
// counted, with the words before it.
type countPhrase struct {
	n      span
	noun   string   // singular: "integer", "character"
	before []string // up to three words before the count
	adj    []string // the words between the count and its noun ("note" in "1 to 6 note values")
	words  []string // the words after the count ("note values between", "item prices between")
	at     [2]int   // where its numbers are in the text
}

// countsIn reads every count phrase of a text.
func countsIn(text string) []countPhrase {
	var out []countPhrase
	for _, m := range countSpanRe.FindAllStringSubmatchIndex(text, -1) {
		g := func(i int) string {
			if m[2*i] < 0 {
				return ""
			}
			return text[m[2*i]:m[2*i+1]]
		}
		var n span
		switch {
		case g(1) != "":
			n = span{int64(atoi(g(1))), int64(atoi(g(2)))}
		case g(3) != "":
			n = span{0, int64(atoi(g(3)))}
		case g(4) != "":
			n = span{0, int64(atoi(g(4)))}
		case g(5) != "":
			c, ok := countOf(g(5))
			if !ok {
				continue
			}
			n = span{int64(c), int64(c)}
		default:
			c, _ := countOf(g(6))
			n = span{int64(c), int64(c)}
		}
		if n.lo > n.hi || n.hi > 1000 {
			continue
		}
		if b := lastWords(text[:m[0]], 1); len(b) == 1 && (strings.EqualFold(b[0], "least") || strings.EqualFold(b[0], "after")) {
			// "after at least two kept scores" is a condition, not a count.
			continue
		}
		words := strings.Fields(strings.ToLower(g(7)))
		noun := ""
		var adj []string
		for i, w := range words {
			if w = stem(w); slices.Contains(countNouns, w) {
				noun, adj = w, words[:i]
				break
			}
		}
		if noun == "" {
			if g(6) != "" || g(5) != "" && !unicode.IsDigit(rune(g(5)[0])) || stopWords[words[0]] {
				// "two integers" counts, "one of" does not.
				continue
			}
			noun = stem(words[0])
		}
		out = append(out, countPhrase{n: n, noun: noun, before: lastWords(text[:m[0]], 3), adj: adj, words: words, at: [2]int{m[0], m[14]}})
	}
	return out
}

// valueSpan reads the first range of values a text states ("between -20
// and 20", "from 0 to 9", "-9..9", "in [-10, 10]", "values -5 to 5"),
// skipping the parts of the text in skip (count phrases).
func valueSpan(text string) (span, [2]int, bool) {
	best, at, found := span{}, [2]int{}, false
	counts := countsIn(text)
	inCount := func(m []int) bool {
		return slices.ContainsFunc(counts, func(c countPhrase) bool { return m[0] < c.at[1] && c.at[0] < m[1] })
	}
	for _, re := range valueSpanRes {
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			if inCount(m) {
				continue
			}
			lo, _ := strconv.ParseInt(text[m[2]:m[3]], 10, 64)
			hi, _ := strconv.ParseInt(text[m[4]:m[5]], 10, 64)
			if lo > hi {
				continue
			}
			if !found || m[0] < at[0] {
				best, at, found = span{lo, hi}, [2]int{m[0], m[1]}, true
			}
			break
		}
	}
	if !found && bitsRe.MatchString(text) {
		return span{0, 1}, [2]int{}, true
	}
	return best, at, found
}

var (
	atMostRe = regexp.MustCompile(`(?i)(?:at most|up to)\s+(\d+)`)
	singleRe = regexp.MustCompile(`\b[A-Z]\b`)
	// bareSpanRe is a count whose noun is left out: "0 to 10 each".
	bareSpanRe = regexp.MustCompile(`(?:^|[^-\d])(\d+)\s+to\s+(\d+)`)
)

// LengthsFrom reads a length range ("0 to 12 integers", "exactly 2
// points", "a list of four integers", "at most 24 characters") from a
// constraint text or a rejection message: its first count phrase.
func LengthsFrom(text string) (lo, hi int, ok bool) {
	if cs := countsIn(text); len(cs) > 0 {
		return int(cs[0].n.lo), int(cs[0].n.hi), true
	}
	if m := bareSpanRe.FindStringSubmatch(text); m != nil {
		a, c := atoi(m[1]), atoi(m[2])
		return a, c, a <= c && c <= 1000
	}
	return 0, 0, false
}

var (
	// NamesTupleRe is a bracketed list of argument names: "[xs, k]",
	// "[numbers, target]", "[a, b, c]".
	NamesTupleRe    = regexp.MustCompile(`\[\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)+)\s*\]`)
	digitNumbersRe  = regexp.MustCompile(`(?i)\bnumbers?\b.*\blists? of (?:decimal )?digits\b|\bnumbers?\b.*\bbit lists\b`)
	msdFirstRe      = regexp.MustCompile(`(?i)\bmost significant(?: digit| bit)? first\b`)
	firstAtLeastRe  = regexp.MustCompile(`(?i)\bfirst\b.*\bat least\b.*\bsecond\b`)
	noLeadingZeroRe = regexp.MustCompile(`(?i)\bno leading zeros?\b`)
	romanRe         = regexp.MustCompile(`(?i)\broman numerals?\b`)
	singleSpacesRe  = regexp.MustCompile(`(?i)\bsingle spaces?\b`)
	sameLenRe       = regexp.MustCompile(`(?i)\b(?:same|equal)\s+lengths?\b`)
	parenRe         = regexp.MustCompile(`\(([^()]*)\)`)
)

// belowRe is a bound by another part: "every digit below the base".
var belowRe = regexp.MustCompile(`(?i)\b([a-z]+)\s+(?:is\s+|are\s+)?(?:below|less than|smaller than)\s+the\s+([a-z]+)`)

// namedSpanRe is a count whose noun is the one before it: "pattern 0 to
// 5" after "text has 0 to 30 characters".
var namedSpanRe = regexp.MustCompile(`(?i)\b([a-z_]\w*)\s+(?:has\s+|holds\s+)?(\d+)\s+to\s+(\d+)\s*$`)

// charNouns are the nouns that count a string's characters.
var charNouns = []string{"character", "char", "letter"}

// listNouns are the nouns that count a list's elements.
var listNouns = []string{"integer", "number", "element", "item", "value", "digit", "bit", "float", "entry", "token"}

// applyCounts gives the strings and lists a clause names the lengths it
// states ("s 0 to 24 letters and pattern 1 to 4 letters", "each string 0
// to 49 printable characters", "0 to 12 numbers"); a count naming no part
// goes to the parts of its sort not counted yet. It returns the strings
// whose characters it counted.
func applyCounts(sub string, strs, lists []*Template) []*Template {
	var counted []*Template
	cs := countsIn(sub)
	if m := namedSpanRe.FindStringSubmatchIndex(sub); m != nil && len(cs) > 0 && (m[0] >= cs[len(cs)-1].at[1]) {
		cs = append(cs, countPhrase{n: span{int64(atoi(sub[m[4]:m[5]])), int64(atoi(sub[m[6]:m[7]]))},
			noun: cs[len(cs)-1].noun, before: []string{sub[m[2]:m[3]]}, at: [2]int{m[0], m[1]}})
	}
	for _, c := range cs {
		lo, hi := int(c.n.lo), int(c.n.hi)
		if slices.Contains(charNouns, c.noun) {
			hit := bestMatches(strs, normWords(append(c.before, c.adj...)))
			if len(hit) == 0 {
				hit = uncounted(strs)
			}
			for _, h := range hit {
				h.minLen, h.maxLen, h.counted = lo, hi, true
			}
			counted = append(counted, hit...)
			continue
		}
		hit := bestMatches(lists, normWords(append(append([]string{c.noun}, c.before...), c.adj...)))
		if len(hit) == 0 {
			// "0 to 12 numbers", "1 to 8 digits each": the lists not
			// counted yet.
			hit = uncounted(lists)
		}
		for _, h := range hit {
			h.minLen, h.maxLen, h.counted = lo, hi, true
		}
	}
	return counted
}

// isCountOnly reports whether a clause states a count and nothing of
// characters beyond its noun ("0 to 12 letters").
func isCountOnly(sub string) bool {
	cs := countsIn(sub)
	return len(cs) == 1 && !charRangeRe.MatchString(sub) && !strings.Contains(strings.ToLower(sub), "from") &&
		!slices.Contains(charNouns, cs[0].noun)
}

func uncounted(ns []*Template) []*Template {
	var out []*Template
	for _, n := range ns {
		if !n.counted {
			out = append(out, n)
		}
	}
	return out
}

// listsFromCounts turns an argument named as a number into a list when a
// clause counts its elements: "numbers: 0 to 12 integers", "xs has 0 to
// 10 integers".
func listsFromCounts(root *Template, text string) {
	if root.Kind != TkTuple {
		return
	}
	for _, c := range countsIn(text) {
		// A count of numbers ("0 to 12 integers") or of what names an
		// argument of no stated type ("1 to 5 parcel weights").
		listNoun := slices.Contains(listNouns, c.noun)
		if !listNoun && slices.Contains(charNouns, c.noun) {
			continue
		}
		var ints []*Template
		for _, e := range root.Elems {
			if e.Kind == TkInt && (listNoun || !e.typed) {
				ints = append(ints, e)
			}
		}
		// The words of the count name the part, but for the nouns that
		// count anything ("item" in "2 to 8 item prices").
		words := slices.DeleteFunc(normWords(c.words), func(w string) bool { return slices.Contains(countNouns, w) })
		for _, h := range bestMatches(ints, append(normWords(c.before), words...)) {
			el := &Template{Kind: TkInt, names: append(slices.Clone(h.names), c.noun)}
			*h = Template{Kind: TkList, names: h.names, Elems: []*Template{el}, sortKey: -2}
		}
	}
}

var (
	wellFormedRe = regexp.MustCompile(`(?i)\bwell-formed\b`)
	codeRe       = regexp.MustCompile(`\b(\d{2,3})\b`)
	quotedOpRe   = regexp.MustCompile(`"([^"]+)"(\s*\((one|two|three)\s+operands?\))?`)
	operatorsRe  = regexp.MustCompile(`(?i)\boperators?\b(.*)$`)
)

// postfixTemplate reads a postfix expression as a list of tokens: its
// operands (digits, a range of integers, letters) and its operators
// (codes above the digits, quoted words with their operand counts,
// symbols), or nil when the description is of no postfix expression or
// its tokens are quoted strings (the template parser reads those).
func postfixTemplate(t task.Task) *Template {
	text := t.InputType + "; " + t.InputConstraints
	if !postfixRe.MatchString(text) && !(wellFormedRe.MatchString(text) && strings.Contains(strings.ToLower(text), "operator")) {
		return nil
	}
	if strings.Contains(t.InputType, `".."`) {
		return nil
	}
	typ := t.InputType
	low := strings.ToLower(typ)
	var operand *Template
	numeric := t.Kind == task.KindList || strings.Contains(low, "number") || strings.Contains(low, "integer")
	if al := letterRanges(typ); len(al) > 0 && !numeric {
		operand = &Template{Kind: TkStr, minLen: 1, maxLen: 1, alphabet: al, counted: true}
	} else if numeric {
		operand = &Template{Kind: TkInt, lo: 0, hi: 9, ranged: true}
		if s, _, ok := valueSpan(typ); ok && s.hi-s.lo > 1 {
			operand.lo, operand.hi = s.lo, s.hi
		}
	} else {
		return nil
	}
	var ops []*Template
	if t.Kind == task.KindList {
		for _, m := range codeRe.FindAllStringSubmatch(typ, -1) {
			c, _ := strconv.ParseInt(m[1], 10, 64)
			if c > operand.hi && !slices.ContainsFunc(ops, func(o *Template) bool { return o.lit == c }) {
				ops = append(ops, &Template{Kind: tkLit, lit: c})
			}
		}
	} else {
		for _, m := range quotedOpRe.FindAllStringSubmatch(typ, -1) {
			op := &Template{Kind: tkLit, lit: m[1]}
			if n, ok := numberWords[m[3]]; ok {
				op.arity = n
			}
			ops = append(ops, op)
		}
		if m := operatorsRe.FindStringSubmatch(typ); m != nil && len(ops) == 0 {
			for _, w := range strings.Fields(m[1]) {
				if r := []rune(w); len(r) == 1 && (unicode.IsPunct(r[0]) || unicode.IsSymbol(r[0])) {
					ops = append(ops, &Template{Kind: tkLit, lit: w})
				}
			}
		}
	}
	if len(ops) == 0 {
		return nil
	}
	n := &Template{Kind: tkRPN, Elems: append([]*Template{operand}, ops...), nOperands: 1, minLen: 1, maxLen: 9}
	if lo, hi, ok := LengthsFrom(t.InputConstraints); ok {
		n.minLen, n.maxLen, n.counted = lo, hi, true
	}
	return n
}

// letterRanges is the letters of the ranges of a text ("letters a-z").
func letterRanges(text string) []rune {
	var out []rune
	for _, m := range charRangeRe.FindAllStringSubmatch(text, -1) {
		a, b := rune(m[1][0]), rune(m[2][0])
		if unicode.IsLetter(a) && unicode.IsLetter(b) && a <= b {
			for r := a; r <= b; r++ {
				out = append(out, r)
			}
		}
	}
	return out
}
