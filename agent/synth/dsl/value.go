package dsl

import (
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/reconstruct/reconstruct/task"
)

// Type is the static type of a DSL value.
type Type uint8

// The DSL's types. Lists of pairs hold pairs and points alike.
const (
	Int Type = iota
	Float
	Bool
	Str
	ListInt
	ListFloat
	ListBool
	ListStr
	ListPair
	NumTypes
)

var typeNames = [NumTypes]string{"int", "float", "bool", "str", "list[int]", "list[float]", "list[bool]", "list[str]", "list[pair]"}

// String names the type as the notes and golden files write it.
func (t Type) String() string {
	if t == Tuple {
		return "tuple"
	}
	return typeNames[t]
}

// Pair is one element of a list of pairs (a point or a 2-tuple).
type Pair [2]int64

// errT marks an evaluation that raised (division by zero, index out of
// range, overflow): the value of that example is an error.
type errT struct{}

// ErrV is the value of a program where it raised.
var ErrV any = errT{}

// IsErr reports whether v is ErrV.
func IsErr(v any) bool { _, ok := v.(errT); return ok }

// TypeOf returns the DSL type of a Go value and whether it has one.
func TypeOf(v any) (Type, bool) {
	switch v.(type) {
	case int64:
		return Int, true
	case float64:
		return Float, true
	case bool:
		return Bool, true
	case string:
		return Str, true
	case []int64:
		return ListInt, true
	case []float64:
		return ListFloat, true
	case []bool:
		return ListBool, true
	case []string:
		return ListStr, true
	case []Pair:
		return ListPair, true
	case []any:
		return Tuple, true
	}
	return 0, false
}

// FromJSON converts a decoded JSON value (json.Number numbers) to a DSL
// value. floats forces numbers (and lists of numbers) to float64.
func FromJSON(v any, floats bool) (any, bool) {
	switch x := v.(type) {
	case json.Number:
		if !floats && IsIntNumber(x) {
			i, err := strconv.ParseInt(string(x), 10, 64)
			if err != nil {
				return nil, false
			}
			return i, true
		}
		f, err := x.Float64()
		if err != nil {
			return nil, false
		}
		return f, true
	case bool:
		return x, true
	case string:
		return x, true
	case []any:
		return listFromJSON(x, floats)
	}
	return nil, false
}

func listFromJSON(x []any, floats bool) (any, bool) {
	if len(x) == 0 {
		if floats {
			return []float64{}, true
		}
		return []int64{}, true
	}
	switch x[0].(type) {
	case json.Number:
		isFloat := floats
		for _, e := range x {
			n, ok := e.(json.Number)
			if !ok {
				return nil, false
			}
			if !IsIntNumber(n) {
				isFloat = true
			}
		}
		if isFloat {
			out := make([]float64, len(x))
			for i, e := range x {
				f, err := e.(json.Number).Float64()
				if err != nil {
					return nil, false
				}
				out[i] = f
			}
			return out, true
		}
		out := make([]int64, len(x))
		for i, e := range x {
			n, err := strconv.ParseInt(string(e.(json.Number)), 10, 64)
			if err != nil {
				return nil, false
			}
			out[i] = n
		}
		return out, true
	case bool:
		out := make([]bool, len(x))
		for i, e := range x {
			b, ok := e.(bool)
			if !ok {
				return nil, false
			}
			out[i] = b
		}
		return out, true
	case string:
		out := make([]string, len(x))
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out[i] = s
		}
		return out, true
	case []any:
		out := make([]Pair, len(x))
		for i, e := range x {
			l, ok := e.([]any)
			if !ok || len(l) != 2 {
				return nil, false
			}
			for j := 0; j < 2; j++ {
				n, ok := l[j].(json.Number)
				if !ok || !IsIntNumber(n) {
					return nil, false
				}
				v, err := strconv.ParseInt(string(n), 10, 64)
				if err != nil {
					return nil, false
				}
				out[i][j] = v
			}
		}
		return out, true
	}
	return nil, false
}

// IsIntNumber reports whether a JSON number is written as an integer.
func IsIntNumber(n json.Number) bool { return !strings.ContainsAny(string(n), ".eE") }

// ToJSON renders a DSL value as JSON the way Python's json.dumps would.
func ToJSON(v any) json.RawMessage {
	var sb strings.Builder
	writeJSON(&sb, v)
	return json.RawMessage(sb.String())
}

