package sketch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The stack sketch: a list of integer tokens run on a stack. Its holes are
// how tokens act (codes from a threshold up are binary operators, the
// others operands; or a 0 pops the top and the others are pushed), what
// each operator code computes (learned from the examples among a few
// binary functions), and what the program returns (the final top, the
// deepest the stack got, the depth after each token, the values popped,
// whether the expression is well formed). Every filling is checked
// against the examples; the first that fits is emitted as its loop.

// stackOut is what a stack program returns.
type stackOut uint8

const (
	stackTop stackOut = iota
	stackDeepest
	stackDepths
	stackPopped
	stackValid
)

// stackBin is a binary function an operator code may compute.
type stackBin struct {
	py string
	f  func(a, b int64) (int64, bool)
}

var stackBins = []stackBin{
	{"a + b", dsl.AddI},
	{"a - b", dsl.SubI},
	{"a * b", dsl.MulI},
	{"a // b", dsl.FloorDiv},
	{"max(a, b)", func(a, b int64) (int64, bool) { return max(a, b), true }},
	{"min(a, b)", func(a, b int64) (int64, bool) { return min(a, b), true }},
}

// maxStackCodes bounds the operator codes whose meaning is learned.
const maxStackCodes = 3

// stackProgram is one filling of the stack sketch.
type stackProgram struct {
	// popZero: a 0 pops the top (nothing on an empty stack), other tokens
	// are pushed. Otherwise tokens from opMin up are binary operators.
	popZero bool
	opMin   int64
	// codes are the operator codes seen, bins their meanings (indexes
	// into stackBins), for the final top only.
	codes []int64
	bins  []int
	out   stackOut
}

// run executes the program on the tokens.
func (s stackProgram) run(xs []int64) any {
	stack := make([]int64, 0, len(xs))
	var outs []int64
	deepest := int64(0)
	for _, x := range xs {
		switch {
		case s.popZero && x == 0:
			if len(stack) > 0 {
				if s.out == stackPopped {
					outs = append(outs, stack[len(stack)-1])
				}
				stack = stack[:len(stack)-1]
			}
		case !s.popZero && x >= s.opMin:
			if len(stack) < 2 {
				if s.out == stackValid {
					return false
				}
				return dsl.ErrV
			}
			a, b := stack[len(stack)-2], stack[len(stack)-1]
			v := int64(0)
			if s.out == stackTop {
				k := slices.Index(s.codes, x)
				if k < 0 {
					return dsl.ErrV
				}
				var good bool
				if v, good = stackBins[s.bins[k]].f(a, b); !good {
					return dsl.ErrV
				}
			}
			stack = append(stack[:len(stack)-2], v)
		default:
			stack = append(stack, x)
		}
		deepest = max(deepest, int64(len(stack)))
		if s.out == stackDepths {
			outs = append(outs, int64(len(stack)))
		}
	}
	switch s.out {
	case stackTop:
		if len(stack) == 0 {
			return dsl.ErrV
		}
		return stack[len(stack)-1]
	case stackDeepest:
		return deepest
	case stackValid:
		return len(stack) == 1
	}
	if outs == nil {
		outs = []int64{}
	}
	return outs
}

// stackPrograms lists the fillings for the output type and the operator
// codes seen.
func stackPrograms(out dsl.Type, codes []int64) []stackProgram {
	var progs []stackProgram
	switch out {
	case dsl.ListInt:
		progs = append(progs, stackProgram{popZero: true, out: stackDepths}, stackProgram{popZero: true, out: stackPopped},
			stackProgram{opMin: 10, out: stackDepths})
	case dsl.Bool:
		progs = append(progs, stackProgram{opMin: 10, out: stackValid})
	case dsl.Int:
		progs = append(progs, stackProgram{opMin: 10, out: stackDeepest}, stackProgram{popZero: true, out: stackDeepest})
		if len(codes) > 0 && len(codes) <= maxStackCodes {
			bins := make([]int, len(codes))
			var fill func(i int)
			fill = func(i int) {
				if i == len(codes) {
					progs = append(progs, stackProgram{opMin: 10, codes: codes, bins: slices.Clone(bins), out: stackTop})
					return
				}
				for b := range stackBins {
					bins[i] = b
					fill(i + 1)
				}
			}
			fill(0)
		}
	}
	return progs
}

