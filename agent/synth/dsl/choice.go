package dsl

import (
	"strconv"
	"strings"
)

// Choices: operators that name a computed value by one of a few labels,
// a table of the values the examples showed or intervals of a number,
// and the choice of one of several programs by such a label (a template
// per kind of output).

// Choice is how an operator names its argument's value by a label: by a
// table (Keys[i] is named Labels[i]; a value no example showed raises) or,
// when Cuts is set, by intervals (a value below Cuts[0], or at most
// Cuts[0] when Le[0], is Labels[0], and so on; beyond the last cut the
// last label).
type Choice struct {
	Keys   []any
	Cuts   []float64
	Le     []bool
	Labels []any
}

// Index is the position of the label v is named by, or -1 (a table's
// value no example showed, a value of no number type).
func (c *Choice) Index(v any) int {
	if c.Cuts == nil {
		return IndexOf(c.Keys, v)
	}
	var x float64
	switch t := v.(type) {
	case int64:
		x = float64(t)
	case float64:
		x = t
	default:
		return -1
	}
	if x != x {
		return -1 // NaN compares below nothing
	}
	for i, cut := range c.Cuts {
		if x < cut || c.Le[i] && x == cut {
			return i
		}
	}
	return len(c.Cuts)
}

// Py renders the choice of one of branch (one per label) by the value
// code v, evaluating only the branch chosen: "a if v else b" for a truth
// value, "a if v < 60 else b if v < 70 else c" for intervals, and a chain
// of equalities for a table, where a value no example showed raises.
func (c *Choice) Py(e *Emitter, v Code, branch []Code) Code {
	n := len(c.Labels)
	var sb strings.Builder
	cond := func(i int) string {
		if c.Cuts != nil {
			if c.Le[i] {
				return cmpop(v, "<=", numCode(c.Cuts[i])).S
			}
			return cmpop(v, "<", numCode(c.Cuts[i])).S
		}
		if b, ok := c.Keys[i].(bool); ok {
			if b {
				return v.At(POr)
			}
			return Code{"not " + v.At(pNot), pNot}.S
		}
		return cmpop(v, "==", ConstCode(c.Keys[i])).S
	}
	last := n - 1
	if c.Cuts == nil {
		if _, ok := c.Keys[0].(bool); !ok {
			last = n // a table: every label is tested, the rest raises
		}
	}
	for i := 0; i < last; i++ {
		sb.WriteString(branch[i].At(POr) + " if " + cond(i) + " else ")
	}
	if last == n {
		e.helper("unseen", pyUnseen)
		sb.WriteString(Call("unseen", v).S)
	} else {
		sb.WriteString(branch[last].At(PTern))
	}
	return Code{sb.String(), PTern}
}

// pyUnseen raises for a value the examples never showed, as the table
// the synthesizer learned has no label for it.
const pyUnseen = `def unseen(value):
    raise ValueError("no example showed %r" % (value,))`

// numCode writes a cut as Python: an integer when it is one.
func numCode(x float64) Code {
	if x == float64(int64(x)) && x < 1e15 && x > -1e15 {
		return ConstCode(int64(x))
	}
	return ConstCode(x)
}

// IntervalsOp names a number (of type t) by the interval it falls in:
// below cuts[0] (at most cuts[0] when le[0]) labels[0], and so on, the
// last label beyond the last cut.
func IntervalsOp(t Type, cuts []float64, le []bool, labels []any) *Operator {
	c := &Choice{Cuts: cuts, Le: le, Labels: labels}
	var name strings.Builder
	name.WriteString("intervals{")
	for i, l := range labels {
		if i > 0 {
			op := " < "
			if le[i-1] {
				op = " <= "
			}
			name.WriteString(op + strconv.FormatFloat(cuts[i-1], 'g', -1, 64) + " ")
		}
		name.Write(ToJSON(l))
	}
	name.WriteString("}")
	return &Operator{Name: name.String(), Fam: FamScalar, Args: Types(t), Ret: Str, Cost: 1, Choice: c,
		Eval: func(_ *Lambda, a []any) any {
			if i := c.Index(a[0]); i >= 0 {
				return labels[i]
			}
			return ErrV
		},
		Py: func(e *Emitter, _ *Lambda, a []Code) Code {
			branch := make([]Code, len(labels))
			for i, l := range labels {
				branch[i] = ConstCode(l)
			}
			return c.Py(e, a[0], branch)
		}}
}

// ChooseOp picks one of several programs by a label: its first argument
// is the value a choice names (the program under a table or intervals
// operator), the others the programs, one per label, of the choice's
// order. Only the chosen program counts: the others may fail there.
func ChooseOp(c *Choice, t Type, ret Type) *Operator {
	args := []Type{t}
	for range c.Labels {
		args = append(args, ret)
	}
	return &Operator{Name: "choose", Fam: famCond, Args: args, Ret: ret, Cost: 1, Lazy: true,
		Eval: func(_ *Lambda, a []any) any {
			if IsErr(a[0]) {
				return ErrV
			}
			i := c.Index(a[0])
			if i < 0 {
				return ErrV
			}
			return a[1+i]
		},
		Py: func(e *Emitter, _ *Lambda, a []Code) Code { return c.Py(e, a[0], a[1:]) }}
}

// ConcatOp writes fixed texts around its arguments (strings):
// texts[0] + a0 + texts[1] + a1 + ... + texts[n]; a template's join.
func ConcatOp(texts []string) *Operator {
	n := len(texts) - 1
	args := make([]Type, n)
	for i := range args {
		args[i] = Str
	}
	var name strings.Builder
	name.WriteString("template{")
	for i, s := range texts {
		if i > 0 {
			name.WriteString("_")
		}
		name.WriteString(strconv.Quote(s))
	}
	name.WriteString("}")
	return &Operator{Name: name.String(), Fam: FamScalar, Args: args, Ret: Str, Cost: 1,
		Eval: func(_ *Lambda, a []any) any {
			var sb strings.Builder
			sb.WriteString(texts[0])
			for i, v := range a {
				s, ok := v.(string)
				if !ok {
					return ErrV
				}
				sb.WriteString(s)
				sb.WriteString(texts[i+1])
			}
			return sb.String()
		},
		Py: func(_ *Emitter, _ *Lambda, a []Code) Code {
			var parts []string
			for i, s := range texts {
				if s != "" {
					parts = append(parts, ConstCode(s).S)
				}
				if i < n {
					parts = append(parts, a[i].At(pAdd+1))
				}
			}
			if len(parts) == 0 {
				return Atom(`""`)
			}
			if len(parts) == 1 && n == 1 && texts[0] == "" && texts[1] == "" {
				return a[0]
			}
			return Code{strings.Join(parts, " + "), pAdd}
		}}
}
