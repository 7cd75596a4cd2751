package sketch

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Brackets. A string read for its brackets — whether they balance, how
// deep they nest, how many pairs close, how many are left open, how many
// must be added to balance them — is a scan with a stack of the open
// brackets, the other characters ignored. Which of the pairs (), [], {}
// and <> count, whether a closing bracket must match the last open one's
// kind or closes any, what the output reads, and what it is when the
// brackets do not balance (the reading all the same, or a constant such
// as -1) are learned from the examples, every combination checked on them.

// bracketReading is what the output reads of a scan.
type bracketReading int

const (
	readBalanced bracketReading = iota
	readMaxDepth
	readClosed
	readOpenLeft
	readToBalance
	numBracketReadings
)

var bracketReadingNames = [numBracketReadings]string{"balanced", "max_depth", "closed", "open_left", "to_balance"}

// bracketScan is one filling.
type bracketScan struct {
	pairs []string
	typed bool
	read  bracketReading
	// invalid, when set, is the output where the brackets do not balance.
	invalid any
}

// bracketState is a scan's outcome.
type bracketState struct {
	depth, maxDepth, closed, unmatched int64
	broken                             bool
}

func (b bracketScan) scan(s string) bracketState {
	var st bracketState
	var stack []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		for _, p := range b.pairs {
			switch c {
			case p[0]:
				stack = append(stack, p[0])
				st.maxDepth = max(st.maxDepth, int64(len(stack)))
			case p[1]:
				switch {
				case len(stack) == 0:
					st.broken = true
					st.unmatched++
				case b.typed && stack[len(stack)-1] != p[0]:
					st.broken = true
					stack = stack[:len(stack)-1]
				default:
					stack = stack[:len(stack)-1]
					st.closed++
				}
			}
		}
	}
	st.depth = int64(len(stack))
	st.broken = st.broken || st.depth > 0
	return st
}

// run gives the output of s.
func (b bracketScan) run(s string) any {
	st := b.scan(s)
	if st.broken && b.invalid != nil {
		return b.invalid
	}
	switch b.read {
	case readBalanced:
		return !st.broken
	case readMaxDepth:
		return st.maxDepth
	case readClosed:
		return st.closed
	case readOpenLeft:
		return st.depth
	}
	return st.unmatched + st.depth
}

// Brackets tries every filling when the input is one string holding
// brackets; it reports whether consider accepted a program.
func Brackets(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if len(p.B.Types) != 1 || p.B.Types[0] != dsl.Str || (p.Out != dsl.Int && p.Out != dsl.Bool) || p.Nullable || len(p.Outs) < minBracketExamples || en.Stopped {
		return false
	}
	var seen []string
	for _, env := range p.Envs[:len(p.Outs)] {
		s := env[0].(string)
		for _, pr := range dsl.BracketPairs {
			if strings.ContainsAny(s, pr) && !slices.Contains(seen, pr) {
				seen = append(seen, pr)
			}
		}
	}
	if len(seen) == 0 {
		return false
	}
	reads := []bracketReading{readBalanced}
	if p.Out == dsl.Int {
		reads = []bracketReading{readMaxDepth, readClosed, readOpenLeft, readToBalance}
	}
	// A constant for unbalanced inputs is one of the outputs.
	invalids := []any{nil}
	for _, o := range p.Outs {
		if p.Out == dsl.Int && dsl.IndexOf(invalids, o) < 0 {
			invalids = append(invalids, o)
		}
	}
	var fills []bracketScan
	// Every pair seen first, then fewer (a scan of () alone among []).
	for n := len(seen); n >= 1; n-- {
		for _, pairs := range subsetsOf(seen, n) {
			for _, typed := range []bool{true, false} {
				if !typed && len(pairs) == 1 {
					continue
				}
				for _, read := range reads {
					for _, inv := range invalids {
						fills = append(fills, bracketScan{pairs: pairs, typed: typed, read: read, invalid: inv})
					}
				}
			}
		}
	}
	return fillSketch(en, p, fills, func(b bracketScan, env []any) any { return b.run(env[0].(string)) },
		func(b bracketScan) *dsl.Node { return bracketNode(p, b) }, consider)
}

