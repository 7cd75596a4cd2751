package bank

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/reconstruct/reconstruct/internal/canonjson"
)

// maxJSONDepth bounds nesting when parsing untrusted JSON.
const maxJSONDepth = 200

// parseJSON parses one JSON document strictly: duplicate object keys and
// trailing data are errors, numbers stay json.Number so that integers and
// floats keep their spelling. Strings decode as encoding/json decodes them
// (invalid UTF-8 and lone surrogates become U+FFFD). It is a single pass
// over the input: encoding/json's token stream, which it replaces, cost
// more than everything else in reading a revision.
func parseJSON(data []byte) (any, error) {
	p := &jsonParser{s: string(data)}
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

// jsonParser reads one JSON document from s; i is the next byte.
type jsonParser struct {
	s string
	i int
}

func (p *jsonParser) skipSpace() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) errorf(context string) error {
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
func (p *jsonParser) eat(c byte) bool {
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
func (p *jsonParser) more(end byte, context string) (bool, error) {
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

func (p *jsonParser) value(depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, fmt.Errorf("JSON nested deeper than %d levels", maxJSONDepth)
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
			if _, dup := m[k]; dup {
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

func (p *jsonParser) literal(word string, v any) (any, error) {
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
func (p *jsonParser) number() (any, error) {
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
func (p *jsonParser) str() (string, error) {
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
					// A valid pair is consumed whole; anything else
					// leaves U+FFFD, as encoding/json does.
					if rest := p.s[p.i:]; len(rest) >= 6 && rest[0] == '\\' && rest[1] == 'u' {
						if r2, ok := hex4(rest[2:]); ok {
							if d := utf16.DecodeRune(r, r2); d != unicode.ReplacementChar {
								p.i += 6
								b = utf8.AppendRune(b, d)
								continue
							}
						}
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

// canonicalJSON encodes a parsed JSON tree (from parseJSON) canonically:
// object keys sorted, no insignificant white space, no HTML escaping,
// integers in plain decimal, other numbers in the shortest form that
// round-trips a float64 and always shows it is not an integer literal.
func canonicalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeCanonical(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Canonicalize re-encodes arbitrary JSON in the bank's canonical form. It
// rejects duplicate keys and trailing data.
func Canonicalize(raw []byte) ([]byte, error) {
	v, err := parseJSON(raw)
	if err != nil {
		return nil, err
	}
	return canonicalJSON(v)
}

// canonical is the bank's canonical form: strings without HTML escaping,
// numbers by canonicalNumber and formatFloat, and canonical JSON already
// encoded (a json.RawMessage made by this package) written as it is.
var canonical = canonjson.Encoder{String: writeString, Scalar: writeScalar, MaxDepth: maxJSONDepth}

func writeCanonical(buf *bytes.Buffer, v any) error { return canonical.Write(buf, v) }

// writeScalar writes the leaves of a tree that are neither strings nor
// booleans.
func writeScalar(buf *bytes.Buffer, v any) error {
	switch t := v.(type) {
	case json.Number:
		s, err := canonicalNumber(string(t))
		if err != nil {
			return err
		}
		buf.WriteString(s)
	case float64:
		return writeFloat(buf, t)
	case int64:
		buf.WriteString(strconv.FormatInt(t, 10))
	case int:
		buf.WriteString(strconv.Itoa(t))
	case json.RawMessage:
		// Already canonical (produced by this package).
		buf.Write(t)
	default:
		return fmt.Errorf("cannot encode %T canonically", v)
	}
	return nil
}

// canonicalNumber normalises a JSON number literal. Integer literals stay
// integers (arbitrary size, leading "-0" folded to "0"); other literals are
// parsed as float64 and written in the shortest round-trip form with a
// fraction or exponent, so 1.0 stays distinguishable from 1.
func canonicalNumber(s string) (string, error) {
	if !strings.ContainsAny(s, ".eE") {
		if s == "-0" {
			return "0", nil
		}
		return s, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return "", fmt.Errorf("number %s out of range", s)
	}
	return formatFloat(f)
}

// writeFloat writes a finite float64 as formatFloat spells it.
func writeFloat(buf *bytes.Buffer, f float64) error {
	s, err := formatFloat(f)
	if err != nil {
		return err
	}
	buf.WriteString(s)
	return nil
}

// formatFloat writes a finite float64 as a non-integer JSON literal.
func formatFloat(f float64) (string, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", fmt.Errorf("number %v is not finite", f)
	}
	if f == 0 {
		return "0.0", nil
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s, nil
}

func writeString(buf *bytes.Buffer, s string) {
	buf.Write(appendString(buf.AvailableBuffer(), s))
}

// HashBytes returns the bank identifier of canonical bytes: "sha256:" and
// the lower-case hex digest.
func HashBytes(canonical []byte) string { return hashName(sha256.Sum256(canonical)) }

// hashName formats a SHA-256 digest as a bank identifier.
func hashName(sum [32]byte) string {
	var b [7 + 64]byte
	copy(b[:], "sha256:")
	hex.Encode(b[7:], sum[:])
	return string(b[:])
}

// validID reports whether s has the form of a bank identifier.
func validID(s string) bool {
	if !strings.HasPrefix(s, "sha256:") || len(s) != 7+64 {
		return false
	}
	for _, c := range s[7:] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// jsonField returns the bounds [start, end) of the value of key in the
// object that starts at s[i], for canonical JSON (no space between tokens,
// strings escaped as writeString escapes them); ok is false if the object
// has no such key or s is not such JSON there. It reads past the other
// values without decoding them.
func jsonField(s []byte, i int, key string) (start, end int, ok bool) {
	if i >= len(s) || s[i] != '{' {
		return 0, 0, false
	}
	quoted := appendString(nil, key)
	i++
	for i < len(s) && s[i] != '}' {
		k := i
		if i = skipJSON(s, i); i < 0 || s[k] != '"' || i >= len(s) || s[i] != ':' {
			return 0, 0, false
		}
		name := s[k:i]
		start = i + 1
		if end = skipJSON(s, start); end < 0 {
			return 0, 0, false
		}
		if bytes.Equal(name, quoted) {
			return start, end, true
		}
		if i = end; i < len(s) && s[i] == ',' {
			i++
		}
	}
	return 0, 0, false
}

// skipJSON returns the end of the JSON value (without space between
// tokens) that starts at s[i], or -1 if there is none.
func skipJSON(s []byte, i int) int {
	if i >= len(s) {
		return -1
	}
	switch s[i] {
	case '"':
		for i++; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return -1
	case '{', '[':
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				if i = skipJSON(s, i); i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	// A number or a literal.
	j := i
	for j < len(s) && s[j] != ',' && s[j] != '}' && s[j] != ']' && s[j] != ':' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
