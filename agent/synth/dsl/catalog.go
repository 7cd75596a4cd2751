package dsl

import "slices"

// opCatalog is the DSL's operators, assembled once by newCatalog from the
// operator files (ops_int.go, ops_float.go, ops_string.go, ops_list.go,
// ops_pair.go, ops_geometry.go, ops_loop.go).
type opCatalog struct {
	// Scalars are the operators of lambda bodies: every scalar operator,
	// conditionals included, the rare ones last.
	Scalars []*Operator
	// Top are the operators of whole programs: the scalars without the
	// conditionals and the operators of whole programs only (iroot,
	// find, occurrences, codes), then the loops, then the list operators
	// (rotate_right and find of a list last) and the windows and scans.
	Top []*Operator
	// Loops are the loop operators (in top too).
	Loops []*Operator
	// Holes are the operators of sketches' holes only (scalarOps), after
	// top's.
	Holes []*Operator
	// Conds are "t if c else e" for every type t: what splitConditional
	// and the conditional lambdas build.
	Conds [NumTypes]*Operator
}

// Catalog is the DSL's operators.
var Catalog = newCatalog()

// newCatalog assembles the operators. Their order is the order in which
// the enumerator tries them within one size, and so decides which of two
// equivalent programs is kept and which consistent program is found
// first: it is the order the catalogue grew in (the basic operators, then
// library functions, then named combinations, each by value type), and
// changing it changes the programs found (TestGolden records it).
func newCatalog() opCatalog {
	var c opCatalog
	c.Scalars = slices.Concat(
		intOps(), floatOps(), stringOps(), conditionalOps(),
		intLibraryOps(), stringLibraryOps(),
		intNamedOps(), floatNamedOps(), stringNamedOps(),
	)
	// Rare operators go last within a size, so that the lambda banks'
	// per-type caps cut them first.
	slices.SortStableFunc(c.Scalars, func(a, b *Operator) int { return boolRank(a.Rare) - boolRank(b.Rare) })
	lists := slices.Concat(
		listOps(), stringListOps(), pairListOps(), pointWindowOps(),
		listLibraryOps(), pairLibraryOps(), pointLibraryOps(),
		orbitOps(), listNamedOps(), stringRunLengthOps(), listNamedLateOps(), stringSplitOps(), pointNamedOps(), multisetOps(), positionOps(), listNormOps(), wordOps(),
	)
	c.Loops = loopOps()
	for _, o := range c.Scalars {
		if o.Fam != famCond {
			c.Top = append(c.Top, o)
		}
	}
	c.Top = slices.Concat(c.Top, intProgramOps(), stringProgramOps(), grammarOps(), lists, listProgramOps(), c.Loops)
	// Simplest family first; within one size, loops go right after the
	// scalar operators: their few combinations are cheap to try while a
	// whole level of list programs can take the rest of the time limit.
	rank := func(f Family) int {
		if f == FamLoop {
			return int(famCond)
		}
		return int(f)
	}
	slices.SortStableFunc(c.Top, func(a, b *Operator) int { return rank(a.Fam) - rank(b.Fam) })
	for t := range c.Conds {
		c.Conds[t] = conditional("if", Type(t))
	}
	c.Holes = append(listHoleOps(), stringHoleOps()...)
	return c
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Find returns the operator of a name and argument types among the
// scalars, whole programs' and holes' operators (a sketch building a
// program of its own from the DSL's operators), or nil.
func (c *opCatalog) Find(name string, args ...Type) *Operator {
	for _, ops := range [][]*Operator{c.Scalars, c.Top, c.Holes} {
		for _, o := range ops {
			if o.Name == name && slices.Equal(o.Args, args) {
				return o
			}
		}
	}
	return nil
}
