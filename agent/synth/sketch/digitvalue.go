package sketch

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The digit-value lift: numbers written as lists of digits are read as
// the numbers they are, in base b and either digit order, and the task
// becomes one over those numbers (and the other inputs, such as the base
// itself): a comparison, a sum, a difference. The scalar function is
// searched by the enumerator as a hole on the numbers; a list output is
// read back as a number the same way, and written out with the length
// rule the examples show (no leading zeros, at least as many digits as
// the inputs, or always one more). Where the digit-loop sketch
// (digits.go) follows the carry digit by digit, this
// one changes representation, so that any operation the DSL knows on
// numbers is in reach.

// digitValue is one reading of the digit lists: base (a constant, or the
// integer variable baseVar when >= 0) and order.
type digitValue struct {
	msbFirst bool
	base     int64
	baseVar  int
}

// baseOf returns the base in an environment.
func (d digitValue) baseOf(env []any) int64 {
	if d.baseVar >= 0 {
		return env[d.baseVar].(int64)
	}
	return d.base
}

// Value reads a digit list as the number sum(d * base**i), i counted from
// the least significant digit (0 for an empty list), or fails on an
// overflow.
func (d digitValue) Value(ds []int64, base int64) (int64, bool) {
	if base < 2 || len(ds) > 62 {
		return 0, false
	}
	v := int64(0)
	for i := range ds {
		x := ds[i]
		if !d.msbFirst {
			x = ds[len(ds)-1-i]
		}
		var ok bool
		if v, ok = dsl.MulI(v, base); !ok {
			return 0, false
		}
		if v, ok = dsl.AddI(v, x); !ok {
			return 0, false
		}
	}
	return v, true
}

// digitsLen rules for a list output.
const (
	digitsNatural = iota // no leading zeros (one digit for 0)
	digitsPadN           // at least as many digits as the longest input
	digitsPadN1          // at least one more than the longest input
	numDigitsLens
)

var digitsLenNames = []string{"natural", "pad_n", "pad_n+1"}

// digits writes v in base, least significant first, with at least
// MinLen digits.
func digitsIn(v, base int64, minLen int) []int64 {
	var out []int64
	for v > 0 || len(out) < max(minLen, 1) {
		out = append(out, v%base)
		v /= base
	}
	return out
}

// digitVars describes the problem's variables for the lift: the digit
// lists (indexes) and the others.
type digitVars struct {
	lists, others []int
}

func newDigitVars(p *dsl.Problem) (digitVars, bool) {
	var dv digitVars
	for i, t := range p.B.Types {
		switch t {
		case dsl.ListInt:
			dv.lists = append(dv.lists, i)
		case dsl.Int:
			dv.others = append(dv.others, i)
		default:
			return dv, false
		}
	}
	return dv, len(dv.lists) >= 1 && len(dv.lists) <= 2 && len(dv.others) <= 1
}

// DigitValue tries the lift on problems whose inputs are one or two
// lists of digits (and at most one integer) and whose output is a number,
// a truth value or a list of digits.
func DigitValue(en *Search, p *dsl.Problem, share float64, consider func(*dsl.Node, []any) bool) bool {
	if p.Nullable || len(p.Outs) < 2 || (p.Out != dsl.Int && p.Out != dsl.Bool && p.Out != dsl.ListInt) || en.Stopped {
		return false
	}
	dv, ok := newDigitVars(p)
	if !ok {
		return false
	}
	top := int64(0)
	for _, env := range en.Envs {
		for _, i := range dv.lists {
			for _, x := range env[i].([]int64) {
				if x < 0 {
					return false
				}
				top = max(top, x)
			}
		}
	}
	var readings []digitValue
	for _, msb := range []bool{false, true} {
		for _, v := range dv.others {
			readings = append(readings, digitValue{msbFirst: msb, baseVar: v})
		}
		for b := max(top+1, 2); b <= 10; b++ {
			readings = append(readings, digitValue{msbFirst: msb, base: b, baseVar: -1})
		}
	}
	until := time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * share))
	for j, d := range readings {
		left := time.Until(until)
		if left <= 0 || en.interrupted() {
			return false
		}
		sub, lens, good := digitSubproblem(p, dv, d)
		if !good {
			continue
		}
		fn := en.holeSearch(sub, time.Now().Add(left/time.Duration(len(readings)-j)), en.Done, 6, en.MemLimit/4, false, false)
		if fn == nil {
			continue
		}
		for _, l := range lens {
			if offer(en, digitValueNode(p, dv, d, fn, l), consider) {
				return true
			}
		}
	}
	return false
}

// numbers reads an environment as the hole's: the numbers the digit
// lists stand for, then the other integers; with the base and the
// longest list's length.
func (d digitValue) numbers(dv digitVars, env []any) (vals []any, base int64, n int, ok bool) {
	if base = d.baseOf(env); base < 2 || base > 36 {
		return nil, 0, 0, false
	}
	for _, i := range dv.lists {
		ds := env[i].([]int64)
		v, good := d.Value(ds, base)
		if !good {
			return nil, 0, 0, false
		}
		n = max(n, len(ds))
		vals = append(vals, v)
	}
	for _, i := range dv.others {
		vals = append(vals, env[i])
	}
	return vals, base, n, true
}

