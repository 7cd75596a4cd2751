package bank

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/reconstruct/reconstruct/internal/canonjson"
	"github.com/reconstruct/reconstruct/internal/jsonparse"
)

// maxJSONDepth bounds nesting when parsing untrusted JSON.
const maxJSONDepth = 200

// parseJSON parses one JSON document strictly: duplicate object keys and
// trailing data are errors, numbers stay json.Number so that integers and
// floats keep their spelling. Strings decode as encoding/json decodes them
// (invalid UTF-8 and lone surrogates become U+FFFD). It is a single pass
// over the input (internal/jsonparse): encoding/json's token stream, which
// it replaces, cost more than everything else in reading a revision.
func parseJSON(data []byte) (any, error) {
	return jsonparse.Parse(data, jsonparse.Options{MaxDepth: maxJSONDepth})
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
