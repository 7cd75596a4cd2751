package sketch

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The character fold: a string's number folded from a value per
// character, h = (h * k + v(c)) % m from h = h0 — a sum of letters'
// places in the alphabet (k = 1), a polynomial hash of the character
// codes (k = 31, m = 1000003), a number read from its digits (k = 10).
// The value is a formula of the character (its code, its place in the
// alphabet, its digit), over one class of characters with a table of the
// others (a space counting 0) when k is 1. The multiplier is tried among
// the small integers, the usual hash multipliers and the constants of the
// task's text; the modulus is read off the examples: with every value
// known, the fold without a modulus gives an integer V_i congruent to each
// output, so m divides every V_i - out_i, and their greatest common
// divisor is m when it exceeds every output (three examples at least
// must wrap: two may share a divisor by chance). The table's values are solved exactly as a linear system of the
// characters' counts (chartable.go), the examples outnumbering the
// unknowns by two at least, so that the formula is checked and not only
// fitted.

// charFoldMultipliers are the multipliers tried besides the task's
// constants, 1 (a sum) first.
var charFoldMultipliers = []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 16, 17, 19, 23, 26, 29, 31, 33, 36, 37, 41, 43, 47,
	53, 59, 61, 64, 101, 127, 128, 131, 256, 257, 1000, 1009}

// charFoldStarts are the starting values tried besides the output of the
// empty string.
var charFoldStarts = []int64{0, 1, 5381, 7, 17}

// charFoldMaxExamples bounds the examples the fold is learned from.
const charFoldMaxExamples = 300

// charFold is one filling.
type charFold struct {
	k, start int64
	// mod is the modulus, 0 for none.
	mod  int64
	rule charRule
}

func (f charFold) run(s string) any {
	h := f.start
	for _, r := range s {
		v, good := f.rule.image(r)
		if !good {
			return dsl.ErrV
		}
		if h, good = dsl.MulI(h, f.k); !good {
			return dsl.ErrV
		}
		if h, good = dsl.AddI(h, v.(int64)); !good {
			return dsl.ErrV
		}
		if f.mod != 0 {
			h, _ = dsl.PyMod(h, f.mod)
		}
	}
	return h
}

