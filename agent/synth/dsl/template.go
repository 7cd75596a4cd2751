package dsl

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// String templates. A string output built from fixed text and values
// ("Total is 17", "07:05:09", "BMI 22.9: normal") is a template: fixed
// texts around holes. The outputs are cut into tokens (words, numbers,
// single other characters) and grouped by their punctuation and spacing
// (the kinds of output: "Count: 0" beside "Count: 3\nMin: 1\nMax: 5");
// within a group the outputs are aligned token by token, and the tokens
// every output of the group shares at the same place are the fixed text.
// Each hole is then a problem of its own (HoleProblem): numbers written
// in one format, or strings (a word of the input, a category's name);
// when there are several groups, which group an example's output belongs
// to is a problem of categories (SelectorProblem).

// Template is one kind of output: Texts[0] Hole0 Texts[1] ... Texts[n].
type Template struct {
	Texts []string
	// Examples are the examples (indices into the outputs) of this kind.
	Examples []int
	// Fills[k][e] is hole k's text in the e-th of Examples.
	Fills [][]string
}

// MaxTemplates bounds the kinds of output a problem is split into (each a
// label of the selector's problem).
const MaxTemplates = 4

// Holes is the number of holes.
func (t *Template) Holes() int { return len(t.Texts) - 1 }

// Fixed is the template's fixed text.
func (t *Template) Fixed() string { return strings.Join(t.Texts, "") }

