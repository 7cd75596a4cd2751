package synth

// entry is one program in the bank with its value on every environment.
type entry struct {
	n   *node
	col vec
	// boxedVals holds the values boxed: filled from col on the first call of
	// values (an operator without a kernel takes the program as an
	// argument, a strategy reads it), or given instead of col for a
	// program outside the bank.
	boxedVals []any
}

// values returns the program's values boxed, errV where it raised.
func (e *entry) values() []any {
	if e.boxedVals == nil {
		e.boxedVals = e.col.boxed()
	}
	return e.boxedVals
}

// at returns the program's value on environment i boxed, errV where it
// raised, without boxing the others.
func (e *entry) at(i int) any {
	if e.boxedVals != nil {
		return e.boxedVals[i]
	}
	if e.col.bad != nil && e.col.bad[i] {
		return errV
	}
	switch c := e.col.data.(type) {
	case []int64:
		return c[i]
	case []float64:
		return c[i]
	case []bool:
		return c[i]
	case []string:
		return c[i]
	case [][]int64:
		return c[i]
	case [][]float64:
		return c[i]
	case [][]bool:
		return c[i]
	case [][]string:
		return c[i]
	case [][]pair:
		return c[i]
	}
	return errV
}

// typ is the program's type.
func (e *entry) typ() valType { return columnType(e.col.data) }
