package synth

import (
	"encoding/json"
	"math"
	"math/rand"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/reconstruct/reconstruct/task"
)

// shapeLimits bounds generated inputs: the range of numbers and the lengths
// of lists and strings.
type shapeLimits struct {
	lo, hi         float64
	minLen, maxLen int
	floats         bool
	bits           bool
	// alphabet, when set, is the only characters strings may use.
	alphabet []rune
}

var (
	lengthRe  = regexp.MustCompile(`(\d+)\s+to\s+(\d+)`)
	exactlyRe = regexp.MustCompile(`(?i)exactly\s+(\d+)`)
)

var (
	atMostRe  = regexp.MustCompile(`(?i)at most\s+(\d+)`)
	singleRe  = regexp.MustCompile(`\b[A-Z]\b`)
	symbolsRe = regexp.MustCompile(`[()\[\]{}<>+\-*/=!?#@$%^&|~_]+`)
)

// alphabetFrom reads the characters a string may hold from a constraint
// text ("lowercase letters and space", "each F, L or R", "brackets ()[]{}");
// nil when the text names none.
func alphabetFrom(text string) []rune {
	low := strings.ToLower(text)
	var out []rune
	add := func(s string) {
		for _, r := range s {
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	switch {
	case strings.Contains(low, "lowercase letter"):
		add(letters)
	case strings.Contains(low, "uppercase letter"):
		add(strings.ToUpper(letters))
	case strings.Contains(low, "letter"):
		add(letters + strings.ToUpper(letters))
	}
	if strings.Contains(low, "digit") {
		add("0123456789")
	}
	if strings.Contains(low, "space") {
		add(" ")
	}
	if strings.Contains(low, "each") || strings.Contains(low, " or ") {
		for _, m := range singleRe.FindAllString(text, -1) {
			add(m)
		}
	}
	for _, m := range symbolsRe.FindAllString(text, -1) {
		add(m)
	}
	if strings.Contains(low, "character") && len(out) == 0 {
		return nil
	}
	return out
}

// lengthsFrom reads a length range ("0 to 12 integers", "exactly 2 points")
// from a constraint text or a rejection message.
func lengthsFrom(text string) (lo, hi int, ok bool) {
	if m := exactlyRe.FindStringSubmatch(text); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n, n, n <= 1000
	}
	if m := lengthRe.FindStringSubmatch(text); m != nil {
		a, _ := strconv.Atoi(m[1])
		c, _ := strconv.Atoi(m[2])
		return a, c, a <= c && c <= 1000
	}
	return 0, 0, false
}

// limitsFor derives generation bounds from the task and the observed inputs.
func limitsFor(t task.Task, dom *task.Domain, b *binding, observed []any, conservative bool) shapeLimits {
	l := shapeLimits{lo: -20, hi: 20, minLen: 0, maxLen: 10, floats: b != nil && b.floats}
	switch t.Kind {
	case task.KindInt:
		l.lo, l.hi = -100, 1000
	case task.KindString:
		l.maxLen = 14
	}
	if dom == nil {
		dom = t.Domain
	}
	if dom != nil {
		l.lo, l.hi = dom.Lo, dom.Hi
	}
	if a, c, ok := lengthsFrom(t.InputConstraints); ok {
		l.minLen, l.maxLen = a, c
	} else if m := atMostRe.FindStringSubmatch(t.InputConstraints); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n <= 1000 {
			l.minLen, l.maxLen = 0, n
		}
	}
	if t.Kind == task.KindString {
		l.alphabet = alphabetFrom(t.InputConstraints)
	}
	l.bits = l.lo == 0 && l.hi == 1
	if conservative && len(observed) > 0 {
		// Stay within what the oracle already accepted.
		minL, maxL := math.MaxInt, 0
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, in := range observed {
			n := shapeLen(in)
			minL, maxL = min(minL, n), max(maxL, n)
			for _, f := range task.Numbers(in) {
				lo, hi = math.Min(lo, f), math.Max(hi, f)
			}
		}
		l.minLen, l.maxLen = max(l.minLen, minL), min(l.maxLen, max(maxL, minL))
		seen := map[rune]bool{}
		for _, in := range observed {
			if s, ok := in.(string); ok {
				for _, r := range s {
					if !seen[r] {
						seen[r] = true
						l.alphabet = append(l.alphabet, r)
					}
				}
			}
		}
		if lo <= hi {
			l.lo, l.hi = math.Max(l.lo, lo), math.Min(l.hi, hi)
		}
	}
	if l.maxLen < l.minLen {
		l.maxLen = l.minLen
	}
	return l
}

func shapeLen(v any) int {
	switch x := v.(type) {
	case []any:
		if len(x) == 2 {
			if a, ok := x[0].([]any); ok {
				if b, ok := x[1].([]any); ok && (len(a) > 0 || len(b) > 0) {
					if _, isNum := firstOf(a, b).(json.Number); isNum {
						return max(len(a), len(b))
					}
				}
			}
		}
		return len(x)
	case string:
		return len([]rune(x))
	}
	return 0
}

