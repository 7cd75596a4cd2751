// Package jsonparse parses one JSON document in a single pass into the
// trees internal/canonjson writes: nil, bool, string, json.Number (numbers
// keep their spelling), []any and map[string]any. The bank (whose trees are
// stored and hashed) and the task package (whose trees are compared) both
// read JSON this way but differ in what they make of a few inputs — a
// repeated key, a lone UTF-16 surrogate, bytes that are not UTF-8 — which
// Options says; the rest of the grammar is encoding/json's, error messages
// included.
package jsonparse

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Options say how a document is read where readers differ.
type Options struct {
	// MaxDepth bounds the nesting: a value inside more than MaxDepth arrays
	// and objects is an error.
	MaxDepth int
	// LastKeyWins keeps the last value of a key repeated in an object, as
	// encoding/json and Python's json do; otherwise a repeated key is an
	// error.
	LastKeyWins bool
	// KeepSurrogates keeps a lone surrogate escape ("\ud800", which
	// Python's json writes for a string holding one) as that code point, in
	// its generalised UTF-8 form (WTF-8, see AppendSurrogate); otherwise it
	// becomes U+FFFD, as encoding/json makes it.
	KeepSurrogates bool
	// StrictUTF8 refuses a string holding bytes that are not UTF-8;
	// otherwise each becomes U+FFFD, as encoding/json makes them.
	StrictUTF8 bool
}

