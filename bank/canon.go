package bank

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// maxJSONDepth bounds nesting when parsing untrusted JSON.
const maxJSONDepth = 200

// parseJSON parses one JSON document strictly: duplicate object keys and
// trailing data are errors, numbers stay json.Number so that integers and
// floats keep their spelling.
func parseJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseJSONValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

func parseJSONValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, fmt.Errorf("JSON nested deeper than %d levels", maxJSONDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("unexpected end of JSON input")
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := map[string]any{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, errors.New("object key is not a string")
				}
				if _, dup := m[k]; dup {
					return nil, fmt.Errorf("duplicate key %q", k)
				}
				v, err := parseJSONValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				m[k] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return m, nil
		case '[':
			xs := []any{}
			for dec.More() {
				v, err := parseJSONValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				xs = append(xs, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return xs, nil
		default:
			return nil, fmt.Errorf("unexpected %q", t)
		}
	default:
		return t, nil
	}
}

// canonicalJSON encodes a parsed JSON tree (from parseJSON) canonically:
// object keys sorted, no insignificant white space, no HTML escaping,
// integers in plain decimal, other numbers in the shortest form that
// round-trips a float64 and always shows it is not an integer literal.
func canonicalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeCanonical(&buf, v, 0); err != nil {
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

func writeCanonical(buf *bytes.Buffer, v any, depth int) error {
	if depth > maxJSONDepth {
		return fmt.Errorf("JSON nested deeper than %d levels", maxJSONDepth)
	}
	switch t := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		if t {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case json.Number:
		s, err := canonicalNumber(string(t))
		if err != nil {
			return err
		}
		buf.WriteString(s)
	case float64:
		s, err := formatFloat(t)
		if err != nil {
			return err
		}
		buf.WriteString(s)
	case int64:
		buf.WriteString(strconv.FormatInt(t, 10))
	case int:
		buf.WriteString(strconv.Itoa(t))
	case string:
		writeString(buf, t)
	case []any:
		buf.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeCanonical(buf, x, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeString(buf, k)
			buf.WriteByte(':')
			if err := writeCanonical(buf, t[k], depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
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
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f {
			plain = false
			break
		}
	}
	if plain {
		buf.WriteByte('"')
		buf.WriteString(s)
		buf.WriteByte('"')
		return
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	buf.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// HashBytes returns the bank identifier of canonical bytes: "sha256:" and
// the lower-case hex digest.
func HashBytes(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return "sha256:" + hex.EncodeToString(sum[:])
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
