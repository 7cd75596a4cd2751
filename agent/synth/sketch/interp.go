package sketch

import (
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The token interpreter: a list of tokens run on a stack, where integer
// tokens (and single letters, when there are several) are operands pushed
// as they are, records such as "push 5" may push their argument, and
// every other word is an instruction whose meaning is learned. A meaning
// is a stack effect from a fixed table — a binary operator replacing the
// top two values (a + b, max(a, b), "(a+b)" for a symbol, ...), the same
// keeping its operands, a unary one, drop, dup, swap, clear — and the
// program's holes are each word's meaning, what an instruction lacking
// operands does (raise, or nothing), and what the program returns (the
// top, the sum, the whole stack, the depth, well-formedness). The words'
// meanings are found by a backtracking search run example by example:
// a word is given a meaning when an example first executes it, and an
// example whose output is wrong undoes the latest choice. Examples with
// fewer distinct words go first, so most meanings are settled by short
// examples before the long ones are run.

// itok is one parsed token: a literal (an integer or a letter) or an
// instruction of class cls with its arguments.
type itok struct {
	lit  any
	cls  int
	args []int64
	word string
}

// ieffect is a stack effect an instruction may have.
type ieffect struct {
	name string
	// need is how many values the effect needs on the stack.
	need int
	// withArg effects push the record's argument.
	withArg bool
	apply   func(st []any, t *itok) ([]any, bool)
	// py is the effect's Python, lines without indentation.
	py []string
}

// ibin is a binary function of two stack values.
type ibin struct {
	name, py string
	f        func(a, b any, word string) (any, bool)
}

func intBin(f func(a, b int64) (int64, bool)) func(a, b any, _ string) (any, bool) {
	return func(a, b any, _ string) (any, bool) {
		x, ok1 := a.(int64)
		y, ok2 := b.(int64)
		if !ok1 || !ok2 {
			return nil, false
		}
		v, ok := f(x, y)
		return v, ok
	}
}

var interpBins = []ibin{
	{"add", "a + b", func(a, b any, _ string) (any, bool) {
		if x, ok := a.(string); ok {
			y, ok := b.(string)
			return x + y, ok
		}
		return intBin(dsl.AddI)(a, b, "")
	}},
	{"sub", "a - b", intBin(dsl.SubI)},
	{"mul", "a * b", intBin(dsl.MulI)},
	{"floordiv", "a // b", intBin(dsl.FloorDiv)},
	{"mod", "a % b", intBin(dsl.PyMod)},
	{"max", "max(a, b)", intBin(func(a, b int64) (int64, bool) { return max(a, b), true })},
	{"min", "min(a, b)", intBin(func(a, b int64) (int64, bool) { return min(a, b), true })},
	{"infix", `f"({a}{word}{b})"`, func(a, b any, word string) (any, bool) {
		return "(" + pyStr(a) + word + pyStr(b) + ")", true
	}},
}

// pyStr is Python's str of a stack value.
func pyStr(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// iun is a unary function of a stack value.
type iun struct {
	name, py string
	f        func(a int64) (int64, bool)
}

var interpUns = []iun{
	{"neg", "-a", func(a int64) (int64, bool) { return dsl.SubI(0, a) }},
	{"double", "2 * a", func(a int64) (int64, bool) { return dsl.MulI(2, a) }},
	{"abs", "abs(a)", func(a int64) (int64, bool) {
		if a < 0 {
			return dsl.SubI(0, a)
		}
		return a, true
	}},
	{"inc", "a + 1", func(a int64) (int64, bool) { return dsl.AddI(a, 1) }},
	{"dec", "a - 1", func(a int64) (int64, bool) { return dsl.SubI(a, 1) }},
	{"square", "a * a", func(a int64) (int64, bool) { return dsl.MulI(a, a) }},
}

// interpEffects is the table of meanings, in the order they are tried.
var interpEffects = func() []ieffect {
	var out []ieffect
	for _, b := range interpBins {
		out = append(out, ieffect{name: b.name, need: 2,
			apply: func(st []any, t *itok) ([]any, bool) {
				v, ok := b.f(st[len(st)-2], st[len(st)-1], t.word)
				return append(st[:len(st)-2], v), ok
			},
			py: []string{"b = stack.pop()", "a = stack.pop()", "stack.append(" + b.py + ")"}})
	}
	for _, u := range interpUns {
		out = append(out, ieffect{name: u.name, need: 1,
			apply: func(st []any, _ *itok) ([]any, bool) {
				a, ok := st[len(st)-1].(int64)
				if !ok {
					return st, false
				}
				v, ok := u.f(a)
				st[len(st)-1] = v
				return st, ok
			},
			py: []string{"a = stack.pop()", "stack.append(" + u.py + ")"}})
	}
	for _, b := range interpBins[:3] {
		out = append(out, ieffect{name: "keep_" + b.name, need: 2,
			apply: func(st []any, t *itok) ([]any, bool) {
				v, ok := b.f(st[len(st)-2], st[len(st)-1], t.word)
				return append(st, v), ok
			},
			py: []string{"a, b = stack[-2], stack[-1]", "stack.append(" + b.py + ")"}})
	}
	for _, u := range interpUns[:2] {
		out = append(out, ieffect{name: "keep_" + u.name, need: 1,
			apply: func(st []any, _ *itok) ([]any, bool) {
				a, ok := st[len(st)-1].(int64)
				if !ok {
					return st, false
				}
				v, ok := u.f(a)
				return append(st, v), ok
			},
			py: []string{"a = stack[-1]", "stack.append(" + u.py + ")"}})
	}
	return append(out,
		ieffect{name: "drop", need: 1, apply: func(st []any, _ *itok) ([]any, bool) { return st[:len(st)-1], true },
			py: []string{"stack.pop()"}},
		ieffect{name: "dup", need: 1, apply: func(st []any, _ *itok) ([]any, bool) { return append(st, st[len(st)-1]), true },
			py: []string{"stack.append(stack[-1])"}},
		ieffect{name: "swap", need: 2, apply: func(st []any, _ *itok) ([]any, bool) {
			st[len(st)-1], st[len(st)-2] = st[len(st)-2], st[len(st)-1]
			return st, true
		}, py: []string{"stack[-1], stack[-2] = stack[-2], stack[-1]"}},
		ieffect{name: "clear", apply: func(st []any, _ *itok) ([]any, bool) { return st[:0], true },
			py: []string{"stack.clear()"}},
		ieffect{name: "noop", apply: func(st []any, _ *itok) ([]any, bool) { return st, true }, py: []string{"pass"}},
		ieffect{name: "push_self", apply: func(st []any, t *itok) ([]any, bool) { return append(st, t.word), true },
			py: []string{"stack.append(word)"}},
		ieffect{name: "push_arg", withArg: true, apply: func(st []any, t *itok) ([]any, bool) {
			if len(t.args) != 1 {
				return st, false
			}
			return append(st, t.args[0]), true
		}, py: []string{"stack.append(int(args[0]))"}},
	)
}()

// interpOut is what an interpreter program returns.
type interpOut uint8

const (
	interpTop interpOut = iota
	interpSum
	interpStack
	interpDepth
	interpDeepest
	interpValid
)

var interpOutNames = []string{"top", "sum", "stack", "depth", "deepest", "valid"}

// interpClass is one instruction word (a record's word with its number
// of arguments).
type interpClass struct {
	word  string
	nargs int
}

// interpProgram is one filling of the sketch.
type interpProgram struct {
	classes []interpClass
	// letters says single letters are operands pushed as they are.
	letters bool
	// masks are each class's meanings still possible (bits indexing
	// interpEffects); a class's meaning is the first of them.
	masks []uint64
	// skip says an instruction lacking operands does nothing (else the
	// program raises, or returns False for interpValid).
	skip bool
	out  interpOut
}

// interpParse reads token texts as the sketch's tokens; classes collects
// the instruction words, letters says single letters are operands.
type interpParser struct {
	classes []interpClass
	index   map[interpClass]int
	letters bool
}

func (ps *interpParser) parse(toks []string, grow bool) ([]itok, bool) {
	out := make([]itok, len(toks))
	for i, s := range toks {
		fields := strings.Split(s, " ")
		word := fields[0]
		t := itok{word: word, cls: -1}
		if len(fields) == 1 {
			if n, err := strconv.ParseInt(word, 10, 64); err == nil {
				t.lit = n
				out[i] = t
				continue
			}
			if ps.letters && isLetter(word) {
				t.lit = word
				out[i] = t
				continue
			}
		}
		for _, f := range fields[1:] {
			n, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return nil, false
			}
			t.args = append(t.args, n)
		}
		c := interpClass{word, len(t.args)}
		k, ok := ps.index[c]
		if !ok {
			if !grow {
				return nil, false
			}
			k = len(ps.classes)
			ps.classes = append(ps.classes, c)
			ps.index[c] = k
		}
		t.cls = k
		out[i] = t
	}
	return out, true
}

func isLetter(s string) bool {
	return len(s) == 1 && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z')
}

// maxInterpClasses bounds the instruction words whose meanings are
// learned.
const maxInterpClasses = 8

// run runs the program on one token list, returning its value, or the
// class first executed whose meaning is still open (pending >= 0) and the
// stack's depth there.
func (ip *interpProgram) run(toks []itok) (v any, pending, depth int) {
	stack := make([]any, 0, len(toks))
	deepest := 0
	for i := range toks {
		t := &toks[i]
		if t.cls < 0 {
			stack = append(stack, t.lit)
			deepest = max(deepest, len(stack))
			continue
		}
		m := ip.masks[t.cls]
		if m&(m-1) != 0 {
			// Several meanings are still possible: they need not be told
			// apart yet when all of them skip this instruction.
			if ip.skip && len(stack) < len(interpNeedMore) && m&^interpNeedMore[len(stack)] == 0 {
				continue
			}
			return nil, t.cls, len(stack)
		}
		eff := &interpEffects[bits.TrailingZeros64(m)]
		if len(stack) < eff.need {
			switch {
			case ip.skip:
				continue
			case ip.out == interpValid:
				return false, -1, 0
			}
			return dsl.ErrV, -1, 0
		}
		var ok bool
		if stack, ok = eff.apply(stack, t); !ok {
			return dsl.ErrV, -1, 0
		}
		deepest = max(deepest, len(stack))
	}
	switch ip.out {
	case interpTop:
		if len(stack) == 0 {
			return dsl.ErrV, -1, 0
		}
		switch x := stack[len(stack)-1].(type) {
		case int64:
			return x, -1, 0
		case string:
			return x, -1, 0
		}
		return dsl.ErrV, -1, 0
	case interpSum:
		s := int64(0)
		for _, v := range stack {
			x, ok := v.(int64)
			if !ok {
				return dsl.ErrV, -1, 0
			}
			if s, ok = dsl.AddI(s, x); !ok {
				return dsl.ErrV, -1, 0
			}
		}
		return s, -1, 0
	case interpStack:
		ints := make([]int64, len(stack))
		for i, v := range stack {
			x, ok := v.(int64)
			if !ok {
				return dsl.ErrV, -1, 0
			}
			ints[i] = x
		}
		return ints, -1, 0
	case interpDepth:
		return int64(len(stack)), -1, 0
	case interpDeepest:
		return int64(deepest), -1, 0
	}
	return len(stack) == 1, -1, 0
}

// interpOuts are the returns that give a value of type t.
func interpOuts(t dsl.Type) []interpOut {
	switch t {
	case dsl.Int:
		return []interpOut{interpTop, interpSum, interpDepth, interpDeepest}
	case dsl.Str:
		return []interpOut{interpTop}
	case dsl.ListInt:
		return []interpOut{interpStack}
	case dsl.Bool:
		return []interpOut{interpValid}
	}
	return nil
}

// maxInterpRuns bounds the example runs of one search of meanings.
const maxInterpRuns = 400_000

// Interp tries the token interpreter on a list of token texts.
func Interp(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if len(p.B.Types) != 1 || p.B.Types[0] != dsl.ListStr || p.Nullable || len(p.Outs) < 2 {
		return false
	}
	outs := interpOuts(p.Out)
	if len(outs) == 0 {
		return false
	}
	// Single letters are operands when there are several of them (and
	// that reading fits), else each is a word like any other.
	letters := map[string]bool{}
	for _, env := range p.Envs {
		for _, s := range env[0].([]string) {
			if isLetter(s) {
				letters[s] = true
			}
		}
	}
	modes := []bool{false}
	if len(letters) >= 3 {
		modes = []bool{true, false}
	}
	for _, asOperands := range modes {
		if interpTry(en, p, outs, asOperands, consider) {
			return true
		}
	}
	return false
}

// interpTry parses the examples' tokens (single letters as operands or
// not) and learns the words' meanings for every return and policy.
func interpTry(en *Search, p *dsl.Problem, outs []interpOut, letters bool, consider func(*dsl.Node, []any) bool) bool {
	ps := &interpParser{index: map[interpClass]int{}, letters: letters}
	toks := make([][]itok, len(p.Outs))
	operands := false
	for i := range p.Outs {
		ts, ok := ps.parse(p.Envs[i][0].([]string), true)
		if !ok {
			return false
		}
		for _, t := range ts {
			if t.cls < 0 || len(t.args) > 0 {
				operands = true
			}
		}
		toks[i] = ts
	}
	if !operands || len(ps.classes) == 0 || len(ps.classes) > maxInterpClasses {
		return false
	}
	order := interpOrder(toks)
	for _, out := range outs {
		for _, skip := range []bool{false, true} {
			if out == interpValid && skip {
				continue
			}
			if en.interrupted() {
				return false
			}
			ip := &interpProgram{classes: ps.classes, letters: ps.letters, skip: skip, out: out, masks: make([]uint64, len(ps.classes))}
			for i, c := range ps.classes {
				for e := range interpEffects {
					eff := &interpEffects[e]
					if eff.withArg == (c.nargs > 0) && (!eff.withArg || c.nargs == 1) {
						ip.masks[i] |= 1 << e
					}
				}
				if ip.masks[i] == 0 {
					// A record of several arguments has no meaning here.
					return false
				}
			}
			if !ip.Learn(p, toks, order) {
				continue
			}
			if offer(en, interpNode(p, ip), consider) {
				return true
			}
		}
	}
	return false
}

// interpOrder orders the examples by their distinct instruction words,
// then their length.
func interpOrder(toks [][]itok) []int {
	distinct := make([]int, len(toks))
	for i, ts := range toks {
		seen := map[int]bool{}
		for _, t := range ts {
			if t.cls >= 0 {
				seen[t.cls] = true
			}
		}
		distinct[i] = len(seen)
	}
	order := make([]int, len(toks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool {
		a, b := order[x], order[y]
		if distinct[a] != distinct[b] {
			return distinct[a] < distinct[b]
		}
		return len(toks[a]) < len(toks[b])
	})
	return order
}

// Learn fills the meanings by backtracking over the examples in order.
func (ip *interpProgram) Learn(p *dsl.Problem, toks [][]itok, order []int) bool {
	runs := 0
	var solve func(k int) bool
	solve = func(k int) bool {
		if k == len(order) {
			return true
		}
		if runs++; runs > maxInterpRuns {
			return false
		}
		i := order[k]
		v, pending, depth := ip.run(toks[i])
		if pending < 0 {
			return p.MatchesAt(i, v) && solve(k+1)
		}
		// The meanings that skip the instruction on this stack are one
		// choice (told apart later if ever), the others one each.
		m := ip.masks[pending]
		var choices []uint64
		if l := min(depth, 2); ip.skip && m&interpNeedMore[l] != 0 {
			choices = append(choices, m&interpNeedMore[l])
			m &^= interpNeedMore[l]
		}
		for rest := m; rest != 0; rest &= rest - 1 {
			choices = append(choices, rest&-rest)
		}
		saved := ip.masks[pending]
		for _, c := range choices {
			ip.masks[pending] = c
			if solve(k) {
				return true
			}
			if runs > maxInterpRuns {
				break
			}
		}
		ip.masks[pending] = saved
		return false
	}
	return solve(0)
}

// interpNeedMore[l] are the meanings that need more than l values.
var interpNeedMore = func() (out [3]uint64) {
	for l := range out {
		for e, eff := range interpEffects {
			if eff.need > l {
				out[l] |= 1 << e
			}
		}
	}
	return out
}()

// effect is the meaning chosen for class c: the first still possible.
func (ip *interpProgram) effect(c int) int { return bits.TrailingZeros64(ip.masks[c]) }

// interpNode is the program of a filled interpreter over the token list.
func interpNode(p *dsl.Problem, ip *interpProgram) *dsl.Node {
	ret := p.Out
	var names []string
	for i, c := range ip.classes {
		names = append(names, c.word+"="+interpEffects[ip.effect(i)].name)
	}
	name := fmt.Sprintf("interpret[%s; skip=%v; %s]", strings.Join(names, ","), ip.skip, interpOutNames[ip.out])
	op := &dsl.Operator{Name: name, Args: p.B.Types, Ret: ret, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any {
			ps := &interpParser{classes: ip.classes, index: map[interpClass]int{}, letters: ip.letters}
			for i, c := range ip.classes {
				ps.index[c] = i
			}
			toks, ok := ps.parse(a[0].([]string), false)
			if !ok {
				return dsl.ErrV
			}
			v, _, _ := ip.run(toks)
			return v
		},
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("interpret", p.B.Names, ip.python(p.B.Names[0])), a...)
		}}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{{Var: 0, Size: 1}}, Var: -1, Size: 8}
}

