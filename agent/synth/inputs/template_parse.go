package inputs

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// The parser of an input_type text into a Template.

// ttok is one token of an input_type text.
type ttok struct {
	kind byte // 'p' punctuation, 's' quoted string, 'n' number, 'w' word, 'e' ellipsis, 'r' range ("..")
	text string
}

func tokenize(s string) []ttok {
	var out []ttok
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case r == '"':
			j := i + 1
			for j < len(rs) && rs[j] != '"' {
				j++
			}
			out = append(out, ttok{'s', string(rs[i+1 : min(j, len(rs))])})
			i = j + 1
		case r == '…':
			out = append(out, ttok{'e', "..."})
			i++
		case r == '.' && i+2 < len(rs) && rs[i+1] == '.' && rs[i+2] == '.':
			out = append(out, ttok{'e', "..."})
			i += 3
		case r == '.' && i+1 < len(rs) && rs[i+1] == '.':
			out = append(out, ttok{'r', ".."})
			i += 2
		case strings.ContainsRune("[]{},:|()", r):
			out = append(out, ttok{'p', string(r)})
			i++
		case unicode.IsDigit(r) || (r == '-' && i+1 < len(rs) && unicode.IsDigit(rs[i+1])):
			j := i + 1
			for j < len(rs) && unicode.IsDigit(rs[j]) {
				j++
			}
			out = append(out, ttok{'n', string(rs[i:j])})
			i = j
		case unicode.IsLetter(r) || r == '_':
			j := i + 1
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || rs[j] == '_' || rs[j] == '-' || rs[j] == '\'') {
				j++
			}
			out = append(out, ttok{'w', string(rs[i:j])})
			i = j
		default:
			i++
		}
	}
	return out
}

// tparser reads a template from input_type tokens.
type tparser struct {
	toks []ttok
	pos  int
}

func (p *tparser) peek() ttok {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ttok{}
}

func (p *tparser) is(kind byte, text string) bool {
	t := p.peek()
	return t.kind == kind && (text == "" || strings.EqualFold(t.text, text))
}

func startsElem(t ttok) bool {
	return (t.kind == 'p' && (t.text == "[" || t.text == "{")) || t.kind == 's'
}

// elem parses one element: a bracketed tuple or list, an object, a literal
// or a placeholder.
func (p *tparser) elem() *Template {
	t := p.peek()
	switch {
	case t.kind == 'p' && t.text == "[":
		p.pos++
		var items []*Template
		ellipsis := false
		for p.pos < len(p.toks) && !p.is('p', "]") {
			switch {
			case p.is('p', ","):
				p.pos++
			case p.is('e', ""):
				ellipsis = true
				p.pos++
			default:
				start := p.pos
				if it := p.item(); it != nil {
					items = append(items, it)
				}
				if p.pos == start {
					p.pos++
				}
			}
		}
		p.pos++ // "]"
		if ellipsis && len(items) > 0 {
			return &Template{Kind: TkList, Elems: items[:1], sortKey: -2}
		}
		return &Template{Kind: TkTuple, Elems: items}
	case t.kind == 'p' && t.text == "{":
		p.pos++
		obj := &Template{Kind: tkObject}
		for p.pos < len(p.toks) && !p.is('p', "}") {
			k := p.peek()
			if (k.kind == 's' || k.kind == 'w') && p.pos+1 < len(p.toks) && p.toks[p.pos+1].kind == 'p' && p.toks[p.pos+1].text == ":" {
				p.pos += 2
				v := p.item()
				if v == nil {
					return nil
				}
				obj.keys = append(obj.keys, k.text)
				obj.Elems = append(obj.Elems, v)
				continue
			}
			p.pos++
		}
		p.pos++ // "}"
		return obj
	case t.kind == 's':
		p.pos++
		if p.is('r', "") && p.pos+1 < len(p.toks) && p.toks[p.pos+1].kind == 's' {
			end := p.toks[p.pos+1].text
			p.pos += 2
			a, b := []rune(t.text), []rune(end)
			if len(a) == 1 && len(b) == 1 && a[0] <= b[0] && b[0]-a[0] < 64 {
				alt := &Template{Kind: tkAlt}
				for r := a[0]; r <= b[0]; r++ {
					alt.Elems = append(alt.Elems, &Template{Kind: tkLit, lit: string(r)})
				}
				return alt
			}
		}
		return &Template{Kind: tkLit, lit: t.text}
	case t.kind == 'n':
		p.pos++
		n, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			return nil
		}
		return &Template{Kind: tkLit, lit: n}
	case t.kind == 'w':
		var words []string
		for p.is('w', "") && !p.is('w', "or") && !p.is('w', "and") {
			words = append(words, p.peek().text)
			p.pos++
		}
		if len(words) == 0 {
			return nil
		}
		return placeholder(words)
	}
	return nil
}

