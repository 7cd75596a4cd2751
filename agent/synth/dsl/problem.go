package dsl

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/reconstruct/reconstruct/task"
)

// Binding says how input_data is unpacked into the DSL's variables.
type Binding struct {
	Names  []string
	Types  []Type
	Line   string
	Floats bool
	// Shape is the structural shape used by proposals ("pairs", "list", ...).
	Shape string
	// Helper is Python source the binding line needs (tokens: the
	// conversion of one token), emitted before the function.
	Helper string
	// Keys, when set, are the keys of an input that is a JSON object (a
	// record), one a variable, in the variables' order: the variables
	// are read by key, not by position.
	Keys []string
	// Parts are the names the task's description gives the positions of
	// a list input of one length ("[balance, rate, years]" bound as xs),
	// when it names them: a sketch reading the positions as parameters
	// writes them so.
	Parts []string
}

// ErrUnsupported marks inputs or outputs that the DSL's values cannot
// hold.
var ErrUnsupported = errors.New("input shape not supported by the DSL")

// HasFloatLiteral reports whether a decoded JSON value holds a number
// written as a float.
func HasFloatLiteral(v any) bool {
	switch x := v.(type) {
	case json.Number:
		return !IsIntNumber(x)
	case []any:
		for _, e := range x {
			if HasFloatLiteral(e) {
				return true
			}
		}
	}
	return false
}

// ShortJSON writes a value as JSON, cut for messages.
func ShortJSON(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 60 {
		return string(b[:60]) + "..."
	}
	return string(b)
}

// Env converts one decoded input to the variables' values.
func (b *Binding) Env(in any) ([]any, error) {
	if b.Shape == "tokens" {
		toks, ok := TokenList(in)
		if !ok {
			return nil, fmt.Errorf("%w: %s is not a list of tokens", ErrUnsupported, ShortJSON(in))
		}
		return []any{toks}, nil
	}
	vals := []any{in}
	if b.Keys != nil {
		rec, good := in.(map[string]any)
		if !good || len(rec) != len(b.Keys) {
			return nil, fmt.Errorf("%w: expected an object with the keys %v in %s", ErrUnsupported, b.Keys, ShortJSON(in))
		}
		vals = make([]any, len(b.Keys))
		for i, k := range b.Keys {
			if vals[i], good = rec[k]; !good {
				return nil, fmt.Errorf("%w: no key %q in %s", ErrUnsupported, k, ShortJSON(in))
			}
		}
	} else if len(b.Names) > 1 {
		list, good := in.([]any)
		if !good || len(list) != len(b.Names) {
			return nil, fmt.Errorf("%w: expected %d parts in %s", ErrUnsupported, len(b.Names), ShortJSON(in))
		}
		vals = list
	}
	out := make([]any, len(vals))
	for i, v := range vals {
		c, good := FromJSON(v, b.Floats)
		if !good {
			return nil, fmt.Errorf("%w: %s", ErrUnsupported, ShortJSON(v))
		}
		c = coerce(c, b.Types[i])
		if t, _ := TypeOf(c); t != b.Types[i] {
			return nil, fmt.Errorf("%w: %s is not a %s", ErrUnsupported, ShortJSON(v), b.Types[i])
		}
		out[i] = c
	}
	return out, nil
}

// coerce converts a value to a wanted type where Python would treat them
// alike (an empty list, an int among floats).
func coerce(v any, want Type) any {
	switch want {
	case Float:
		if i, good := v.(int64); good {
			return float64(i)
		}
	case ListFloat:
		if l, good := v.([]int64); good {
			out := make([]float64, len(l))
			for i, x := range l {
				out[i] = float64(x)
			}
			return out
		}
	case ListPair, ListStr, ListBool:
		if l, good := v.([]int64); good && len(l) == 0 {
			switch want {
			case ListPair:
				return []Pair{}
			case ListStr:
				return []string{}
			default:
				return []bool{}
			}
		}
	}
	return v
}