// Parse parses data, one JSON document, and refuses anything after it.
func Parse(data []byte, o Options) (any, error) {
	p := &parser{s: string(data), o: o}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i < len(p.s) {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// parser reads one JSON document from s; i is the next byte.
type parser struct {
	s string
	i int
	o Options
}

func (p *parser) skipSpace() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) errorf(context string) error {
	if p.i >= len(p.s) {
		return errors.New("unexpected end of JSON input")
	}
	return fmt.Errorf("invalid character %s %s (offset %d)", quoteChar(p.s[p.i]), context, p.i)
}

func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// eat moves past the next byte if it is c, and reports whether it was.
func (p *parser) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// more moves past what follows an element of an array or object: white
// space, then a comma and the white space after it (more is true) or the
// closing byte end (false). Anything else is an error, context saying
// where.
func (p *parser) more(end byte, context string) (bool, error) {
	p.skipSpace()
	switch {
	case p.eat(','):
		p.skipSpace()
		return true, nil
	case p.eat(end):
		return false, nil
	}
	return false, p.errorf(context)
}

func (p *parser) value(depth int) (any, error) {
	if depth > p.o.MaxDepth {
		return nil, fmt.Errorf("JSON nested deeper than %d levels", p.o.MaxDepth)
	}
	if p.i >= len(p.s) {
		return nil, errors.New("unexpected end of JSON input")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		p.i++
		m := map[string]any{}
		p.skipSpace()
		if p.eat('}') {
			return m, nil
		}
		for {
			if p.i >= len(p.s) || p.s[p.i] != '"' {
				return nil, p.errorf("looking for beginning of object key string")
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.skipSpace()
			if !p.eat(':') {
				return nil, p.errorf("after object key")
			}
			p.skipSpace()
			if _, dup := m[k]; dup && !p.o.LastKeyWins {
				return nil, fmt.Errorf("duplicate key %q", k)
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			m[k] = v
			more, err := p.more('}', "after object key:value pair")
			if err != nil {
				return nil, err
			}
			if !more {
				return m, nil
			}
		}
	case c == '[':
		p.i++
		xs := []any{}
		p.skipSpace()
		if p.eat(']') {
			return xs, nil
		}
		for {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			xs = append(xs, v)
			more, err := p.more(']', "after array element")
			if err != nil {
				return nil, err
			}
			if !more {
				return xs, nil
			}
		}
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return p.literal("true", true)
	case c == 'f':
		return p.literal("false", false)
	case c == 'n':
		return p.literal("null", nil)
	}
	return nil, p.errorf("looking for beginning of value")
}

func (p *parser) literal(word string, v any) (any, error) {
	for j := 0; j < len(word); j++ {
		if p.i >= len(p.s) || p.s[p.i] != word[j] {
			return nil, p.errorf("in literal " + word)
		}
		p.i++
	}
	return v, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? as typed.
func (p *parser) number() (any, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.s) && p.s[p.i] == '0':
		p.i++
	case p.i < len(p.s) && p.s[p.i] >= '1' && p.s[p.i] <= '9':
		for p.i < len(p.s) && isDigit(p.s[p.i]) {
			p.i++
		}
	default:
		return nil, p.errorf("in numeric literal")
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if p.i >= len(p.s) || !isDigit(p.s[p.i]) {
			return nil, p.errorf("after decimal point in numeric literal")
		}
		for p.i < len(p.s) && isDigit(p.s[p.i]) {
			p.i++
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if p.i >= len(p.s) || !isDigit(p.s[p.i]) {
			return nil, p.errorf("in exponent of numeric literal")
		}
		for p.i < len(p.s) && isDigit(p.s[p.i]) {
			p.i++
		}
	}
	return json.Number(p.s[start:p.i]), nil
}

// str reads a string literal at p.i (which is '"').
func (p *parser) str() (string, error) {
	p.i++
	start := p.i
	// Fast path: no escapes, control characters or non-ASCII bytes.
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '"' {
			p.i++
			return p.s[start : p.i-1], nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		p.i++
	}
	b := make([]byte, 0, p.i-start+16)
	b = append(b, p.s[start:p.i]...)
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return string(b), nil
		case c < 0x20:
			return "", p.errorf("in string literal")
		case c == '\\':
			p.i++
			if p.i >= len(p.s) {
				return "", p.errorf("in string escape code")
			}
			e := p.s[p.i]
			p.i++
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := hex4(p.s[p.i:])
				if !ok {
					for j := 0; j < 4 && p.i < len(p.s) && isHex(p.s[p.i]); j++ {
						p.i++
					}
					return "", p.errorf("in \\u hexadecimal character escape")
				}
				p.i += 4
				if utf16.IsSurrogate(r) {
					// A valid pair is consumed whole; anything else is a
					// lone surrogate.
					if rest := p.s[p.i:]; len(rest) >= 6 && rest[0] == '\\' && rest[1] == 'u' {
						if r2, ok := hex4(rest[2:]); ok {
							if d := utf16.DecodeRune(r, r2); d != unicode.ReplacementChar {
								p.i += 6
								b = utf8.AppendRune(b, d)
								continue
							}
						}
					}
					if p.o.KeepSurrogates {
						b = AppendSurrogate(b, r)
						continue
					}
					r = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, r)
			default:
				p.i--
				return "", p.errorf("in string escape code")
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			p.i++
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && size == 1 && p.o.StrictUTF8 {
				return "", p.errorf("in string literal (not UTF-8)")
			}
			p.i += size
			b = utf8.AppendRune(b, r)
		}
	}
	return "", errors.New("unexpected end of JSON input")
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// hex4 decodes four hexadecimal digits.
func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for j := 0; j < 4; j++ {
		c := s[j]
		switch {
		case isDigit(c):
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// AppendSurrogate appends the generalised UTF-8 (WTF-8) form of a lone
// surrogate r: the three bytes UTF-8 would give it were it a code point
// (0xED, then 0xA0–0xBF, then a continuation byte). Valid UTF-8 never holds
// them, so no other string reads back as the same bytes.
func AppendSurrogate(b []byte, r rune) []byte {
	return append(b, 0xe0|byte(r>>12), 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
}

// SurrogateAt returns the lone surrogate whose WTF-8 form starts s, if one
// does.
func SurrogateAt(s string) (rune, bool) {
	if len(s) < 3 || s[0] != 0xed || s[1] < 0xa0 || s[1] > 0xbf || s[2]&0xc0 != 0x80 {
		return 0, false
	}
	return rune(s[0]&0x0f)<<12 | rune(s[1]&0x3f)<<6 | rune(s[2]&0x3f), true
}