func firstOf(a, b []any) any {
	if len(a) > 0 {
		return a[0]
	}
	return b[0]
}

// generator draws inputs of a shape within limits.
type generator struct {
	rng   *rand.Rand
	shape string
	lim   shapeLimits
}

func (g *generator) num() any {
	if g.lim.floats {
		lo, hi := g.lim.lo, g.lim.hi
		f := lo + g.rng.Float64()*(hi-lo)
		f = math.Round(f*100) / 100
		if g.rng.Intn(4) == 0 {
			f = math.Round(f)
			return f + 0.5*float64(g.rng.Intn(2))
		}
		return math.Max(lo, math.Min(hi, f))
	}
	return g.intIn(int64(math.Ceil(g.lim.lo)), int64(math.Floor(g.lim.hi)))
}

func (g *generator) intIn(lo, hi int64) int64 {
	if hi < lo {
		return lo
	}
	// Prefer small magnitudes half the time: they exercise more cases.
	if g.rng.Intn(2) == 0 {
		s := max(lo, -10)
		e := min(hi, 10)
		if s <= e {
			return s + g.rng.Int63n(e-s+1)
		}
	}
	return lo + g.rng.Int63n(hi-lo+1)
}

func (g *generator) length() int {
	lo, hi := g.lim.minLen, g.lim.maxLen
	if hi <= lo {
		return lo
	}
	return lo + g.rng.Intn(hi-lo+1)
}

// list draws a list of numbers in one of several shapes.
func (g *generator) list(n int) []any {
	out := make([]any, n)
	switch g.rng.Intn(7) {
	case 0: // all equal
		v := g.num()
		for i := range out {
			out[i] = v
		}
	case 1: // few distinct values
		pool := []any{g.num(), g.num(), g.num()}
		for i := range out {
			out[i] = pool[g.rng.Intn(3)]
		}
	case 2, 3: // sorted ascending or descending
		for i := range out {
			out[i] = g.num()
		}
		sortNums(out, g.rng.Intn(2) == 0)
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

func (g *generator) str(n int) string {
	var sb strings.Builder
	style := g.rng.Intn(8)
	for i := 0; i < n; i++ {
		r := g.rng.Intn(100)
		switch {
		case style == 0 && i > 0 && r < 40: // repeated characters
			s := sb.String()
			sb.WriteByte(s[len(s)-1])
		case r < 55:
			sb.WriteByte(letters[g.rng.Intn(26)])
		case r < 70:
			sb.WriteByte(strings.ToUpper(letters)[g.rng.Intn(26)])
		case r < 82:
			sb.WriteByte(' ')
		case r < 92:
			sb.WriteByte(byte('0' + g.rng.Intn(10)))
		default:
			sb.WriteByte(".,!?-_'"[g.rng.Intn(7)])
		}
	}
	s := sb.String()
	if len(g.lim.alphabet) > 0 {
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
				switch k := g.rng.Intn(6); {
				case k == 0 && unicode.IsLetter(r[i]):
					r[i] = unicode.SimpleFold(r[i])
				case k == 1 && i < len(r)/2:
					r[i] = rune(marks[g.rng.Intn(len(marks))])
					r[len(r)-1-i] = rune(marks[g.rng.Intn(len(marks))])
				}
			}
			g.inAlphabet(r)
		}
		if style == 7 {
			// A near miss: one character of the first half changes to a
			// letter or digit, so the string is a palindrome everywhere
			// but at one pair.
			i := g.rng.Intn(n / 2)
			was := r[i]
			for try := 0; try < 8 && r[i] == was; try++ {
				if len(g.lim.alphabet) > 0 {
					r[i] = g.lim.alphabet[g.rng.Intn(len(g.lim.alphabet))]
				} else {
					r[i] = rune(alnum[g.rng.Intn(len(alnum))])
				}
			}
		}
		s = string(r)
	}
	return s
}

// inAlphabet replaces the runes of r outside the task's alphabet (when it
// has one) by random runes of it, in place, and returns r.
func (g *generator) inAlphabet(r []rune) []rune {
	if len(g.lim.alphabet) == 0 {
		return r
	}
	for i := range r {
		if !slices.Contains(g.lim.alphabet, r[i]) {
			r[i] = g.lim.alphabet[g.rng.Intn(len(g.lim.alphabet))]
		}
	}
	return r
}

func (g *generator) pairList(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = []any{g.intIn(int64(g.lim.lo), int64(g.lim.hi)), g.intIn(int64(g.lim.lo), int64(g.lim.hi))}
	}
	if n >= 3 && g.rng.Intn(4) == 0 { // a duplicate or an axis-aligned point
		out[n-1] = []any{out[0].([]any)[0], g.intIn(int64(g.lim.lo), int64(g.lim.hi))}
	}
	if n >= 2 && g.lim.lo <= -g.lim.hi && g.rng.Intn(5) == 0 {
		// Symmetric about an axis: the second half mirrors the first, in
		// a shuffled order.
		axis := g.rng.Intn(2)
		for i := n / 2; i < n; i++ {
			p := slices.Clone(out[i-n/2].([]any))
			p[axis] = -p[axis].(int64)
			out[i] = p
		}
		g.rng.Shuffle(n, func(i, j int) { out[i], out[j] = out[j], out[i] })
	}
	return out
}