// python renders the interpreter's loop over the token texts named toks.
func (ip *interpProgram) python(toks string) string {
	var sb strings.Builder
	sb.WriteString("    stack = []\n")
	if ip.out == interpDeepest {
		sb.WriteString("    deepest = 0\n")
	}
	fmt.Fprintf(&sb, "    for tok in %s:\n", toks)
	records := false
	for _, c := range ip.classes {
		records = records || c.nargs > 0
	}
	if records {
		sb.WriteString("        word, *args = tok.split(\" \")\n")
	} else {
		sb.WriteString("        word = tok\n")
	}
	// Words of one meaning share a branch; a word's number of arguments
	// is tested only where one word comes with several.
	nargs := map[string]map[int]bool{}
	for _, c := range ip.classes {
		if nargs[c.word] == nil {
			nargs[c.word] = map[int]bool{}
		}
		nargs[c.word][c.nargs] = true
	}
	done := make([]bool, len(ip.classes))
	branch := 0
	for i := range ip.classes {
		if done[i] {
			continue
		}
		var conds []string
		var words []string
		for j := i; j < len(ip.classes); j++ {
			c := ip.classes[j]
			if done[j] || ip.effect(j) != ip.effect(i) {
				continue
			}
			done[j] = true
			if len(nargs[c.word]) > 1 {
				conds = append(conds, fmt.Sprintf("(word == %s and len(args) == %d)", strconv.Quote(c.word), c.nargs))
			} else {
				words = append(words, strconv.Quote(c.word))
			}
		}
		switch {
		case len(words) == 1:
			conds = append([]string{"word == " + words[0]}, conds...)
		case len(words) > 1:
			conds = append([]string{"word in (" + strings.Join(words, ", ") + ")"}, conds...)
		}
		kw := "elif"
		if branch == 0 {
			kw = "if"
		}
		branch++
		fmt.Fprintf(&sb, "        %s %s:\n", kw, strings.Join(conds, " or "))
		eff := &interpEffects[ip.effect(i)]
		if eff.need > 0 {
			fmt.Fprintf(&sb, "            if len(stack) < %d:\n", eff.need)
			switch {
			case ip.skip:
				sb.WriteString("                continue\n")
			case ip.out == interpValid:
				sb.WriteString("                return False\n")
			default:
				sb.WriteString("                raise ValueError(f\"{word} lacks its operands\")\n")
			}
		}
		for _, line := range eff.py {
			sb.WriteString("            " + line + "\n")
		}
	}
	if ip.letters {
		sb.WriteString("        elif len(word) == 1 and word.isalpha():\n            stack.append(word)\n")
	}
	sb.WriteString("        else:\n            stack.append(int(word))\n")
	if ip.out == interpDeepest {
		sb.WriteString("        deepest = max(deepest, len(stack))\n")
	}
	switch ip.out {
	case interpTop:
		sb.WriteString("    return stack[-1]\n")
	case interpSum:
		sb.WriteString("    return sum(stack)\n")
	case interpStack:
		sb.WriteString("    return stack\n")
	case interpDepth:
		sb.WriteString("    return len(stack)\n")
	case interpDeepest:
		sb.WriteString("    return deepest\n")
	case interpValid:
		sb.WriteString("    return len(stack) == 1\n")
	}
	return sb.String()
}