func writeJSON(sb *strings.Builder, v any) {
	switch x := v.(type) {
	case int64:
		sb.WriteString(strconv.FormatInt(x, 10))
	case float64:
		sb.WriteString(pyFloat(x))
	case bool:
		if x {
			sb.WriteString("true")
		} else {
			sb.WriteString("false")
		}
	case string:
		b, _ := json.Marshal(x)
		sb.Write(b)
	case []int64:
		writeList(sb, len(x), func(i int) { sb.WriteString(strconv.FormatInt(x[i], 10)) })
	case []float64:
		writeList(sb, len(x), func(i int) { sb.WriteString(pyFloat(x[i])) })
	case []bool:
		writeList(sb, len(x), func(i int) { writeJSON(sb, x[i]) })
	case []string:
		writeList(sb, len(x), func(i int) { writeJSON(sb, x[i]) })
	case []Pair:
		writeList(sb, len(x), func(i int) {
			sb.WriteString("[" + strconv.FormatInt(x[i][0], 10) + ", " + strconv.FormatInt(x[i][1], 10) + "]")
		})
	case []any:
		writeList(sb, len(x), func(i int) { writeJSON(sb, x[i]) })
	default:
		sb.WriteString("null")
	}
}

func writeList(sb *strings.Builder, n int, each func(int)) {
	sb.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteString(", ")
		}
		each(i)
	}
	sb.WriteByte(']')
}

// pyFloat formats a float like Python's repr.
func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case math.IsNaN(f):
		return "NaN"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if strings.ContainsAny(s, "e") {
		// Python writes 1e+16 as 1e+16 and 1e-05 as 1e-05.
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[0]
		digits := strings.TrimLeft(exp[1:], "0")
		if len(digits) < 2 {
			digits = strings.Repeat("0", 2-len(digits)) + digits
		}
		return mant + "e" + string(sign) + digits
	}
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// EqualTo reports whether a program value matches an expected value with
// the workflow's comparison (numbers numerically, floats within atol).
func EqualTo(got, want any, atol float64) bool {
	if g, ok := got.([]any); ok {
		return tupleEqual(g, want, atol)
	}
	near := func(g, w float64) bool { return math.Abs(g-w) <= atol }
	switch w := want.(type) {
	case int64:
		switch g := got.(type) {
		case int64:
			return g == w
		case float64:
			return near(g, float64(w))
		}
	case float64:
		switch g := got.(type) {
		case int64:
			return near(float64(g), w)
		case float64:
			return floatEq(g, w, atol)
		}
	case bool:
		g, ok := got.(bool)
		return ok && g == w
	case string:
		g, ok := got.(string)
		return ok && g == w
	case []int64:
		switch g := got.(type) {
		case []int64:
			return slices.Equal(g, w)
		case []float64:
			return slices.EqualFunc(g, w, func(x float64, y int64) bool { return near(x, float64(y)) })
		}
	case []float64:
		switch g := got.(type) {
		case []int64:
			return slices.EqualFunc(g, w, func(x int64, y float64) bool { return near(float64(x), y) })
		case []float64:
			return slices.EqualFunc(g, w, func(x, y float64) bool { return floatEq(x, y, atol) })
		}
	case []bool:
		g, ok := got.([]bool)
		return ok && slices.Equal(g, w)
	case []string:
		g, ok := got.([]string)
		return ok && slices.Equal(g, w)
	case []Pair:
		g, ok := got.([]Pair)
		return ok && slices.Equal(g, w)
	case []any:
		g := elements(got)
		return g != nil && tupleEqual(g, w, atol)
	}
	return false
}

func floatEq(a, b, atol float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= atol
}

// CloneValues returns a copy of vals whose lists are copies too: values
// kept after their search ended must not keep its arena alive.
func CloneValues(vals []any) []any {
	if vals == nil {
		return nil
	}
	out := make([]any, len(vals))
	for i, v := range vals {
		switch x := v.(type) {
		case []int64:
			out[i] = ownCopy(x)
		case []float64:
			out[i] = ownCopy(x)
		case []bool:
			out[i] = ownCopy(x)
		case []string:
			out[i] = ownCopy(x)
		case []Pair:
			out[i] = ownCopy(x)
		default:
			out[i] = v
		}
	}
	return out
}

// ownCopy is a copy of x in memory of its own (slices.Clone of an empty
// slice keeps x's pointer, and with it x's chunk).
func ownCopy[T any](x []T) []T {
	if x == nil {
		return nil
	}
	out := make([]T, len(x))
	copy(out, x)
	return out
}

// DecodeRaw decodes a JSON document keeping numbers exact.
func DecodeRaw(raw json.RawMessage) (any, bool) {
	v, err := task.Decode(raw)
	return v, err == nil
}

// SortedKeys returns the keys of a set in order.
func SortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// FirstValue is the first of a program's values that is not an error.
func FirstValue(vals []any) any {
	for _, v := range vals {
		if !IsErr(v) {
			return v
		}
	}
	return ErrV
}
