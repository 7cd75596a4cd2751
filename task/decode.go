package task

import (
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDecodeDepth bounds the nesting Decode accepts (encoding/json's own
// bound): deeper text is refused rather than recursed into.
const maxDecodeDepth = 10000

// Decode parses one JSON value keeping what comparison needs exactly:
// numbers as written (json.Number), and strings code point by code point.
// A lone UTF-16 surrogate escape ("\ud800", which Python's json writes for
// a string holding one) stays that code point, kept in the string as its
// three-byte generalised UTF-8 form (WTF-8), where encoding/json would
// make it U+FFFD — so that a program returning U+FFFD is never taken for
// one returning a lone surrogate. Text that is not UTF-8 is not JSON and
// is refused, as is anything after the value. Duplicate object keys keep
// the last value, as Python's json does.
func Decode(raw json.RawMessage) (any, error) {
	p := &decoder{s: string(raw)}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(p.s) {
		return nil, errors.New("trailing data after JSON value")
	}
	return v, nil
}

// decoder reads one JSON document from s; i is the next byte.
type decoder struct {
	s string
	i int
}

func (p *decoder) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *decoder) fail(what string) error {
	if p.i >= len(p.s) {
		return errors.New("unexpected end of JSON input")
	}
	return fmt.Errorf("invalid JSON at offset %d: %s", p.i, what)
}

// next consumes the byte c (after white space) and reports whether it was
// there.
func (p *decoder) next(c byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *decoder) value(depth int) (any, error) {
	if depth > maxDecodeDepth {
		return nil, fmt.Errorf("JSON nested deeper than %d levels", maxDecodeDepth)
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, errors.New("unexpected end of JSON input")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		p.i++
		m := map[string]any{}
		if p.next('}') {
			return m, nil
		}
		for {
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != '"' {
				return nil, p.fail("want an object key")
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			if !p.next(':') {
				return nil, p.fail("want ':' after an object key")
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			m[k] = v
			if p.next('}') {
				return m, nil
			}
			if !p.next(',') {
				return nil, p.fail("want ',' or '}' in an object")
			}
		}
	case c == '[':
		p.i++
		xs := []any{}
		if p.next(']') {
			return xs, nil
		}
		for {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			xs = append(xs, v)
			if p.next(']') {
				return xs, nil
			}
			if !p.next(',') {
				return nil, p.fail("want ',' or ']' in an array")
			}
		}
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return p.word("true", true)
	case c == 'f':
		return p.word("false", false)
	case c == 'n':
		return p.word("null", nil)
	}
	return nil, p.fail("want a value")
}

func (p *decoder) word(w string, v any) (any, error) {
	if len(p.s)-p.i < len(w) || p.s[p.i:p.i+len(w)] != w {
		return nil, p.fail("want " + w)
	}
	p.i += len(w)
	return v, nil
}

func digit(c byte) bool { return c >= '0' && c <= '9' }

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? as written.
func (p *decoder) number() (any, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.s) && p.s[p.i] == '0':
		p.i++
	case p.i < len(p.s) && p.s[p.i] >= '1' && p.s[p.i] <= '9':
		for p.i < len(p.s) && digit(p.s[p.i]) {
			p.i++
		}
	default:
		return nil, p.fail("want a digit")
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if p.i >= len(p.s) || !digit(p.s[p.i]) {
			return nil, p.fail("want a digit after the decimal point")
		}
		for p.i < len(p.s) && digit(p.s[p.i]) {
			p.i++
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if p.i >= len(p.s) || !digit(p.s[p.i]) {
			return nil, p.fail("want a digit in the exponent")
		}
		for p.i < len(p.s) && digit(p.s[p.i]) {
			p.i++
		}
	}
	return json.Number(p.s[start:p.i]), nil
}

// str reads a string literal at p.i (a '"').
func (p *decoder) str() (string, error) {
	p.i++
	start := p.i
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
	b := []byte(p.s[start:p.i])
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return string(b), nil
		case c < 0x20:
			return "", p.fail("control character in a string")
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return "", p.fail("unfinished escape")
			}
			e := p.s[p.i+1]
			p.i += 2
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
					return "", p.fail("bad \\u escape")
				}
				p.i += 4
				if utf16.IsSurrogate(r) {
					// A valid pair is one code point; a lone half stays
					// itself.
					if rest := p.s[p.i:]; r < 0xdc00 && len(rest) >= 6 && rest[0] == '\\' && rest[1] == 'u' {
						if r2, ok := hex4(rest[2:]); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
							p.i += 6
							b = utf8.AppendRune(b, utf16.DecodeRune(r, r2))
							continue
						}
					}
					b = appendSurrogate(b, r)
					continue
				}
				b = utf8.AppendRune(b, r)
			default:
				return "", p.fail("bad escape")
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			p.i++
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && size == 1 {
				return "", p.fail("text that is not UTF-8")
			}
			b = append(b, p.s[p.i:p.i+size]...)
			p.i += size
		}
	}
	return "", errors.New("unexpected end of JSON input")
}

// hex4 decodes four hexadecimal digits.
func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[:4]) {
		switch {
		case digit(c):
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

// appendSurrogate appends the generalised UTF-8 (WTF-8) form of a lone
// surrogate r: the three bytes UTF-8 would give it were it a code point
// (0xED, then 0xA0–0xBF, then a continuation byte). Valid UTF-8 never
// holds them, so no other string decodes to the same bytes.
func appendSurrogate(b []byte, r rune) []byte {
	return append(b, 0xe0|byte(r>>12), 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
}

// surrogateAt returns the lone surrogate whose WTF-8 form starts s, if
// one does.
func surrogateAt(s string) (rune, bool) {
	if len(s) < 3 || s[0] != 0xed || s[1] < 0xa0 || s[1] > 0xbf || s[2]&0xc0 != 0x80 {
		return 0, false
	}
	return rune(s[0]&0x0f)<<12 | rune(s[1]&0x3f)<<6 | rune(s[2]&0x3f), true
}

// MaxDepth is the deepest nesting of a value a run records: an example's
// input or output, or a candidate's output quoted in feedback. The bank
// holds JSON nested up to 200 levels, records around the value included;
// a hidden program's outputs have a lower, configurable bound
// (task.oracle.max_output_depth), at most this.
const MaxDepth = 150

// Depth is the nesting depth of a JSON text: 0 for a scalar, 1 for a flat
// array or object, and so on. It only counts brackets outside strings and
// does not check the text otherwise.
func Depth(raw []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}