// Problem is a Write request decoded for the enumerator.
type Problem struct {
	B    *Binding
	Envs [][]any
	Outs []any
	// Out is the output type; ok lists the program types that may match it.
	Out Type
	Ok  []Type
	// Round is the number of decimals float outputs are rounded to, or -1.
	Round int
	// Mined are the integers written in the task's text (minedConsts).
	Mined []int64
	// Consts are further constants of programs (a sketch's hole: the
	// few strings its outputs take).
	Consts []any
	// Nullable says some outputs are null: a program matches them by
	// failing (Python raising), and the emitted function returns None
	// where it raises.
	Nullable bool
	// Labels are the distinct outputs when they are a few repeated strings
	// (setLabels); LabelOf is each example's label.
	Labels  []any
	LabelOf []int8
	// Render, when set, says the outputs are numbers written as texts in
	// that format (a template's hole: "442.20", "25.0"): a program's value
	// matches when the format writes it as Texts[i], exactly.
	Render *Format
	Texts  []string
	// comps are the decoded outputs of each component when every output
	// is a list of one fixed length; Parts their problems (Components).
	comps [][]any
	Parts []*Problem
	// Object says the outputs are JSON objects (an object of counts per
	// word, say): each is searched as the pair of its keys in sorted
	// order and their values, a problem of two components, and the
	// emitted function returns dict(zip(keys, values)) (objectPairs).
	Object bool
	// Keys, when set, says the outputs are records: objects with these
	// keys every time, each key's value a component of its own, and the
	// emitted function returns the object {key: component, ...}
	// (recordRows).
	Keys []string
}

// SetOutputs converts the outputs to one DSL type.
func (p *Problem) SetOutputs(outs []any) error {
	if keys, rows := recordRows(outs); rows != nil {
		p.Keys = keys
		p.comps, p.Parts = components(rows), nil
		return p.setTuple()
	}
	if pairs := objectPairs(outs); pairs != nil {
		p.Object = true
		p.comps, p.Parts = components(pairs), nil
		return p.setTuple()
	}
	if o, ok := firstObject(outs); ok {
		return fmt.Errorf("%w: output %s: objects are searched when they have the same keys every time or values of one kind (numbers, strings, booleans or lists), none null", ErrUnsupported, ShortJSON(o))
	}
	p.comps, p.Parts = components(outs), nil
	if p.comps != nil && mixedComponents(p.comps) {
		return p.setTuple()
	}
	floats, shown := false, false
	maxDec := 0
	for _, o := range outs {
		if HasFloatLiteral(o) {
			floats = true
		}
		maxDec = max(maxDec, decimals(o))
		shown = shown || roundingShown(o)
	}
	var typ Type
	have := false
	conv := make([]any, len(outs))
	for i, o := range outs {
		if o == nil {
			conv[i], p.Nullable = ErrV, true
			continue
		}
		v, good := FromJSON(o, floats)
		if !good {
			if p.comps != nil {
				return p.setTuple()
			}
			return fmt.Errorf("%w: output %s", ErrUnsupported, ShortJSON(o))
		}
		conv[i] = v
	}
	// Empty lists take the type of the other outputs.
	for _, v := range conv {
		if IsErr(v) {
			continue
		}
		if l, good := v.([]int64); good && len(l) == 0 {
			continue
		}
		if l, good := v.([]float64); good && len(l) == 0 {
			continue
		}
		t, _ := TypeOf(v)
		if have && t != typ {
			if p.comps != nil {
				return p.setTuple()
			}
			return fmt.Errorf("%w: outputs of mixed types", ErrUnsupported)
		}
		typ, have = t, true
	}
	if !have {
		typ = ListInt
		if floats {
			typ = ListFloat
		}
	}
	if p.Nullable && allErr(conv) {
		return fmt.Errorf("%w: every output is null", ErrUnsupported)
	}
	for i := range conv {
		if !IsErr(conv[i]) {
			conv[i] = coerce(conv[i], typ)
		}
	}
	p.Outs, p.Out = conv, typ
	switch typ {
	case Int, Float:
		p.Ok = []Type{Int, Float}
	case ListInt, ListFloat:
		p.Ok = []Type{ListInt, ListFloat}
	default:
		p.Ok = []Type{typ}
	}
	switch {
	case !floats || maxDec > maxShownDecimals:
	case shown:
		p.Round = maxDec
	case maxDec <= 6:
		p.Round = 6
	}
	p.setLabels()
	return nil
}

