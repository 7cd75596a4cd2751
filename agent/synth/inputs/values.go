package inputs

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/reconstruct/reconstruct/task"
)

// Proposed inputs are JSON values: generated (int64, float64) or decoded
// (json.Number), in lists ([]any) and objects (map[string]any).

// RoundTrip converts a generated value to its decoded JSON form.
func RoundTrip(v any) any {
	d, _ := task.Decode(Encode(v))
	return d
}

// Encode writes a value as JSON, nil when it cannot.
func Encode(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// ShapeLen is the length of an input: of a list, of a string, the longer
// of two number lists.
func ShapeLen(v any) int {
	switch x := v.(type) {
	case []any:
		if len(x) == 2 {
			if a, ok := x[0].([]any); ok {
				if b, ok := x[1].([]any); ok && (len(a) > 0 || len(b) > 0) {
					if _, isNum := firstOf(a, b).(json.Number); isNum {
						return max(len(a), len(b))
					}
				}
			}
		}
		return len(x)
	case string:
		return len([]rune(x))
	}
	return 0
}

// firstOf is the first element of a, or else of b.
func firstOf(a, b []any) any {
	if len(a) > 0 {
		return a[0]
	}
	return b[0]
}

// deepCopy copies a decoded JSON value.
func deepCopy(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	}
	return v
}

// LeafCount measures an input's size: its numbers, strings and elements.
func LeafCount(v any) int {
	switch x := v.(type) {
	case []any:
		n := 0
		for _, e := range x {
			n += LeafCount(e)
		}
		return max(n, 1)
	case map[string]any:
		n := 0
		for _, e := range x {
			n += LeafCount(e)
		}
		return n
	case string:
		return max(len(x)/2, 1)
	}
	return 1
}

// sortList orders a list in non-decreasing order by the whole element or
// one position of it; key -2 leaves it alone.
func sortList(xs []any, key int) {
	if key == -2 {
		return
	}
	at := func(v any) any {
		if key >= 0 {
			if t, ok := v.([]any); ok && key < len(t) {
				return t[key]
			}
		}
		return v
	}
	sort.SliceStable(xs, func(i, j int) bool { return compareValues(at(xs[i]), at(xs[j])) < 0 })
}

// compareValues orders JSON values: numbers numerically, strings
// lexicographically, lists element by element; other pairs are equal.
func compareValues(a, b any) int {
	if x, ok := numberOf(a); ok {
		if y, ok := numberOf(b); ok {
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		}
	}
	if x, ok := a.(string); ok {
		if y, ok := b.(string); ok {
			return strings.Compare(x, y)
		}
	}
	if x, ok := a.([]any); ok {
		if y, ok := b.([]any); ok {
			for i := 0; i < len(x) && i < len(y); i++ {
				if c := compareValues(x[i], y[i]); c != 0 {
					return c
				}
			}
			return len(x) - len(y)
		}
	}
	return 0
}

// numberOf reads a number from a generated (int64, float64) or decoded
// (json.Number) value.
func numberOf(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// Structured decides whether proposals come from the description's
// template rather than the kind's generator: for inputs of kind other whose
// description shows more structure than a list of numbers or pairs, and for
// strings of a stated unit format.
func Structured(t task.Task, tp *Template) bool {
	switch {
	case tp == nil:
		return false
	case t.Kind == task.KindOther:
		return tp.rich(t.Domain)
	case t.Kind == task.KindString:
		return tp.Kind == tkUnits || tp.Kind == tkSeq || tp.Kind == tkJoined
	case t.Kind == task.KindList:
		return tp.Kind == tkRPN
	case t.Kind == task.KindTwoLists:
		// Two lists whose elements have different ranges ("a list of
		// integers and a list of 0/1 triggers").
		if tp.Kind != TkTuple || len(tp.Elems) != 2 || tp.Elems[0].Kind != TkList || tp.Elems[1].Kind != TkList {
			return false
		}
		a, b := tp.Elems[0].Elems[0], tp.Elems[1].Elems[0]
		return a.Kind == TkInt && b.Kind == TkInt && (a.lo != b.lo || a.hi != b.hi)
	}
	return false
}

// SameLengths reports whether an input keeps the one length a template's
// lists share (always, for a template that has none).
func (n *Template) SameLengths(v any) bool {
	xs, ok := v.([]any)
	if n == nil || n.Kind != TkTuple || !n.sameLen || !ok || len(xs) != len(n.Elems) {
		return true
	}
	length := -1
	for i, e := range n.Elems {
		if !n.sharesLength(e) {
			continue
		}
		k := -1
		switch x := xs[i].(type) {
		case []any:
			k = len(x)
		case string:
			k = len([]rune(x))
		}
		if k < 0 || (length >= 0 && k != length) {
			return false
		}
		length = k
	}
	return true
}

// WellFormed reports whether every postfix expression of an input, where
// the template has one, leaves exactly one value and gives each operator
// its operands (a mutant of an observed expression seldom does), and
// whether its strings keep the shapes the template states (words
// separated by single spaces, no character twice, a grammar), its
// distinct lists no element twice.
func (n *Template) WellFormed(v any) bool {
	if n == nil {
		return true
	}
	switch n.Kind {
	case tkRPN:
		xs, ok := v.([]any)
		if !ok {
			return false
		}
		depth := 0
		for _, x := range xs {
			arity := -1
			for _, op := range n.Elems[n.nOperands:] {
				if op.Kind == tkLit && fmt.Sprint(x) == fmt.Sprint(op.lit) {
					arity = cmp.Or(op.arity, 2)
					break
				}
			}
			if arity < 0 {
				depth++
				continue
			}
			if depth < arity {
				return false
			}
			depth += 1 - arity
		}
		return depth == 1
	case TkTuple:
		xs, ok := v.([]any)
		if !ok || len(xs) != len(n.Elems) {
			return true
		}
		for i, e := range n.Elems {
			if !e.WellFormed(xs[i]) {
				return false
			}
		}
	case TkList:
		xs, _ := v.([]any)
		if len(n.needs) > 0 && !n.keptBefore(xs) {
			return false
		}
		for i, x := range xs {
			if !n.Elems[0].WellFormed(x) {
				return false
			}
			if (n.strict || n.distinct) && slices.ContainsFunc(xs[:i], func(y any) bool { return compareValues(x, y) == 0 }) {
				return false
			}
		}
	case TkStr:
		s, ok := v.(string)
		if !ok || len(n.Choices) > 0 {
			return true
		}
		if n.words && s != strings.Join(strings.Fields(s), " ") {
			return false
		}
		if n.distinct {
			seen := map[rune]bool{}
			for _, r := range s {
				if seen[r] {
					return false
				}
				seen[r] = true
			}
		}
	case tkSeq, tkJoined:
		s, ok := v.(string)
		return ok && n.matchesGrammar(s)
	case tkObject:
		m, _ := v.(map[string]any)
		for i, k := range n.keys {
			if x, ok := m[k]; ok && !n.Elems[i].WellFormed(x) {
				return false
			}
		}
	}
	return true
}