// digitSubproblem is the problem over the numbers the lists stand for,
// with the length rules a list output allows.
func digitSubproblem(p *dsl.Problem, dv digitVars, d digitValue) (*dsl.Problem, []int, bool) {
	sub := &dsl.Problem{B: &dsl.Binding{}, Round: -1, Mined: p.Mined}
	for k := range dv.lists {
		sub.B.Names = append(sub.B.Names, []string{"a", "b"}[k])
		sub.B.Types = append(sub.B.Types, dsl.Int)
	}
	for _, i := range dv.others {
		sub.B.Names = append(sub.B.Names, p.B.Names[i])
		sub.B.Types = append(sub.B.Types, dsl.Int)
	}
	// The inputs' width first: digit arithmetic mostly keeps it.
	lens := []int{digitsPadN, digitsPadN1, digitsNatural}
	for e, env := range p.Envs {
		senv, base, n, ok := d.numbers(dv, env)
		if !ok {
			return nil, nil, false
		}
		sub.Envs = append(sub.Envs, senv)
		out := p.Outs[e]
		if p.Out == dsl.ListInt {
			ds := out.([]int64)
			v, ok := d.Value(ds, base)
			if !ok {
				return nil, nil, false
			}
			var keep []int
			for _, l := range lens {
				if slices.Equal(d.write(v, base, l, n), ds) {
					keep = append(keep, l)
				}
			}
			if lens = keep; len(lens) == 0 {
				return nil, nil, false
			}
			out = v
		}
		sub.Outs = append(sub.Outs, out)
	}
	sub.Out = p.Out
	if p.Out == dsl.ListInt {
		sub.Out = dsl.Int
	}
	sub.Ok = []dsl.Type{sub.Out}
	if p.Out != dsl.ListInt {
		lens = []int{digitsNatural}
	}
	return sub, lens, true
}

// write renders v as a digit list of the reading's order under length
// rule l, n being the longest input's length.
func (d digitValue) write(v, base int64, l, n int) []int64 {
	minLen := 1
	switch l {
	case digitsPadN:
		minLen = n
	case digitsPadN1:
		minLen = n + 1
	}
	out := digitsIn(v, base, minLen)
	if d.msbFirst {
		out = dsl.Reversed(nil, out)
	}
	return out
}

// digitValueNode is the whole program: read the numbers, apply fn, and
// for a list output write the result back as digits.
func digitValueNode(p *dsl.Problem, dv digitVars, d digitValue, fn *dsl.Node, l int) *dsl.Node {
	name := fmt.Sprintf("digit_value[%+v,%s:%s]", d, digitsLenNames[l], fn)
	listOut := p.Out == dsl.ListInt
	op := &dsl.Operator{Name: name, Args: p.B.Types, Ret: p.Out, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any {
			env, base, n, ok := d.numbers(dv, a)
			if !ok {
				return dsl.ErrV
			}
			v := dsl.EvalSafe(fn, env)
			if !listOut || dsl.IsErr(v) {
				return v
			}
			x, ok := v.(int64)
			if !ok || x < 0 {
				return dsl.ErrV
			}
			return d.write(x, base, l, n)
		},
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("digit_value", p.B.Names, d.python(e, p, dv, fn, l)), a...)
		}}
	return overVars(p, op, 4+fn.Size)
}

// python renders the helper's body: the numbers, the function, the
// digits written back.
func (d digitValue) python(e *dsl.Emitter, p *dsl.Problem, dv digitVars, fn *dsl.Node, l int) string {
	var sb strings.Builder
	base := fmt.Sprint(d.base)
	if d.baseVar >= 0 {
		base = p.B.Names[d.baseVar]
	}
	var vars []dsl.Code
	for k, i := range dv.lists {
		name := []string{"a", "b"}[k]
		list := p.B.Names[i]
		digits := list
		if d.msbFirst {
			digits = "reversed(" + list + ")"
		}
		fmt.Fprintf(&sb, "    %s_ = sum(dig * %s ** pos for pos, dig in enumerate(%s))\n", name, base, digits)
		vars = append(vars, dsl.Atom(name+"_"))
	}
	for _, i := range dv.others {
		vars = append(vars, dsl.Atom(p.B.Names[i]))
	}
	expr := e.Node(fn, vars)
	if p.Out != dsl.ListInt {
		fmt.Fprintf(&sb, "    return %s\n", expr.S)
		return sb.String()
	}
	fmt.Fprintf(&sb, "    t = %s\n", expr.S)
	switch l {
	case digitsNatural:
		sb.WriteString("    width = 1\n")
	case digitsPadN, digitsPadN1:
		var lens []string
		for _, i := range dv.lists {
			lens = append(lens, "len("+p.B.Names[i]+")")
		}
		w := lens[0]
		if len(lens) > 1 {
			w = "max(" + strings.Join(lens, ", ") + ")"
		}
		if l == digitsPadN1 {
			w += " + 1"
		}
		fmt.Fprintf(&sb, "    width = %s\n", w)
	}
	sb.WriteString("    if t < 0:\n        raise ValueError(\"negative result\")\n")
	sb.WriteString("    out = []\n")
	fmt.Fprintf(&sb, "    while t > 0 or len(out) < width:\n        out.append(t %% %s)\n        t //= %s\n", base, base)
	if d.msbFirst {
		sb.WriteString("    return out[::-1]\n")
	} else {
		sb.WriteString("    return out\n")
	}
	return sb.String()
}
