package inputs

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/reconstruct/reconstruct/task"
)

// This file turns a task's visible description (input_type,
// input_constraints, domain) into a template of its inputs, which
// random.go draws inputs from, and reads the phrases of the
// constraints (lengths, alphabets). It lets proposals reach tasks whose
// inputs the DSL cannot bind: objects with named keys, lists of tagged
// tuples, token streams.

// tkind is the sort of one part of a template.
type tkind int

const (
	TkInt    tkind = iota // a number named by a placeholder ("x", "amount")
	TkStr                 // a free string or one of enumerated words
	tkLit                 // a literal written in the template ("push", 0)
	tkAlt                 // one of several templates ("a" | "b", [..] or [..])
	TkTuple               // a list of fixed length, one template per position
	TkList                // a list of repeated elements ([x, ...], "list of")
	tkObject              // an object with fixed keys
	tkRPN                 // a well-formed postfix expression over operands and binary operators
	tkUnits               // a string made of repeated units of character classes
	TkFloat               // a number with decimals ("from 0 to 1.5 with at most two decimals")
	tkSeq                 // a string of segments in order ("nine digits, then a digit or X")
	tkJoined              // a string of items joined by separators ("numbers of 1 to 3 digits joined by + and -")
)

// Template is one part of an input template.
type Template struct {
	Kind tkind
	// names are the normalised words that name the part: its placeholder,
	// its key in an object, the literal tags beside it in a tuple.
	names []string
	lit   any // tLit: string or int64
	// lo, hi bound a Int; exclude are values it must not take ("b is
	// not 0").
	lo, hi  int64
	exclude []int64
	// MinLen, MaxLen bound a list's length, a string's length in
	// characters, an expression's token count.
	minLen, maxLen int
	ranged         bool // a constraint stated lo, hi
	counted        bool // a constraint stated MinLen, MaxLen
	alphabet       []rune
	Choices        []string
	// elems: tuple positions, alternatives, a list's element (one),
	// object values (beside keys), RPN operands then operators (nOperands
	// of them are operands).
	Elems     []*Template
	keys      []string
	nOperands int
	// sortKey: a list kept in non-decreasing order, by the whole element
	// (-1) or one tuple position (>= 0); -2 when unordered.
	sortKey int
	// units are the allowed characters of each position of a tUnits unit.
	units [][]rune
	// sameLen: the lists of a tuple have one length.
	sameLen bool
	// arity is the number of operands a postfix operator takes (0: two).
	arity int
	// below is the integer an integer must stay below ("every digit
	// below the base"), drawn before it.
	below *Template
	// typed: the words of the description named the part's type (an
	// argument named only by its placeholder may be typed by its
	// constraints: "noun 1 to 12 lowercase letters").
	typed bool
	// sameLenMember: the part shares its length with the other members
	// of its tuple ("two strings of the same length"); a tuple with
	// sameLen and no member makes all its lists one length.
	sameLenMember bool
	// words: a string of words separated by single spaces, none at
	// either end; distinct: no character (of a string) or element (of a
	// list) twice.
	words, distinct bool
	// desc: a sorted list is in decreasing order; strict: no two
	// neighbours equal ("strictly decreasing").
	desc, strict bool
	// asText: an integer written as a string ("a number as a string
	// such as \"5\""); needs: the tokens of a list that come only after
	// so many kept values (records.go).
	asText bool
	needs  map[string]int
	// flo, fhi bound a TkFloat, drawn with at most decimals decimals.
	flo, fhi float64
	decimals int
}

// Default bounds for parts no constraint speaks of.
const (
	defaultListMax = 6
	defaultStrMax  = 5
	defaultIntLo   = 0
	defaultIntHi   = 9
)

// The superlatives that order a list from its smallest ("cheapest
// first") or from its largest ("heaviest first").
const (
	ascFirst  = `smallest|lowest|lightest|shortest|earliest|cheapest|fewest|least|nearest|closest|youngest`
	descFirst = `largest|biggest|highest|heaviest|longest|latest|greatest|most|farthest|oldest`
)