// Templates learns the templates of string outputs, one per kind of
// output in the order of their first example; nil when there are more
// than MaxTemplates kinds.
func Templates(outs []string) []*Template {
	var keys []string
	groups := map[string][]int{}
	toks := make([][]string, len(outs))
	for i, o := range outs {
		toks[i] = tokens(o)
		k := signature(toks[i])
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	if len(keys) > MaxTemplates {
		return nil
	}
	var out []*Template
	for _, k := range keys {
		idx := groups[k]
		var t []titem
		for _, tok := range toks[idx[0]] {
			t = append(t, titem{text: tok})
		}
		for _, i := range idx[1:] {
			t = align(t, toks[i])
		}
		tm := &Template{Examples: idx}
		cur := ""
		for _, it := range t {
			if it.hole {
				tm.Texts = append(tm.Texts, cur)
				cur = ""
				continue
			}
			cur += it.text
		}
		tm.Texts = append(tm.Texts, cur)
		tm.Fills = make([][]string, tm.Holes())
		for _, i := range idx {
			fills, ok := fill(t, toks[i])
			if !ok {
				return nil
			}
			for h, f := range fills {
				tm.Fills[h] = append(tm.Fills[h], f)
			}
		}
		out = append(out, tm)
	}
	return out
}

// titem is a template token: a fixed token or a hole.
type titem struct {
	text string
	hole bool
}

// tokens cuts a string into words (runs of letters), numbers (digits,
// with a sign where a '-' starts them and a fraction after a '.') and
// single other characters.
func tokens(s string) []string {
	r := []rune(s)
	var out []string
	for i := 0; i < len(r); {
		j := i + 1
		switch {
		case unicode.IsLetter(r[i]):
			for j < len(r) && unicode.IsLetter(r[j]) {
				j++
			}
		case isDigitRune(r[i]) || r[i] == '-' && j < len(r) && isDigitRune(r[j]) && (i == 0 || !isWordRune(r[i-1])):
			for j < len(r) && isDigitRune(r[j]) {
				j++
			}
			if j+1 < len(r) && r[j] == '.' && isDigitRune(r[j+1]) {
				j++
				for j < len(r) && isDigitRune(r[j]) {
					j++
				}
			}
		}
		out = append(out, string(r[i:j]))
		i = j
	}
	return out
}

func isDigitRune(r rune) bool { return r >= '0' && r <= '9' }

func isWordRune(r rune) bool { return isDigitRune(r) || unicode.IsLetter(r) }

// signature is an output's punctuation and spacing: its tokens that are
// neither words nor numbers (its marks).
func signature(toks []string) string {
	var sb strings.Builder
	for _, t := range toks {
		if isMark(t) {
			sb.WriteString(t)
		}
	}
	return sb.String()
}

// isMark reports whether a token is a mark: one character of
// punctuation or spacing, neither a word nor a number.
func isMark(tok string) bool {
	r := []rune(tok)
	return len(r) == 1 && !unicode.IsLetter(r[0]) && !isDigitRune(r[0])
}

// holeCost is what opening a hole costs an alignment, in characters of
// fixed text matched: of two alignments matching as much text, the one
// with fewer holes wins.
const holeCost = 0.5

// align aligns the tokens s with the template t: fixed tokens matched
// stay fixed, the others (and t's holes) become holes, and the
// alignment matching the most fixed text for the fewest holes is kept.
// The outputs of a kind share their marks (signature), in order: each
// mark of s is matched with its own in t, never taken into a hole, so a
// hole is the words and numbers between two marks ("06:49:00" beside
// "00:00:19" is three fields, not "00" shared at different places).
func align(t []titem, s []string) []titem {
	n, m := len(t), len(s)
	type cell struct {
		score float64
		from  int8 // 0 start, 1 match, 2 t's token into a hole, 3 s's token into a hole
		st    int8 // the state the step came from
	}
	neg := math.Inf(-1)
	dp := make([][][2]cell, n+1)
	for i := range dp {
		dp[i] = make([][2]cell, m+1)
		for j := range dp[i] {
			dp[i][j] = [2]cell{{score: neg}, {score: neg}}
		}
	}
	dp[0][0][0].score = 0
	relax := func(i, j, st int, score float64, from, fromSt int8) {
		if score > dp[i][j][st].score {
			dp[i][j][st] = cell{score, from, fromSt}
		}
	}
	for i := 0; i <= n; i++ {
		for j := 0; j <= m; j++ {
			for st := 0; st < 2; st++ {
				cur := dp[i][j][st].score
				if cur == neg {
					continue
				}
				open := 0.0
				if st == 0 {
					open = -holeCost
				}
				if i < n && j < m && !t[i].hole && t[i].text == s[j] {
					relax(i+1, j+1, 0, cur+float64(len([]rune(s[j]))), 1, int8(st))
				}
				if i < n && (t[i].hole || !isMark(t[i].text)) {
					relax(i+1, j, 1, cur+open, 2, int8(st))
				}
				if j < m && !isMark(s[j]) {
					relax(i, j+1, 1, cur+open, 3, int8(st))
				}
			}
		}
	}
	i, j, st := n, m, 0
	if dp[n][m][1].score > dp[n][m][0].score {
		st = 1
	}
	var rev []titem
	for i > 0 || j > 0 {
		c := dp[i][j][st]
		switch c.from {
		case 1:
			rev = append(rev, t[i-1])
			i, j = i-1, j-1
		case 2:
			i--
			if len(rev) == 0 || !rev[len(rev)-1].hole {
				rev = append(rev, titem{hole: true})
			}
		case 3:
			j--
			if len(rev) == 0 || !rev[len(rev)-1].hole {
				rev = append(rev, titem{hole: true})
			}
		}
		st = int(c.st)
	}
	out := make([]titem, len(rev))
	for k, it := range rev {
		out[len(rev)-1-k] = it
	}
	return out
}

// fill matches s against the template, every fixed token in place, and
// returns each hole's text: the fewest tokens that let the rest match.
func fill(t []titem, s []string) ([]string, bool) {
	n, m := len(t), len(s)
	// ok[i][j]: t[i:] matches s[j:].
	ok := make([][]bool, n+1)
	for i := range ok {
		ok[i] = make([]bool, m+1)
	}
	ok[n][m] = true
	for i := n - 1; i >= 0; i-- {
		for j := m; j >= 0; j-- {
			if t[i].hole {
				for k := j; k <= m && !ok[i][j]; k++ {
					ok[i][j] = ok[i+1][k]
				}
				continue
			}
			ok[i][j] = j < m && s[j] == t[i].text && ok[i+1][j+1]
		}
	}
	if !ok[0][0] {
		return nil, false
	}
	var fills []string
	j := 0
	for i := 0; i < n; i++ {
		if !t[i].hole {
			j++
			continue
		}
		k := j
		for !ok[i+1][k] {
			k++
		}
		fills = append(fills, strings.Join(s[j:k], ""))
		j = k
	}
	return fills, true
}

// HoleProblem is the problem of hole k of template t (over t's examples),
// and the format its values are written in: numbers written in one format
// are searched as numbers, written back by the format (and matched by
// their texts exactly); other texts are strings.
func (p *Problem) HoleProblem(t *Template, k int) (*Problem, Format, error) {
	texts := t.Fills[k]
	f, vals, isNum := ReadFormat(texts)
	if !isNum {
		outs := make([]any, len(texts))
		for i, s := range texts {
			outs[i] = s
		}
		sub, err := p.Subset(t.Examples, outs)
		return sub, Format{Kind: FmtStr}, err
	}
	outs := make([]any, len(vals))
	for i, v := range vals {
		switch x := v.(type) {
		case int64:
			outs[i] = json.Number(strconv.FormatInt(x, 10))
		case float64:
			outs[i] = json.Number(strconv.FormatFloat(x, 'g', -1, 64) + floatMark(x))
		}
	}
	sub, err := p.Subset(t.Examples, outs)
	if err != nil {
		return nil, f, err
	}
	sub.Render, sub.Texts, sub.Round = &f, texts, -1
	sub.Consts = append(append([]any{}, p.Consts...), formatConsts(f, vals)...)
	return sub, f, nil
}

// floatMark keeps a float's literal a float ("25" would read as an int).
func floatMark(x float64) string {
	s := strconv.FormatFloat(x, 'g', -1, 64)
	if strings.ContainsAny(s, ".eEn") {
		return ""
	}
	return ".0"
}

// formatConsts are constants a number's format suggests: a zero-padded
// field that stays below 60 is a sexagesimal digit (seconds, minutes: 60
// and 3,600, and 24 hours a day); a number shown with fixed decimals is
// often a ratio scaled by a hundred (cents, percentages, centimetres).
func formatConsts(f Format, vals []any) []any {
	switch f.Kind {
	case FmtPad:
		for _, v := range vals {
			if x := v.(int64); x < 0 || x >= 60 {
				return nil
			}
		}
		return []any{int64(60), int64(3600), int64(24)}
	case FmtFixed:
		return []any{int64(100)}
	}
	return nil
}

// SelectorProblem is the problem of which template an example's output
// follows: a problem of categories over every example (the labels are
// the templates' positions, named "kind0", "kind1"...), solved by a
// table or intervals over a computed value.
func (p *Problem) SelectorProblem(ts []*Template) (*Problem, error) {
	labels := make([]any, len(ts))
	outs := make([]any, len(p.Envs))
	idx := make([]int, len(p.Envs))
	for k, t := range ts {
		labels[k] = "kind" + strconv.Itoa(k)
		for _, i := range t.Examples {
			outs[i] = labels[k]
		}
	}
	for i := range idx {
		idx[i] = i
	}
	sub, err := p.Subset(idx, outs)
	if err != nil {
		return nil, err
	}
	sub.Labels, sub.LabelOf = labels, make([]int8, len(outs))
	for i, o := range outs {
		sub.LabelOf[i] = int8(IndexOf(labels, o))
	}
	return sub, nil
}
