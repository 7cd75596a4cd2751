package sketch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The 1-D recurrence sketch over an integer n: f(0) = base and, for
// i = 1..n, f(i) = the sum of f(i - s) (modulo m), or 1 + the least of
// them, over the steps s in S with s <= i. Its holes are S (one to three
// steps from 1 to 5; the numbers written in the task's name first), how
// the terms combine, the base and the modulus (none, or one of a few usual
// ones and those mined from the task). Ways to climb stairs and the fewest
// coins are such recurrences. Every filling is checked on the examples,
// the first that fits is emitted as its loop.

// dpMaxN bounds the inputs the sketch runs on.
const dpMaxN = 100000

// dpModuli are the moduli tried (0: none).
var dpModuli = []int64{0, 1000000007, 1000, 10, 100, 10000, 1000000, 998244353, 1000000009}

// dpRecurrence is one filling of the sketch.
type dpRecurrence struct {
	steps []int64
	min   bool // 1 + min instead of a sum
	base  int64
	mod   int64
}

func (d dpRecurrence) run(n int64) any {
	if n < 0 || n > dpMaxN {
		return dsl.ErrV
	}
	f := make([]int64, n+1)
	f[0] = d.base
	for i := int64(1); i <= n; i++ {
		var v int64
		have := false
		for _, s := range d.steps {
			if s > i {
				continue
			}
			t := f[i-s]
			switch {
			case d.min && (!have || t < v):
				v = t
			case !d.min:
				var good bool
				if v, good = dsl.AddI(v, t); !good {
					return dsl.ErrV
				}
				if d.mod > 0 {
					v %= d.mod
				}
			}
			have = true
		}
		if d.min {
			if !have {
				return dsl.ErrV
			}
			v++
		}
		f[i] = v
	}
	return f[n]
}

// dpRecurrences lists the fillings: step sets from the mined numbers
// first, then every set of one to three steps up to 5.
func dpRecurrences(mined []int64) []dpRecurrence {
	var sets [][]int64
	var fromName []int64
	for _, m := range mined {
		if m >= 1 && m <= 9 && !slices.Contains(fromName, m) {
			fromName = append(fromName, m)
		}
	}
	slices.Sort(fromName)
	if len(fromName) > 0 && len(fromName) <= 4 {
		sets = append(sets, fromName)
	}
	for mask := 1; mask < 32; mask++ {
		var s []int64
		for b := range 5 {
			if mask&(1<<b) != 0 {
				s = append(s, int64(b+1))
			}
		}
		if len(s) <= 3 && !slices.ContainsFunc(sets, func(o []int64) bool { return slices.Equal(o, s) }) {
			sets = append(sets, s)
		}
	}
	var out []dpRecurrence
	for _, s := range sets {
		for _, mod := range dpModuli {
			for _, base := range []int64{1, 0} {
				out = append(out, dpRecurrence{steps: s, base: base, mod: mod})
			}
		}
		out = append(out, dpRecurrence{steps: s, min: true, base: 0})
	}
	return out
}

// DP tries the recurrence sketch when the input is one integer and
// the output an integer.
func DP(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if len(p.B.Types) != 1 || p.B.Types[0] != dsl.Int || p.Out != dsl.Int || p.Nullable || len(p.Outs) < 2 {
		return false
	}
	return fillSketch(en, p, dpRecurrences(p.Mined), func(d dpRecurrence, env []any) any { return d.run(env[0].(int64)) },
		func(d dpRecurrence) *dsl.Node { return dpNode(p, d) }, consider)
}

func dpNode(p *dsl.Problem, d dpRecurrence) *dsl.Node {
	op := &dsl.Operator{Name: fmt.Sprintf("recurrence_table[%+v]", d), Args: p.B.Types, Ret: dsl.Int, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return d.run(a[0].(int64)) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("recurrence_table", p.B.Names, d.python(p.B.Names[0])), a...)
		}}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{{Var: 0, Size: 1}}, Var: -1, Size: 8}
}

// python renders the table filled up to the integer named n.
func (d dpRecurrence) python(n string) string {
	steps := make([]string, len(d.steps))
	for i, s := range d.steps {
		steps[i] = fmt.Sprint(s)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "    f = [%d] * (%s + 1)\n", d.base, n)
	fmt.Fprintf(&sb, "    for i in range(1, %s + 1):\n", n)
	tuple := strings.Join(steps, ", ")
	if len(steps) == 1 {
		tuple += ","
	}
	terms := fmt.Sprintf("f[i - s] for s in (%s) if s <= i", tuple)
	switch {
	case d.min:
		fmt.Fprintf(&sb, "        f[i] = 1 + min(%s)\n", terms)
	case d.mod > 0:
		fmt.Fprintf(&sb, "        f[i] = sum(%s) %% %d\n", terms, d.mod)
	default:
		fmt.Fprintf(&sb, "        f[i] = sum(%s)\n", terms)
	}
	fmt.Fprintf(&sb, "    return f[%s]\n", n)
	return sb.String()
}
