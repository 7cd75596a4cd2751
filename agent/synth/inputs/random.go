package inputs

import (
	"math"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Random inputs: drawn by the task's kind within limits read from the
// constraints, the domain and the inputs already accepted (edge cases
// first), or drawn from the template of the task's description.

// Limits bounds generated inputs: the range of numbers and the lengths
// of lists and strings.
type Limits struct {
	lo, hi         float64
	MinLen, MaxLen int
	floats         bool
	bits           bool
	// alphabet, when set, is the only characters strings may use.
	Alphabet []rune
	// sameLen: two lists have one length.
	sameLen bool
	// singleSpaces: words separated by single spaces, none at the ends.
	singleSpaces bool
	// digitNumbers: two lists are numbers written in digits, most
	// significant first (msdFirst) or last; firstAtLeast: the first is
	// at least the second; noLeadingZero: no number starts with a 0
	// but 0 itself.
	digitNumbers, msdFirst, firstAtLeast, noLeadingZero bool
	// roman: strings are Roman numerals of the numbers lo to hi.
	roman bool
}

// LimitsFor derives generation bounds from the task and the observed inputs.
func LimitsFor(t task.Task, dom *task.Domain, b *dsl.Binding, observed []any, conservative bool) Limits {
	l := Limits{lo: -20, hi: 20, MinLen: 0, MaxLen: 10, floats: b != nil && b.Floats}
	switch t.Kind {
	case task.KindInt:
		l.lo, l.hi = -100, 1000
	case task.KindString:
		l.MaxLen = 14
	}
	if dom == nil {
		dom = t.Domain
	}
	if dom != nil {
		l.lo, l.hi = dom.Lo, dom.Hi
	}
	if a, c, ok := LengthsFrom(t.InputConstraints); ok {
		l.MinLen, l.MaxLen = a, c
	} else if m := atMostRe.FindStringSubmatch(t.InputConstraints); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n <= 1000 {
			l.MinLen, l.MaxLen = 0, n
		}
	}
	if t.Kind == task.KindString {
		l.Alphabet = alphabetFrom(t.InputConstraints)
		if len(l.Alphabet) == 0 {
			l.Alphabet = alphabetFrom(t.InputType)
		}
		l.singleSpaces = singleSpacesRe.MatchString(t.InputType + "; " + t.InputConstraints)
		if l.roman = romanRe.MatchString(t.InputType + "; " + t.InputConstraints); l.roman {
			l.lo, l.hi, l.Alphabet = 1, 3999, []rune("IVXLCDM")
			if s, _, ok := valueSpan(t.InputConstraints); ok && s.lo >= 1 && s.hi <= 3999 {
				l.lo, l.hi = float64(s.lo), float64(s.hi)
			}
			l.MinLen, l.MaxLen = 1, 15
		}
	}
	l.sameLen = t.Kind == task.KindTwoLists && sameLenRe.MatchString(t.InputType+"; "+t.InputConstraints)
	if text := t.InputType + "; " + t.InputConstraints; t.Kind == task.KindTwoLists && digitNumbersRe.MatchString(text) {
		l.digitNumbers = true
		l.msdFirst = msdFirstRe.MatchString(text)
		l.firstAtLeast = firstAtLeastRe.MatchString(text)
		l.noLeadingZero = noLeadingZeroRe.MatchString(text)
	}
	l.bits = l.lo == 0 && l.hi == 1
	if conservative && len(observed) > 0 {
		// Stay within what the oracle already accepted.
		minL, maxL := math.MaxInt, 0
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, in := range observed {
			n := ShapeLen(in)
			minL, maxL = min(minL, n), max(maxL, n)
			for _, f := range task.Numbers(in) {
				lo, hi = math.Min(lo, f), math.Max(hi, f)
			}
		}
		l.MinLen, l.MaxLen = max(l.MinLen, minL), min(l.MaxLen, max(maxL, minL))
		seen := map[rune]bool{}
		for _, in := range observed {
			if s, ok := in.(string); ok {
				for _, r := range s {
					if !seen[r] {
						seen[r] = true
						l.Alphabet = append(l.Alphabet, r)
					}
				}
			}
		}
		if lo <= hi {
			l.lo, l.hi = math.Max(l.lo, lo), math.Min(l.hi, hi)
		}
	}
	if l.MaxLen < l.MinLen {
		l.MaxLen = l.MinLen
	}
	return l
}

