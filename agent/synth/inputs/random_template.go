package inputs

import (
	"math"
	"math/rand"
	"slices"
	"strconv"
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
		if n.asText {
			return strconv.FormatInt(v, 10)
		}
		return v
	case tkLit:
		return n.lit
	case tkAlt:
		return g.Draw(n.Elems[g.Rand.Intn(len(n.Elems))])
	case TkFloat:
		return g.float(n)
	case TkStr:
		if len(n.Choices) > 0 {
			return n.Choices[g.Rand.Intn(len(n.Choices))]
		}
		return g.text(n, g.length(n.minLen, n.maxLen))
	case tkSeq, tkJoined:
		return g.drawGrammar(n)
	case TkTuple:
		out := make([]any, len(n.Elems))
		k := -1
		for i, e := range n.Elems {
			if n.sharesLength(e) {
				if k < 0 {
					k = g.length(e.minLen, e.maxLen)
				}
				k1 := max(e.minLen, min(k, e.maxLen))
				if e.Kind == TkStr {
					out[i] = g.text(e, k1)
				} else {
					out[i] = g.list(e, k1)
				}
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

// list draws a list of k elements of a list template: distinct ones when
// the template says so (as many as a few tries find), in its order.
func (g *TemplateGenerator) list(n *Template, k int) []any {
	if len(n.needs) > 0 {
		return g.ruledList(n, k)
	}
	out := make([]any, 0, k)
	if n.strict || n.distinct {
		seen := map[string]bool{}
		for tries := 0; len(out) < k && tries < 20*k; tries++ {
			v := g.Draw(n.Elems[0])
			if c := string(Encode(v)); !seen[c] {
				seen[c] = true
				out = append(out, v)
			}
		}
	} else {
		for range k {
			out = append(out, g.Draw(n.Elems[0]))
		}
	}
	sortList(out, n.sortKey)
	if n.desc {
		slices.Reverse(out)
	}
	return out
}

// float draws a number of a float template: a bound, a whole number or
// one with the template's decimals.
func (g *TemplateGenerator) float(n *Template) float64 {
	lo, hi := n.flo, n.fhi
	switch r := g.Rand.Intn(8); {
	case r == 0 || hi <= lo:
		return lo
	case r == 1:
		return hi
	case r == 2 && math.Floor(hi) >= math.Ceil(lo):
		a, b := int64(math.Ceil(lo)), int64(math.Floor(hi))
		return float64(a + g.Rand.Int63n(b-a+1))
	}
	scale := math.Pow(10, float64(max(n.decimals, 0)))
	f := math.Round((lo+g.Rand.Float64()*(hi-lo))*scale) / scale
	return math.Max(lo, math.Min(hi, f))
}

// text draws a string of k characters of a string template: words
// separated by single spaces where the template says so, and often words
// separated by one or two spaces where its alphabet has a space and
// letters (a random draw over such an alphabet seldom holds a space);
// no character twice for a distinct one.
func (g *TemplateGenerator) text(n *Template, k int) string {
	if n.distinct {
		al := slices.Clone(n.alphabet)
		g.Rand.Shuffle(len(al), func(i, j int) { al[i], al[j] = al[j], al[i] })
		return string(al[:min(k, len(al))])
	}
	var letters []rune
	for _, r := range n.alphabet {
		if r != ' ' {
			letters = append(letters, r)
		}
	}
	spaced := len(letters) > 0 && len(letters) < len(n.alphabet)
	if spaced && (n.words || g.Rand.Intn(2) == 0) {
		var sb []rune
		for len(sb) < k {
			if len(sb) > 0 || !n.words && g.Rand.Intn(8) == 0 {
				gap := 1
				if !n.words && g.Rand.Intn(6) == 0 {
					gap = 2
				}
				if n.words && k-len(sb) < 2 {
					break
				}
				for range min(gap, k-len(sb)) {
					sb = append(sb, ' ')
				}
			}
			w := 1 + g.Rand.Intn(7)
			for range min(w, k-len(sb)) {
				sb = append(sb, letters[g.Rand.Intn(len(letters))])
			}
		}
		return string(sb)
	}
	rs := make([]rune, k)
	for i := range rs {
		rs[i] = n.alphabet[g.Rand.Intn(len(n.alphabet))]
	}
	if n.words {
		return strings.Join(strings.Fields(string(rs)), " ")
	}
	return string(rs)
}

// sharesLength reports whether a part of a tuple takes the one length its
// tuple's parts share: a member, or any list of a tuple with no members.
func (n *Template) sharesLength(e *Template) bool {
	if !n.sameLen {
		return false
	}
	for _, x := range n.Elems {
		if x.sameLenMember {
			return e.sameLenMember && (e.Kind == TkList || e.Kind == TkStr && len(e.Choices) == 0)
		}
	}
	return e.Kind == TkList
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
