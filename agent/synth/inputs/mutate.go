package inputs

import (
	"encoding/json"
	"math"
	"math/rand"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

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
	// OriginTemplate marks inputs drawn from the template.
	OriginTemplate = "template"
)

// MutationOps are the mutations of an observed input, in the order they
// are tried.
var MutationOps = []string{opNum, opStr, opDrop, opDup, opSwap, opGraft, opSplice}

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

func templatePattern(n *Template) string {
	var sb strings.Builder
	for _, e := range n.Elems {
		sb.WriteString(templateClass(e))
	}
	return sb.String()
}

func templateClass(n *Template) string {
	switch n.Kind {
	case TkInt, TkFloat:
		if n.asText {
			return "s"
		}
		return "n"
	case TkStr, tkUnits, tkSeq, tkJoined:
		return "s"
	case tkLit:
		if _, ok := n.lit.(string); ok {
			return "s"
		}
		return "n"
	case tkAlt:
		c := ""
		for _, e := range n.Elems {
			ec := templateClass(e)
			if c != "" && ec != c {
				return "?"
			}
			c = ec
		}
		return c
	case tkObject:
		return "o"
	}
	return "l"
}

// Signatures name positions in an input independently of list indices:
// "$" the input, ".k" an object key, "*" any element of a list, "(p).i"
// position i of a tuple of pattern p.
func keySig(sig, k string) string { return sig + "." + k }

func elemSig(sig string) string { return sig + "*" }

func tupleSig(sig, pattern string, i int) string {
	return sig + "(" + pattern + ")." + strconv.Itoa(i)
}

// templateSigs maps each signature to the template nodes found there.
func templateSigs(n *Template) map[string][]*Template {
	out := map[string][]*Template{}
	var visit func(n *Template, sig string)
	visit = func(n *Template, sig string) {
		out[sig] = append(out[sig], n)
		switch n.Kind {
		case tkAlt:
			out[sig] = out[sig][:len(out[sig])-1]
			for _, e := range n.Elems {
				visit(e, sig)
			}
		case TkTuple:
			p := templatePattern(n)
			for i, e := range n.Elems {
				visit(e, tupleSig(sig, p, i))
			}
		case TkList:
			visit(n.Elems[0], elemSig(sig))
		case tkRPN:
			for _, e := range n.Elems {
				visit(e, elemSig(sig))
			}
		case tkObject:
			for i, e := range n.Elems {
				visit(e, keySig(sig, n.keys[i]))
			}
		}
	}
	if n != nil {
		visit(n, "$")
	}
	return out
}

// Observation is what the observed inputs (and the template, when there is
// one) say about each position.
type Observation struct {
	tmpl   map[string][]*Template
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
	lesson  *Lesson
}

// Observe reads the observed inputs, with the template when there is one
// and what the lesson taught.
func Observe(inputs []any, tp *Template, l *Lesson) *Observation {
	o := &Observation{tmpl: templateSigs(tp), tuple: map[string]bool{}, nums: map[string][]float64{}, ints: map[string]bool{},
		strs: map[string][]string{}, lens: map[string][2]int{}, lists: map[string][][]any{}, sorted: map[string]int{}, mixed: map[string]bool{}, uniform: map[string]bool{}, lesson: l}
	o.group("$", inputs)
	return o
}

// isTuple decides whether the lists at a signature have fixed positions:
// the template says so, or short lists mixing strings and numbers.
func (o *Observation) isTuple(sig string, group []any) bool {
	for _, n := range o.tmpl[sig] {
		switch n.Kind {
		case TkTuple:
			return true
		case TkList, tkRPN:
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
func (o *Observation) isTupleAt(sig string) bool {
	if o.tuple[sig] {
		return true
	}
	for _, n := range o.tmpl[sig] {
		if n.Kind == TkTuple {
			return true
		}
	}
	return false
}

// group records the values found at one signature and descends.
func (o *Observation) group(sig string, vals []any) {
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
				isInt = dsl.IsIntNumber(n)
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
		if n.Kind == TkList && n.sortKey != -2 {
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
func (o *Observation) numRange(sig string) (lo, hi float64, ok bool) {
	found := false
	for _, n := range o.tmpl[sig] {
		nlo, nhi := float64(n.lo), float64(n.hi)
		switch n.Kind {
		case TkFloat:
			nlo, nhi = n.flo, n.fhi
		case TkInt:
		default:
			continue
		}
		if !found {
			lo, hi, found = nlo, nhi, true
		}
		lo, hi = math.Min(lo, nlo), math.Max(hi, nhi)
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
func (o *Observation) isInt(sig string) bool {
	for _, n := range o.tmpl[sig] {
		switch n.Kind {
		case TkInt:
			return true
		case TkFloat:
			return false
		}
	}
	return o.ints[sig]
}

// decimals is how many decimals a number at sig has at most: the
// template's, else two.
func (o *Observation) decimals(sig string) int {
	for _, n := range o.tmpl[sig] {
		if n.Kind == TkFloat {
			return n.decimals
		}
	}
	return 2
}

// lenRange is the length a list at sig may have.
func (o *Observation) lenRange(sig string) (lo, hi int) {
	lo, hi = o.lens[sig][0], o.lens[sig][1]
	for _, n := range o.tmpl[sig] {
		if n.Kind == TkList {
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
func (o *Observation) strChoices(sig, s string) []string {
	var out []string
	add := func(c string) {
		if c != s && valueClass(c) == valueClass(s) && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	for _, n := range o.tmpl[sig] {
		switch n.Kind {
		case tkLit:
			if c, ok := n.lit.(string); ok {
				add(c)
			}
		case TkStr:
			for _, c := range n.Choices {
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

func (o *Observation) slots(v *any) []slot {
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

// mutate applies one operation at a random fitting position; it reports
// false when no position fits.
func (o *Observation) mutate(rng *rand.Rand, v *any, op string) bool {
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
				scale := math.Pow(10, float64(o.decimals(s.sig)))
				nf = math.Round((lo+rng.Float64()*(hi-lo))*scale) / scale
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
func (o *Observation) settle(v *any) bool {
	good := true
	for _, s := range o.slots(v) {
		switch x := s.get().(type) {
		case []any:
			if k, ok := o.sorted[s.sig]; ok && k != -2 && !o.isTupleAt(s.sig) {
				sortList(x, k)
				for _, n := range o.tmpl[s.sig] {
					if n.Kind == TkList && n.desc {
						slices.Reverse(x)
					}
				}
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
func (o *Observation) excluded(sig string, f float64) bool {
	for _, n := range o.tmpl[sig] {
		if n.Kind == TkInt && f == math.Trunc(f) && slices.Contains(n.exclude, int64(f)) {
			return true
		}
	}
	return o.lesson != nil && slices.Contains(o.lesson.exclude[sig], f)
}

// Admissible reports whether an input drawn by the kind's generator keeps
// to what the description excludes and the rejections taught (ranges,
// excluded values); it leaves the generator's own ranges alone.
func (o *Observation) Admissible(v any) bool {
	d := RoundTrip(v)
	if o.lesson != nil && !o.lesson.TokensPlaced(d) {
		return false
	}
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

// Mutant draws one mutation of an observed input with 1 to maxOps
// operations among allowed; it returns the operations applied.
func (o *Observation) Mutant(rng *rand.Rand, inputs []any, allowed []string, maxOps int) (any, []string) {
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