// Stack tries the stack sketch on a list of non-negative integer
// tokens.
func Stack(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if len(p.B.Types) != 1 || p.B.Types[0] != dsl.ListInt || p.Nullable || len(p.Outs) < 2 {
		return false
	}
	var codes []int64
	for _, env := range en.Envs {
		for _, x := range env[0].([]int64) {
			if x < 0 {
				return false
			}
			if x >= 10 && !slices.Contains(codes, x) {
				codes = append(codes, x)
			}
		}
	}
	slices.Sort(codes)
	return fillSketch(en, p, stackPrograms(p.Out, codes), func(s stackProgram, env []any) any { return s.run(env[0].([]int64)) },
		func(s stackProgram) *dsl.Node { return stackNode(p, s) }, consider)
}

// stackNode is the program of a filled stack sketch.
func stackNode(p *dsl.Problem, s stackProgram) *dsl.Node {
	ret, _ := dsl.TypeOf(s.run(nil))
	if s.out == stackTop {
		ret = dsl.Int
	}
	op := &dsl.Operator{Name: fmt.Sprintf("stack_machine[%+v]", s), Args: p.B.Types, Ret: ret, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return s.run(a[0].([]int64)) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("stack_machine", p.B.Names, s.python(p.B.Names[0])), a...)
		}}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{{Var: 0, Size: 1}}, Var: -1, Size: 8}
}

// python renders the loop over the tokens of the list named xs.
func (s stackProgram) python(xs string) string {
	var sb strings.Builder
	sb.WriteString("    stack = []\n")
	switch s.out {
	case stackDeepest:
		sb.WriteString("    deepest = 0\n")
	case stackDepths, stackPopped:
		sb.WriteString("    out = []\n")
	}
	fmt.Fprintf(&sb, "    for x in %s:\n", xs)
	if s.popZero {
		sb.WriteString("        if x == 0:\n            if stack:\n")
		if s.out == stackPopped {
			sb.WriteString("                out.append(stack.pop())\n")
		} else {
			sb.WriteString("                stack.pop()\n")
		}
	} else {
		fmt.Fprintf(&sb, "        if x >= %d:\n", s.opMin)
		sb.WriteString("            if len(stack) < 2:\n")
		if s.out == stackValid {
			sb.WriteString("                return False\n")
		} else {
			sb.WriteString("                raise ValueError(\"stack underflow\")\n")
		}
		if s.out == stackTop {
			sb.WriteString("            b = stack.pop()\n            a = stack.pop()\n")
			for i, c := range s.codes {
				kw := "elif"
				if i == 0 {
					kw = "if"
				}
				fmt.Fprintf(&sb, "            %s x == %d:\n                stack.append(%s)\n", kw, c, stackBins[s.bins[i]].py)
			}
			sb.WriteString("            else:\n                raise ValueError(f\"unknown operator {x}\")\n")
		} else {
			sb.WriteString("            # an operator combines its two operands into one entry\n")
			sb.WriteString("            stack[-2:] = [(stack[-2], x, stack[-1])]\n")
		}
	}
	sb.WriteString("        else:\n            stack.append(x)\n")
	switch s.out {
	case stackDeepest:
		sb.WriteString("        deepest = max(deepest, len(stack))\n    return deepest\n")
	case stackDepths:
		sb.WriteString("        out.append(len(stack))\n    return out\n")
	case stackPopped:
		sb.WriteString("    return out\n")
	case stackValid:
		sb.WriteString("    return len(stack) == 1\n")
	default:
		sb.WriteString("    return stack[-1]\n")
	}
	return sb.String()
}