// draw returns one random input as a JSON-ready value.
func (g *generator) draw() any {
	switch g.shape {
	case "list":
		return g.list(g.length())
	case "two_lists":
		return []any{g.list(g.length()), g.list(g.length())}
	case "int":
		lo, hi := int64(math.Ceil(g.lim.lo)), int64(math.Floor(g.lim.hi))
		if g.rng.Intn(3) == 0 {
			return g.intIn(max(lo, -3), min(hi, 20))
		}
		return g.intIn(lo, hi)
	case "pair":
		if g.rng.Intn(6) == 0 {
			v := g.num()
			return []any{v, v}
		}
		return []any{g.num(), g.num()}
	case "string":
		return g.str(g.length())
	case "points", "pairs":
		n := g.length()
		if g.shape == "points" && n == 0 && g.lim.minLen == 0 && g.rng.Intn(2) == 0 {
			n = 1 + g.rng.Intn(4)
		}
		return g.pairList(n)
	case "words":
		n := g.length()
		out := make([]any, n)
		for i := range out {
			out[i] = strings.TrimSpace(g.str(1 + g.rng.Intn(6)))
		}
		return out
	}
	return nil
}

// edges returns the boundary inputs of the shape (empty, single, zero...).
func (g *generator) edges() []any {
	lo, hi := g.lim.lo, g.lim.hi
	var zero any = int64(0)
	var one any = int64(1)
	if g.lim.floats {
		zero, one = 0.0, 1.0
	}
	inDom := func(v any) bool { f := toF(v); return f >= lo && f <= hi }
	var out []any
	switch g.shape {
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
		out = append(out, []any{[]any{}, []any{}}, []any{g.list(3), []any{}}, []any{[]any{}, g.list(2)}, []any{g.list(1), g.list(1)})
	case "int":
		for _, v := range []int64{0, 1, 2, -1, 7, 10, 12, 100} {
			if float64(v) >= lo && float64(v) <= hi {
				out = append(out, v)
			}
		}
	case "pair":
		out = append(out, []any{zero, zero}, []any{one, zero}, []any{zero, one})
	case "string":
		out = append(out, "", "a", "Ab", "hello world", "aab", "abcba")
	case "points", "pairs":
		out = append(out, []any{}, g.pairList(1), g.pairList(2))
	}
	return out
}

