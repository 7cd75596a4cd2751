package task

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/reconstruct/reconstruct/internal/canonjson"
	"github.com/reconstruct/reconstruct/internal/jsonparse"
)

// DefaultAtol is the float tolerance used when none is configured.
const DefaultAtol = 1e-9

// Equal compares two JSON values as docs/workflow.md says: integers,
// strings (code point by code point, lone surrogates included), booleans
// and null exactly; two floats within atol; an integer and a float only
// when the float is exactly that integer; lists by length then
// element-wise; objects key-wise. Invalid JSON is never equal.
func Equal(a, b json.RawMessage, atol float64) bool {
	va, err := Decode(a)
	if err != nil {
		return false
	}
	vb, err := Decode(b)
	if err != nil {
		return false
	}
	return EqualValues(va, vb, atol)
}

// EqualValues compares two decoded values (see Equal).
func EqualValues(a, b any, atol float64) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		return ok && numbersEqual(x, y, atol)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !EqualValues(x[i], y[i], atol) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !EqualValues(xv, yv, atol) {
				return false
			}
		}
		return true
	}
	return false
}

func isInteger(n json.Number) bool {
	return !strings.ContainsAny(string(n), ".eE")
}

// numbersEqual compares two JSON numbers: two integers exactly, two
// floats within atol, and an integer with a float only exactly — a
// tolerance meant for rounding in floating-point work must not let the
// float 1e18 stand for the integer 10¹⁸ + 1.
func numbersEqual(x, y json.Number, atol float64) bool {
	xi, yi := isInteger(x), isInteger(y)
	if xi && yi {
		bx, okx := new(big.Int).SetString(string(x), 10)
		by, oky := new(big.Int).SetString(string(y), 10)
		return okx && oky && bx.Cmp(by) == 0
	}
	if xi != yi {
		if yi {
			x, y = y, x
		}
		return intEqualsFloat(x, y)
	}
	fx, errx := x.Float64()
	fy, erry := y.Float64()
	if errx != nil || erry != nil {
		return false
	}
	if math.IsInf(fx, 0) || math.IsInf(fy, 0) {
		return fx == fy
	}
	return math.Abs(fx-fy) <= atol
}

// intEqualsFloat reports whether the integer i is exactly the float64
// that f is read as (what Python makes of it).
func intEqualsFloat(i, f json.Number) bool {
	bi, ok := new(big.Int).SetString(string(i), 10)
	if !ok {
		return false
	}
	ff, err := f.Float64()
	if err != nil || math.IsInf(ff, 0) || ff != math.Trunc(ff) {
		return false
	}
	bf, _ := new(big.Float).SetFloat64(ff).Int(nil)
	return bf.Cmp(bi) == 0
}

// Canonical returns a canonical JSON text of raw: object keys sorted, no
// spaces, integers as written, floats in shortest form (1.0 stays a float).
// Two inputs are the same input when their canonical texts are equal.
func Canonical(raw json.RawMessage) (string, error) {
	v, err := Decode(raw)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := canonical.Write(&buf, v); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// MustCanonical is Canonical for values known to be valid JSON; invalid JSON
// yields its raw text.
func MustCanonical(raw json.RawMessage) string {
	s, err := Canonical(raw)
	if err != nil {
		return string(raw)
	}
	return s
}

// canonical is the task's canonical form: strings as encoding/json writes
// them (HTML characters escaped; a lone surrogate, which it cannot hold,
// as its \u escape) and numbers by writeNumber. Its texts decide which
// inputs are the same and stand in messages shown to agents and recorded
// in journals, so they keep the spelling they always had.
var canonical = canonjson.Encoder{
	String: writeString,
	Scalar: writeNumber,
}

// writeString writes s (from Decode: UTF-8 but for lone surrogates in
// their WTF-8 form) as a JSON string.
func writeString(buf *bytes.Buffer, s string) {
	buf.WriteByte('"')
	for {
		i := strings.IndexByte(s, 0xed)
		for i >= 0 {
			if _, ok := jsonparse.SurrogateAt(s[i:]); ok {
				break
			}
			j := strings.IndexByte(s[i+1:], 0xed)
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		if i < 0 {
			break
		}
		writeInner(buf, s[:i])
		r, _ := jsonparse.SurrogateAt(s[i:])
		fmt.Fprintf(buf, "\\u%04x", r)
		s = s[i+3:]
	}
	writeInner(buf, s)
	buf.WriteByte('"')
}

// writeInner writes the JSON text of a UTF-8 string without its quotes.
func writeInner(buf *bytes.Buffer, s string) {
	if s == "" {
		return
	}
	b, _ := json.Marshal(s)
	buf.Write(b[1 : len(b)-1])
}

// writeNumber writes a json.Number: an integer in plain decimal, any other
// number as encoding/json writes its float64 with ".0" added to integral
// values (1.0 stays a float), or as written when it does not fit a float64.
// Other values, which Decode never yields, are left out.
func writeNumber(buf *bytes.Buffer, v any) error {
	x, ok := v.(json.Number)
	if !ok {
		return nil
	}
	if isInteger(x) {
		if bi, ok := new(big.Int).SetString(string(x), 10); ok {
			buf.WriteString(bi.String())
			return nil
		}
	}
	f, err := x.Float64()
	if err != nil {
		buf.WriteString(string(x))
		return nil
	}
	b, _ := json.Marshal(f)
	s := string(b)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	buf.WriteString(s)
	return nil
}

// Numbers returns every number in a decoded value, in order.
func Numbers(v any) []float64 {
	var out []float64
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case json.Number:
			if f, err := x.Float64(); err == nil {
				out = append(out, f)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}
