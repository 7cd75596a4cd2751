package sketch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The digit-loop sketch: numbers written as lists of digits in base b, one
// or two of them, combined digit by digit with a carry (or a borrow). Its
// holes are the digit order (least significant first or last), the base,
// the step t = alpha*x + beta*y + carry (with the carry's start value),
// whether a carry propagates at all, whether a final carry becomes a new
// digit, whether the output is the digits or the carries, and whether
// leading zeros are dropped. Every combination is checked against the
// examples (a few thousand, each a short loop); the first that fits is
// emitted as the loop it is.

// digitLoop is one filling of the sketch's holes.
type digitLoop struct {
	msbFirst    bool
	base        int64
	alpha, beta int64
	carry0      int64
	carries     bool // a carry propagates
	final       bool // a final carry is appended
	outCarry    bool // the output is the carry after each digit
	strip       bool // leading zeros are dropped (keeping one digit)
}

// run evaluates the loop on the digit lists (one or two).
func (d digitLoop) run(lists [][]int64) any {
	a := lists[0]
	var b []int64
	if len(lists) > 1 {
		b = lists[1]
	}
	if d.msbFirst {
		a, b = dsl.Reversed(nil, a), dsl.Reversed(nil, b)
	}
	n := max(len(a), len(b))
	out := make([]int64, 0, n+1)
	carry := d.carry0
	for i := range n {
		var x, y int64
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		t := d.alpha*x + d.beta*y + carry
		digit, _ := dsl.PyMod(t, d.base)
		carry = 0
		if d.carries {
			carry, _ = dsl.FloorDiv(t, d.base)
		}
		if d.outCarry {
			out = append(out, carry)
		} else {
			out = append(out, digit)
		}
	}
	if d.final && carry != 0 {
		out = append(out, carry)
	}
	if d.strip {
		for len(out) > 1 && out[len(out)-1] == 0 {
			out = out[:len(out)-1]
		}
	}
	if d.msbFirst {
		out = dsl.Reversed(nil, out)
	}
	return out
}

// digitLoops lists the fillings in the order they are tried: simpler
// first (no carry variations before carries, digits before carries).
func digitLoops(lists int, bases []int64) []digitLoop {
	betas := []int64{0}
	if lists == 2 {
		betas = []int64{1, -1, 0}
	}
	var out []digitLoop
	for _, outCarry := range []bool{false, true} {
		for _, msb := range []bool{false, true} {
			for _, base := range bases {
				for _, alpha := range []int64{1, 2} {
					for _, beta := range betas {
						for _, c0 := range []int64{0, 1} {
							for _, carries := range []bool{true, false} {
								for _, final := range []bool{true, false} {
									for _, strip := range []bool{false, true} {
										if !carries && (final || outCarry || c0 != 0) {
											continue
										}
										out = append(out, digitLoop{msbFirst: msb, base: base, alpha: alpha, beta: beta, carry0: c0,
											carries: carries, final: final, outCarry: outCarry, strip: strip})
									}
								}
							}
						}
					}
				}
			}
		}
	}
	return out
}

// Digits tries the digit-loop sketch when the inputs are one or two
// lists of non-negative integers and the output a list of integers.
func Digits(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if p.Out != dsl.ListInt || p.Nullable || len(p.B.Types) > 2 || len(p.Outs) < 2 {
		return false
	}
	for _, t := range p.B.Types {
		if t != dsl.ListInt {
			return false
		}
	}
	// The base exceeds every digit seen, inputs and outputs.
	top := int64(0)
	for _, env := range en.Envs {
		for _, l := range intLists(env) {
			for _, x := range l {
				if x < 0 {
					return false
				}
				top = max(top, x)
			}
		}
	}
	for _, o := range p.Outs {
		for _, x := range o.([]int64) {
			top = max(top, x)
		}
	}
	var bases []int64
	for b := max(top+1, 2); b <= 10; b++ {
		bases = append(bases, b)
	}
	for _, m := range p.Mined {
		if m > top && m > 10 && m <= 36 && !slices.Contains(bases, m) {
			bases = append(bases, m)
		}
	}
	return fillSketch(en, p, digitLoops(len(p.B.Types), bases), func(d digitLoop, env []any) any { return d.run(intLists(env)) },
		func(d digitLoop) *dsl.Node { return digitNode(p, d) }, consider)
}

// intLists returns the integer lists of an environment.
func intLists(env []any) [][]int64 {
	out := make([][]int64, len(env))
	for i, v := range env {
		out[i] = v.([]int64)
	}
	return out
}

// digitNode is the program of a filled digit loop over the list variables.
func digitNode(p *dsl.Problem, d digitLoop) *dsl.Node {
	name := fmt.Sprintf("digit_loop[%+v]", d)
	op := &dsl.Operator{Name: name, Args: p.B.Types, Ret: dsl.ListInt, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any {
			return d.run(intLists(a))
		},
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("digit_loop", p.B.Names, d.python(p.B.Names)), a...)
		}}
	return overVars(p, op, 8)
}

// python renders the body of the loop over the digit lists named lists.
func (d digitLoop) python(lists []string) string {
	var sb strings.Builder
	names := []string{"a", "b"}[:len(lists)]
	for i, l := range lists {
		if d.msbFirst {
			fmt.Fprintf(&sb, "    %s = %s[::-1]  # least significant digit first\n", names[i], l)
		} else {
			fmt.Fprintf(&sb, "    %s = list(%s)\n", names[i], l)
		}
	}
	if len(lists) == 2 {
		sb.WriteString("    n = max(len(a), len(b))\n")
		sb.WriteString("    a += [0] * (n - len(a))\n    b += [0] * (n - len(b))\n")
	}
	fmt.Fprintf(&sb, "    out, carry = [], %d\n", d.carry0)
	sb.WriteString("    for i in range(len(a)):\n")
	step := "a[i]"
	if d.alpha != 1 {
		step = fmt.Sprintf("%d * a[i]", d.alpha)
	}
	switch d.beta {
	case 1:
		step += " + b[i]"
	case -1:
		step += " - b[i]"
	}
	if d.carries {
		step += " + carry"
	}
	fmt.Fprintf(&sb, "        t = %s\n", step)
	if d.carries {
		fmt.Fprintf(&sb, "        carry = t // %d\n", d.base)
	}
	if d.outCarry {
		sb.WriteString("        out.append(carry)\n")
	} else {
		fmt.Fprintf(&sb, "        out.append(t %% %d)\n", d.base)
	}
	if d.final {
		sb.WriteString("    if carry:\n        out.append(carry)\n")
	}
	if d.strip {
		sb.WriteString("    while len(out) > 1 and out[-1] == 0:\n        out.pop()\n")
	}
	if d.msbFirst {
		sb.WriteString("    return out[::-1]\n")
	} else {
		sb.WriteString("    return out\n")
	}
	return sb.String()
}
