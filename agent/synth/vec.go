package synth

// Typed value vectors. The enumerator keeps a program's values on every
// environment as one typed slice (a column) instead of a slice of boxed
// values: a column of integers is one allocation the garbage collector
// never scans, and an operator with a typed kernel (kernel.go) reads its
// arguments' columns and writes its results without boxing either. The
// environments where a program raised are marked in a separate mask.

// vec is a program's values on every environment: data is a []int64,
// []float64, []bool, []string, [][]int64, [][]float64, [][]bool,
// [][]string or [][]pair by the program's type; bad, nil when the program
// raised nowhere, marks the environments where it raised (their data
// element is the zero value).
type vec struct {
	data any
	bad  []bool
	// same says the program does not depend on the environment (it is
	// built from constants alone): its value, or failure, is that of the
	// first environment on every one, and the elements of a list are
	// shared. An operator applied to such programs alone is evaluated on
	// the first environment only (try).
	same bool
}

// failed reports whether the program raised on environment i.
func (v vec) failed(i int) bool { return v.bad != nil && v.bad[i] }

// newColumn returns a zeroed column of n values of type t.
func newColumn(t valType, n int) any {
	switch t {
	case tInt:
		return make([]int64, n)
	case tFloat:
		return make([]float64, n)
	case tBool:
		return make([]bool, n)
	case tStr:
		return make([]string, n)
	case tListInt:
		return make([][]int64, n)
	case tListFloat:
		return make([][]float64, n)
	case tListBool:
		return make([][]bool, n)
	case tListStr:
		return make([][]string, n)
	case tListPair:
		return make([][]pair, n)
	}
	panic("synth: no column for type " + t.String())
}

// columnType is the type of a column's values.
func columnType(data any) valType {
	switch data.(type) {
	case []int64:
		return tInt
	case []float64:
		return tFloat
	case []bool:
		return tBool
	case []string:
		return tStr
	case [][]int64:
		return tListInt
	case [][]float64:
		return tListFloat
	case [][]bool:
		return tListBool
	case [][]string:
		return tListStr
	case [][]pair:
		return tListPair
	}
	panic("synth: not a column")
}

// columnOf unboxes values of type t into a vec; an error value, or a value
// of another type, marks its environment bad.
func columnOf(t valType, vals []any) vec {
	data := newColumn(t, len(vals))
	var bad []bool
	for i, v := range vals {
		if !setAt(data, i, v) {
			if bad == nil {
				bad = make([]bool, len(vals))
			}
			bad[i] = true
		}
	}
	return vec{data: data, bad: bad}
}

// setAt stores v at index i of the column, reporting false when v is not
// of the column's type (an error value among them).
func setAt(data any, i int, v any) bool {
	var good bool
	switch c := data.(type) {
	case []int64:
		c[i], good = v.(int64)
	case []float64:
		c[i], good = v.(float64)
	case []bool:
		c[i], good = v.(bool)
	case []string:
		c[i], good = v.(string)
	case [][]int64:
		c[i], good = v.([]int64)
	case [][]float64:
		c[i], good = v.([]float64)
	case [][]bool:
		c[i], good = v.([]bool)
	case [][]string:
		c[i], good = v.([]string)
	case [][]pair:
		c[i], good = v.([]pair)
	}
	return good
}

// boxed returns the column's values boxed, errV where bad.
func (v vec) boxed() []any {
	var out []any
	switch c := v.data.(type) {
	case []int64:
		out = boxAll(c)
	case []float64:
		out = boxAll(c)
	case []bool:
		out = boxAll(c)
	case []string:
		out = boxAll(c)
	case [][]int64:
		out = boxAll(c)
	case [][]float64:
		out = boxAll(c)
	case [][]bool:
		out = boxAll(c)
	case [][]string:
		out = boxAll(c)
	case [][]pair:
		out = boxAll(c)
	}
	for i, b := range v.bad {
		if b {
			out[i] = errV
		}
	}
	return out
}

func boxAll[T any](c []T) []any {
	out := make([]any, len(c))
	for i, x := range c {
		out[i] = x
	}
	return out
}