// allErr reports whether every value is an error (a null output).
func allErr(vals []any) bool {
	for _, v := range vals {
		if !IsErr(v) {
			return false
		}
	}
	return true
}

// maxShownDecimals bounds the decimals of outputs read as rounded: an
// output written with more is taken as the exact value of a computation.
const maxShownDecimals = 10

// roundingShown reports whether a number in v is written with a few
// decimals that no short binary fraction has (0.1127, 46.4; not 0.75):
// outputs that are all written with at most d decimals, one of them such,
// are read as rounded to d decimals. A float computed exactly rarely has
// so short a decimal form unless it is a sum of halves, quarters, eighths.
// Dyadic ones (0.5, 0.927001953125) say nothing: they are as likely exact.
func roundingShown(v any) bool {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		i := strings.IndexByte(s, '.')
		if i < 0 || strings.ContainsAny(s, "eE") {
			return false
		}
		frac := strings.TrimRight(s[i+1:], "0")
		if frac == "" || len(frac) > maxShownDecimals {
			return false
		}
		f, err := strconv.ParseInt(frac, 10, 64)
		if err != nil {
			return false
		}
		// frac / 10^d is a binary fraction exactly when 5^d divides frac.
		for range len(frac) {
			if f%5 != 0 {
				return true
			}
			f /= 5
		}
		return false
	case []any:
		for _, e := range x {
			if roundingShown(e) {
				return true
			}
		}
	}
	return false
}

// decimals returns the most decimal places of any float in v.
func decimals(v any) int {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if strings.ContainsAny(s, "eE") {
			return 99
		}
		if i := strings.IndexByte(s, '.'); i >= 0 {
			return len(s) - i - 1
		}
	case []any:
		m := 0
		for _, e := range x {
			m = max(m, decimals(e))
		}
		return m
	}
	return 0
}

// Rounded applies the problem's output rounding to a program value as
// the emitted program's round(v, n) does (a value it cannot round is
// left as it is). The kernels' columns are judged with a faster rounding
// (matchesColAt) that differs from it only on a tie's last bit; the
// program a search returns is judged with this one.
func (p *Problem) Rounded(v any) any {
	if p.Round < 0 {
		return v
	}
	switch x := v.(type) {
	case float64:
		if r, good := roundTo(x, int64(p.Round)); good {
			return r
		}
	case []float64:
		out := make([]float64, len(x))
		for i, f := range x {
			r, good := roundTo(f, int64(p.Round))
			if !good {
				return v
			}
			out[i] = r
		}
		return out
	}
	return v
}

// RoundFor returns the rounding a program with these values on the
// examples must be emitted with: the problem's when some example matches
// only once rounded, none (-1) otherwise. A program whose values are the
// outputs exactly is not rounded: a rounding the examples did not need
// would be wrong wherever the hidden program's results are longer.
func (p *Problem) RoundFor(vals []any) int {
	if p.Round < 0 {
		return -1
	}
	for i := range p.Outs {
		if i < len(vals) && !IsErr(p.Outs[i]) && !IsErr(vals[i]) && !EqualTo(vals[i], p.Outs[i], task.DefaultAtol) && p.MatchesAt(i, vals[i]) {
			return p.Round
		}
	}
	return -1
}

// MatchesAt reports whether v, a program's value on example i, is right
// there: the output, or a failure where the output is null.
func (p *Problem) MatchesAt(i int, v any) bool {
	want, got := p.Outs[i], p.Rounded(v)
	if IsErr(want) {
		return IsErr(got)
	}
	if p.Render != nil {
		s, good := p.Render.Write(v)
		return good && s == p.Texts[i]
	}
	return !IsErr(got) && EqualTo(got, want, task.DefaultAtol)
}

