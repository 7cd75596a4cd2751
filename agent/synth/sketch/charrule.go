package sketch

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Character rules: the image of every character (a string or a number),
// learned from the images the examples show. A rule is a default formula
// of the character (the character itself, its upper case, its place in
// the alphabet, its code...), perhaps over one class of characters only
// (the letters, the digits), and a table of the characters observed that
// the formula does not give. A character the examples never showed takes
// the formula when it is of the formula's class, and otherwise has no
// image: the program raises (KeyError in Python) rather than invent one.
// The table is keyed by the character or by its lower case (a or A is
// 4) when the examples show both cases alike.

// charFormula is a default image of the characters of its class.
type charFormula struct {
	name string
	// class is the characters the formula covers; nil: every one.
	class *charClass
	// str and num compute a string or an integer image.
	str func(r rune) string
	num func(r rune) int64
	// py is the Python expression of the image of c.
	py string
}

// charClass is a class of characters with its Python test of c.
type charClass struct {
	in func(r rune) bool
	py string
}

var (
	asciiLetters = &charClass{in: func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' },
		py: `"a" <= c <= "z" or "A" <= c <= "Z"`}
	asciiDigits = &charClass{in: func(r rune) bool { return r >= '0' && r <= '9' }, py: `"0" <= c <= "9"`}
)

// alphabetPlace is a letter's place in the alphabet: a or A is 1.
func alphabetPlace(r rune) int64 {
	if r >= 'a' {
		return int64(r-'a') + 1
	}
	return int64(r-'A') + 1
}

// strFormulas and numFormulas are the default images tried, simplest
// first.
var (
	strFormulas = []charFormula{
		{name: "itself", str: func(r rune) string { return string(r) }, py: "c"},
		{name: "upper", str: func(r rune) string { return strings.ToUpper(string(r)) }, py: "c.upper()"},
		{name: "lower", str: func(r rune) string { return strings.ToLower(string(r)) }, py: "c.lower()"},
		{name: "swapcase", str: func(r rune) string { return dsl.Swapcase(string(r)) }, py: "c.swapcase()"},
		{name: "dropped", str: func(rune) string { return "" }, py: `""`},
		{name: "code", str: func(r rune) string { return strconv.Itoa(int(r)) }, py: "str(ord(c))"},
		{name: "place", class: asciiLetters, str: func(r rune) string { return strconv.FormatInt(alphabetPlace(r), 10) },
			py: `str(ord(c.lower()) - ord("a") + 1)`},
	}
	numFormulas = []charFormula{
		{name: "code", num: func(r rune) int64 { return int64(r) }, py: "ord(c)"},
		{name: "place", class: asciiLetters, num: alphabetPlace, py: `ord(c.lower()) - ord("a") + 1`},
		{name: "digit", class: asciiDigits, num: func(r rune) int64 { return int64(r - '0') }, py: "int(c)"},
	}
)

// covers reports whether the formula gives r an image.
func (f *charFormula) covers(r rune) bool { return f != nil && (f.class == nil || f.class.in(r)) }

// image is the formula's image of r (a string or an int64).
func (f *charFormula) image(r rune) any {
	if f.str != nil {
		return f.str(r)
	}
	return f.num(r)
}

// charRule is one filling: the table, how it is keyed, the formula.
type charRule struct {
	table   map[string]any
	lowered bool
	formula *charFormula
}

// key is r as the table is keyed: the character or its lower case (which
// may be longer, as in Python).
func (c *charRule) key(r rune) string {
	if c.lowered {
		return strings.ToLower(string(r))
	}
	return string(r)
}

// image is r's image, ok false when the rule gives it none.
func (c *charRule) image(r rune) (any, bool) {
	if v, have := c.table[c.key(r)]; have {
		return v, true
	}
	if c.formula.covers(r) {
		return c.formula.image(r), true
	}
	return nil, false
}

// learnRule reads a rule off the images observed (each character's image,
// in the order first seen) with the formula f (nil: a table alone),
// keyed as is or lowered. The table holds the characters whose image is
// not f's; it reports false when one key would need two images. A rule
// with a formula needs the formula to give at least minFormulaShare of the
// characters observed (and two of them at least): a formula that fits
// one or two characters by chance would invent the images of the others.
func learnRule(chars []rune, imgs map[rune]any, f *charFormula, lowered bool) (charRule, bool) {
	c := charRule{table: map[string]any{}, lowered: lowered, formula: f}
	given := 0
	for _, r := range chars {
		if f.covers(r) && f.image(r) == imgs[r] {
			given++
			continue
		}
		k := c.key(r)
		if old, have := c.table[k]; have && old != imgs[r] {
			return charRule{}, false
		}
		c.table[k] = imgs[r]
	}
	if f != nil && (given < 2 || float64(given) < minFormulaShare*float64(len(chars))) {
		return charRule{}, false
	}
	// A character the formula gives may share its key with one the table
	// holds: the table wins, so both must agree.
	for _, r := range chars {
		if v, _ := c.image(r); v != imgs[r] {
			return charRule{}, false
		}
	}
	return c, true
}

