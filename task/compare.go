package task

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/reconstruct/reconstruct/internal/canonjson"
)

// DefaultAtol is the float tolerance used when none is configured.
const DefaultAtol = 1e-9

// Decode parses a JSON value keeping numbers exact (json.Number).
func Decode(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after JSON value")
	}
	return v, nil
}

// Equal compares two JSON values as docs/workflow.md says: integers, strings,
// booleans and null exactly; floats within atol; lists by length then
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

func numbersEqual(x, y json.Number, atol float64) bool {
	if isInteger(x) && isInteger(y) {
		bx, okx := new(big.Int).SetString(string(x), 10)
		by, oky := new(big.Int).SetString(string(y), 10)
		return okx && oky && bx.Cmp(by) == 0
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
// them (HTML characters escaped) and numbers by writeNumber. Its texts decide
// which inputs are the same and stand in messages shown to agents and
// recorded in journals, so they keep the spelling they always had.
var canonical = canonjson.Encoder{
	String: func(buf *bytes.Buffer, s string) {
		b, _ := json.Marshal(s)
		buf.Write(b)
	},
	Scalar: writeNumber,
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