// hashColumn is the hash of a program's values on the first n
// environments: the hash of each value on its own (what hasher.value
// gives it from fnvOffset, as for the value boxed), mixed in turn. The
// values' hashes do not depend on one another, so that the processor
// computes several at once instead of waiting for each multiplication of
// one long chain through every element of every list.
//
// A column whose values are the same on every environment (same) hashes
// alike, from its first value hashed once.
func hashColumn(data any, bad []bool, n int, same bool) hasher {
	switch c := data.(type) {
	case []int64:
		return hashRows(c[:n], bad, same, hasher.ofInt)
	case []float64:
		return hashRows(c[:n], bad, same, hasher.ofFloat)
	case []bool:
		return hashRows(c[:n], bad, same, hasher.ofBool)
	case []string:
		return hashRows(c[:n], bad, same, hasher.ofStr)
	case [][]int64:
		return hashRows(c[:n], bad, same, hasher.ofInts)
	case [][]float64:
		return hashRows(c[:n], bad, same, hasher.ofFloats)
	case [][]bool:
		return hashRows(c[:n], bad, same, hasher.ofBools)
	case [][]string:
		return hashRows(c[:n], bad, same, hasher.ofStrs)
	case [][]pair:
		return hashRows(c[:n], bad, same, hasher.ofPairs)
	}
	return fnvOffset
}

// hashRows hashes each value of a column with add, a failed one (marked
// in bad) as errV, and mixes the hashes in turn; when the values are the
// same on every environment, the first one's hash n times.
func hashRows[T any](c []T, bad []bool, same bool, add func(hasher, T) hasher) hasher {
	h := fnvOffset
	if same && len(c) > 0 {
		r := errValueHash
		if bad == nil || !bad[0] {
			r = add(fnvOffset, c[0])
		}
		for range c {
			h = h.mix(uint64(r))
		}
		return h
	}
	for i, x := range c {
		if bad != nil && bad[i] {
			h = h.mix(uint64(errValueHash))
			continue
		}
		h = h.mix(uint64(add(fnvOffset, x)))
	}
	return h
}

// spread copies the first environment's value and failure of a column to
// the next n-1 (the elements of a list are shared).
func spread(data any, bad []bool, n int) {
	switch c := data.(type) {
	case []int64:
		fillFirst(c[:n])
	case []float64:
		fillFirst(c[:n])
	case []bool:
		fillFirst(c[:n])
	case []string:
		fillFirst(c[:n])
	case [][]int64:
		fillFirst(c[:n])
	case [][]float64:
		fillFirst(c[:n])
	case [][]bool:
		fillFirst(c[:n])
	case [][]string:
		fillFirst(c[:n])
	case [][]pair:
		fillFirst(c[:n])
	}
	fillFirst(bad[:n])
}

// fillFirst sets every element of xs to its first.
func fillFirst[T any](xs []T) {
	for i := 1; i < len(xs); i++ {
		xs[i] = xs[0]
	}
}

// errValueHash is the hash of a failed value on its own.
var errValueHash = fnvOffset.mix(errHash)

// columnBytes is the memory the bank is charged for a program's values:
// valueBytes of each value, as if boxed (the bound was set in those
// terms), 16 for an environment where it raised.
func columnBytes(data any, bad []bool) int64 {
	var n int64
	switch c := data.(type) {
	case []int64, []float64, []bool:
		return 16 * int64(columnLen(data))
	case []string:
		for i, x := range c {
			if bad != nil && bad[i] {
				n += 16
				continue
			}
			n += 16 + int64(len(x))
		}
	case [][]int64:
		for i, x := range c {
			if bad != nil && bad[i] {
				n += 16
				continue
			}
			n += 24 + 8*int64(len(x))
		}
	case [][]float64:
		for i, x := range c {
			if bad != nil && bad[i] {
				n += 16
				continue
			}
			n += 24 + 8*int64(len(x))
		}
	case [][]bool:
		for i, x := range c {
			if bad != nil && bad[i] {
				n += 16
				continue
			}
			n += 24 + int64(len(x))
		}
	case [][]string:
		for i, x := range c {
			if bad != nil && bad[i] {
				n += 16
				continue
			}
			n += valueBytes(x)
		}
	case [][]pair:
		for i, x := range c {
			if bad != nil && bad[i] {
				n += 16
				continue
			}
			n += 24 + 16*int64(len(x))
		}
	}
	return n
}

// columnLen is the number of values in a column.
func columnLen(data any) int {
	switch c := data.(type) {
	case []int64:
		return len(c)
	case []float64:
		return len(c)
	case []bool:
		return len(c)
	case []string:
		return len(c)
	case [][]int64:
		return len(c)
	case [][]float64:
		return len(c)
	case [][]bool:
		return len(c)
	case [][]string:
		return len(c)
	case [][]pair:
		return len(c)
	}
	return 0
}
