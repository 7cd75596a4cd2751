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
	for t, tm := range ts {
		for k := range tm.Holes() {
			sub, f, err := p.HoleProblem(tm, k)
			if err != nil {
				return nil
			}
			holes[t] = append(holes[t], hole{len(s.parts), f})
			s.parts = append(s.parts, sub)
			s.names = append(s.names, fmt.Sprintf("hole %d of %q (%s)", k, holed(tm), f))
		}
	}
	s.join = func(progs []*dsl.Node) *dsl.Node {
		kinds := make([]*dsl.Node, len(ts))
		for t, tm := range ts {
			if tm.Holes() == 0 {
				kinds[t] = &dsl.Node{Var: -1, Const: tm.Texts[0], Size: 1}
				continue
			}
			n := &dsl.Node{Op: dsl.ConcatOp(tm.Texts), Var: -1, Size: 1}
			for _, h := range holes[t] {
				prog := progs[h.part]
				if prog == nil {
					return nil
				}
				if typ := nodeType(s.parts[h.part], prog); typ != dsl.Str {
					prog = &dsl.Node{Op: dsl.FormatOp(h.f, typ), Kids: []*dsl.Node{prog}, Var: -1, Size: prog.Size + 1}
				}
				n.Kids = append(n.Kids, prog)
				n.Size += prog.Size
			}
			kinds[t] = n
		}
		if len(ts) == 1 {
			return kinds[0]
		}
		return chooseKind(s.parts[0], progs[0], kinds)
	}
	return s
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
