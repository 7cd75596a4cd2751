package inputs

import (
	"math/rand"
	"slices"
	"strings"
)

// Inputs drawn from the template of the task's description (template.go).

// TemplateGenerator draws inputs from a template.
type TemplateGenerator struct {
	Rand *rand.Rand
	// Small keeps lists and strings near their shortest (after a
	// rejection nothing explains).
	Small bool
	// drawn is the last value drawn for each integer part (for the parts
	// bounded by it).
	drawn map[*Template]int64
}

func (g *TemplateGenerator) intIn(lo, hi int64) int64 {
	if hi <= lo {
		return lo
	}
	switch r := g.Rand.Intn(8); {
	case r == 0:
		return lo
	case r == 1:
		return hi
	case r < 4:
		s, e := max(lo, -10), min(hi, 10)
		if s <= e {
			return s + g.Rand.Int63n(e-s+1)
		}
	}
	return lo + g.Rand.Int63n(hi-lo+1)
}

func (g *TemplateGenerator) length(lo, hi int) int {
	if g.Small {
		hi = min(hi, lo+2)
	}
	if hi <= lo {
		return lo
	}
	switch g.Rand.Intn(8) {
	case 0:
		return lo
	case 1:
		return hi
	}
	return lo + g.Rand.Intn(hi-lo+1)
}

// Draw returns one input as a JSON-ready value.
func (g *TemplateGenerator) Draw(n *Template) any {
	switch n.Kind {
	case TkInt:
		hi := n.hi
		if b, ok := g.drawn[n.below]; ok && n.below != nil {
			hi = max(n.lo, min(hi, b-1))
		}
		v := g.intIn(n.lo, hi)
		for tries := 0; slices.Contains(n.exclude, v) && tries < 20; tries++ {
			v = g.intIn(n.lo, hi)
		}
		if g.drawn == nil {
			g.drawn = map[*Template]int64{}
		}
		g.drawn[n] = v
		return v
	case tkLit:
		return n.lit
	case tkAlt:
		return g.Draw(n.Elems[g.Rand.Intn(len(n.Elems))])
	case TkStr:
		if len(n.Choices) > 0 {
			return n.Choices[g.Rand.Intn(len(n.Choices))]
		}
		k := g.length(n.minLen, n.maxLen)
		rs := make([]rune, k)
		for i := range rs {
			rs[i] = n.alphabet[g.Rand.Intn(len(n.alphabet))]
		}
		return string(rs)
	case TkTuple:
		out := make([]any, len(n.Elems))
		k := -1
		for i, e := range n.Elems {
			if n.sameLen && e.Kind == TkList {
				if k < 0 {
					k = g.length(e.minLen, e.maxLen)
				}
				out[i] = g.list(e, max(e.minLen, min(k, e.maxLen)))
				continue
			}
			out[i] = g.Draw(e)
		}
		return out
	case TkList:
		return g.list(n, g.length(n.minLen, n.maxLen))
	case tkObject:
		out := make(map[string]any, len(n.keys))
		for i, k := range n.keys {
			out[k] = g.Draw(n.Elems[i])
		}
		return out
	case tkRPN:
		return g.postfix(n)
	case tkUnits:
		u := len(n.units)
		k := g.length((n.minLen+u-1)/u, n.maxLen/u)
		var sb strings.Builder
		for range k {
			for _, al := range n.units {
				sb.WriteRune(al[g.Rand.Intn(len(al))])
			}
		}
		return sb.String()
	}
	return nil
}

// list draws a list of k elements of a list template.
func (g *TemplateGenerator) list(n *Template, k int) []any {
	out := make([]any, k)
	for i := range out {
		out[i] = g.Draw(n.Elems[0])
	}
	sortList(out, n.sortKey)
	return out
}

// postfix draws a well-formed postfix expression: a random tree of
// operands and operators, each operator after as many values as it takes.
func (g *TemplateGenerator) postfix(n *Template) []any {
	lo, hi := max(n.minLen, 1), max(n.maxLen, 1)
	var unary, binary []*Template
	for _, op := range n.Elems[n.nOperands:] {
		if op.arity == 1 {
			unary = append(unary, op)
		} else {
			binary = append(binary, op)
		}
	}
	size := g.length(lo, hi)
	if len(unary) == 0 && size%2 == 0 {
		// Binary operators only: an expression has an odd length.
		size--
		if size < lo {
			size += 2
		}
	}
	var out []any
	var tree func(budget int)
	tree = func(budget int) {
		canBin := len(binary) > 0 && budget >= 3 && (len(unary) > 0 || budget%2 == 1)
		canUn := len(unary) > 0 && budget >= 2
		switch {
		case canBin && (!canUn || g.Rand.Intn(3) > 0):
			left := 1 + g.Rand.Intn(budget-2)
			if len(unary) == 0 && left%2 == 0 {
				left--
			}
			tree(left)
			tree(budget - 1 - left)
			out = append(out, g.Draw(binary[g.Rand.Intn(len(binary))]))
		case canUn:
			tree(budget - 1)
			out = append(out, g.Draw(unary[g.Rand.Intn(len(unary))]))
		default:
			out = append(out, g.Draw(n.Elems[g.Rand.Intn(n.nOperands)]))
		}
	}
	tree(max(size, 1))
	return out
}