// Generator draws inputs of a shape within limits.
type Generator struct {
	Rand   *rand.Rand
	Shape  string
	Limits Limits
}

func (g *Generator) num() any {
	if g.Limits.floats {
		lo, hi := g.Limits.lo, g.Limits.hi
		f := lo + g.Rand.Float64()*(hi-lo)
		f = math.Round(f*100) / 100
		if g.Rand.Intn(4) == 0 {
			f = math.Round(f)
			return f + 0.5*float64(g.Rand.Intn(2))
		}
		return math.Max(lo, math.Min(hi, f))
	}
	return g.intIn(int64(math.Ceil(g.Limits.lo)), int64(math.Floor(g.Limits.hi)))
}

func (g *Generator) intIn(lo, hi int64) int64 {
	if hi < lo {
		return lo
	}
	// Prefer small magnitudes half the time: they exercise more cases.
	if g.Rand.Intn(2) == 0 {
		s := max(lo, -10)
		e := min(hi, 10)
		if s <= e {
			return s + g.Rand.Int63n(e-s+1)
		}
	}
	return lo + g.Rand.Int63n(hi-lo+1)
}

func (g *Generator) length() int {
	lo, hi := g.Limits.MinLen, g.Limits.MaxLen
	if hi <= lo {
		return lo
	}
	return lo + g.Rand.Intn(hi-lo+1)
}

// list draws a list of numbers in one of several shapes.
func (g *Generator) list(n int) []any {
	out := make([]any, n)
	switch g.Rand.Intn(7) {
	case 0: // all equal
		v := g.num()
		for i := range out {
			out[i] = v
		}
	case 1: // few distinct values
		pool := []any{g.num(), g.num(), g.num()}
		for i := range out {
			out[i] = pool[g.Rand.Intn(3)]
		}
	case 2, 3: // sorted ascending or descending
		for i := range out {
			out[i] = g.num()
		}
		sortNums(out, g.Rand.Intn(2) == 0)
	default:
		for i := range out {
			out[i] = g.num()
		}
	}
	return out
}