// minBracketExamples is how many examples a scan needs: a few outputs fit
// some reading of a few brackets by chance.
const minBracketExamples = 6

// subsetsOf returns the subsets of xs with n elements, in order.
func subsetsOf(xs []string, n int) [][]string {
	if n == 0 {
		return [][]string{nil}
	}
	var out [][]string
	for i := 0; i+n <= len(xs); i++ {
		for _, rest := range subsetsOf(xs[i+1:], n-1) {
			out = append(out, append([]string{xs[i]}, rest...))
		}
	}
	return out
}

func (b bracketScan) String() string {
	kind := "any closes"
	if b.typed {
		kind = "matched"
	}
	s := fmt.Sprintf("%s, %s, %s", strings.Join(b.pairs, " "), kind, bracketReadingNames[b.read])
	if b.invalid != nil {
		s += ", else " + dsl.ConstCode(b.invalid).S
	}
	return s
}

func bracketNode(p *dsl.Problem, b bracketScan) *dsl.Node {
	op := &dsl.Operator{Name: "brackets[" + b.String() + "]", Args: p.B.Types, Ret: p.Out, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return b.run(a[0].(string)) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("brackets", p.B.Names, bracketLoop(b, p.B.Names[0])), a...)
		}}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{{Var: 0, Size: 1}}, Var: -1, Size: 6 + len(b.pairs)}
}

// bracketLoop renders the scan: a loop with a stack, then the reading.
func bracketLoop(b bracketScan, s string) string {
	var opens, closes string
	for _, p := range b.pairs {
		opens += p[:1]
		closes += p[1:]
	}
	var sb strings.Builder
	read := b.read
	fmt.Fprintf(&sb, "    stack = []\n")
	counters := map[bracketReading]string{readMaxDepth: "deepest", readClosed: "closed", readToBalance: "unmatched"}
	if c, has := counters[read]; has {
		fmt.Fprintf(&sb, "    %s = 0\n", c)
	}
	broken := b.invalid != nil || read == readBalanced
	if broken {
		sb.WriteString("    broken = False\n")
	}
	in := func(chars string) string {
		if len(chars) == 1 {
			return "c == " + strconv.Quote(chars)
		}
		return "c in " + strconv.Quote(chars)
	}
	fmt.Fprintf(&sb, "    for c in %s:\n        if %s:\n            stack.append(c)\n", s, in(opens))
	if read == readMaxDepth {
		sb.WriteString("            deepest = max(deepest, len(stack))\n")
	}
	fmt.Fprintf(&sb, "        elif %s:\n            if not stack:\n", in(closes))
	switch {
	case read == readToBalance && broken:
		sb.WriteString("                broken = True\n                unmatched += 1\n")
	case read == readToBalance:
		sb.WriteString("                unmatched += 1\n")
	case broken:
		sb.WriteString("                broken = True\n")
	default:
		sb.WriteString("                pass\n")
	}
	// With one kind of bracket every closing one matches.
	if b.typed && len(b.pairs) > 1 {
		fmt.Fprintf(&sb, "            elif stack.pop() != %s[%s.index(c)]:\n", strconv.Quote(opens), strconv.Quote(closes))
		if broken {
			sb.WriteString("                broken = True\n")
		} else {
			sb.WriteString("                pass\n")
		}
		if read == readClosed {
			sb.WriteString("            else:\n                closed += 1\n")
		}
	} else {
		sb.WriteString("            else:\n                stack.pop()\n")
		if read == readClosed {
			sb.WriteString("                closed += 1\n")
		}
	}
	var value string
	switch read {
	case readBalanced:
		value = "not broken and not stack"
	case readMaxDepth:
		value = "deepest"
	case readClosed:
		value = "closed"
	case readOpenLeft:
		value = "len(stack)"
	default:
		value = "unmatched + len(stack)"
	}
	if b.invalid != nil {
		fmt.Fprintf(&sb, "    if broken or stack:\n        return %s\n", dsl.ConstCode(b.invalid).S)
	}
	fmt.Fprintf(&sb, "    return %s\n", value)
	return sb.String()
}
