package dsl

// Entry is one program in the bank with its value on every environment.
type Entry struct {
	N   *Node
	Col Vec
	// BoxedVals holds the values boxed: filled from col on the first call of
	// values (an operator without a kernel takes the program as an
	// argument, a strategy reads it), or given instead of col for a
	// program outside the bank.
	BoxedVals []any
}

// Values returns the program's values boxed, ErrV where it raised.
func (e *Entry) Values() []any {
	if e.BoxedVals == nil {
		e.BoxedVals = e.Col.Boxed()
	}
	return e.BoxedVals
}

// At returns the program's value on environment i boxed, ErrV where it
// raised, without boxing the others.
func (e *Entry) At(i int) any {
	if e.BoxedVals != nil {
		return e.BoxedVals[i]
	}
	if e.Col.Bad != nil && e.Col.Bad[i] {
		return ErrV
	}
	switch c := e.Col.Data.(type) {
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
	case [][]Pair:
		return c[i]
	}
	return ErrV
}

// Type is the program's type.
func (e *Entry) Type() Type { return columnType(e.Col.Data) }