// matchesColAt is MatchesAt for the value on example i of a program's
// typed values, without boxing a scalar.
func (p *Problem) matchesColAt(col Vec, i int) bool {
	want := p.Outs[i]
	if col.Bad != nil && col.Bad[i] {
		return IsErr(want)
	}
	switch c := col.Data.(type) {
	case []int64:
		if p.Render != nil {
			s, good := p.Render.Write(c[i])
			return good && s == p.Texts[i]
		}
		switch w := want.(type) {
		case int64:
			return c[i] == w
		case float64:
			return math.Abs(float64(c[i])-w) <= task.DefaultAtol
		}
		return false
	case []bool:
		w, good := want.(bool)
		return good && w == c[i]
	case []string:
		w, good := want.(string)
		return good && w == c[i]
	case []float64:
		v := c[i]
		if p.Render != nil {
			s, good := p.Render.Write(v)
			return good && s == p.Texts[i]
		}
		if p.Round >= 0 {
			scale := math.Pow(10, float64(p.Round))
			v = math.RoundToEven(v*scale) / scale
		}
		switch w := want.(type) {
		case int64:
			return math.Abs(v-float64(w)) <= task.DefaultAtol
		case float64:
			return floatEq(v, w, task.DefaultAtol)
		}
		return false
	case [][]float64:
		return !IsErr(want) && EqualTo(p.Rounded(c[i]), want, task.DefaultAtol)
	case [][]int64:
		return !IsErr(want) && EqualTo(c[i], want, task.DefaultAtol)
	case [][]bool:
		return !IsErr(want) && EqualTo(c[i], want, task.DefaultAtol)
	case [][]string:
		return !IsErr(want) && EqualTo(c[i], want, task.DefaultAtol)
	case [][]Pair:
		return !IsErr(want) && EqualTo(c[i], want, task.DefaultAtol)
	}
	return false
}

// MatchesCol is matches over a program's typed values.
func (p *Problem) MatchesCol(col Vec) (bits []uint64, n int) {
	bits = make([]uint64, (len(p.Outs)+63)/64)
	for i := range p.Outs {
		if p.matchesColAt(col, i) {
			bits[i/64] |= 1 << (i % 64)
			n++
		}
	}
	return bits, n
}

// AllMatchCol is AllMatch over a program's typed values.
func (p *Problem) AllMatchCol(col Vec) bool {
	for i := range p.Outs {
		if !p.matchesColAt(col, i) {
			return false
		}
	}
	return true
}

// Matches returns the bitset of examples a program's values get right.
func (p *Problem) Matches(vals []any) (bits []uint64, n int) {
	bits = make([]uint64, (len(p.Outs)+63)/64)
	for i := range p.Outs {
		if p.MatchesAt(i, vals[i]) {
			bits[i/64] |= 1 << (i % 64)
			n++
		}
	}
	return bits, n
}

// AllMatch is the fast path of matches: does the program pass everything?
func (p *Problem) AllMatch(vals []any) bool {
	for i := range p.Outs {
		if !p.MatchesAt(i, vals[i]) {
			return false
		}
	}
	return true
}

// OkType reports whether programs of type t may match the outputs.
func (p *Problem) OkType(t Type) bool {
	for _, o := range p.Ok {
		if o == t {
			return true
		}
	}
	return false
}

// TokenList converts an input to its tokens' texts.
func TokenList(in any) ([]string, bool) {
	xs, ok := in.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		switch t := x.(type) {
		case []any:
			if len(t) == 0 {
				return nil, false
			}
			if _, head := t[0].(string); !head {
				return nil, false
			}
			parts := make([]string, len(t))
			for j, p := range t {
				s, ok := tokenText(p)
				if !ok {
					return nil, false
				}
				parts[j] = s
			}
			out[i] = strings.Join(parts, " ")
		default:
			s, ok := tokenText(x)
			if !ok {
				return nil, false
			}
			out[i] = s
		}
	}
	return out, true
}

// tokenText is Python's str of an integer or a string without spaces.
func tokenText(v any) (string, bool) {
	switch x := v.(type) {
	case json.Number:
		if !IsIntNumber(x) {
			return "", false
		}
		var n int64
		if _, err := fmt.Sscan(string(x), &n); err != nil {
			return "", false
		}
		return fmt.Sprint(n), true
	case string:
		return x, x != "" && !strings.ContainsAny(x, " \t\n")
	}
	return "", false
}