// placeholder is a named leaf; names that say text are strings.
func placeholder(words []string) *Template {
	n := &Template{Kind: TkInt, names: nameWords(words)}
	for _, w := range n.names {
		switch w {
		case "text", "string", "word", "name", "label", "letter", "char", "character", "sentence", "phrase", "noun", "message":
			n.Kind, n.typed = TkStr, true
		}
	}
	return n
}

// item parses an element followed by "or" / "|" alternatives.
func (p *tparser) item() *Template {
	first := p.elem()
	if first == nil {
		return nil
	}
	alts := []*Template{first}
	for p.is('p', "|") || p.is('w', "or") {
		p.pos++
		e := p.elem()
		if e == nil {
			break
		}
		alts = append(alts, e)
	}
	return altOf(alts)
}

func altOf(alts []*Template) *Template {
	var flat []*Template
	for _, a := range alts {
		if a.Kind == tkAlt {
			flat = append(flat, a.Elems...)
		} else {
			flat = append(flat, a)
		}
	}
	if len(flat) == 1 {
		return flat[0]
	}
	return &Template{Kind: tkAlt, Elems: flat}
}

// alternatives parses "A, B or C" where each is an element; it stops at the
// first text that does not lead to another element.
func (p *tparser) alternatives() *Template {
	var alts []*Template
	for {
		if !startsElem(p.peek()) {
			break
		}
		e := p.item()
		if e == nil {
			break
		}
		alts = append(alts, e)
		// Skip separators and connecting words up to the next element.
		j := p.pos
		for j < len(p.toks) && (p.toks[j].kind == 'w' || (p.toks[j].kind == 'p' && (p.toks[j].text == "," || p.toks[j].text == "|"))) {
			j++
		}
		if j >= len(p.toks) || !startsElem(p.toks[j]) {
			break
		}
		p.pos = j
	}
	if len(alts) == 0 {
		return nil
	}
	return altOf(alts)
}

// parseTemplate reads the structure of an input from input_type. It
// returns nil when the text shows no structure.
func parseTemplate(inputType string) *Template {
	if args := argsTemplate(inputType); args != nil {
		return args
	}
	toks := tokenize(inputType)
	var label []string
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == 'w' && strings.EqualFold(t.text, "list") && i+1 < len(toks) && strings.EqualFold(toks[i+1].text, "of") {
			p := &tparser{toks: toks, pos: i + 2}
			var noun []string
			for p.is('w', "") {
				noun = append(noun, p.peek().text)
				p.pos++
			}
			for p.pos < len(toks) && !startsElem(p.peek()) && (p.peek().kind == 'w' || p.is('p', ",") || p.is('p', ":")) {
				p.pos++
			}
			var el *Template
			if startsElem(p.peek()) {
				el = p.alternatives()
			}
			if el == nil {
				el = elemFromWords(noun)
			}
			return &Template{Kind: TkList, Elems: []*Template{el}, names: normWords(append(label, noun...)), sortKey: -2}
		}
		if t.kind == 'p' && (t.text == "[" || t.text == "{") {
			p := &tparser{toks: toks, pos: i}
			n := p.elem()
			if n != nil {
				n.names = append(n.names, normWords(label)...)
			}
			return n
		}
		if t.kind == 'w' {
			label = append(label, t.text)
		}
	}
	return nil
}

// elemFromWords is the element of "list of integers", "list of words".
func elemFromWords(noun []string) *Template {
	ws := normWords(noun)
	for _, w := range ws {
		switch w {
		case "string", "word", "name", "text":
			return &Template{Kind: TkStr, names: ws}
		case "pair", "point":
			return &Template{Kind: TkTuple, Elems: []*Template{{Kind: TkInt, names: ws}, {Kind: TkInt, names: ws}}}
		}
	}
	return &Template{Kind: TkInt, names: ws}
}

var stopWords = map[string]bool{"a": true, "an": true, "the": true, "of": true, "and": true, "or": true,
	"each": true, "every": true, "integer": true, "number": true, "in": true, "between": true, "to": true,
	"from": true, "with": true, "list": true, "all": true, "any": true, "must": true, "be": true, "is": true,
	"are": true, "object": true, "given": true, "by": true, "at": true, "most": true, "up": true, "exactly": true}

// normWords lower-cases words and drops plural endings and stop words.
func normWords(words []string) []string {
	var out []string
	for _, w := range words {
		for _, part := range strings.FieldsFunc(strings.ToLower(w), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if stopWords[part] {
				continue
			}
			out = append(out, stem(part))
		}
	}
	return out
}

// nameWords is normWords keeping a lone single letter ("a" in "[a, b]",
// "a is not 0"), which names a part rather than being an article.
func nameWords(words []string) []string {
	if len(words) == 1 && len([]rune(words[0])) == 1 {
		return []string{strings.ToLower(words[0])}
	}
	return normWords(words)
}

func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

func overlap(a, b []string) int {
	n := 0
	for _, x := range a {
		if slices.Contains(b, x) {
			n++
		}
	}
	return n
}
