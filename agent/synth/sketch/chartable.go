package sketch

import (
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The character-table sketch: a string's number is a bias plus a value
// per character, the values learned from the examples: letter scores,
// weights of symbols, and (with the subtractive rule, a value counting
// negatively when the next character's is larger) numeral systems such
// as Roman numerals. The holes are the table and the bias, solved exactly
// as a linear system over the character counts (signed by the rule under
// each ordering of the characters seen), the characters read as they are
// or lower-cased.
//
// A table fits any few examples: the sketch is a last resort, tried when
// a search ends with nothing consistent, so that the run gets the examples
// that pin the table down (a system with one solution is preferred to one
// with several, whose free values are taken as 0). A character no example
// showed has no value: the program raises rather than invent one (and,
// when the search collects a proposal's rivals, the same table counting
// such characters 0 is offered too, so that the proposal asks about
// them).

// Bounds of the sketch: the characters of the examples (the unknowns),
// those ordered for the subtractive rule (every ordering is tried), and
// the values' size.
const (
	charTableMaxChars    = 64
	charTableMaxOrdered  = 7
	charTableMaxExamples = 200
)

// charTable is one filling: the table, the bias, how characters are read
// and whether the subtractive rule applies.
type charTable struct {
	table       map[rune]int64
	bias        int64
	lower       bool
	subtractive bool
	// unseenZero counts a character the table lacks 0: a rival only.
	unseenZero bool
}

func (c charTable) run(s string) any {
	if c.lower {
		s = strings.ToLower(s)
	}
	rs := []rune(s)
	total := c.bias
	for i, r := range rs {
		v, have := c.table[r]
		if !have && !c.unseenZero {
			return dsl.ErrV
		}
		if c.subtractive && i+1 < len(rs) {
			next, have := c.table[rs[i+1]]
			if !have && !c.unseenZero {
				return dsl.ErrV
			}
			if next > v {
				v = -v
			}
		}
		var good bool
		if total, good = dsl.AddI(total, v); !good {
			return dsl.ErrV
		}
	}
	return total
}

// positive reports whether every value of the table is above 0.
func (c charTable) positive() bool {
	for _, v := range c.table {
		if v <= 0 {
			return false
		}
	}
	return true
}

// CharTable solves the table for every way of reading the
// characters, the plain sum first, and hands consider the first filling
// that fits, one with a unique solution before one with several.
func CharTable(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if len(p.B.Types) != 1 || p.B.Types[0] != dsl.Str || p.Out != dsl.Int || p.Nullable ||
		len(p.Outs) == 0 || len(p.Outs) > charTableMaxExamples {
		return false
	}
	// The characters as they are first when the table is unique (the
	// more literal program), lower-cased first when it is not (fewer
	// unknowns left free).
	var loose []charTable
	for _, sub := range []bool{false, true} {
		var subLoose []charTable
		for _, lower := range []bool{false, true} {
			c, unique, good := solveCharTable(p, lower, sub)
			if !good {
				continue
			}
			if unique {
				if tryCharTable(en, p, c, consider) {
					return true
				}
				continue
			}
			subLoose = append([]charTable{c}, subLoose...)
		}
		loose = append(loose, subLoose...)
	}
	for _, c := range loose {
		if tryCharTable(en, p, c, consider) {
			return true
		}
	}
	return false
}

func tryCharTable(en *Search, p *dsl.Problem, c charTable, consider func(*dsl.Node, []any) bool) bool {
	fills := []charTable{c}
	if en.Collect {
		rival := c
		rival.unseenZero = true
		fills = append(fills, rival)
	}
	return fillSketch(en, p, fills, func(c charTable, env []any) any { return c.run(env[0].(string)) },
		func(c charTable) *dsl.Node { return charTableNode(p, c) }, consider)
}

// solveCharTable solves the table for one way of reading the characters:
// the first solution that fits every example (under the subtractive rule,
// over the orderings of the characters), whether it is the only one, and
// whether there is any.
func solveCharTable(p *dsl.Problem, lower, sub bool) (charTable, bool, bool) {
	strs := make([][]rune, len(p.Outs))
	var chars []rune
	for i := range p.Outs {
		s := p.Envs[i][0].(string)
		if lower {
			s = strings.ToLower(s)
		}
		strs[i] = []rune(s)
		for _, r := range strs[i] {
			if !slices.Contains(chars, r) {
				chars = append(chars, r)
			}
		}
	}
	if len(chars) == 0 || len(chars) > charTableMaxChars || (sub && len(chars) > charTableMaxOrdered) {
		return charTable{}, false, false
	}
	if lower && !slices.ContainsFunc(p.Envs[:len(p.Outs)], func(env []any) bool {
		return strings.ToLower(env[0].(string)) != env[0].(string)
	}) {
		// Nothing to lower: the same system as the characters as they are.
		return charTable{}, false, false
	}
	slices.Sort(chars)
	col := map[rune]int{}
	for i, r := range chars {
		col[r] = i
	}
	ys := make([]int64, len(p.Outs))
	for i, o := range p.Outs {
		ys[i] = o.(int64)
	}
	// rank orders the characters for the subtractive rule (nil: none).
	system := func(rank []int) ([][]int64, []int64) {
		rows := make([][]int64, len(strs))
		for i, rs := range strs {
			row := make([]int64, len(chars)+1)
			row[len(chars)] = 1 // the bias
			for j, r := range rs {
				sign := int64(1)
				if rank != nil && j+1 < len(rs) && rank[col[rs[j+1]]] > rank[col[r]] {
					sign = -1
				}
				row[col[r]] += sign
			}
			rows[i] = row
		}
		return rows, ys
	}
	try := func(rank []int) (charTable, bool, bool) {
		rows, ys := system(rank)
		sol, unique, good := solveIntegerSystem(rows, ys)
		if !good && len(rows) < len(chars)+1 {
			// Free unknowns taken as 0 may leave a fraction where the
			// bias as the first pivot leaves none.
			sol, unique, good = solveBiasFirst(rows, ys)
		}
		if !good {
			return charTable{}, false, false
		}
		c := charTable{table: map[rune]int64{}, bias: sol[len(chars)], lower: lower, subtractive: sub}
		for i, r := range chars {
			c.table[r] = sol[i]
		}
		for i, rs := range strs {
			if !p.MatchesAt(i, c.run(string(rs))) {
				return charTable{}, false, false
			}
		}
		return c, unique, true
	}
	if !sub {
		return try(nil)
	}
	// A unique table of values all positive first (a negative value
	// fits only while no example shows it last).
	var loose, signed *charTable
	found := false
	var best charTable
	permute(len(chars), func(rank []int) bool {
		c, unique, good := try(rank)
		switch {
		case good && unique && c.positive():
			best, found = c, true
			return true
		case good && unique && signed == nil:
			signed = &c
		case good && !unique && loose == nil:
			loose = &c
		}
		return false
	})
	if found {
		return best, true, true
	}
	if signed != nil {
		return *signed, true, true
	}
	if loose != nil {
		return *loose, false, true
	}
	return charTable{}, false, false
}

// permute calls f with every permutation of 0..n-1 until f returns true.
func permute(n int, f func(perm []int) bool) {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	var rec func(k int) bool
	rec = func(k int) bool {
		if k == n {
			return f(perm)
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			if rec(k + 1) {
				return true
			}
			perm[k], perm[i] = perm[i], perm[k]
		}
		return false
	}
	rec(0)
}

// solveBiasFirst is solveIntegerSystem with the last unknown (the bias)
// pivoted first.
func solveBiasFirst(rows [][]int64, ys []int64) ([]int64, bool, bool) {
	moved := make([][]int64, len(rows))
	for i, row := range rows {
		moved[i] = append([]int64{row[len(row)-1]}, row[:len(row)-1]...)
	}
	sol, unique, good := solveIntegerSystem(moved, ys)
	if !good {
		return nil, false, false
	}
	return append(sol[1:], sol[0]), unique, true
}

// solveIntegerSystem solves rows · x = ys exactly (Gauss-Jordan over the
// rationals), the free unknowns taken as 0. It reports the solution,
// whether it is the only one, and whether there is an integer one of this
// form.
func solveIntegerSystem(rows [][]int64, ys []int64) ([]int64, bool, bool) {
	n := len(rows[0])
	m := make([][]*big.Rat, len(rows))
	for i, row := range rows {
		m[i] = make([]*big.Rat, n+1)
		for j, v := range row {
			m[i][j] = new(big.Rat).SetInt64(v)
		}
		m[i][n] = new(big.Rat).SetInt64(ys[i])
	}
	// Row by row, a pivot of ±1 preferred: the free unknowns taken as 0
	// then leave fractions less often.
	pivot := make([]int, len(m))
	used := make([]bool, n)
	rank := 0
	for r := range m {
		pivot[r] = -1
		c := -1
		for j := range n {
			if used[j] || m[r][j].Sign() == 0 {
				continue
			}
			if c < 0 {
				c = j
			}
			if v := m[r][j]; v.IsInt() && v.Num().IsInt64() && (v.Num().Int64() == 1 || v.Num().Int64() == -1) {
				c = j
				break
			}
		}
		if c < 0 {
			if m[r][n].Sign() != 0 {
				return nil, false, false
			}
			continue
		}
		inv := new(big.Rat).Inv(m[r][c])
		for j := range n + 1 {
			m[r][j].Mul(m[r][j], inv)
		}
		for i := range m {
			if i == r || m[i][c].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(m[i][c])
			for j := range n + 1 {
				m[i][j].Sub(m[i][j], new(big.Rat).Mul(f, m[r][j]))
			}
		}
		pivot[r], used[c] = c, true
		rank++
	}
	sol := make([]int64, n)
	for r, c := range pivot {
		if c < 0 {
			continue
		}
		v := m[r][n]
		if !v.IsInt() || !v.Num().IsInt64() {
			return nil, false, false
		}
		sol[c] = v.Num().Int64()
	}
	return sol, rank == n, true
}

func charTableNode(p *dsl.Problem, c charTable) *dsl.Node {
	keys := make([]rune, 0, len(c.table))
	for r := range c.table {
		keys = append(keys, r)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	var items []string
	for _, r := range keys {
		items = append(items, strconv.Quote(string(r))+": "+strconv.FormatInt(c.table[r], 10))
	}
	name := fmt.Sprintf("char_table[%s bias=%d lower=%v subtractive=%v unseen_zero=%v]", strings.Join(items, " "), c.bias, c.lower, c.subtractive, c.unseenZero)
	op := &dsl.Operator{Name: name, Args: p.B.Types, Ret: dsl.Int, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return c.run(a[0].(string)) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			s := p.B.Names[0]
			var sb strings.Builder
			fmt.Fprintf(&sb, "    table = {%s}\n", strings.Join(items, ", "))
			if c.lower {
				fmt.Fprintf(&sb, "    %s = %s.lower()\n", s, s)
			}
			fmt.Fprintf(&sb, "    total = %d\n", c.bias)
			// A character the table lacks raises KeyError (counts 0 in a
			// rival).
			look := func(k string) string {
				if c.unseenZero {
					return "table.get(" + k + ", 0)"
				}
				return "table[" + k + "]"
			}
			if c.subtractive {
				fmt.Fprintf(&sb, "    for i, ch in enumerate(%s):\n", s)
				fmt.Fprintf(&sb, "        v = %s\n", look("ch"))
				fmt.Fprintf(&sb, "        if i + 1 < len(%s) and %s > v:\n", s, look(s+"[i + 1]"))
				sb.WriteString("            v = -v\n        total += v\n")
			} else {
				fmt.Fprintf(&sb, "    for ch in %s:\n        total += %s\n", s, look("ch"))
			}
			sb.WriteString("    return total\n")
			return dsl.Call(e.LoopHelper("char_table", p.B.Names, sb.String()), a...)
		}}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{{Var: 0, Size: 1}}, Var: -1, Size: 4 + len(keys)}
}
