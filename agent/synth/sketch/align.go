package sketch

import (
	"fmt"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The alignment sketch: a table over the prefixes of two sequences (two
// lists, or two strings), filled row by row as the classic two-sequence
// recurrences are: where the last elements are equal the cell extends
// the diagonal (by 1 or 0), elsewhere it takes the larger of the cells
// above and to the left, one more than the smaller of them (and the
// diagonal), or 0; the first row and column hold 0 or their index. The
// answer is the last cell or the largest. Its fillings give the longest
// common subsequence, the edit and insert/delete distances and the
// longest common run; each is checked against the examples.

// alignOther is what a cell takes where the last elements differ.
type alignOther uint8

const (
	alignMax      alignOther = iota // max(up, left)
	alignMinIndel                   // 1 + min(up, left)
	alignMinEdit                    // 1 + min(up, left, diag)
	alignZero                       // 0
	numAlignOthers
)

var alignOtherPy = [numAlignOthers]string{"max(up, left)", "1 + min(up, left)", "1 + min(up, left, diag)", "0"}

// alignDP is one filling of the sketch.
type alignDP struct {
	// match is added to the diagonal where the last elements are equal.
	match int64
	other alignOther
	// border says the first row and column hold their index (else 0).
	border bool
	// best says the answer is the largest cell (else the last).
	best bool
}

// alignFills lists the fillings, the common ones first.
func alignFills() []alignDP {
	var out []alignDP
	for _, best := range []bool{false, true} {
		for other := range numAlignOthers {
			for _, match := range []int64{1, 0} {
				for _, border := range []bool{false, true} {
					out = append(out, alignDP{match: match, other: other, border: border, best: best})
				}
			}
		}
	}
	return out
}

// run fills the table for sequences of lengths n and m whose elements
// at i and j are equal when eq(i, j).
func (d alignDP) run(n, m int, eq func(i, j int) bool) int64 {
	prev := make([]int64, m+1)
	cur := make([]int64, m+1)
	best := int64(0)
	for j := range prev {
		if d.border {
			prev[j] = int64(j)
		}
		best = max(best, prev[j])
	}
	for i := 1; i <= n; i++ {
		cur[0] = 0
		if d.border {
			cur[0] = int64(i)
		}
		best = max(best, cur[0])
		for j := 1; j <= m; j++ {
			up, left, diag := prev[j], cur[j-1], prev[j-1]
			switch {
			case eq(i-1, j-1):
				cur[j] = diag + d.match
			case d.other == alignMax:
				cur[j] = max(up, left)
			case d.other == alignMinIndel:
				cur[j] = 1 + min(up, left)
			case d.other == alignMinEdit:
				cur[j] = 1 + min(up, left, diag)
			default:
				cur[j] = 0
			}
			best = max(best, cur[j])
		}
		prev, cur = cur, prev
	}
	if d.best {
		return best
	}
	return prev[m]
}

// alignSeqs returns the lengths of an environment's two sequences and
// their equality at (i, j), or false. The two strings may also be the two
// elements of one list of strings.
func alignSeqs(env []any) (int, int, func(i, j int) bool, bool) {
	if ws, ok := env[0].([]string); ok {
		if len(ws) != 2 {
			return 0, 0, nil, false
		}
		env = []any{ws[0], ws[1]}
	}
	switch a := env[0].(type) {
	case []int64:
		b := env[1].([]int64)
		return len(a), len(b), func(i, j int) bool { return a[i] == b[j] }, true
	case string:
		ra, rb := []rune(a), []rune(env[1].(string))
		return len(ra), len(rb), func(i, j int) bool { return ra[i] == rb[j] }, true
	}
	return 0, 0, nil, false
}

// Align tries the sketch on two lists or two strings and an
// integer output.
func Align(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if p.Out != dsl.Int || p.Nullable || len(p.Outs) < 3 {
		return false
	}
	switch ts := p.B.Types; {
	case len(ts) == 2 && ts[0] == ts[1] && (ts[0] == dsl.ListInt || ts[0] == dsl.Str):
	case len(ts) == 1 && ts[0] == dsl.ListStr:
		for _, env := range p.Envs {
			if len(env[0].([]string)) != 2 {
				return false
			}
		}
	default:
		return false
	}
	run := func(d alignDP, env []any) any {
		n, m, eq, ok := alignSeqs(env)
		if !ok {
			return dsl.ErrV
		}
		return d.run(n, m, eq)
	}
	return fillSketch(en, p, alignFills(), run, func(d alignDP) *dsl.Node { return alignNode(p, d, run) }, consider)
}

// alignNode is the program of a filled alignment table.
func alignNode(p *dsl.Problem, d alignDP, run func(alignDP, []any) any) *dsl.Node {
	op := &dsl.Operator{Name: fmt.Sprintf("align[%+v]", d), Args: p.B.Types, Ret: dsl.Int, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return run(d, a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("align", p.B.Names, d.python(p.B.Names)), a...)
		}}
	return overVars(p, op, 9)
}

// python renders the table's loops over the sequences named names.
func (d alignDP) python(names []string) string {
	var sb strings.Builder
	if len(names) == 1 {
		fmt.Fprintf(&sb, "    a, b = %s\n", names[0])
		names = []string{"a", "b"}
	}
	a, b := names[0], names[1]
	first := "0"
	if d.border {
		first = "j"
	}
	fmt.Fprintf(&sb, "    prev = [%s for j in range(len(%s) + 1)]\n", first, b)
	if d.best {
		sb.WriteString("    best = max(prev)\n")
	}
	fmt.Fprintf(&sb, "    for i in range(1, len(%s) + 1):\n", a)
	if d.border {
		sb.WriteString("        cur = [i]\n")
	} else {
		sb.WriteString("        cur = [0]\n")
	}
	fmt.Fprintf(&sb, "        for j in range(1, len(%s) + 1):\n", b)
	used := alignOtherPy[d.other]
	if strings.Contains(used, "up") || strings.Contains(used, "left") {
		sb.WriteString("            up, left = prev[j], cur[j - 1]\n")
	}
	if strings.Contains(used, "diag") {
		sb.WriteString("            diag = prev[j - 1]\n")
	}
	diag := "prev[j - 1]"
	if d.match != 0 {
		diag += fmt.Sprintf(" + %d", d.match)
	}
	fmt.Fprintf(&sb, "            cur.append(%s if %s[i - 1] == %s[j - 1] else %s)\n", diag, a, b, used)
	if d.best {
		sb.WriteString("        best = max(best, max(cur))\n")
	}
	sb.WriteString("        prev = cur\n")
	if d.best {
		sb.WriteString("    return best\n")
	} else {
		sb.WriteString("    return prev[-1]\n")
	}
	return sb.String()
}
