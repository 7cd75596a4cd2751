package synth

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/reconstruct/reconstruct/task"
)

// binding says how input_data is unpacked into the DSL's variables.
type binding struct {
	names  []string
	types  []valType
	line   string
	floats bool
	// shape is the structural shape used by proposals ("pairs", "list", ...).
	shape string
	// helper is Python source the binding line needs (tokens: the
	// conversion of one token), emitted before the function.
	helper string
}

var errUnsupported = errors.New("input shape not supported by the DSL")

func hasFloatLiteral(v any) bool {
	switch x := v.(type) {
	case json.Number:
		return !isIntNumber(x)
	case []any:
		for _, e := range x {
			if hasFloatLiteral(e) {
				return true
			}
		}
	}
	return false
}

func shortJSON(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 60 {
		return string(b[:60]) + "..."
	}
	return string(b)
}

// env converts one decoded input to the variables' values.
func (b *binding) env(in any) ([]any, error) {
	if b.shape == "tokens" {
		toks, ok := tokenList(in)
		if !ok {
			return nil, fmt.Errorf("%w: %s is not a list of tokens", errUnsupported, shortJSON(in))
		}
		return []any{toks}, nil
	}
	vals := []any{in}
	if len(b.names) > 1 {
		list, good := in.([]any)
		if !good || len(list) != len(b.names) {
			return nil, fmt.Errorf("%w: expected %d parts in %s", errUnsupported, len(b.names), shortJSON(in))
		}
		vals = list
	}
	out := make([]any, len(vals))
	for i, v := range vals {
		c, good := fromJSON(v, b.floats)
		if !good {
			return nil, fmt.Errorf("%w: %s", errUnsupported, shortJSON(v))
		}
		c = coerce(c, b.types[i])
		if t, _ := typeOf(c); t != b.types[i] {
			return nil, fmt.Errorf("%w: %s is not a %s", errUnsupported, shortJSON(v), b.types[i])
		}
		out[i] = c
	}
	return out, nil
}

// coerce converts a value to a wanted type where Python would treat them
// alike (an empty list, an int among floats).
func coerce(v any, want valType) any {
	switch want {
	case tFloat:
		if i, good := v.(int64); good {
			return float64(i)
		}
	case tListFloat:
		if l, good := v.([]int64); good {
			out := make([]float64, len(l))
			for i, x := range l {
				out[i] = float64(x)
			}
			return out
		}
	case tListPair, tListStr, tListBool:
		if l, good := v.([]int64); good && len(l) == 0 {
			switch want {
			case tListPair:
				return []pair{}
			case tListStr:
				return []string{}
			default:
				return []bool{}
			}
		}
	}
	return v
}

// problem is a Write request decoded for the enumerator.
type problem struct {
	b    *binding
	envs [][]any
	outs []any
	// out is the output type; ok lists the program types that may match it.
	out valType
	ok  []valType
	// round is the number of decimals float outputs are rounded to, or -1.
	round int
	// mined are the integers written in the task's text (minedConsts).
	mined []int64
	// consts are further constants of programs (a sketch's hole: the
	// few strings its outputs take).
	consts []any
	// nullable says some outputs are null: a program matches them by
	// failing (Python raising), and the emitted function returns None
	// where it raises.
	nullable bool
	// labels are the distinct outputs when they are a few repeated strings
	// (setLabels); labelOf is each example's label.
	labels  []any
	labelOf []int8
}

// setOutputs converts the outputs to one DSL type.
func (p *problem) setOutputs(outs []any) error {
	floats := false
	maxDec := 0
	for _, o := range outs {
		if hasFloatLiteral(o) {
			floats = true
		}
		maxDec = max(maxDec, decimals(o))
	}
	var typ valType
	have := false
	conv := make([]any, len(outs))
	for i, o := range outs {
		if o == nil {
			conv[i], p.nullable = errV, true
			continue
		}
		v, good := fromJSON(o, floats)
		if !good {
			return fmt.Errorf("%w: output %s", errUnsupported, shortJSON(o))
		}
		conv[i] = v
	}
	// Empty lists take the type of the other outputs.
	for _, v := range conv {
		if isErr(v) {
			continue
		}
		if l, good := v.([]int64); good && len(l) == 0 {
			continue
		}
		if l, good := v.([]float64); good && len(l) == 0 {
			continue
		}
		t, _ := typeOf(v)
		if have && t != typ {
			return fmt.Errorf("%w: outputs of mixed types", errUnsupported)
		}
		typ, have = t, true
	}
	if !have {
		typ = tListInt
		if floats {
			typ = tListFloat
		}
	}
	if p.nullable && allErr(conv) {
		return fmt.Errorf("%w: every output is null", errUnsupported)
	}
	for i := range conv {
		if !isErr(conv[i]) {
			conv[i] = coerce(conv[i], typ)
		}
	}
	p.outs, p.out = conv, typ
	switch typ {
	case tInt, tFloat:
		p.ok = []valType{tInt, tFloat}
	case tListInt, tListFloat:
		p.ok = []valType{tListInt, tListFloat}
	default:
		p.ok = []valType{typ}
	}
	if floats && maxDec <= 6 {
		p.round = 6
	}
	p.setLabels()
	return nil
}

