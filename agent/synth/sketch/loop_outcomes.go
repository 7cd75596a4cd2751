package sketch

import (
	"fmt"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The probability of an event counted over equally likely outcomes: n
// draws, each one of the faces lo..hi (a coin 0..1, a die 1..6), and the
// event a test of the draws' total against a bound:
//
//	ways = {0: 1}
//	for _ in range(n):
//	    nxt = {}
//	    for s, w in ways.items():
//	        for face in range(lo, hi + 1):
//	            nxt[s + face] = nxt.get(s + face, 0) + w
//	    ways = nxt
//	total = sum(ways.values())
//	good = sum(w for s, w in ways.items() if s >= bound)
//	return good / total
//
// At least k heads in n tosses, n dice showing a total. The totals are
// counted by their number of ways (a convolution), not outcome by
// outcome, so that 12 dice cost what 12 draws do; the counts are exact
// integers and good / total is Python's correctly rounded true division,
// which float64(good) / float64(total) is while total stays within 2**53
// (beyond it the program raises, in Go and in Python alike). n is an
// integer parameter, the bound a term of the parameters, the faces and
// the test are tried smallest first.

// Bounds of the outcome sketch.
const (
	maxOutcomeFaces = 20
	maxOutcomeTotal = 1 << 53
)

// outcomeTests are the tests of the total against the bound, in the order
// tried.
var outcomeTests = []string{"==", ">=", "<=", ">", "<"}

func outcomeHolds(test int, s, b float64) bool {
	switch test {
	case 0:
		return s == b
	case 1:
		return s >= b
	case 2:
		return s <= b
	case 3:
		return s > b
	}
	return s < b
}

// outcomeDist is the number of ways of each total of n draws of faces
// lo..hi: ways[k] for the total lo*n + k; false when there are more than
// maxOutcomeTotal outcomes.
func outcomeDist(n, lo, hi int64) ([]int64, bool) {
	faces := hi - lo + 1
	ways := []int64{1}
	total := int64(1)
	for range max(n, 0) {
		if total > maxOutcomeTotal/faces {
			return nil, false
		}
		total *= faces
		nxt := make([]int64, len(ways)+int(faces)-1)
		for k, w := range ways {
			for f := range faces {
				nxt[k+int(f)] += w
			}
		}
		ways = nxt
	}
	return ways, true
}

// outcomeChance is the share of the outcomes whose total passes the
// test against b.
func outcomeChance(ways []int64, n, lo int64, test int, b float64) float64 {
	var good, total int64
	base := lo * max(n, 0)
	for k, w := range ways {
		total += w
		if outcomeHolds(test, float64(base+int64(k)), b) {
			good += w
		}
	}
	return float64(good) / float64(total)
}

// outcomeProg is one counted probability.
type outcomeProg struct {
	lp     *loopParams
	count  int
	lo, hi int64
	test   int
	bound  *dsl.Node // over the parameters
}

func (o *outcomeProg) run(env []any) any {
	ps, good := o.lp.values(env)
	if !good {
		return dsl.ErrV
	}
	b := dsl.EvalSafe(o.bound, ps)
	var bf float64
	switch v := b.(type) {
	case int64:
		if v >= 1<<53 || v <= -(1<<53) {
			return dsl.ErrV
		}
		bf = float64(v)
	case float64:
		bf = v
	default:
		return dsl.ErrV
	}
	n := ps[o.count].(int64)
	ways, good := outcomeDist(n, o.lo, o.hi)
	if !good {
		return dsl.ErrV
	}
	return outcomeChance(ways, n, o.lo, o.test, bf)
}

func (o *outcomeProg) python(e *dsl.Emitter) string {
	var sb strings.Builder
	sb.WriteString(o.lp.unpack())
	ps := o.lp.codes()
	sb.WriteString("    ways = {0: 1}\n")
	fmt.Fprintf(&sb, "    for _ in range(%s):\n", o.lp.names[o.count])
	sb.WriteString("        nxt = {}\n        for s, w in ways.items():\n")
	fmt.Fprintf(&sb, "            for face in range(%d, %d):\n", o.lo, o.hi+1)
	sb.WriteString("                nxt[s + face] = nxt.get(s + face, 0) + w\n        ways = nxt\n")
	sb.WriteString("    total = sum(ways.values())\n")
	fmt.Fprintf(&sb, "    if total > %d:\n        raise ArithmeticError(\"too many outcomes\")\n", int64(maxOutcomeTotal))
	test := dsl.Compare(dsl.Atom("s"), outcomeTests[o.test], e.Node(o.bound, ps))
	fmt.Fprintf(&sb, "    good = sum(w for s, w in ways.items() if %s)\n", test.S)
	sb.WriteString("    return good / total\n")
	return sb.String()
}

func (o *outcomeProg) node(p *dsl.Problem) *dsl.Node {
	op := &dsl.Operator{Name: fmt.Sprintf("chance[%s draws of %d..%d: total %s %s]", o.lp.names[o.count], o.lo, o.hi, outcomeTests[o.test], o.bound),
		Args: p.B.Types, Ret: dsl.Float, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return o.run(a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("count_outcomes", o.lp.progNames, o.python(e)), a...)
		}}
	return overVars(p, op, 6+o.bound.Size)
}

// outcomeSketch searches the counted probabilities of p: a count among
// the integer parameters (at most 64 draws), faces lo..hi with lo 0 or 1
// and 2 to maxOutcomeFaces of them, a test and a bound among the terms of
// the parameters up to size 3, the smallest bound first. Every filling is
// checked on the examples from the distributions of totals, each made once.
func outcomeSketch(en *Search, p *dsl.Problem, lk *loopKit, consider func(*dsl.Node, []any) bool) bool {
	if p.Out != dsl.Float {
		return false
	}
	type distKey struct{ n, lo, hi int64 }
	dists := map[distKey][]int64{}
	dist := func(n, lo, hi int64) []int64 {
		k := distKey{n, lo, hi}
		if d, seen := dists[k]; seen {
			return d
		}
		d, good := outcomeDist(n, lo, hi)
		if !good {
			d = nil
		}
		dists[k] = d
		return d
	}
	for s := 1; s <= 3 && s < len(lk.bySize); s++ {
		for _, bound := range lk.bySize[s] {
			if bound.typ == dsl.Bool {
				continue
			}
			for _, k := range lk.counts {
				for faces := int64(2); faces <= maxOutcomeFaces; faces++ {
					for lo := int64(0); lo <= 1; lo++ {
						for test := range outcomeTests {
							if !lk.spend(1) {
								return false
							}
							if !outcomeFits(p, lk, k, lo, lo+faces-1, test, bound, dist) {
								continue
							}
							o := &outcomeProg{lp: lk.lp, count: k, lo: lo, hi: lo + faces - 1, test: test, bound: bound.n}
							if offer(en, o.node(p), consider) {
								return true
							}
						}
					}
				}
			}
		}
	}
	return false
}

// outcomeFits checks one filling on every example.
func outcomeFits(p *dsl.Problem, lk *loopKit, k int, lo, hi int64, test int, bound *term, dist func(n, lo, hi int64) []int64) bool {
	for e := range lk.ps {
		if !bound.good(e) {
			return false
		}
		n := lk.ps[e][k].(int64)
		if n > 64 {
			return false
		}
		ways := dist(n, lo, hi)
		if ways == nil || !matchNum(p, e, outcomeChance(ways, n, lo, test, bound.f[e])) {
			return false
		}
	}
	return true
}
