package sketch

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// A weighted digit-sum checksum: whether a code of digits passes its
// check, the sum of its digits each times a weight being a multiple of a
// modulus. The weight is a function of the digit's position, counted from
// the left or from the right: a linear one (10, 9, ..., 1: ISBN-10) or a
// cycle (1, 2, 1, 2...: Luhn; 1, 3: EAN); a weighted digit may be
// replaced by the sum of its own digits (Luhn's doubled 7 is 1 + 4), and
// an X may stand for 10. A code is a program of a loop the enumeration
// does not reach; its parameters are few, and each is tried on the
// examples.

// checksum is one weighted digit-sum test.
type checksum struct {
	fromRight bool
	// cycle, when set, are the weights by position modulo its length;
	// otherwise the weight is a + b * position.
	cycle    []int64
	a, b     int64
	digitSum bool
	mod      int64
}

// checksumCycles are the cycles of weights tried, checksumMods the moduli.
var (
	checksumCycles = [][]int64{{1, 2}, {2, 1}, {1, 3}, {3, 1}, {7, 3, 1}}
	checksumMods   = []int64{10, 11, 9, 7}
)

// maxChecksumWeight bounds a linear weight's constant.
const maxChecksumWeight = 16

func (c checksum) weight(i int64) int64 {
	if c.cycle != nil {
		return c.cycle[i%int64(len(c.cycle))]
	}
	return c.a + c.b*i
}

// run is the test on a code; a character other than a digit or X fails.
func (c checksum) run(s string) (bool, bool) {
	if len(s) > 1000 {
		return false, false
	}
	total := int64(0)
	for k := range len(s) {
		pos := k
		if c.fromRight {
			pos = len(s) - 1 - k
		}
		var d int64
		switch ch := s[pos]; {
		case ch >= '0' && ch <= '9':
			d = int64(ch - '0')
		case ch == 'X':
			d = 10
		default:
			return false, false
		}
		v := c.weight(int64(k)) * d
		if c.digitSum {
			v = digitSum(v)
		}
		total += v
	}
	return total%c.mod == 0, true
}

// digitSum is the sum of a non-negative number's decimal digits.
func digitSum(v int64) int64 {
	s := int64(0)
	for ; v > 0; v /= 10 {
		s += v % 10
	}
	return s
}

// python renders the test as the body of a function of the code named s.
func (c checksum) python(s string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "    total = 0\n")
	if c.fromRight {
		fmt.Fprintf(&sb, "    for i, c in enumerate(reversed(%s)):\n", s)
	} else {
		fmt.Fprintf(&sb, "    for i, c in enumerate(%s):\n", s)
	}
	sb.WriteString("        d = 10 if c == \"X\" else \"0123456789\".index(c)\n")
	var w string
	switch {
	case c.cycle != nil:
		parts := make([]string, len(c.cycle))
		for k, x := range c.cycle {
			parts[k] = strconv.FormatInt(x, 10)
		}
		w = fmt.Sprintf("(%s)[i %% %d]", strings.Join(parts, ", "), len(c.cycle))
	case c.b == 1:
		w = fmt.Sprintf("(i + %d)", c.a)
	default:
		w = fmt.Sprintf("(%d - i)", c.a)
	}
	if c.digitSum {
		fmt.Fprintf(&sb, "        total += sum(map(int, str(%s * d)))\n", w)
	} else {
		fmt.Fprintf(&sb, "        total += %s * d\n", w)
	}
	fmt.Fprintf(&sb, "    return total %% %d == 0\n", c.mod)
	return sb.String()
}

// checksums lists the tests tried, simplest first: the cycles, then the
// linear weights, each from the left and from the right.
func checksums() []checksum {
	var out []checksum
	for _, mod := range checksumMods {
		for _, right := range []bool{true, false} {
			for _, cyc := range checksumCycles {
				for _, ds := range []bool{false, true} {
					out = append(out, checksum{fromRight: right, cycle: cyc, digitSum: ds, mod: mod})
				}
			}
			for a := int64(0); a <= maxChecksumWeight; a++ {
				out = append(out, checksum{fromRight: right, a: a, b: 1, mod: mod})
				if a > 0 {
					out = append(out, checksum{fromRight: right, a: a, b: -1, mod: mod})
				}
			}
		}
	}
	return out
}

// Checksum looks for the weighted digit-sum test of a code (see above): a
// problem of one text, of digits and X, whose result is a truth value,
// with at least minPatternAccepted codes passing and as many failing. It
// reports whether consider accepted a program.
func Checksum(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if p.Out != dsl.Bool || len(p.B.Types) != 1 || p.B.Types[0] != dsl.Str || en.Stopped {
		return false
	}
	switch p.B.Names[0] {
	case "total", "i", "c", "d":
		return false // the emitted loop's own names would hide it
	}
	yes, no := 0, 0
	for i, out := range p.Outs {
		b, ok := out.(bool)
		s, isStr := p.Envs[i][0].(string)
		if !ok || !isStr || strings.Trim(s, "0123456789X") != "" {
			return false
		}
		if b {
			yes++
		} else {
			no++
		}
	}
	if yes < minPatternAccepted || no < minPatternAccepted {
		return false
	}
	run := func(c checksum, env []any) any {
		s, ok := env[0].(string)
		if !ok {
			return dsl.ErrV
		}
		v, good := c.run(s)
		if !good {
			return dsl.ErrV
		}
		return v
	}
	return fillSketch(en, p, checksums(), run, func(c checksum) *dsl.Node { return checksumNode(p, c, run) }, consider)
}

// checksumNode is the program of a checksum over the problem's text.
func checksumNode(p *dsl.Problem, c checksum, run func(checksum, []any) any) *dsl.Node {
	op := &dsl.Operator{Name: fmt.Sprintf("checksum[%+v]", c), Args: p.B.Types, Ret: dsl.Bool, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return run(c, a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("checksum", p.B.Names, c.python(p.B.Names[0])), a...)
		}}
	return overVars(p, op, 8)
}
