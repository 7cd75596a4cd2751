package sketch

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The character map: a string whose output lines up with its characters,
// every character giving an image of its own (a string or a number) and
// the images joined by a separator, by nothing, or listed: leet speak
// (a → 4), the digits of a phone keypad, Morse code (letters' codes
// joined by spaces, a space giving "/"), letters' places in the
// alphabet. The images are read off the examples (where the images are
// joined by nothing and differ in length, the cut that gives every
// character one image across all the examples is searched), and a
// character rule (charrule.go) is learned from them: a default formula
// and a table of the characters it does not give. A character no example
// showed takes the formula if it is of the formula's class, else the
// program raises: the table is never extended by invention.

// charMapSeps are the separators the images may be joined by; "" joins
// them by nothing.
var charMapSeps = []string{"", " ", ",", ", ", "-", "|"}

// Bounds of the cut of outputs into images joined by nothing: an image's
// length, and the steps of the backtracking search.
const (
	charMapMaxImage = 6
	charMapMaxSteps = 200_000
)

// charLayout says how the images of a string's characters make its output.
type charLayout struct {
	// list: the output lists the images; otherwise they are joined by sep.
	list bool
	sep  string
}

// charMap is one filling: the layout and the rule.
type charMap struct {
	layout charLayout
	rule   charRule
}

func (m charMap) run(s string) any {
	rs := []rune(s)
	imgs := make([]any, len(rs))
	for i, r := range rs {
		v, good := m.rule.image(r)
		if !good {
			return dsl.ErrV
		}
		imgs[i] = v
	}
	if m.layout.list {
		if len(imgs) > 0 {
			if _, isStr := imgs[0].(string); !isStr {
				out := make([]int64, len(imgs))
				for i, v := range imgs {
					out[i] = v.(int64)
				}
				return out
			}
		}
		out := make([]string, len(imgs))
		for i, v := range imgs {
			out[i] = v.(string)
		}
		return out
	}
	parts := make([]string, len(imgs))
	for i, v := range imgs {
		parts[i] = v.(string)
	}
	joined := strings.Join(parts, m.layout.sep)
	if len(joined) > dsl.MaxLen {
		return dsl.ErrV
	}
	return joined
}

// CharMap reads the images of the characters under every layout the
// outputs allow and offers the rules that give them, a formula's before a
// table's; when the search collects a proposal's rivals it also offers
// the rule's images of unseen characters made up, which the proposal
// then asks about. It reports whether consider accepted a program.
func CharMap(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if len(p.B.Types) != 1 || p.B.Types[0] != dsl.Str || p.Nullable || len(p.Outs) < 2 || en.Stopped {
		return false
	}
	var layouts []charLayout
	formulas := strFormulas
	switch p.Out {
	case dsl.Str:
		for _, sep := range charMapSeps {
			layouts = append(layouts, charLayout{sep: sep})
		}
	case dsl.ListStr:
		layouts = []charLayout{{list: true}}
	case dsl.ListInt:
		layouts, formulas = []charLayout{{list: true}}, numFormulas
	default:
		return false
	}
	for _, lay := range layouts {
		chars, imgs, good := readImages(p, lay)
		if !good {
			continue
		}
		rules := rulesFor(chars, imgs, formulas)
		for _, rule := range rules {
			if offerCharMap(en, p, charMap{lay, rule}, consider) {
				return true
			}
		}
		if en.Collect && len(rules) > 0 {
			for _, rival := range unseenRivals(rules[0], chars, formulas) {
				if offerCharMap(en, p, charMap{lay, rival}, consider) {
					return true
				}
			}
		}
	}
	return false
}

// unseenRivals are rules that give every observed character the image
// rule gives it and make up the images of the others: the rule's table
// with a formula over every character (the characters the examples never
// showed then take the formula's image instead of none). They are told
// apart from rule only by an input holding such a character.
func unseenRivals(rule charRule, chars []rune, formulas []charFormula) []charRule {
	var out []charRule
	for i := range formulas {
		f := &formulas[i]
		if f.class != nil || f == rule.formula {
			continue
		}
		table := map[string]any{}
		for _, r := range chars {
			v, _ := rule.image(r)
			table[rule.key(r)] = v
		}
		out = append(out, charRule{table: table, lowered: rule.lowered, formula: f})
		break
	}
	return out
}

func offerCharMap(en *Search, p *dsl.Problem, m charMap, consider func(*dsl.Node, []any) bool) bool {
	return fillSketch(en, p, []charMap{m}, func(m charMap, env []any) any { return m.run(env[0].(string)) },
		func(m charMap) *dsl.Node { return charMapNode(p, m) }, consider)
}