func encode(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// withinLimits reports whether an input respects the limits (lengths and
// the number range).
func withinLimits(v any, l shapeLimits, shape string) bool {
	n := shapeLen(v)
	if shape != "int" && shape != "pair" && (n < l.minLen || n > l.maxLen) {
		return false
	}
	if s, ok := v.(string); ok && len(l.alphabet) > 0 {
		for _, r := range s {
			if !slices.Contains(l.alphabet, r) {
				return false
			}
		}
	}
	raw := encode(v)
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

// Inputs by mutation. Once examples exist, the observed inputs are the best
// evidence of what the hidden program accepts: a mutation keeps an input's
// structure and changes one thing (a number within the range seen or
// stated at that position, a string for another seen there, a list element
// dropped, duplicated, swapped or taken from another input).

// Mutation operations; each is also an origin a rejection can be blamed on.
const (
	opNum    = "num"
	opStr    = "str"
	opDrop   = "drop"
	opDup    = "dup"
	opSwap   = "swap"
	opGraft  = "graft"
	opSplice = "splice"
	// originTemplate marks inputs drawn from the template.
	originTemplate = "template"
)

var mutationOps = []string{opNum, opStr, opDrop, opDup, opSwap, opGraft, opSplice}

// valueClass is the kind of a JSON value, strings split into digits,
// letters and symbols (a token stream mixes them; a word list does not).
func valueClass(v any) string {
	switch x := v.(type) {
	case json.Number, int64, float64:
		return "n"
	case string:
		switch {
		case isDigits(x):
			return "d"
		case x != "" && strings.IndexFunc(x, func(r rune) bool { return !unicode.IsLetter(r) }) < 0:
			return "a"
		}
		return "s"
	case []any:
		return "l"
	case map[string]any:
		return "o"
	case bool:
		return "b"
	}
	return "z"
}

// tuplePattern is the signature of a fixed-position list: the classes of
// its parts, strings of every sort as "s".
func tuplePattern(xs []any) string {
	var sb strings.Builder
	for _, x := range xs {
		c := valueClass(x)
		if c == "d" || c == "a" {
			c = "s"
		}
		sb.WriteString(c)
	}
	return sb.String()
}

func templatePattern(n *tnode) string {
	var sb strings.Builder
	for _, e := range n.elems {
		sb.WriteString(templateClass(e))
	}
	return sb.String()
}

func templateClass(n *tnode) string {
	switch n.kind {
	case tInt:
		return "n"
	case tStr, tUnits:
		return "s"
	case tLit:
		if _, ok := n.lit.(string); ok {
			return "s"
		}
		return "n"
	case tAlt:
		c := ""
		for _, e := range n.elems {
			ec := templateClass(e)
			if c != "" && ec != c {
				return "?"
			}
			c = ec
		}
		return c
	case tObject:
		return "o"
	}
	return "l"
}

// Signatures name positions in an input independently of list indices:
// "$" the input, ".k" an object key, "*" any element of a list, "(p).i"
// position i of a tuple of pattern p.
func keySig(sig, k string) string { return sig + "." + k }
func elemSig(sig string) string   { return sig + "*" }
func tupleSig(sig, pattern string, i int) string {
	return sig + "(" + pattern + ")." + strconv.Itoa(i)
}

// templateSigs maps each signature to the template nodes found there.
func templateSigs(n *tnode) map[string][]*tnode {
	out := map[string][]*tnode{}
	var visit func(n *tnode, sig string)
	visit = func(n *tnode, sig string) {
		out[sig] = append(out[sig], n)
		switch n.kind {
		case tAlt:
			out[sig] = out[sig][:len(out[sig])-1]
			for _, e := range n.elems {
				visit(e, sig)
			}
		case tTuple:
			p := templatePattern(n)
			for i, e := range n.elems {
				visit(e, tupleSig(sig, p, i))
			}
		case tList:
			visit(n.elems[0], elemSig(sig))
		case tRPN:
			for _, e := range n.elems {
				visit(e, elemSig(sig))
			}
		case tObject:
			for i, e := range n.elems {
				visit(e, keySig(sig, n.keys[i]))
			}
		}
	}
	if n != nil {
		visit(n, "$")
	}
	return out
}

// observation is what the observed inputs (and the template, when there is
// one) say about each position.
type observation struct {
	tmpl   map[string][]*tnode
	tuple  map[string]bool
	nums   map[string][]float64
	ints   map[string]bool
	strs   map[string][]string
	lens   map[string][2]int
	lists  map[string][][]any
	sorted map[string]int
	mixed  map[string]bool
	// uniform marks lists whose sibling lists always share their length
	// (the rows of a grid): their length is kept.
	uniform map[string]bool
	lesson  *lesson
}

func observe(inputs []any, tp *tnode, l *lesson) *observation {
	o := &observation{tmpl: templateSigs(tp), tuple: map[string]bool{}, nums: map[string][]float64{}, ints: map[string]bool{},
		strs: map[string][]string{}, lens: map[string][2]int{}, lists: map[string][][]any{}, sorted: map[string]int{}, mixed: map[string]bool{}, uniform: map[string]bool{}, lesson: l}
	o.group("$", inputs)
	return o
}

// isTuple decides whether the lists at a signature have fixed positions:
// the template says so, or short lists mixing strings and numbers.
func (o *observation) isTuple(sig string, group []any) bool {
	for _, n := range o.tmpl[sig] {
		switch n.kind {
		case tTuple:
			return true
		case tList, tRPN:
			return false
		}
	}
	for _, v := range group {
		if xs, ok := v.([]any); ok && len(xs) <= 4 {
			cls := map[string]bool{}
			for _, x := range xs {
				c := valueClass(x)
				if c == "d" || c == "a" {
					c = "s"
				}
				cls[c] = true
			}
			if cls["s"] && cls["n"] {
				return true
			}
		}
	}
	return false
}

// isTupleAt reports whether lists at sig have fixed positions, by the
// observed inputs or the template.
func (o *observation) isTupleAt(sig string) bool {
	if o.tuple[sig] {
		return true
	}
	for _, n := range o.tmpl[sig] {
		if n.kind == tTuple {
			return true
		}
	}
	return false
}

// group records the values found at one signature and descends.
func (o *observation) group(sig string, vals []any) {
	var lists [][]any
	objs := map[string][]any{}
	var keys []string
	for _, v := range vals {
		switch x := v.(type) {
		case json.Number, int64, float64:
			f, _ := numberOf(x)
			o.nums[sig] = append(o.nums[sig], f)
			isInt := false
			switch n := x.(type) {
			case int64:
				isInt = true
			case json.Number:
				isInt = isIntNumber(n)
			}
			if prev, seen := o.ints[sig]; seen {
				isInt = isInt && prev
			}
			o.ints[sig] = isInt
		case string:
			if !slices.Contains(o.strs[sig], x) {
				o.strs[sig] = append(o.strs[sig], x)
			}
		case []any:
			lists = append(lists, x)
		case map[string]any:
			for k, e := range x {
				if _, ok := objs[k]; !ok {
					keys = append(keys, k)
				}
				objs[k] = append(objs[k], e)
			}
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		o.group(keySig(sig, k), objs[k])
	}
	if len(lists) == 0 {
		return
	}
	asAny := make([]any, len(lists))
	for i, l := range lists {
		asAny[i] = l
	}
	if o.isTuple(sig, asAny) {
		o.tuple[sig] = true
		byPos := map[string][]any{}
		var order []string
		for _, l := range lists {
			p := tuplePattern(l)
			for i, e := range l {
				s := tupleSig(sig, p, i)
				if _, ok := byPos[s]; !ok {
					order = append(order, s)
				}
				byPos[s] = append(byPos[s], e)
			}
		}
		for _, s := range order {
			o.group(s, byPos[s])
		}
		return
	}
	lo, hi := math.MaxInt, 0
	var elems []any
	cls := map[string]bool{}
	sorted, long := true, false
	for _, l := range lists {
		lo, hi = min(lo, len(l)), max(hi, len(l))
		elems = append(elems, l...)
		for i, e := range l {
			cls[valueClass(e)] = true
			if i > 0 && compareValues(l[i-1], e) > 0 {
				sorted = false
			}
		}
		long = long || len(l) >= 3
	}
	o.lens[sig] = [2]int{lo, hi}
	o.lists[sig] = lists
	uniform, rows := true, 0
	for _, l := range lists {
		n := -1
		for _, e := range l {
			if row, ok := e.([]any); ok {
				rows++
				if n >= 0 && len(row) != n {
					uniform = false
				}
				n = len(row)
			}
		}
	}
	o.uniform[elemSig(sig)] = uniform && rows > len(lists)
	o.mixed[sig] = len(cls) > 1
	o.sorted[sig] = -2
	if sorted && long && len(lists) >= 2 {
		o.sorted[sig] = -1
	}
	for _, n := range o.tmpl[sig] {
		if n.kind == tList && n.sortKey != -2 {
			o.sorted[sig] = n.sortKey
		}
	}
	if o.lesson != nil && o.lesson.sorted[sig] && o.sorted[sig] == -2 {
		o.sorted[sig] = -1
	}
	o.group(elemSig(sig), elems)
}

// numRange is where a number at sig may lie: the template's range when it
// states one, else the observed range; narrowed by what rejections taught.
func (o *observation) numRange(sig string) (lo, hi float64, ok bool) {
	found := false
	for _, n := range o.tmpl[sig] {
		if n.kind == tInt {
			if !found {
				lo, hi, found = float64(n.lo), float64(n.hi), true
			}
			lo, hi = math.Min(lo, float64(n.lo)), math.Max(hi, float64(n.hi))
		}
	}
	if !found {
		xs := o.nums[sig]
		if len(xs) == 0 {
			return 0, 0, false
		}
		lo, hi = slices.Min(xs), slices.Max(xs)
	}
	if o.lesson != nil {
		if r, ok := o.lesson.ranges[sig]; ok {
			lo, hi = math.Max(lo, r[0]), math.Min(hi, r[1])
		}
	}
	return lo, hi, lo <= hi
}

// isInt reports whether numbers at sig are integers.
func (o *observation) isInt(sig string) bool {
	for _, n := range o.tmpl[sig] {
		if n.kind == tInt {
			return true
		}
	}
	return o.ints[sig]
}

// lenRange is the length a list at sig may have.
func (o *observation) lenRange(sig string) (lo, hi int) {
	lo, hi = o.lens[sig][0], o.lens[sig][1]
	for _, n := range o.tmpl[sig] {
		if n.kind == tList {
			lo, hi = n.minLen, n.maxLen
		}
	}
	if o.lesson != nil {
		if r, ok := o.lesson.lens[sig]; ok {
			lo, hi = max(lo, r[0]), min(hi, r[1])
		}
	}
	return lo, hi
}

// strChoices are the strings that may replace s at sig: the template's
// literals and choices there, and the observed strings, of s's class.
func (o *observation) strChoices(sig, s string) []string {
	var out []string
	add := func(c string) {
		if c != s && valueClass(c) == valueClass(s) && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	for _, n := range o.tmpl[sig] {
		switch n.kind {
		case tLit:
			if c, ok := n.lit.(string); ok {
				add(c)
			}
		case tStr:
			for _, c := range n.choices {
				add(c)
			}
		}
	}
	for _, c := range o.strs[sig] {
		add(c)
	}
	return out
}

// slot is one position of an input being mutated.
type slot struct {
	sig string
	get func() any
	set func(any)
}

func (o *observation) slots(v *any) []slot {
	var out []slot
	var visit func(sig string, get func() any, set func(any))
	visit = func(sig string, get func() any, set func(any)) {
		out = append(out, slot{sig, get, set})
		switch x := get().(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				visit(keySig(sig, k), func() any { return x[k] }, func(nv any) { x[k] = nv })
			}
		case []any:
			tuple := o.isTupleAt(sig)
			p := tuplePattern(x)
			for i := range x {
				s := elemSig(sig)
				if tuple {
					s = tupleSig(sig, p, i)
				}
				visit(s, func() any { return x[i] }, func(nv any) { x[i] = nv })
			}
		}
	}
	visit("$", func() any { return *v }, func(nv any) { *v = nv })
	return out
}

// deepCopy copies a decoded JSON value.
func deepCopy(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	}
	return v
}

// mutate applies one operation at a random fitting position; it reports
// false when no position fits.
func (o *observation) mutate(rng *rand.Rand, v *any, op string) bool {
	slots := o.slots(v)
	order := rng.Perm(len(slots))
	for _, i := range order {
		s := slots[i]
		cur := s.get()
		switch op {
		case opNum:
			if valueClass(cur) != "n" {
				continue
			}
			lo, hi, ok := o.numRange(s.sig)
			if !ok {
				continue
			}
			f, _ := numberOf(cur)
			var nf float64
			if seen := o.nums[s.sig]; len(seen) > 1 && rng.Intn(2) == 0 {
				nf = seen[rng.Intn(len(seen))]
			} else if o.isInt(s.sig) {
				nf = float64(int64(math.Ceil(lo)) + rng.Int63n(int64(math.Floor(hi))-int64(math.Ceil(lo))+1))
			} else {
				nf = math.Round((lo+rng.Float64()*(hi-lo))*100) / 100
			}
			if nf == f || nf < lo || nf > hi {
				continue
			}
			if o.isInt(s.sig) {
				s.set(int64(nf))
			} else {
				s.set(nf)
			}
			return true
		case opStr:
			str, ok := cur.(string)
			if !ok {
				continue
			}
			cs := o.strChoices(s.sig, str)
			if len(cs) == 0 {
				continue
			}
			s.set(cs[rng.Intn(len(cs))])
			return true
		default:
			xs, ok := cur.([]any)
			if !ok || o.isTupleAt(s.sig) || o.mixed[s.sig] || (o.uniform[s.sig] && op != opSwap) {
				continue
			}
			if o.uniform[elemSig(s.sig)] && (op == opGraft || op == opSplice) {
				continue
			}
			lo, hi := o.lenRange(s.sig)
			var nx []any
			switch op {
			case opDrop:
				if len(xs) == 0 || len(xs)-1 < lo {
					continue
				}
				k := rng.Intn(len(xs))
				nx = append(append([]any{}, xs[:k]...), xs[k+1:]...)
			case opDup:
				if len(xs) == 0 || len(xs)+1 > hi {
					continue
				}
				k := rng.Intn(len(xs))
				nx = append(append(append([]any{}, xs[:k+1]...), deepCopy(xs[k])), xs[k+1:]...)
			case opSwap:
				if len(xs) < 2 || o.sorted[s.sig] != -2 {
					continue
				}
				nx = append([]any{}, xs...)
				a, b := rng.Intn(len(xs)), rng.Intn(len(xs))
				if compareValues(nx[a], nx[b]) == 0 {
					continue
				}
				nx[a], nx[b] = nx[b], nx[a]
			case opGraft, opSplice:
				var pool [][]any
				for _, l := range o.lists[s.sig] {
					if len(l) > 0 {
						pool = append(pool, l)
					}
				}
				if len(pool) == 0 {
					continue
				}
				donor := pool[rng.Intn(len(pool))]
				if op == opGraft {
					if len(xs)+1 > hi {
						continue
					}
					k := rng.Intn(len(xs) + 1)
					nx = append(append(append([]any{}, xs[:k]...), deepCopy(donor[rng.Intn(len(donor))])), xs[k:]...)
				} else {
					a, b := rng.Intn(len(xs)+1), rng.Intn(len(donor)+1)
					nx = append(append([]any{}, xs[:a]...), deepCopy(donor[b:]).([]any)...)
					if len(nx) < lo || len(nx) > hi {
						continue
					}
				}
			default:
				return false
			}
			s.set(nx)
			return true
		}
	}
	return false
}

// settle restores the orders the inputs keep and checks what is stated:
// numbers within their ranges, lists within their lengths.
func (o *observation) settle(v *any) bool {
	good := true
	for _, s := range o.slots(v) {
		switch x := s.get().(type) {
		case []any:
			if k, ok := o.sorted[s.sig]; ok && k != -2 && !o.isTupleAt(s.sig) {
				sortList(x, k)
			}
			if !o.isTupleAt(s.sig) {
				if lo, hi := o.lenRange(s.sig); len(x) < lo || len(x) > hi {
					good = false
				}
			}
		case json.Number, int64, float64:
			f, _ := numberOf(x)
			if lo, hi, ok := o.numRange(s.sig); ok && (f < lo || f > hi) {
				good = false
			}
			if o.excluded(s.sig, f) {
				good = false
			}
		case string:
			if o.lesson != nil && strings.ContainsAny(x, string(o.lesson.badChars)) {
				good = false
			}
		}
	}
	return good
}

// excluded reports whether the description or a rejection rules out the
// number f at sig.
func (o *observation) excluded(sig string, f float64) bool {
	for _, n := range o.tmpl[sig] {
		if n.kind == tInt && f == math.Trunc(f) && slices.Contains(n.exclude, int64(f)) {
			return true
		}
	}
	return o.lesson != nil && slices.Contains(o.lesson.exclude[sig], f)
}

// admissible reports whether an input drawn by the kind's generator keeps
// to what the description excludes and the rejections taught (ranges,
// excluded values); it leaves the generator's own ranges alone.
func (o *observation) admissible(v any) bool {
	d := roundTrip(v)
	for _, s := range o.slots(&d) {
		if str, ok := s.get().(string); ok && o.lesson != nil && strings.ContainsAny(str, string(o.lesson.badChars)) {
			return false
		}
		f, ok := numberOf(s.get())
		if !ok {
			continue
		}
		if o.excluded(s.sig, f) {
			return false
		}
		if o.lesson != nil {
			if r, ok := o.lesson.ranges[s.sig]; ok && (f < r[0] || f > r[1]) {
				return false
			}
		}
	}
	return true
}

// mutant draws one mutation of an observed input with 1 to maxOps
// operations among allowed; it returns the operations applied.
func (o *observation) mutant(rng *rand.Rand, inputs []any, allowed []string, maxOps int) (any, []string) {
	if len(inputs) == 0 || len(allowed) == 0 {
		return nil, nil
	}
	v := deepCopy(inputs[rng.Intn(len(inputs))])
	var done []string
	n := 1 + rng.Intn(max(maxOps, 1))
	for tries := 0; len(done) < n && tries < 4*n; tries++ {
		op := allowed[rng.Intn(len(allowed))]
		if o.mutate(rng, &v, op) {
			done = append(done, op)
		}
	}
	if len(done) == 0 || !o.settle(&v) {
		return nil, nil
	}
	return v, done
}

// lesson is what the rejections of earlier proposals taught about a task's
// inputs: narrower ranges and lengths, orders to keep, operations to stop
// using. It outlives one Propose call so that later batches keep it.
type lesson struct {
	ranges map[string][2]float64
	// exclude are values a position must not take.
	exclude map[string][]float64
	// badChars are characters no string may hold.
	badChars []rune
	lens     map[string][2]int
	sorted   map[string]bool
	banned   map[string]bool
	// strikes counts rejections nothing above explained: proposals then
	// keep closer to the smallest and to the observed inputs.
	strikes int
	// last maps each input of the previous proposal to its origin.
	last map[string]string
}

func newLesson() *lesson {
	return &lesson{ranges: map[string][2]float64{}, exclude: map[string][]float64{}, lens: map[string][2]int{}, sorted: map[string]bool{}, banned: map[string]bool{}, last: map[string]string{}}
}

var (
	reasonRangeRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)between\s+(-?\d+(?:\.\d+)?)\s+and\s+(-?\d+(?:\.\d+)?)`),
		regexp.MustCompile(`\[\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\]`),
		regexp.MustCompile(`(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)`),
		regexp.MustCompile(`(?i)from\s+(-?\d+(?:\.\d+)?)\s+to\s+(-?\d+(?:\.\d+)?)`),
	}
	reasonExcludeRe = regexp.MustCompile(`(?i)(?:must\s+not\s+be|is\s+not|cannot\s+be|can't\s+be|not\s+equal\s+to|!=)\s+(-?\d+(?:\.\d+)?)\b|(non-?zero|by\s+zero)`)
	reasonCharRe    = regexp.MustCompile(`(?i)(?:character|char|symbol)\s+['"](.)['"]`)
	reasonOrderRe   = regexp.MustCompile(`(?i)non-decreasing|nondecreasing|ascending|increasing|sorted|\border\b`)
)

// rejectedInput finds which input of the previous proposal a rejection
// names; it returns its canonical form and the message after it.
func (l *lesson) rejectedInput(reason string) (string, string) {
	best := ""
	for c := range l.last {
		if len(c) > len(best) && strings.Contains(reason, "("+c+")") {
			best = c
		}
	}
	if best == "" {
		return "", reason
	}
	i := strings.Index(reason, "("+best+")")
	return best, reason[i+len(best)+2:]
}

// learn reads a rejection: the numbers and lengths of the rejected input
// that break a range the message states, an order it names; when nothing
// explains it, the operations that made the input are dropped.
func (l *lesson) learn(reason string, tp *tnode, observed []any) {
	c, msg := l.rejectedInput(reason)
	if i := strings.Index(msg, "got "); i >= 0 {
		msg = msg[:i]
	}
	learned := false
	if c != "" {
		if v, ok := decodeRaw(json.RawMessage(c)); ok {
			o := observe(append(slices.Clone(observed), v), tp, nil)
			var ranges [][2]float64
			for _, re := range reasonRangeRes {
				for _, m := range re.FindAllStringSubmatch(msg, -1) {
					lo, _ := strconv.ParseFloat(m[1], 64)
					hi, _ := strconv.ParseFloat(m[2], 64)
					if lo <= hi {
						ranges = append(ranges, [2]float64{lo, hi})
					}
				}
			}
			nlo, nhi, hasLen := lengthsFrom(msg)
			if m := atMostRe.FindStringSubmatch(msg); !hasLen && m != nil {
				nlo, nhi, hasLen = 0, atoi(m[1]), true
			}
			ordered := reasonOrderRe.MatchString(msg)
			if l.learnExclusion(msg, o, &v) {
				learned = true
			}
			if m := reasonCharRe.FindStringSubmatch(msg); m != nil && strings.Contains(c, m[1]) {
				if r := []rune(m[1])[0]; !slices.Contains(l.badChars, r) {
					l.badChars = append(l.badChars, r)
				}
				learned = true
			}
			for _, s := range o.slots(&v) {
				switch x := s.get().(type) {
				case json.Number, int64, float64:
					f, _ := numberOf(x)
					for _, r := range ranges {
						if f < r[0] || f > r[1] {
							l.narrow(s.sig, r)
							learned = true
						}
					}
				case []any:
					if o.isTupleAt(s.sig) {
						continue
					}
					if hasLen && (len(x) < nlo || len(x) > nhi) {
						if old, ok := l.lens[s.sig]; ok {
							nlo, nhi = max(nlo, old[0]), min(nhi, old[1])
						}
						l.lens[s.sig] = [2]int{nlo, nhi}
						learned = true
					}
					if ordered && len(x) > 1 && !slices.IsSortedFunc(x, compareValues) {
						l.sorted[s.sig] = true
						learned = true
					}
				}
			}
		}
	}
	if learned {
		return
	}
	l.strikes++
	if origin := l.last[c]; origin != "" {
		for _, op := range strings.Split(origin, "+") {
			l.banned[op] = true
		}
	}
}

// learnExclusion reads "b must not be 0" and the like: the value is
// excluded where the rejected input holds it, at the positions the message
// names when it names some.
func (l *lesson) learnExclusion(msg string, o *observation, v *any) bool {
	m := reasonExcludeRe.FindStringSubmatch(msg)
	if m == nil {
		return false
	}
	x := 0.0
	if m[1] != "" {
		x, _ = strconv.ParseFloat(m[1], 64)
	}
	words := nameWords(lastWords(msg[:strings.Index(msg, m[0])], 2))
	var at, named []string
	for _, s := range o.slots(v) {
		if f, ok := numberOf(s.get()); ok && f == x && !slices.Contains(at, s.sig) {
			at = append(at, s.sig)
			if len(bestMatches(o.tmpl[s.sig], words)) > 0 {
				named = append(named, s.sig)
			}
		}
	}
	if len(named) > 0 {
		at = named
	}
	for _, sig := range at {
		if !slices.Contains(l.exclude[sig], x) {
			l.exclude[sig] = append(l.exclude[sig], x)
		}
	}
	return len(at) > 0
}

func (l *lesson) narrow(sig string, r [2]float64) {
	if old, ok := l.ranges[sig]; ok {
		r = [2]float64{math.Max(r[0], old[0]), math.Min(r[1], old[1])}
	}
	l.ranges[sig] = r
}

// applyTo narrows a template by what the lesson holds.
func (l *lesson) applyTo(tp *tnode) {
	for sig, nodes := range templateSigs(tp) {
		for _, n := range nodes {
			if n.kind == tInt {
				for _, x := range l.exclude[sig] {
					if x == math.Trunc(x) && !slices.Contains(n.exclude, int64(x)) {
						n.exclude = append(n.exclude, int64(x))
					}
				}
			}
			if r, ok := l.ranges[sig]; ok && n.kind == tInt {
				lo, hi := max(n.lo, int64(math.Ceil(r[0]))), min(n.hi, int64(math.Floor(r[1])))
				if lo <= hi {
					n.lo, n.hi = lo, hi
				}
			}
			if r, ok := l.lens[sig]; ok && (n.kind == tList || n.kind == tRPN) {
				lo, hi := max(n.minLen, r[0]), min(n.maxLen, r[1])
				if lo <= hi {
					n.minLen, n.maxLen = lo, hi
				}
			}
			if l.sorted[sig] && n.kind == tList && n.sortKey == -2 {
				n.sortKey = -1
			}
		}
	}
}

// leafCount measures an input's size: its numbers, strings and elements.
func leafCount(v any) int {
	switch x := v.(type) {
	case []any:
		n := 0
		for _, e := range x {
			n += leafCount(e)
		}
		return max(n, 1)
	case map[string]any:
		n := 0
		for _, e := range x {
			n += leafCount(e)
		}
		return n
	case string:
		return max(len(x)/2, 1)
	}
	return 1
}