// allErr reports whether every value is an error (a null output).
func allErr(vals []any) bool {
	for _, v := range vals {
		if !isErr(v) {
			return false
		}
	}
	return true
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

// rounded applies the problem's output rounding to a program value.
func (p *problem) rounded(v any) any {
	if p.round < 0 {
		return v
	}
	scale := math.Pow(10, float64(p.round))
	// A fast rounding (the emitted program uses Python's round): results
	// are compared within atol afterwards.
	switch x := v.(type) {
	case float64:
		return math.RoundToEven(x*scale) / scale
	case []float64:
		out := make([]float64, len(x))
		for i, f := range x {
			out[i] = math.RoundToEven(f*scale) / scale
		}
		return out
	}
	return v
}

// matchesAt reports whether v, a program's value on example i, is right
// there: the output, or a failure where the output is null.
func (p *problem) matchesAt(i int, v any) bool {
	want, got := p.outs[i], p.rounded(v)
	if isErr(want) {
		return isErr(got)
	}
	return !isErr(got) && equalTo(got, want, task.DefaultAtol)
}

// matchesColAt is matchesAt for the value on example i of a program's
// typed values, without boxing a scalar.
func (p *problem) matchesColAt(col vec, i int) bool {
	want := p.outs[i]
	if col.bad != nil && col.bad[i] {
		return isErr(want)
	}
	switch c := col.data.(type) {
	case []int64:
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
		if p.round >= 0 {
			scale := math.Pow(10, float64(p.round))
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
		return !isErr(want) && equalTo(p.rounded(c[i]), want, task.DefaultAtol)
	case [][]int64:
		return !isErr(want) && equalTo(c[i], want, task.DefaultAtol)
	case [][]bool:
		return !isErr(want) && equalTo(c[i], want, task.DefaultAtol)
	case [][]string:
		return !isErr(want) && equalTo(c[i], want, task.DefaultAtol)
	case [][]pair:
		return !isErr(want) && equalTo(c[i], want, task.DefaultAtol)
	}
	return false
}

// matchesCol is matches over a program's typed values.
func (p *problem) matchesCol(col vec) (bits []uint64, n int) {
	bits = make([]uint64, (len(p.outs)+63)/64)
	for i := range p.outs {
		if p.matchesColAt(col, i) {
			bits[i/64] |= 1 << (i % 64)
			n++
		}
	}
	return bits, n
}

// allMatchCol is allMatch over a program's typed values.
func (p *problem) allMatchCol(col vec) bool {
	for i := range p.outs {
		if !p.matchesColAt(col, i) {
			return false
		}
	}
	return true
}

// matches returns the bitset of examples a program's values get right.
func (p *problem) matches(vals []any) (bits []uint64, n int) {
	bits = make([]uint64, (len(p.outs)+63)/64)
	for i := range p.outs {
		if p.matchesAt(i, vals[i]) {
			bits[i/64] |= 1 << (i % 64)
			n++
		}
	}
	return bits, n
}

// allMatch is the fast path of matches: does the program pass everything?
func (p *problem) allMatch(vals []any) bool {
	for i := range p.outs {
		if !p.matchesAt(i, vals[i]) {
			return false
		}
	}
	return true
}

func (p *problem) okType(t valType) bool {
	for _, o := range p.ok {
		if o == t {
			return true
		}
	}
	return false
}

// tokenList converts an input to its tokens' texts.
func tokenList(in any) ([]string, bool) {
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
		if !isIntNumber(x) {
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
