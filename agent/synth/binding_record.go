package synth

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
	"github.com/reconstruct/reconstruct/agent/synth/inputs"
)

// Records. An input that is a JSON object with the same keys every time
// ({"capacity": 2, "requests": [3, 1, 3]}) is a tuple of named arguments:
// each key is a variable, of the type its values take in every observed
// input, read from input_data by its key. The keys are taken in their
// sorted order, so that the binding does not depend on how an input was
// written.

// recordMaxKeys bounds the keys of a record bound as arguments.
const recordMaxKeys = 6

// identRe is a key that is a Python identifier as it is.
var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// recordBinding returns the binding of observed inputs that are objects
// with one set of keys whose values the DSL holds; nil otherwise.
func recordBinding(observed []any, floats bool) *dsl.Binding {
	var keys []string
	for i, in := range observed {
		rec, ok := in.(map[string]any)
		if !ok || len(rec) == 0 || len(rec) > recordMaxKeys {
			return nil
		}
		ks := make([]string, 0, len(rec))
		for k := range rec {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		if i == 0 {
			keys = ks
		} else if !slices.Equal(ks, keys) {
			return nil
		}
	}
	if keys == nil {
		return nil
	}
	b := &dsl.Binding{Floats: floats, Shape: "record", Keys: keys}
	used := map[string]bool{}
	var reads []string
	for _, k := range keys {
		vt, ok := valueType(observed, func(in any) any { return in.(map[string]any)[k] }, floats)
		if !ok {
			return nil
		}
		if !identRe.MatchString(k) {
			return nil
		}
		b.Names, b.Types = append(b.Names, varName(k, used)), append(b.Types, vt)
		reads = append(reads, fmt.Sprintf("input_data[%s]", strconv.Quote(k)))
	}
	b.Line = strings.Join(b.Names, ", ") + " = " + strings.Join(reads, ", ")
	for _, in := range observed {
		if _, err := b.Env(in); err != nil {
			return nil
		}
	}
	return b
}

// valueType is the one DSL type of part(in) over the observed inputs: an
// empty list takes the type of the other inputs' lists, and integers
// among floats are floats; false when the parts differ in type or the
// DSL does not hold them.
func valueType(observed []any, part func(any) any, floats bool) (dsl.Type, bool) {
	var t dsl.Type
	found, empty := false, false
	for _, in := range observed {
		v, ok := dsl.FromJSON(part(in), floats)
		if !ok {
			return t, false
		}
		if l, isList := v.([]int64); isList && len(l) == 0 {
			empty = true
			continue
		}
		vt, ok := dsl.TypeOf(v)
		if !ok {
			return t, false
		}
		if found && vt != t {
			return t, false
		}
		t, found = vt, true
	}
	if !found && empty {
		t, found = dsl.ListInt, true
		if floats {
			t = dsl.ListFloat
		}
	}
	return t, found
}

// Tuples of structures. An input that is a list of a few parts of fixed
// types, some of them lists ([[x1, y1, x2, y2], [x3, y3, x4, y4]], two
// segments as pairs of points), is a tuple of arguments: one variable a
// part, named by the description when it names as many ("[rect, other]")
// and a, b, c... otherwise. It takes two observed inputs of the same
// length at least: one may be a list of any length that happens to be
// short.

// tupleMaxParts bounds the parts of a tuple bound as arguments.
const tupleMaxParts = 4

func tupleBinding(t task.Task, observed []any, floats bool) *dsl.Binding {
	if len(observed) < 2 {
		return nil
	}
	n := -1
	for _, in := range observed {
		l, ok := in.([]any)
		if !ok || len(l) < 2 || len(l) > tupleMaxParts || (n >= 0 && len(l) != n) {
			return nil
		}
		n = len(l)
	}
	names := givenNames(t.InputType, n)
	if names == nil {
		names = []string{"a", "b", "c", "d"}[:n]
	}
	b := &dsl.Binding{Floats: floats, Shape: "tuple", Names: names}
	structured := false
	for i := range n {
		vt, ok := valueType(observed, func(in any) any { return in.([]any)[i] }, floats)
		if !ok {
			return nil
		}
		structured = structured || vt != dsl.Int && vt != dsl.Float && vt != dsl.Str && vt != dsl.Bool
		b.Types = append(b.Types, vt)
	}
	if !structured {
		// Scalars only: the list binding sees them all at once.
		return nil
	}
	b.Line = strings.Join(b.Names, ", ") + " = input_data"
	for _, in := range observed {
		if _, err := b.Env(in); err != nil {
			return nil
		}
	}
	return b
}

// givenNames are the names a top-level bracket of the description gives
// n parts, as variables; nil when it names none, another number of
// them, or one that is not a name.
func givenNames(inputType string, n int) []string {
	m := inputs.NamesTupleRe.FindStringSubmatchIndex(inputType)
	if m == nil || !outside(inputType[:m[0]]) {
		return nil
	}
	given := strings.Split(inputType[m[2]:m[3]], ",")
	if len(given) != n || slices.ContainsFunc(given, func(g string) bool { return !identRe.MatchString(strings.TrimSpace(g)) }) {
		return nil
	}
	used := map[string]bool{}
	names := make([]string, n)
	for i, g := range given {
		names[i] = varName(g, used)
	}
	return names
}

// outside reports whether the text before a bracket closes every bracket
// it opens: the bracket names the input's own parts, not those of one of
// them ("two segments [[[x1, y1], [x2, y2]], ...]" names a point's).
func outside(before string) bool {
	return strings.Count(before, "[") == strings.Count(before, "]")
}