// CharFold tries every multiplier, formula and start, and then, for sums,
// formulas over a class with a table of the other characters; it hands
// consider every filling that fits (the simplest first). It reports
// whether consider accepted one.
func CharFold(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if len(p.B.Types) != 1 || p.B.Types[0] != dsl.Str || p.Out != dsl.Int || p.Nullable ||
		len(p.Outs) < 2 || len(p.Outs) > charFoldMaxExamples || en.Stopped {
		return false
	}
	strs := make([]string, len(p.Outs))
	outs := make([]*big.Int, len(p.Outs))
	starts := slices.Clone(charFoldStarts)
	var chars []rune
	for i, o := range p.Outs {
		v, isInt := o.(int64)
		if !isInt {
			return false
		}
		strs[i], outs[i] = p.Envs[i][0].(string), big.NewInt(v)
		if strs[i] == "" && !slices.Contains(starts, v) {
			starts = append([]int64{v}, starts...)
		}
		for _, r := range strs[i] {
			if !slices.Contains(chars, r) {
				chars = append(chars, r)
			}
		}
	}
	ks := slices.Clone(charFoldMultipliers)
	for _, m := range p.Mined {
		if m > 1 && !slices.Contains(ks, m) {
			ks = append(ks, m)
		}
	}
	offer := func(f charFold) bool {
		return fillSketch(en, p, []charFold{f}, func(f charFold, env []any) any { return f.run(env[0].(string)) },
			func(f charFold) *dsl.Node { return charFoldNode(p, f) }, consider)
	}
	// A multiplier other than 1 is told from the others only by an
	// example of two characters or more.
	long := slices.ContainsFunc(strs, func(s string) bool { return len([]rune(s)) > 1 })
	for _, k := range ks {
		if k != 1 && !long {
			break
		}
		for i := range numFormulas {
			form := &numFormulas[i]
			if slices.ContainsFunc(chars, func(r rune) bool { return !form.covers(r) }) {
				continue
			}
			rule := charRule{table: map[string]any{}, formula: form}
			for _, f := range pureFolds(strs, outs, k, starts, rule) {
				if offer(f) {
					return true
				}
				if en.Collect && form.class != nil {
					for _, rival := range unseenRivals(f.rule, chars, numFormulas) {
						f.rule = rival
						if offer(f) {
							return true
						}
					}
				}
			}
		}
	}
	// Sums of a formula over a class and a table of the other characters.
	for i := range numFormulas {
		for _, lowered := range []bool{false, true} {
			if f, good := classSum(p, strs, chars, &numFormulas[i], lowered); good {
				if offer(f) {
					return true
				}
				if en.Collect {
					for _, rival := range unseenRivals(f.rule, chars, numFormulas) {
						if offer(charFold{k: 1, start: f.start, rule: rival}) {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// pureFolds returns the folds with multiplier k whose values all come
// from rule's formula that fit the examples: without a modulus, or with
// the modulus the examples imply.
func pureFolds(strs []string, outs []*big.Int, k int64, starts []int64, rule charRule) []charFold {
	var out []charFold
	bk := big.NewInt(k)
	for _, h0 := range starts {
		g := new(big.Int)
		exact, wrapped, negative := true, 0, false
		maxOut := int64(0)
		for i, s := range strs {
			v := big.NewInt(h0)
			for _, r := range s {
				img, _ := rule.image(r)
				v.Mul(v, bk)
				v.Add(v, big.NewInt(img.(int64)))
			}
			d := v.Sub(v, outs[i])
			if d.Sign() != 0 {
				exact = false
				wrapped++
				g.GCD(nil, nil, g, new(big.Int).Abs(d))
			}
			negative = negative || outs[i].Sign() < 0
			maxOut = max(maxOut, outs[i].Int64())
		}
		switch {
		case exact:
			out = append(out, charFold{k: k, start: h0, rule: rule})
		case wrapped >= 3 && !negative && g.IsInt64() && g.Int64() > max(maxOut, 1) && g.Int64() <= 1<<40:
			out = append(out, charFold{k: k, start: h0, mod: g.Int64(), rule: rule})
		}
	}
	return out
}

// classSum solves a sum whose values are formula's over its class and a
// table's for the other characters (keyed as is or lowered), with a start
// of 0 or solved with them: the only solution of its linear system, the
// examples outnumbering the unknowns by two.
func classSum(p *dsl.Problem, strs []string, chars []rune, form *charFormula, lowered bool) (charFold, bool) {
	if form.class == nil {
		return charFold{}, false
	}
	rule := charRule{table: map[string]any{}, lowered: lowered, formula: form}
	var keys []string
	covered := 0
	for _, r := range chars {
		switch {
		case form.covers(r):
			covered++
		case !slices.Contains(keys, rule.key(r)):
			keys = append(keys, rule.key(r))
		}
	}
	if covered < 2 {
		// The formula gives too few characters to be checked.
		return charFold{}, false
	}
	if len(keys) == 0 || lowered && !slices.ContainsFunc(keys, func(k string) bool {
		return slices.ContainsFunc(chars, func(r rune) bool { return !form.covers(r) && string(r) != k && rule.key(r) == k })
	}) {
		// No table, or lowering merges no two keys: another filling's.
		return charFold{}, false
	}
	for _, withStart := range []bool{false, true} {
		n := len(keys)
		if withStart {
			n++
		}
		if len(strs) < n+2 {
			continue
		}
		rows := make([][]int64, len(strs))
		ys := make([]int64, len(strs))
		fits := true
		for i, s := range strs {
			rows[i] = make([]int64, n)
			y := p.Outs[i].(int64)
			for _, r := range s {
				if form.covers(r) {
					var good bool
					if y, good = dsl.SubI(y, form.num(r)); !good {
						fits = false
					}
					continue
				}
				rows[i][slices.Index(keys, rule.key(r))]++
			}
			if withStart {
				rows[i][n-1] = 1
			}
			ys[i] = y
		}
		if !fits {
			return charFold{}, false
		}
		sol, unique, good := solveIntegerSystem(rows, ys)
		if !good || !unique {
			continue
		}
		for j, k := range keys {
			rule.table[k] = sol[j]
		}
		f := charFold{k: 1, rule: rule}
		if withStart {
			f.start = sol[n-1]
		}
		return f, true
	}
	return charFold{}, false
}

func charFoldNode(p *dsl.Problem, f charFold) *dsl.Node {
	name := fmt.Sprintf("char_fold[h = h * %d + v mod %d from %d, %s]", f.k, f.mod, f.start, f.rule.String())
	op := &dsl.Operator{Name: name, Args: p.B.Types, Ret: dsl.Int, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return f.run(a[0].(string)) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			var sb strings.Builder
			if len(f.rule.table) > 0 {
				fmt.Fprintf(&sb, "    table = %s\n", f.rule.pyTable())
			}
			fmt.Fprintf(&sb, "    h = %d\n    for c in %s:\n", f.start, p.B.Names[0])
			sb.WriteString(f.rule.pyImage("        ", "v"))
			step := "h + v"
			if f.k != 1 {
				step = fmt.Sprintf("h * %d + v", f.k)
			}
			if f.mod != 0 {
				step = fmt.Sprintf("(%s) %% %d", step, f.mod)
			}
			fmt.Fprintf(&sb, "        h = %s\n    return h\n", step)
			return dsl.Call(e.LoopHelper("char_fold", p.B.Names, sb.String()), a...)
		}}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{{Var: 0, Size: 1}}, Var: -1, Size: 5 + len(f.rule.table)}
}
