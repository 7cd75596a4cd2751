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
	// roman: strings are Roman numerals of the numbers lo to hi;
	// bowling: strings are the rolls of complete games of ten-pin
	// bowling (notations.go).
	roman, bowling bool
	// pairRanges are the ranges of the two numbers of a pair when the
	// description gives each its own ("n between 0 and 1000000, k
	// between 1 and 6"); lo and hi then span both.
	pairRanges [][2]float64
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
		if l.bowling = bowlingRe.MatchString(t.InputType + "; " + t.InputConstraints); l.bowling {
			l.MinLen, l.MaxLen, l.Alphabet = minBowlingLine, maxBowlingLine, []rune("X/-123456789")
		}
	}
	l.sameLen = t.Kind == task.KindTwoLists && sameLenRe.MatchString(t.InputType+"; "+t.InputConstraints)
	if text := t.InputType + "; " + t.InputConstraints; t.Kind == task.KindTwoLists && digitNumbersRe.MatchString(text) {
		l.digitNumbers = true
		l.msdFirst = msdFirstRe.MatchString(text)
		l.firstAtLeast = firstAtLeastRe.MatchString(text)
		l.noLeadingZero = noLeadingZeroRe.MatchString(text)
	}
	if t.Kind == task.KindPair && !l.floats {
		l.pairRanges = pairRangesOf(t, dom)
		if len(l.pairRanges) == 2 {
			l.lo = math.Min(l.pairRanges[0][0], l.pairRanges[1][0])
			l.hi = math.Max(l.pairRanges[0][1], l.pairRanges[1][1])
		}
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
		if len(g.Limits.pairRanges) == 2 {
			return []any{g.numAt(0), g.numAt(1)}
		}
		if g.Rand.Intn(6) == 0 {
			v := g.num()
			return []any{v, v}
		}
		return []any{g.num(), g.num()}
	case "string":
		if g.Limits.roman {
			return romanNumeral(g.intIn(int64(g.Limits.lo), int64(g.Limits.hi)))
		}
		if g.Limits.bowling {
			return g.bowlingLine()
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
		if r := g.Limits.pairRanges; len(r) == 2 {
			// The numbers nearest 0 and 1 in each range, and each
			// range's top.
			at := func(i int, f float64) any { return int64(math.Max(r[i][0], math.Min(r[i][1], f))) }
			out = append(out, []any{at(0, 0), at(1, 0)}, []any{at(0, 1), at(1, 0)}, []any{at(0, 0), at(1, 1)}, []any{at(0, r[0][1]), at(1, r[1][1])})
			break
		}
		out = append(out, []any{zero, zero}, []any{one, zero}, []any{zero, one})
	case "string":
		if g.Limits.bowling {
			out = append(out, bowlingEdges...)
			break
		}
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
	if s, ok := v.(string); ok && (l.bowling && !isBowlingLine(s) || l.roman && !isRomanNumeral(s)) {
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
	if p, ok := d.([]any); ok && shape == "pair" && len(l.pairRanges) == 2 && len(p) == 2 {
		for i, x := range p {
			if f, ok := numberOf(x); !ok || f < l.pairRanges[i][0] || f > l.pairRanges[i][1] {
				return false
			}
		}
	}
	return true
}

// pairRangesOf reads each number's own range from a pair's description,
// within the domain where they meet: nil unless the description gives the
// two numbers different integer ranges.
func pairRangesOf(t task.Task, dom *task.Domain) [][2]float64 {
	tp := TemplateOf(t)
	if tp == nil || tp.Kind != TkTuple || len(tp.Elems) != 2 {
		return nil
	}
	a, b := tp.Elems[0], tp.Elems[1]
	if a.Kind != TkInt || b.Kind != TkInt || !a.ranged || !b.ranged || a.lo == b.lo && a.hi == b.hi {
		return nil
	}
	var out [][2]float64
	for _, e := range []*Template{a, b} {
		r := [2]float64{float64(e.lo), float64(e.hi)}
		if dom == nil {
			out = append(out, r)
			continue
		}
		if x, y := math.Max(r[0], dom.Lo), math.Min(r[1], dom.Hi); x <= y {
			r = [2]float64{x, y}
		}
		out = append(out, r)
	}
	return out
}

// numAt draws the number at position i of a pair with its own range.
func (g *Generator) numAt(i int) any {
	r := g.Limits.pairRanges[i]
	return g.intIn(int64(math.Ceil(r[0])), int64(math.Floor(r[1])))
}