// walk visits every node of a template, parents first.
func (n *Template) walk(f func(*Template)) {
	if n == nil {
		return
	}
	f(n)
	for _, e := range n.Elems {
		e.walk(f)
	}
}

// nameParts gives object values their keys as names and tuple positions
// the literal tags beside them ("push" for n in ["push", n]).
func nameParts(n *Template) {
	n.walk(func(m *Template) {
		switch m.Kind {
		case tkObject:
			for i, v := range m.Elems {
				k := normWords([]string{m.keys[i]})
				v.names = append(v.names, k...)
			}
		case TkTuple:
			var tags []string
			for _, e := range m.Elems {
				if e.Kind == tkLit {
					if s, ok := e.lit.(string); ok {
						tags = append(tags, normWords([]string{s})...)
					}
				}
			}
			for _, e := range m.Elems {
				if e.Kind != tkLit {
					e.names = append(e.names, tags...)
				}
			}
		}
	})
}

var (
	clauseRangeRe = regexp.MustCompile(`(?i)([a-z][a-z\s-]*?)?\s*\b(?:between|from)\s+(-?\d+(?:\.\d+)?)\s+(?:and|to)\s+(-?\d+(?:\.\d+)?)`)
	clauseEnumRe  = regexp.MustCompile(`(?i)\b([a-z]+)\s+((?:[a-z]+\s*,\s*)*[a-z]+\s+or\s+[a-z]+)\b`)
	orderRe       = regexp.MustCompile(`(?i)(?:([a-z][a-z\s]*?)[\s,]+)?(?:in\s+)?(?:strictly\s+)?(?:non-decreasing|nondecreasing|non-increasing|nonincreasing|ascending|descending|increasing|decreasing|sorted|(?:` + ascFirst + `|` + descFirst + `)\s+first)\b`)
	// ascRe is an order from the smallest up.
	ascRe = regexp.MustCompile(`(?i)\b(?:non-decreasing|nondecreasing|ascending|increasing|(?:` + ascFirst + `)\s+first)\b`)
	// descRe is an order from the largest down.
	descRe       = regexp.MustCompile(`(?i)\b(?:non-increasing|nonincreasing|descending|decreasing|(?:` + descFirst + `)\s+first)\b`)
	postfixRe    = regexp.MustCompile(`(?i)\b(?:reverse polish|postfix|rpn)\b`)
	unitsRe      = regexp.MustCompile(`(?i)\bpairs\s+of\s+(.+?)\s+and\s+(.+?)(?:[;,.]|$)`)
	digitRangeRe = regexp.MustCompile(`(\d)\s*(?:to|-|\.\.)\s*(\d)`)
	exclusionRe  = regexp.MustCompile(`(?i)([a-z][a-z\s]*?)\s+(?:is\s+not|must\s+not\s+be|cannot\s+be|is\s+never|never)\s+(-?\d+)\b`)
	nonZeroRe    = regexp.MustCompile(`(?i)([a-z][a-z\s]*?)\s+(?:is\s+|are\s+|must\s+be\s+)?non-?zero`)
	charCountRe  = regexp.MustCompile(`(?i)(?:(\d+)\s+to\s+(\d+)|at\s+most\s+(\d+)|up\s+to\s+(\d+))\s+(?:characters|chars|letters)`)
)

func lastWords(s string, n int) []string {
	ws := strings.Fields(s)
	if len(ws) > n {
		ws = ws[len(ws)-n:]
	}
	return ws
}

func firstWords(s string, n int) []string {
	ws := strings.Fields(s)
	if len(ws) > n {
		ws = ws[:n]
	}
	return ws
}

