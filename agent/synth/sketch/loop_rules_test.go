package sketch

import (
	"math"
	"testing"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The derived rules (a third term added or taken away; a rule kept at 0)
// compute in their fast check what their program computes in the DSL,
// and what Python's statements do.
func TestDerivedRules(t *testing.T) {
	byName := map[string]*rule{}
	for _, r := range rules {
		byName[r.name] = r
	}
	cases := []struct {
		rule       string
		x, c, d, e float64
		want       float64
	}{
		// balance + balance * rate / 100, then - payment
		{rule: "x + x * c / d - e", x: 1000, c: 1.5, d: 100, e: 40, want: 1000 + 1000*1.5/100 - 40},
		{rule: "x * c + d + e", x: 3, c: 2, d: 1, e: 4, want: 11},
		// a population that would fall below 0 is 0
		{rule: "max(x + c * x * (1 - x / d), 0)", x: 1000, c: 1, d: 1, want: 0},
		{rule: "max(x + c * x * (1 - x / d), 0)", x: 10, c: 0.5, d: 100, want: 10 + 0.5*10*(1-10.0/100)},
		{rule: "max(x - c, 0)", x: 2.5, c: 4, want: 0},
		{rule: "max(x - c, 0)", x: 4, c: 2.5, want: 1.5},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			r := byName[c.rule]
			if r == nil {
				t.Fatalf("no rule %q", c.rule)
			}
			got, good := r.float(c.x, c.c, c.d, c.e)
			if !good || got != c.want {
				t.Fatalf("fast check = %v (%v), want %v", got, good, c.want)
			}
			b := &ruleBuilder{float: true, vars: []dsl.Type{dsl.Float, dsl.Float, dsl.Float, dsl.Float}}
			v := func(k int) *dsl.Node { return &dsl.Node{Var: k, Size: 1} }
			var dn, en *dsl.Node
			if r.holes >= 2 {
				dn = v(2)
			}
			if r.holes == 3 {
				en = v(3)
			}
			prog := r.prog(b, v(0), v(1), dn, en)
			if out := dsl.EvalSafe(prog, []any{c.x, c.c, c.d, c.e}); out != any(got) {
				t.Errorf("program %v = %v, fast check %v", prog, out, got)
			}
		})
	}
	// A step that overflows fails, clamped or not.
	if _, good := byName["max(x - c, 0)"].float(math.Inf(1), 1, 0, 0); good {
		t.Errorf("an infinite state is no value")
	}
}
