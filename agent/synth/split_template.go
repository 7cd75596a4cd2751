package synth

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// templateSplit splits a string problem into the holes of its templates
// (dsl.Templates), and, when the outputs are of several kinds, the
// problem of which kind each example's output is; nil when the outputs
// are not templates worth splitting: fixed text beyond spaces shared by
// at least two examples, at least one hole.
func templateSplit(p *dsl.Problem, spec searchSpec, depth int) *splitSolver {
	if p.Out != dsl.Str || p.Nullable || len(p.Outs) < 2 {
		return nil
	}
	outs := make([]string, len(p.Outs))
	for i, o := range p.Outs {
		s, ok := o.(string)
		if !ok {
			return nil
		}
		outs[i] = s
	}
	ts := dsl.Templates(outs)
	if !usableTemplates(ts) {
		return nil
	}
	s := &splitSolver{whole: p, spec: spec, depth: depth, kind: fmt.Sprintf("(texts of %d kinds)", len(ts))}
	if len(ts) == 1 {
		s.kind = fmt.Sprintf("(texts %q)", holed(ts[0]))
	}
	if len(ts) > 1 {
		sel, err := p.SelectorProblem(ts)
		if err != nil {
			return nil
		}
		s.parts = append(s.parts, sel)
		s.names = append(s.names, "which kind")
	}
	type hole struct {
		part int
		f    dsl.Format
	}
	holes := make([][]hole, len(ts))
	// keys[i] are the number holes of category hole i's template.
	keys := map[int][]int{}
	for t, tm := range ts {
		var nums, cats []int
		for k := range tm.Holes() {
			sub, f, err := p.HoleProblem(tm, k)
			if err != nil {
				return nil
			}
			switch {
			case sub.Render != nil:
				nums = append(nums, len(s.parts))
			case categoryHole(sub, f):
				cats = append(cats, len(s.parts))
			}
			holes[t] = append(holes[t], hole{len(s.parts), f})
			s.parts = append(s.parts, sub)
			s.names = append(s.names, fmt.Sprintf("hole %d of %q (%s)", k, holed(tm), f))
		}
		if len(nums) > 0 {
			for _, c := range cats {
				keys[c] = nums
			}
		}
	}
	if len(keys) > 0 {
		s.late = make([]bool, len(s.parts))
		for c := range keys {
			s.late[c] = true
		}
		s.derive = func(i int, progs []*dsl.Node) *dsl.Node {
			var ks []*dsl.Node
			for _, k := range keys[i] {
				ks = append(ks, progs[k])
			}
			if len(ks) == 0 {
				return nil
			}
			return keyedCategory(s.parts[i], ks)
		}
	}
	s.join = func(progs []*dsl.Node) *dsl.Node {
		kinds := make([]*dsl.Node, len(ts))
		// fills[t] are the hole programs of kind t, formatted as text.
		fills := make([][]*dsl.Node, len(ts))
		for t, tm := range ts {
			if tm.Holes() == 0 {
				continue
			}
			for _, h := range holes[t] {
				prog := progs[h.part]
				if prog == nil {
					return nil
				}
				if typ := nodeType(s.parts[h.part], prog); typ != dsl.Str {
					prog = &dsl.Node{Op: dsl.FormatOp(h.f, typ), Kids: []*dsl.Node{prog}, Var: -1, Size: prog.Size + 1}
				}
				fills[t] = append(fills[t], prog)
			}
			kinds[t] = concatNode(tm.Texts, fills[t])
		}
		for t, tm := range ts {
			if tm.Holes() == 0 {
				kinds[t] = truncatedKind(p, tm, ts, fills)
			}
		}
		if len(ts) == 1 {
			return kinds[0]
		}
		return chooseKind(s.parts[0], progs[0], kinds)
	}
	return s
}

// concatNode is the template of texts around the programs of its holes.
func concatNode(texts []string, kids []*dsl.Node) *dsl.Node {
	n := &dsl.Node{Op: dsl.ConcatOp(texts), Var: -1, Size: 1, Kids: kids}
	for _, k := range kids {
		n.Size += k.Size
	}
	return n
}

// truncatedKind is the program of a kind of output that is one fixed text
// (c, the kind's only output): the beginning of another kind's template,
// up to one of its holes and part of the text after it, when that
// explains c on every example of the kind ("Count: 0" for an empty list
// beside "Count: 3\nMin: 1\nMax: 7" is "Count: " + str(len(xs)): the
// first line of the report, which a program prints alone when there is
// nothing more to say); else c itself. A program that writes c as a
// literal answers exactly what it saw, where the template's beginning
// says how the text is made — and an observed output written in the
// program is what the stage score penalises as hard-coding.
func truncatedKind(p *dsl.Problem, tm *dsl.Template, ts []*dsl.Template, fills [][]*dsl.Node) *dsl.Node {
	c := tm.Texts[0]
	for u, other := range ts {
		for j := 1; j <= other.Holes() && j <= len(fills[u]); j++ {
			head := concatNode(append(other.Texts[:j:j], ""), fills[u][:j])
			rest, ok := "", true
			for k, e := range tm.Examples {
				v, isText := dsl.EvalSafe(head, p.Envs[e]).(string)
				r, cut := strings.CutPrefix(c, v)
				if !isText || !cut || k > 0 && r != rest {
					ok = false
					break
				}
				rest = r
			}
			if ok && strings.HasPrefix(other.Texts[j], rest) {
				return concatNode(append(other.Texts[:j:j], rest), fills[u][:j])
			}
		}
	}
	return &dsl.Node{Var: -1, Const: c, Size: 1}
}

// chooseKind chooses among the kinds' programs by the selector's program
// sel: by the value its table or intervals name, or by its own label.
func chooseKind(selP *dsl.Problem, sel *dsl.Node, kinds []*dsl.Node) *dsl.Node {
	if sel == nil {
		return nil
	}
	kid, c, typ := sel, &dsl.Choice{Keys: selP.Labels, Labels: selP.Labels}, dsl.Str
	if sel.Op != nil && sel.Op.Choice != nil && len(sel.Kids) == 1 {
		kid, c, typ = sel.Kids[0], sel.Op.Choice, sel.Op.Args[0]
	}
	n := &dsl.Node{Op: dsl.ChooseOp(c, typ, dsl.Str), Kids: []*dsl.Node{kid}, Var: -1, Size: kid.Size + 1}
	for _, l := range c.Labels {
		k := dsl.IndexOf(selP.Labels, l)
		if k < 0 {
			return nil
		}
		n.Kids = append(n.Kids, kinds[k])
		n.Size += kinds[k].Size
	}
	return n
}

// usableTemplates reports whether templates are worth a split: some
// template has a hole and two examples, and the fixed text around holes
// holds more than spaces.
func usableTemplates(ts []*dsl.Template) bool {
	if len(ts) == 0 {
		return false
	}
	holed := false
	for _, t := range ts {
		if t.Holes() == 0 {
			continue
		}
		if len(t.Examples) >= 2 {
			holed = true
		}
		if strings.IndexFunc(t.Fixed(), func(r rune) bool { return !unicode.IsSpace(r) }) < 0 {
			return false
		}
	}
	return holed
}

// holed writes a template with its holes as "{}", for the notes.
func holed(t *dsl.Template) string {
	return strings.Join(t.Texts, "{}")
}