// bestMatches returns the nodes among cands whose names share the most
// words with the clause's, or none.
func bestMatches(cands []*Template, words []string) []*Template {
	best, out := 0, []*Template(nil)
	for _, c := range cands {
		s := overlap(c.names, words)
		switch {
		case s > best:
			best, out = s, []*Template{c}
		case s == best && s > 0:
			out = append(out, c)
		}
	}
	return out
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// TemplateOf builds the template of a task's inputs from its
// description, or nil when the description shows no structure.
func TemplateOf(t task.Task) *Template {
	text := t.InputType + "; " + t.InputConstraints
	if t.Kind == task.KindString {
		if u := unitsTemplate(t.InputConstraints); u != nil {
			return u
		}
		return grammarTemplate(t.InputConstraints)
	}
	if t.Kind == task.KindList || t.Kind == task.KindOther {
		if pf := postfixTemplate(t); pf != nil {
			return pf
		}
	}
	root := parseTemplate(t.InputType)
	if root == nil {
		return nil
	}
	numbersAsText(root, t.InputType)
	nameParts(root)
	if al := alphabetFrom(t.InputType); len(al) > 0 && t.Kind == task.KindOther {
		root.walk(func(n *Template) {
			if n.Kind == TkStr {
				n.alphabet = al
			}
		})
	}
	retypeByClauses(root, t.InputConstraints)
	applyConstraints(root, t.InputConstraints, t.Domain)
	tokenNeeds(root, t.InputConstraints)
	if postfixRe.MatchString(text) {
		root.walk(func(n *Template) {
			if n.Kind == TkList && len(n.Elems) == 1 && n.Elems[0].Kind == tkAlt {
				toRPN(n)
			}
		})
	}
	if ms := orderRe.FindAllStringSubmatch(text, -1); ms != nil {
		// The first phrase of order names the key; any may say the
		// direction and strictness ("largest first" ... "strictly
		// decreasing").
		m := ms[0]
		words := normWords(lastWords(m[1], 3))
		desc, strict := false, false
		for _, m := range ms {
			desc = desc || descRe.MatchString(m[0]) && !ascRe.MatchString(m[0])
			strict = strict || strings.Contains(strings.ToLower(m[0]), "strictly")
		}
		root.walk(func(n *Template) {
			if n.Kind != TkList || n.sortKey != -2 {
				return
			}
			n.sortKey, n.desc, n.strict = -1, desc, strict
			if el := n.Elems[0]; el.Kind == TkTuple {
				for i, e := range el.Elems {
					if overlap(e.names, words) > 0 {
						n.sortKey = i
						break
					}
				}
			}
		})
	}
	return root
}

// toRPN turns a list of operand and operator tokens into a postfix
// expression template: digits and numbers are operands, other literals
// binary operators.
func toRPN(n *Template) {
	var operands, operators []*Template
	for _, e := range n.Elems[0].Elems {
		switch {
		case e.Kind == TkInt:
			operands = append(operands, e)
		case e.Kind == tkLit:
			if s, ok := e.lit.(string); ok && !isDigits(s) {
				operators = append(operators, e)
			} else {
				operands = append(operands, e)
			}
		}
	}
	if len(operands) == 0 || len(operators) == 0 {
		return
	}
	n.Kind = tkRPN
	n.Elems = append(operands, operators...)
	n.nOperands = len(operands)
	if !n.counted {
		n.minLen, n.maxLen = 1, 9
	}
}

func isDigits(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// applyConstraints reads ranges, counts, enumerations and string lengths
// from the constraint text and gives every unconstrained part a default.
func applyConstraints(root *Template, text string, dom *task.Domain) {
	listsFromCounts(root, text)
	var leaves, lists, strs []*Template
	root.walk(func(n *Template) {
		switch n.Kind {
		case TkInt, TkFloat:
			leaves = append(leaves, n)
		case TkStr:
			leaves = append(leaves, n)
			strs = append(strs, n)
		case TkList:
			lists = append(lists, n)
		}
	})
	var generic [][2]float64
	for _, clause := range strings.Split(text, ";") {
		subject := clauseSubject(clause, topParts(root))
		if m := clauseEnumRe.FindStringSubmatchIndex(clause); m != nil {
			name := normWords([]string{clause[m[2]:m[3]]})
			if hit := bestMatches(leaves, name); len(hit) > 0 {
				var words []string
				for _, w := range regexp.MustCompile(`\s*,\s*|\s+or\s+`).Split(clause[m[4]:m[5]], -1) {
					if w = strings.TrimSpace(w); w != "" {
						words = append(words, w)
					}
				}
				for _, h := range hit {
					h.Kind, h.Choices = TkStr, words
				}
				clause = clause[:m[0]] + clause[m[1]:]
			}
		}
		// counted are the strings whose characters the clause counts:
		// its alphabet is theirs.
		var counted []*Template
		for _, sub := range strings.Split(clause, ",") {
			counted = append(counted, applyCounts(sub, strs, lists)...)
			if m := exclusionRe.FindStringSubmatch(sub); m != nil {
				v, _ := strconv.ParseInt(m[2], 10, 64)
				for _, h := range bestMatches(leaves, nameWords(lastWords(m[1], 2))) {
					h.exclude = append(h.exclude, v)
				}
				continue
			}
			if m := nonZeroRe.FindStringSubmatch(sub); m != nil {
				for _, h := range bestMatches(leaves, nameWords(lastWords(m[1], 2))) {
					h.exclude = append(h.exclude, 0)
				}
				continue
			}
			if m := clauseRangeRe.FindStringSubmatchIndex(sub); m != nil {
				var prefix string
				if m[2] >= 0 {
					prefix = sub[m[2]:m[3]]
				}
				lo, hi := parseNum(sub[m[4]:m[5]]), parseNum(sub[m[6]:m[7]])
				hit := bestMatches(leaves, nameWords(lastWords(prefix, 3)))
				for _, h := range hit {
					setRange(h, lo, hi)
				}
				if len(hit) == 0 && lo <= hi {
					generic = append(generic, [2]float64{lo, hi})
				}
			}
		}
		if al := alphabetFrom(clause); len(al) > 0 && !isCountOnly(clause) {
			hit := counted
			if len(hit) == 0 {
				hit = stringsUnder(subject)
			}
			if len(hit) == 0 {
				hit = bestMatches(strs, normWords(firstWords(clause, 2)))
			}
			if len(hit) == 0 {
				hit = strs
			}
			for _, h := range hit {
				h.alphabet = al
			}
			clauseTraits(root, clause, hit)
		} else {
			clauseTraits(root, clause, append(counted, stringsUnder(subject)...))
		}
	}
	if m := belowRe.FindStringSubmatch(text); m != nil {
		var ints []*Template
		for _, l := range leaves {
			if l.Kind == TkInt {
				ints = append(ints, l)
			}
		}
		if bound := bestMatches(ints, normWords([]string{m[2]})); len(bound) == 1 {
			for _, h := range bestMatches(ints, normWords([]string{m[1]})) {
				if h != bound[0] {
					h.below = bound[0]
				}
			}
		}
	}
	for _, n := range leaves {
		switch n.Kind {
		case TkInt:
			switch {
			case n.ranged:
			case len(generic) > 0:
				n.lo, n.hi = int64(math.Ceil(generic[0][0])), int64(math.Floor(generic[0][1]))
			case dom != nil:
				n.lo, n.hi = int64(dom.Lo), int64(dom.Hi)
			default:
				n.lo, n.hi = defaultIntLo, defaultIntHi
			}
			if dom != nil {
				n.lo, n.hi = max(n.lo, int64(dom.Lo)), min(n.hi, int64(dom.Hi))
			}
		case TkFloat:
			switch {
			case n.ranged:
			case len(generic) > 0:
				n.flo, n.fhi = generic[0][0], generic[0][1]
			case dom != nil:
				n.flo, n.fhi = dom.Lo, dom.Hi
			default:
				n.flo, n.fhi = defaultIntLo, defaultIntHi
			}
			if n.decimals == 0 {
				n.decimals = 2
			}
		case TkStr:
			if !n.counted {
				n.minLen, n.maxLen = 1, defaultStrMax
			}
			if len(n.alphabet) == 0 {
				n.alphabet = []rune(letters)
			}
			if n.distinct {
				n.maxLen = min(n.maxLen, len(n.alphabet))
			}
		}
	}
	for _, l := range lists {
		if !l.counted {
			l.minLen, l.maxLen = 0, defaultListMax
		}
	}
}

// unitsTemplate reads a string made of repeated units ("pairs of a letter
// and a count digit 1 to 9"), or nil.
func unitsTemplate(constraints string) *Template {
	m := unitsRe.FindStringSubmatch(constraints)
	if m == nil {
		return nil
	}
	n := &Template{Kind: tkUnits, maxLen: 20}
	for _, part := range m[1:] {
		al := alphabetFrom(part)
		if d := digitRangeRe.FindStringSubmatch(part); d != nil && strings.Contains(strings.ToLower(part), "digit") {
			al = slices.DeleteFunc(al, func(r rune) bool { return unicode.IsDigit(r) && (r < rune(d[1][0]) || r > rune(d[2][0])) })
		}
		if len(al) == 0 {
			return nil
		}
		n.units = append(n.units, al)
	}
	if c := charCountRe.FindStringSubmatch(constraints); c != nil {
		switch {
		case c[1] != "":
			n.minLen, n.maxLen = atoi(c[1]), atoi(c[2])
		case c[3] != "":
			n.maxLen = atoi(c[3])
		default:
			n.maxLen = atoi(c[4])
		}
	}
	if n.maxLen < len(n.units) {
		return nil
	}
	return n
}

// rich reports whether a template says more than the kind generators know:
// objects, literal tags, alternatives, fixed tuples at the top, ordering,
// token grammars, structured strings, per-part ranges.
func (n *Template) rich(dom *task.Domain) bool {
	if n == nil {
		return false
	}
	if n.Kind == tkObject || n.Kind == TkTuple || n.Kind == tkRPN || n.Kind == tkUnits || n.Kind == tkSeq || n.Kind == tkJoined {
		return true
	}
	r := false
	n.walk(func(m *Template) {
		switch m.Kind {
		case tkLit, tkAlt, tkObject, tkRPN, TkFloat:
			r = true
		case TkStr:
			r = r || len(m.Choices) > 0
		case TkList:
			r = r || m.sortKey != -2
		case TkInt:
			r = r || (m.ranged && (dom == nil || float64(m.lo) != dom.Lo || float64(m.hi) != dom.Hi))
		}
	})
	return r
}

// String writes a template compactly: int[lo,hi], str[min,max], "lit",
// a|b, (tuple), list[min,max](elem), {key: value}, postfix[min,max](...),
// units[min,max](classes); a sorted list ends in "sorted" or "sorted@i".
func (n *Template) String() string {
	var sb strings.Builder
	n.write(&sb)
	return sb.String()
}

func (n *Template) write(sb *strings.Builder) {
	join := func(elems []*Template, sep string) {
		for i, e := range elems {
			if i > 0 {
				sb.WriteString(sep)
			}
			e.write(sb)
		}
	}
	switch n.Kind {
	case TkInt:
		if n.asText {
			sb.WriteString("text")
		}
		fmt.Fprintf(sb, "int[%d,%d]", n.lo, n.hi)
		for _, x := range n.exclude {
			fmt.Fprintf(sb, "!%d", x)
		}
		if n.below != nil {
			fmt.Fprintf(sb, "<%s", n.below.names[0])
		}
	case TkFloat:
		fmt.Fprintf(sb, "float[%g,%g].%d", n.flo, n.fhi, n.decimals)
	case TkStr:
		if len(n.Choices) > 0 {
			fmt.Fprintf(sb, "str{%s}", strings.Join(n.Choices, ","))
			return
		}
		fmt.Fprintf(sb, "str[%d,%d]{%s}", n.minLen, n.maxLen, runeRanges(n.alphabet))
		if n.words {
			sb.WriteString("/words")
		}
		if n.distinct {
			sb.WriteString("/distinct")
		}
		if n.sameLenMember {
			sb.WriteString("/samelen")
		}
	case tkSeq:
		sb.WriteString("seq(")
		join(n.Elems, " ")
		sb.WriteString(")")
	case tkJoined:
		fmt.Fprintf(sb, "joined[%d,%d](", n.minLen, n.maxLen)
		join(n.Elems, " by ")
		sb.WriteString(")")
	case tkLit:
		if s, ok := n.lit.(string); ok {
			fmt.Fprintf(sb, "%q", s)
			return
		}
		fmt.Fprint(sb, n.lit)
	case tkAlt:
		join(n.Elems, "|")
	case TkTuple:
		sb.WriteString("(")
		join(n.Elems, ", ")
		sb.WriteString(")")
		if n.sameLen {
			sb.WriteString(" same length")
		}
	case TkList:
		fmt.Fprintf(sb, "list[%d,%d](", n.minLen, n.maxLen)
		join(n.Elems, "")
		sb.WriteString(")")
		switch {
		case n.sortKey == -1:
			sb.WriteString(" sorted")
		case n.sortKey >= 0:
			fmt.Fprintf(sb, " sorted@%d", n.sortKey)
		}
		if n.desc {
			sb.WriteString(" desc")
		}
		if n.strict || n.distinct {
			sb.WriteString(" distinct")
		}
		if len(n.needs) > 0 {
			var ks []string
			for k, c := range n.needs {
				ks = append(ks, fmt.Sprintf("%s:%d", k, c))
			}
			slices.Sort(ks)
			fmt.Fprintf(sb, " needs(%s)", strings.Join(ks, ","))
		}
	case tkObject:
		sb.WriteString("{")
		for i, k := range n.keys {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(k + ": ")
			n.Elems[i].write(sb)
		}
		sb.WriteString("}")
	case tkRPN:
		fmt.Fprintf(sb, "postfix[%d,%d](", n.minLen, n.maxLen)
		join(n.Elems[:n.nOperands], "|")
		sb.WriteString("; ")
		for i, op := range n.Elems[n.nOperands:] {
			if i > 0 {
				sb.WriteString("|")
			}
			op.write(sb)
			if op.arity != 0 && op.arity != 2 {
				fmt.Fprintf(sb, "/%d", op.arity)
			}
		}
		sb.WriteString(")")
	case tkUnits:
		fmt.Fprintf(sb, "units[%d,%d](", n.minLen, n.maxLen)
		for i, u := range n.units {
			if i > 0 {
				sb.WriteString(" ")
			}
			sb.WriteString(string(u))
		}
		sb.WriteString(")")
	}
}

// runeRanges writes a set of characters compactly: "a-z0-9_".
func runeRanges(rs []rune) string {
	rs = slices.Clone(rs)
	slices.Sort(rs)
	var sb strings.Builder
	for i := 0; i < len(rs); {
		j := i
		for j+1 < len(rs) && rs[j+1] == rs[j]+1 && sameClass(rs[i], rs[j+1]) {
			j++
		}
		switch {
		case j-i >= 2:
			fmt.Fprintf(&sb, "%c-%c", rs[i], rs[j])
		default:
			for k := i; k <= j; k++ {
				sb.WriteRune(rs[k])
			}
		}
		i = j + 1
	}
	return sb.String()
}

// sameClass reports whether two characters are both digits, both
// lower-case or both upper-case letters (a range of symbols is written
// out).
func sameClass(a, b rune) bool {
	class := func(r rune) int {
		switch {
		case unicode.IsDigit(r):
			return 1
		case unicode.IsLower(r):
			return 2
		case unicode.IsUpper(r):
			return 3
		}
		return 0
	}
	return class(a) != 0 && class(a) == class(b)
}