func sortNums(xs []any, desc bool) {
	less := func(a, b any) bool { return toF(a) < toF(b) }
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && (less(xs[j], xs[j-1]) != desc) && toF(xs[j]) != toF(xs[j-1]); j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

func toF(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

const (
	letters = "abcdefghijklmnopqrstuvwxyz"
	alnum   = letters + "0123456789"
)

func (g *Generator) str(n int) string {
	if pairs := g.bracketPairs(); len(pairs) > 0 && g.Rand.Intn(3) == 0 {
		return g.Nested(n, pairs)
	}
	var sb strings.Builder
	style := g.Rand.Intn(8)
	// Marks the task's alphabet has (operators, brackets), else the usual
	// punctuation: drawn from the usual marks and then replaced by any
	// character of the alphabet, an operator would seldom appear.
	marks := g.marks()
	for i := 0; i < n; i++ {
		r := g.Rand.Intn(100)
		switch {
		case style == 0 && i > 0 && r < 40: // repeated characters
			s := sb.String()
			sb.WriteByte(s[len(s)-1])
		case r < 55:
			sb.WriteByte(letters[g.Rand.Intn(26)])
		case r < 70:
			sb.WriteByte(strings.ToUpper(letters)[g.Rand.Intn(26)])
		case r < 82:
			sb.WriteByte(' ')
		case r < 92:
			sb.WriteByte(byte('0' + g.Rand.Intn(10)))
		default:
			sb.WriteRune(marks[g.Rand.Intn(len(marks))])
		}
	}
	s := sb.String()
	if len(g.Limits.Alphabet) > 0 {
		s = string(g.inAlphabet([]rune(s)))
	}
	if (style == 1 || style >= 6) && n >= 2 { // palindrome
		r := []rune(s[:(n+1)/2])
		for i := len(r) - 1 - n%2; i >= 0; i-- {
			r = append(r, r[i])
		}
		if style >= 6 {
			// A palindrome once case and punctuation are ignored: letters
			// change case, and a few mirrored pairs become spaces or marks.
			marks := " .,!?-'"
			for i := range r {
				switch k := g.Rand.Intn(6); {
				case k == 0 && unicode.IsLetter(r[i]):
					r[i] = unicode.SimpleFold(r[i])
				case k == 1 && i < len(r)/2:
					r[i] = rune(marks[g.Rand.Intn(len(marks))])
					r[len(r)-1-i] = rune(marks[g.Rand.Intn(len(marks))])
				}
			}
			g.inAlphabet(r)
		}
		if style == 7 {
			// A near miss: one character of the first half changes to a
			// letter or digit, so the string is a palindrome everywhere
			// but at one pair.
			i := g.Rand.Intn(n / 2)
			was := r[i]
			for try := 0; try < 8 && r[i] == was; try++ {
				if len(g.Limits.Alphabet) > 0 {
					r[i] = g.Limits.Alphabet[g.Rand.Intn(len(g.Limits.Alphabet))]
				} else {
					r[i] = rune(alnum[g.Rand.Intn(len(alnum))])
				}
			}
		}
		s = string(r)
	}
	if g.Limits.singleSpaces {
		s = strings.Join(strings.Fields(s), " ")
	}
	return s
}

// BracketPairs are the pairs of brackets the task's own marks hold both
// halves of.
func (g *Generator) bracketPairs() []string {
	own := g.ownMarks()
	var out []string
	for _, p := range dsl.BracketPairs {
		if slices.Contains(own, rune(p[0])) && slices.Contains(own, rune(p[1])) {
			out = append(out, p)
		}
	}
	return out
}

// Nested draws n characters of brackets nested at random depths, other
// characters of the alphabet between them, closed in order; one time in
// four a bracket is then changed for another, a near miss (random strings
// of brackets seldom balance, and a program reading the nesting is told
// from one counting brackets only on strings that do).
func (g *Generator) Nested(n int, pairs []string) string {
	var others []rune
	for _, r := range g.Limits.Alphabet {
		if !strings.ContainsRune(strings.Join(dsl.BracketPairs, ""), r) {
			others = append(others, r)
		}
	}
	out := make([]byte, 0, n)
	var stack []string
	for i := range n {
		left := n - i
		switch k := g.Rand.Intn(10); {
		case len(stack) > 0 && (k < 4 || len(stack) >= left):
			out = append(out, stack[len(stack)-1][1])
			stack = stack[:len(stack)-1]
		case k < 8 && len(stack)+1 < left || len(others) == 0 && len(stack)+1 < left:
			p := pairs[g.Rand.Intn(len(pairs))]
			out = append(out, p[0])
			stack = append(stack, p)
		case len(others) > 0:
			out = append(out, string(others[g.Rand.Intn(len(others))])...)
		}
		// Otherwise only brackets, one place left and nothing open: a
		// pair does not fit, and the string ends shorter.
	}
	if len(out) > 0 && g.Rand.Intn(4) == 0 {
		all := strings.Join(pairs, "")
		i := g.Rand.Intn(len(out))
		if strings.IndexByte(all, out[i]) >= 0 {
			out[i] = all[g.Rand.Intn(len(all))]
		}
	}
	return string(out)
}

// maxOwnMarks is how many marks an alphabet of the task's own holds at
// most: more (printable ASCII has 32) is an alphabet of every mark, of
// which a hidden program taking "printable characters" may still refuse
// some (a backslash, a brace).
const maxOwnMarks = 16

// ownMarks are the characters of the task's alphabet that are neither
// letters, digits nor spaces, when the alphabet is the task's own (at most
// maxOwnMarks of them); nil otherwise.
func (g *Generator) ownMarks() []rune {
	var out []rune
	for _, r := range g.Limits.Alphabet {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsSpace(r) {
			out = append(out, r)
		}
	}
	if len(out) > maxOwnMarks {
		return nil
	}
	return out
}

// marks are the task's own marks, or the usual punctuation.
func (g *Generator) marks() []rune {
	if own := g.ownMarks(); len(own) > 0 {
		return own
	}
	return []rune(".,!?-_'")
}

// inAlphabet replaces the runes of r outside the task's alphabet (when it
// has one) by random runes of it, in place, and returns r.
func (g *Generator) inAlphabet(r []rune) []rune {
	if len(g.Limits.Alphabet) == 0 {
		return r
	}
	for i := range r {
		if !slices.Contains(g.Limits.Alphabet, r[i]) {
			r[i] = g.Limits.Alphabet[g.Rand.Intn(len(g.Limits.Alphabet))]
		}
	}
	return r
}

func (g *Generator) pairList(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = []any{g.intIn(int64(g.Limits.lo), int64(g.Limits.hi)), g.intIn(int64(g.Limits.lo), int64(g.Limits.hi))}
	}
	if n >= 3 && g.Rand.Intn(4) == 0 { // a duplicate or an axis-aligned point
		out[n-1] = []any{out[0].([]any)[0], g.intIn(int64(g.Limits.lo), int64(g.Limits.hi))}
	}
	if n >= 2 && g.Limits.lo <= -g.Limits.hi && g.Rand.Intn(5) == 0 {
		// Symmetric about an axis: the second half mirrors the first, in
		// a shuffled order.
		axis := g.Rand.Intn(2)
		for i := n / 2; i < n; i++ {
			p := slices.Clone(out[i-n/2].([]any))
			p[axis] = -p[axis].(int64)
			out[i] = p
		}
		g.Rand.Shuffle(n, func(i, j int) { out[i], out[j] = out[j], out[i] })
	}
	return out
}

// Draw returns one random input as a JSON-ready value.
func (g *Generator) Draw() any {
	switch g.Shape {
	case "list":
		return g.list(g.length())
	case "two_lists":
		n := g.length()
		a, b := g.list(n), g.list(n)
		if !g.Limits.sameLen {
			b = g.list(g.length())
		}
		if g.Limits.noLeadingZero {
			a, b = g.noLeadingZero(a), g.noLeadingZero(b)
		}
		if g.Limits.firstAtLeast && compareDigits(a, b, g.Limits.msdFirst) < 0 {
			a, b = b, a
		}
		return []any{a, b}
	case "int":
		lo, hi := int64(math.Ceil(g.Limits.lo)), int64(math.Floor(g.Limits.hi))
		if g.Rand.Intn(3) == 0 {
			return g.intIn(max(lo, -3), min(hi, 20))
		}
		return g.intIn(lo, hi)
	case "pair":
		if g.Rand.Intn(6) == 0 {
			v := g.num()
			return []any{v, v}
		}
		return []any{g.num(), g.num()}
	case "string":
		if g.Limits.roman {
			return romanNumeral(g.intIn(int64(g.Limits.lo), int64(g.Limits.hi)))
		}
		return g.str(g.length())
	case "points", "pairs":
		n := g.length()
		if g.Shape == "points" && n == 0 && g.Limits.MinLen == 0 && g.Rand.Intn(2) == 0 {
			n = 1 + g.Rand.Intn(4)
		}
		return g.pairList(n)
	case "words":
		n := g.length()
		out := make([]any, n)
		for i := range out {
			out[i] = strings.TrimSpace(g.str(1 + g.Rand.Intn(6)))
		}
		return out
	}
	return nil
}

// Edges returns the boundary inputs of the shape (empty, single, zero...).
func (g *Generator) Edges() []any {
	lo, hi := g.Limits.lo, g.Limits.hi
	var zero any = int64(0)
	var one any = int64(1)
	if g.Limits.floats {
		zero, one = 0.0, 1.0
	}
	inDom := func(v any) bool { f := toF(v); return f >= lo && f <= hi }
	var out []any
	switch g.Shape {
	case "list":
		out = append(out, []any{})
		if inDom(zero) {
			out = append(out, []any{zero})
		}
		out = append(out, []any{g.num()}, []any{g.num(), g.num()})
		if inDom(one) && inDom(zero) {
			out = append(out, []any{one, zero, one, one})
		}
	case "two_lists":
		out = append(out, []any{[]any{}, []any{}}, []any{g.list(1), g.list(1)})
		if !g.Limits.sameLen {
			out = append(out, []any{g.list(3), []any{}}, []any{[]any{}, g.list(2)})
		}
	case "int":
		for _, v := range []int64{0, 1, 2, -1, 7, 10, 12, 100} {
			if float64(v) >= lo && float64(v) <= hi {
				out = append(out, v)
			}
		}
	case "pair":
		out = append(out, []any{zero, zero}, []any{one, zero}, []any{zero, one})
	case "string":
		if g.Limits.roman {
			for _, n := range []int64{1, 4, 9, 14, 40, 90, 400, 1994, 3999} {
				if float64(n) >= lo && float64(n) <= hi {
					out = append(out, romanNumeral(n))
				}
			}
			break
		}
		out = append(out, "", "a", "Ab", "hello world", "aab", "abcba")
	case "points", "pairs":
		out = append(out, []any{}, g.pairList(1), g.pairList(2))
	}
	return out
}

// noLeadingZero makes the leading digit of a number written in digits
// nonzero, unless the number is 0.
func (g *Generator) noLeadingZero(xs []any) []any {
	i := len(xs) - 1
	if g.Limits.msdFirst {
		i = 0
	}
	if len(xs) > 1 && toF(xs[i]) == 0 {
		xs[i] = g.intIn(max(1, int64(g.Limits.lo)), max(1, int64(g.Limits.hi)))
	}
	return xs
}

// compareDigits compares two numbers written as digit lists.
func compareDigits(a, b []any, msdFirst bool) int {
	norm := func(xs []any) []float64 {
		var ds []float64
		for _, x := range xs {
			f, _ := numberOf(x)
			ds = append(ds, f)
		}
		if !msdFirst {
			slices.Reverse(ds)
		}
		for len(ds) > 1 && ds[0] == 0 {
			ds = ds[1:]
		}
		return ds
	}
	x, y := norm(a), norm(b)
	if len(x) != len(y) {
		return len(x) - len(y)
	}
	return slices.Compare(x, y)
}

// romanNumeral writes n (1 to 3999) in Roman numerals, in standard
// subtractive form.
func romanNumeral(n int64) string {
	vals := []int64{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	var sb strings.Builder
	for i, v := range vals {
		for ; n >= v; n -= v {
			sb.WriteString(syms[i])
		}
	}
	return sb.String()
}

// Within reports whether an input respects the limits (lengths,
// the number range, the alphabet, one length for two lists, single
// spaces).
func Within(v any, l Limits, shape string) bool {
	n := ShapeLen(v)
	if p, ok := v.([]any); ok && shape == "two_lists" && len(p) == 2 {
		a, _ := p[0].([]any)
		b, _ := p[1].([]any)
		if l.sameLen && len(a) != len(b) {
			return false
		}
		if min(len(a), len(b)) < l.MinLen || max(len(a), len(b)) > l.MaxLen {
			return false
		}
		if l.firstAtLeast && compareDigits(a, b, l.msdFirst) < 0 {
			return false
		}
		lead := func(xs []any) bool {
			i := len(xs) - 1
			if l.msdFirst {
				i = 0
			}
			f, _ := numberOf(xs[i])
			return len(xs) > 1 && f == 0
		}
		if l.noLeadingZero && (lead(a) || lead(b)) {
			return false
		}
	}
	if s, ok := v.(string); ok && l.singleSpaces && s != strings.Join(strings.Fields(s), " ") {
		return false
	}
	if shape != "int" && shape != "pair" && (n < l.MinLen || n > l.MaxLen) {
		return false
	}
	if s, ok := v.(string); ok && len(l.Alphabet) > 0 {
		for _, r := range s {
			if !slices.Contains(l.Alphabet, r) {
				return false
			}
		}
	}
	raw := Encode(v)
	d, err := task.Decode(raw)
	if err != nil {
		return false
	}
	for _, f := range task.Numbers(d) {
		if f < l.lo || f > l.hi {
			return false
		}
	}
	return true
}

// Inputs drawn from the template of the task's description (propose_template.go).

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

// Witness draws an input of the category cat (see task.Categories) within
// the generator's limits, for the shapes whose categories random draws
// rarely reach (an empty list, a strictly descending one); ok is false when
// the shape or the limits leave no such input to build.
func (g *Generator) Witness(cat string) (any, bool) {
	if g.Shape != "list" {
		return nil, false
	}
	lo, hi := int64(math.Ceil(g.Limits.lo)), int64(math.Floor(g.Limits.hi))
	if g.Limits.floats || hi < lo {
		return nil, false
	}
	n := min(max(g.Limits.MinLen, 4), g.Limits.MaxLen)
	switch cat {
	case "empty":
		return []any{}, true
	case "single":
		return []any{g.num()}, true
	case "long":
		if g.Limits.MaxLen < 8 {
			return nil, false
		}
		return g.list(max(8, g.Limits.MinLen)), true
	case "has_zero", "has_negative":
		v := int64(0)
		if cat == "has_negative" {
			if lo > -1 {
				return nil, false
			}
			v = g.intIn(lo, min(hi, -1))
		}
		if v < lo || v > hi || n < 1 {
			return nil, false
		}
		xs := g.list(n)
		xs[g.Rand.Intn(n)] = v
		return xs, true
	case "repeated_value", "all_equal":
		v := g.num()
		xs := make([]any, max(n, 2))
		for i := range xs {
			xs[i] = v
		}
		return xs, true
	case "ascending", "descending":
		n = max(n, 3)
		if hi-lo+1 < int64(n) {
			return nil, false
		}
		vals := g.Rand.Perm(int(min(hi-lo+1, 1<<16)))[:n]
		slices.Sort(vals)
		if cat == "descending" {
			slices.Reverse(vals)
		}
		xs := make([]any, n)
		for i, v := range vals {
			xs[i] = lo + int64(v)
		}
		return xs, true
	}
	return nil, false
}

// Bounds of NearMisses: the observed strings mutated (nearMissSources),
// and the variants of each.
const (
	MaxNearMissSources = 6
	nearMissesEach     = 4
)

// NearMisses returns strings one step from the observed ones given: a
// character inserted, one character or a character and its mirror image
// replaced by another of a different class (a letter by a digit, a space, a sign), one
// character's case changed. Such a change keeps most of what the input
// was (a palindrome stays one when both mirrored places change) and
// tells apart programs that read the classes differently (isalpha and
// isalnum).
func (g *Generator) NearMisses(sources []any) []any {
	if g.Shape != "string" {
		return nil
	}
	var strs []string
	for _, v := range sources {
		if s, ok := v.(string); ok && s != "" {
			strs = append(strs, s)
		}
	}
	others := func(r rune) []rune {
		var out []rune
		for _, c := range []rune("7 a.Z-0") {
			if charClass(c) != charClass(r) && (len(g.Limits.Alphabet) == 0 || slices.Contains(g.Limits.Alphabet, c)) {
				out = append(out, c)
			}
		}
		return out
	}
	var out []any
	for _, s := range strs {
		rs := []rune(s)
		for range nearMissesEach {
			v := slices.Clone(rs)
			i := g.Rand.Intn(len(v))
			switch g.Rand.Intn(4) {
			case 0:
				// An insertion: a program that drops the class sees the
				// input unchanged, one that keeps it does not.
				cs := others(v[i])
				if len(cs) == 0 || len(v)+1 > g.Limits.MaxLen {
					continue
				}
				v = slices.Insert(v, i, cs[g.Rand.Intn(len(cs))])
			case 1, 2:
				cs := others(v[i])
				if len(cs) == 0 {
					continue
				}
				c := cs[g.Rand.Intn(len(cs))]
				v[i] = c
				if g.Rand.Intn(2) == 0 {
					v[len(v)-1-i] = c
				}
			default:
				switch {
				case unicode.IsLower(v[i]):
					v[i] = unicode.ToUpper(v[i])
				case unicode.IsUpper(v[i]):
					v[i] = unicode.ToLower(v[i])
				default:
					continue
				}
			}
			out = append(out, string(v))
		}
	}
	return out
}

// charClass is a character's class: letter, digit, space or other.
func charClass(r rune) int {
	switch {
	case unicode.IsLetter(r):
		return 0
	case unicode.IsDigit(r):
		return 1
	case unicode.IsSpace(r):
		return 2
	}
	return 3
}