// minFormulaShare is the share of the characters observed a default
// formula must give.
const minFormulaShare = 0.5

// caseEvidence reports whether the images observed show a character and
// its other case with one image that is not the formula's: the table is
// then keyed by the lower case.
func caseEvidence(chars []rune, imgs map[rune]any, f *charFormula) bool {
	for _, r := range chars {
		l := []rune(strings.ToLower(string(r)))
		if len(l) != 1 || l[0] == r {
			continue
		}
		v, have := imgs[l[0]]
		if have && v == imgs[r] && !(f.covers(r) && f.image(r) == imgs[r]) {
			return true
		}
	}
	return false
}

// rulesFor returns the rules that give every observed image: for each
// formula of formulas (simplest first) and then for a table alone, keyed
// as the evidence says (lowered when both cases of a letter share an
// image) and then the other way when that makes another rule; each rule
// gives every character observed its image and differs from the ones
// before only on characters the examples never showed.
func rulesFor(chars []rune, imgs map[rune]any, formulas []charFormula) []charRule {
	var out []charRule
	add := func(f *charFormula) {
		first := caseEvidence(chars, imgs, f)
		for _, lowered := range []bool{first, !first} {
			if lowered && !slices.ContainsFunc(chars, func(r rune) bool { return strings.ToLower(string(r)) != string(r) }) {
				continue // nothing to lower: the same rule
			}
			if c, good := learnRule(chars, imgs, f, lowered); good {
				out = append(out, c)
			}
		}
	}
	for i := range formulas {
		add(&formulas[i])
	}
	add(nil)
	return out
}

// pyTable writes the table as a dict literal, sorted by key.
func (c *charRule) pyTable() string {
	keys := make([]string, 0, len(c.table))
	for k := range c.table {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	items := make([]string, len(keys))
	for i, k := range keys {
		items[i] = strconv.Quote(k) + ": " + pyValue(c.table[k])
	}
	return "{" + strings.Join(items, ", ") + "}"
}

// pyImage writes the Python that sets v to the image of c, indented by
// ind: the table first, then the formula over its class, else the table
// again, which raises KeyError for a character no example showed.
func (c *charRule) pyImage(ind, v string) string {
	k := "c"
	if c.lowered {
		k = "c.lower()"
	}
	var sb strings.Builder
	switch {
	case c.formula == nil:
		fmt.Fprintf(&sb, "%s%s = table[%s]\n", ind, v, k)
	case len(c.table) == 0 && c.formula.class == nil:
		fmt.Fprintf(&sb, "%s%s = %s\n", ind, v, c.formula.py)
	case len(c.table) == 0:
		fmt.Fprintf(&sb, "%sif %s:\n%s    %s = %s\n", ind, c.formula.class.py, ind, v, c.formula.py)
		fmt.Fprintf(&sb, "%selse:\n%s    raise KeyError(c)\n", ind, ind)
	default:
		fmt.Fprintf(&sb, "%sif %s in table:\n%s    %s = table[%s]\n", ind, k, ind, v, k)
		if c.formula.class == nil {
			fmt.Fprintf(&sb, "%selse:\n%s    %s = %s\n", ind, ind, v, c.formula.py)
		} else {
			fmt.Fprintf(&sb, "%selif %s:\n%s    %s = %s\n", ind, c.formula.class.py, ind, v, c.formula.py)
			fmt.Fprintf(&sb, "%selse:\n%s    raise KeyError(c)\n", ind, ind)
		}
	}
	return sb.String()
}

// String describes the rule in a program's name.
func (c *charRule) String() string {
	f := "none"
	if c.formula != nil {
		f = c.formula.name
	}
	return fmt.Sprintf("table=%s lowered=%v formula=%s", c.pyTable(), c.lowered, f)
}

// pyValue writes an image as a Python literal.
func pyValue(v any) string {
	if s, isStr := v.(string); isStr {
		return strconv.Quote(s)
	}
	return string(dsl.ToJSON(v))
}
