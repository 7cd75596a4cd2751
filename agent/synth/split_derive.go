package synth

import "github.com/reconstruct/reconstruct/agent/synth/dsl"

// Components made of components. The results of a function that returns
// several often follow from one another: a word and its length, the
// largest value and where it is, a list and how many it holds. When a
// component's own search has run without finding it, one operator
// applied to a component already solved — alone, or beside an input
// variable or another solved component — is tried on its examples
// (composeParts); the first that fits is the component's program. Only
// operators without a lambda are tried, in the catalogue's order. It is a
// last resort: tried first, it would write len(s.upper()) for len(s), or
// worse, a relation that holds only on the examples.

// composeParts returns a program for part i made of one operator over the
// programs of the solved parts (progs, nil where none) and the problem's
// variables, or nil.
func composeParts(p *dsl.Problem, parts []*dsl.Problem, i int, progs []*dsl.Node) *dsl.Node {
	part := parts[i]
	if part.Out == dsl.Tuple || part.Nullable {
		return nil
	}
	var solved []*dsl.Node
	for j, n := range progs {
		if j != i && n != nil && nodeType(parts[j], n) != dsl.Tuple {
			solved = append(solved, n)
		}
	}
	if len(solved) == 0 {
		return nil
	}
	// leaves are what an operator may take beside a solved component: the
	// variables, then the other solved components.
	leaves := make([]*dsl.Node, 0, len(p.B.Types)+len(solved))
	for v := range p.B.Types {
		leaves = append(leaves, &dsl.Node{Var: v, Size: 1})
	}
	leaves = append(leaves, solved...)
	typeOf := func(n *dsl.Node) dsl.Type { return nodeType(p, n) }
	// The leaves' values, once: an operator is then applied to them
	// directly, and most stop at the first example they miss.
	vals := map[*dsl.Node][]any{}
	for _, l := range leaves {
		col := make([]any, len(part.Envs))
		for k, env := range part.Envs {
			col[k] = dsl.EvalSafe(l, env)
		}
		vals[l] = col
	}
	fits := func(op *dsl.Operator, kids []*dsl.Node) bool {
		args := make([]any, len(kids))
		for k := range part.Envs {
			for a, kid := range kids {
				args[a] = vals[kid][k]
			}
			if !part.MatchesAt(k, applyOp(op, args)) {
				return false
			}
		}
		return true
	}
	for _, op := range dsl.Catalog.Top {
		if op.Sig != dsl.SigNone || op.Lazy || !part.OkType(op.Ret) {
			continue
		}
		for _, s := range solved {
			var tries [][]*dsl.Node
			switch len(op.Args) {
			case 1:
				tries = append(tries, []*dsl.Node{s})
			case 2:
				for _, l := range leaves {
					if l != s {
						tries = append(tries, []*dsl.Node{s, l}, []*dsl.Node{l, s})
					}
				}
			}
			for _, kids := range tries {
				if !argsFit(op, kids, typeOf) {
					continue
				}
				if !fits(op, kids) {
					continue
				}
				size := op.Cost
				for _, k := range kids {
					size += k.Size
				}
				return &dsl.Node{Op: op, Kids: kids, Var: -1, Size: size}
			}
		}
	}
	return nil
}

// argsFit reports whether kids have the operator's argument types.
func argsFit(op *dsl.Operator, kids []*dsl.Node, typeOf func(*dsl.Node) dsl.Type) bool {
	if len(kids) != len(op.Args) {
		return false
	}
	for k, kid := range kids {
		if typeOf(kid) != op.Args[k] {
			return false
		}
	}
	return true
}

// applyOp is op on argument values, as the evaluator applies it: a failed
// argument or a panic is a failure.
func applyOp(op *dsl.Operator, args []any) (v any) {
	for _, a := range args {
		if dsl.IsErr(a) {
			return dsl.ErrV
		}
	}
	defer func() {
		if recover() != nil {
			v = dsl.ErrV
		}
	}()
	return op.Eval(nil, args)
}