// readImages reads each character's image off the examples under a
// layout: the characters in the order first seen and their images, false
// when the outputs do not line up with the characters, a character would
// need two images, or no example has two characters.
func readImages(p *dsl.Problem, lay charLayout) ([]rune, map[rune]any, bool) {
	var chars []rune
	imgs := map[rune]any{}
	several := false
	var loose [][2][]rune // joined by nothing, images of several lengths
	for i, o := range p.Outs {
		rs := []rune(p.Envs[i][0].(string))
		several = several || len(rs) > 1
		var parts []any
		switch {
		case lay.list:
			parts = listParts(o)
		case o.(string) == "":
			if len(rs) > 0 && lay.sep != "" {
				return nil, nil, false
			}
			parts = make([]any, len(rs))
			for j := range parts {
				parts[j] = ""
			}
		case lay.sep != "":
			for _, w := range strings.Split(o.(string), lay.sep) {
				parts = append(parts, w)
			}
		default:
			out := []rune(o.(string))
			if len(out) != len(rs) {
				loose = append(loose, [2][]rune{rs, out})
				continue
			}
			for _, r := range out {
				parts = append(parts, string(r))
			}
		}
		if len(parts) != len(rs) {
			return nil, nil, false
		}
		for j, r := range rs {
			if old, have := imgs[r]; have {
				if old != parts[j] {
					return nil, nil, false
				}
				continue
			}
			imgs[r] = parts[j]
			chars = append(chars, r)
		}
	}
	if len(loose) > 0 {
		var good bool
		if imgs, good = cutImages(loose, imgs); !good {
			return nil, nil, false
		}
		for _, ex := range loose {
			for _, r := range ex[0] {
				if !slices.Contains(chars, r) {
					chars = append(chars, r)
				}
			}
		}
	}
	return chars, imgs, several && len(chars) > 0
}

// listParts are the elements of a list output.
func listParts(o any) []any {
	var parts []any
	switch l := o.(type) {
	case []string:
		for _, v := range l {
			parts = append(parts, v)
		}
	case []int64:
		for _, v := range l {
			parts = append(parts, v)
		}
	}
	return parts
}

// cutImages finds images of the characters, of at most charMapMaxImage
// characters each and consistent with those known, such that every
// example's output is its characters' images joined by nothing; the
// shortest inputs are cut first, and images of one character are tried
// before longer ones and the empty one. It gives up after
// charMapMaxSteps steps.
func cutImages(exs [][2][]rune, known map[rune]any) (map[rune]any, bool) {
	slices.SortStableFunc(exs, func(a, b [2][]rune) int { return len(a[0]) - len(b[0]) })
	imgs := map[rune]string{}
	for r, v := range known {
		imgs[r] = v.(string)
	}
	steps := 0
	var match func(e, i, j int) bool
	match = func(e, i, j int) bool {
		if steps++; steps > charMapMaxSteps {
			return false
		}
		if e == len(exs) {
			return true
		}
		in, out := exs[e][0], exs[e][1]
		if i == len(in) {
			return j == len(out) && match(e+1, 0, 0)
		}
		r := in[i]
		if img, have := imgs[r]; have {
			n := len([]rune(img))
			return j+n <= len(out) && string(out[j:j+n]) == img && match(e, i+1, j+n)
		}
		for _, n := range imageLengths(len(out) - j) {
			imgs[r] = string(out[j : j+n])
			if match(e, i+1, j+n) {
				return true
			}
		}
		delete(imgs, r)
		return false
	}
	if !match(0, 0, 0) {
		return nil, false
	}
	out := map[rune]any{}
	for r, v := range imgs {
		out[r] = v
	}
	return out, true
}

// imageLengths are the lengths an unknown image is tried with, at most
// left: 1 up to charMapMaxImage, then 0.
func imageLengths(left int) []int {
	var ns []int
	for n := 1; n <= min(left, charMapMaxImage); n++ {
		ns = append(ns, n)
	}
	return append(ns, 0)
}

func charMapNode(p *dsl.Problem, m charMap) *dsl.Node {
	name := fmt.Sprintf("char_map[%s list=%v sep=%q]", m.rule.String(), m.layout.list, m.layout.sep)
	ret := p.Out
	op := &dsl.Operator{Name: name, Args: p.B.Types, Ret: ret, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return m.run(a[0].(string)) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			var sb strings.Builder
			if m.rule.formula == nil || len(m.rule.table) > 0 {
				fmt.Fprintf(&sb, "    table = %s\n", m.rule.pyTable())
			}
			fmt.Fprintf(&sb, "    out = []\n    for c in %s:\n", p.B.Names[0])
			sb.WriteString(m.rule.pyImage("        ", "v"))
			sb.WriteString("        out.append(v)\n")
			if m.layout.list {
				sb.WriteString("    return out\n")
			} else {
				fmt.Fprintf(&sb, "    return %s.join(out)\n", strconv.Quote(m.layout.sep))
			}
			return dsl.Call(e.LoopHelper("char_map", p.B.Names, sb.String()), a...)
		}}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{{Var: 0, Size: 1}}, Var: -1, Size: 4 + len(m.rule.table)}
}
