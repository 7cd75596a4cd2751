package dsl

import (
	"slices"
	"unsafe"
)

// Typed value vectors. The enumerator keeps a program's values on every
// environment as one typed slice (a column) instead of a slice of boxed
// values: a column of integers is one allocation the garbage collector
// never scans, and an operator with a typed kernel (kernel.go) reads its
// arguments' columns and writes its results without boxing either. The
// environments where a program raised are marked in a separate mask.

// Vec is a program's values on every environment: data is a []int64,
// []float64, []bool, []string, [][]int64, [][]float64, [][]bool,
// [][]string or [][]pair by the program's type; bad, nil when the program
// raised nowhere, marks the environments where it raised (their data
// element is the zero value).
type Vec struct {
	Data any
	Bad  []bool
	// Same says the program does not depend on the environment (it is
	// built from constants alone): its value, or failure, is that of the
	// first environment on every one, and the elements of a list are
	// shared. An operator applied to such programs alone is evaluated on
	// the first environment only (try).
	Same bool
}

// failed reports whether the program raised on environment i.
func (v Vec) failed(i int) bool { return v.Bad != nil && v.Bad[i] }

// NewColumn returns a zeroed column of n values of type t.
func NewColumn(t Type, n int) any {
	switch t {
	case Int:
		return make([]int64, n)
	case Float:
		return make([]float64, n)
	case Bool:
		return make([]bool, n)
	case Str:
		return make([]string, n)
	case ListInt:
		return make([][]int64, n)
	case ListFloat:
		return make([][]float64, n)
	case ListBool:
		return make([][]bool, n)
	case ListStr:
		return make([][]string, n)
	case ListPair:
		return make([][]Pair, n)
	}
	panic("synth: no column for type " + t.String())
}

// columnType is the type of a column's values.
func columnType(data any) Type {
	switch data.(type) {
	case []int64:
		return Int
	case []float64:
		return Float
	case []bool:
		return Bool
	case []string:
		return Str
	case [][]int64:
		return ListInt
	case [][]float64:
		return ListFloat
	case [][]bool:
		return ListBool
	case [][]string:
		return ListStr
	case [][]Pair:
		return ListPair
	}
	panic("synth: not a column")
}

// ColumnOf unboxes values of type t into a vec; an error value, or a value
// of another type, marks its environment bad.
func ColumnOf(t Type, vals []any) Vec {
	data := NewColumn(t, len(vals))
	var bad []bool
	for i, v := range vals {
		if !SetAt(data, i, v) {
			if bad == nil {
				bad = make([]bool, len(vals))
			}
			bad[i] = true
		}
	}
	return Vec{Data: data, Bad: bad}
}

// SetAt stores v at index i of the column, reporting false when v is not
// of the column's type (an error value among them).
func SetAt(data any, i int, v any) bool {
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
	case [][]Pair:
		c[i], good = v.([]Pair)
	}
	return good
}

// Boxed returns the column's values boxed, ErrV where bad.
func (v Vec) Boxed() []any {
	var out []any
	switch c := v.Data.(type) {
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
	case [][]Pair:
		out = boxAll(c)
	}
	for i, b := range v.Bad {
		if b {
			out[i] = ErrV
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

// HashColumn is the hash of a program's values on the first n
// environments: the hash of each value on its own (what hasher.value
// gives it from FnvOffset, as for the value boxed), mixed in turn. The
// values' hashes do not depend on one another, so that the processor
// computes several at once instead of waiting for each multiplication of
// one long chain through every element of every list.
//
// A column whose values are the same on every environment (same) hashes
// alike, from its first value hashed once.
func HashColumn(data any, bad []bool, n int, same bool) Hasher {
	switch c := data.(type) {
	case []int64:
		return hashRows(c[:n], bad, same, Hasher.ofInt)
	case []float64:
		return hashRows(c[:n], bad, same, Hasher.ofFloat)
	case []bool:
		return hashRows(c[:n], bad, same, Hasher.ofBool)
	case []string:
		return hashRows(c[:n], bad, same, Hasher.ofStr)
	case [][]int64:
		return hashRows(c[:n], bad, same, Hasher.ofInts)
	case [][]float64:
		return hashRows(c[:n], bad, same, Hasher.ofFloats)
	case [][]bool:
		return hashRows(c[:n], bad, same, Hasher.ofBools)
	case [][]string:
		return hashRows(c[:n], bad, same, Hasher.ofStrs)
	case [][]Pair:
		return hashRows(c[:n], bad, same, Hasher.ofPairs)
	}
	return FnvOffset
}

// hashRows hashes each value of a column with add, a failed one (marked
// in bad) as ErrV, and mixes the hashes in turn; when the values are the
// same on every environment, the first one's hash n times.
func hashRows[T any](c []T, bad []bool, same bool, add func(Hasher, T) Hasher) Hasher {
	h := FnvOffset
	if same && len(c) > 0 {
		r := errValueHash
		if bad == nil || !bad[0] {
			r = add(FnvOffset, c[0])
		}
		for range c {
			h = h.Mix(uint64(r))
		}
		return h
	}
	for i, x := range c {
		if bad != nil && bad[i] {
			h = h.Mix(uint64(errValueHash))
			continue
		}
		h = h.Mix(uint64(add(FnvOffset, x)))
	}
	return h
}

// Spread copies the first environment's value and failure of a column to
// the next n-1 (the elements of a list are shared).
func Spread(data any, bad []bool, n int) {
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
	case [][]Pair:
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
var errValueHash = FnvOffset.Mix(errHash)

// HeapBytes is the memory a program's values hold outside the arena and
// the store, which the enumerator charges its budget with itself, at the
// size the allocator gives each piece (AllocBytes): strings (kernels make
// them on the heap) and lists of strings, with their headers; with
// heapRows, also the lists of numbers, truth values and pairs, which the
// operator made on the heap (Operator.HeapRows, or one evaluated on boxed
// values). Without heapRows those lists live in chunks of the arena and
// the store, which charge themselves (Meter); a failed value is cleared
// before it is kept.
func HeapBytes(data any, heapRows bool) int64 {
	var n int64
	switch c := data.(type) {
	case []string:
		for _, x := range c {
			n += AllocBytes(len(x))
		}
	case [][]string:
		for _, x := range c {
			n += AllocBytes(16 * cap(x))
			for _, y := range x {
				n += AllocBytes(len(y))
			}
		}
	case [][]int64:
		n = rowBytes(c, 8, heapRows)
	case [][]float64:
		n = rowBytes(c, 8, heapRows)
	case [][]bool:
		n = rowBytes(c, 1, heapRows)
	case [][]Pair:
		n = rowBytes(c, int(unsafe.Sizeof(Pair{})), heapRows)
	}
	return n
}

// rowBytes is what the rows of a list column made on the heap take (0
// when they are not: heap is false).
func rowBytes[T any](rows [][]T, size int, heap bool) int64 {
	if !heap {
		return 0
	}
	var n int64
	for _, r := range rows {
		n += AllocBytes(size * cap(r))
	}
	return n
}

// sizeClasses are the Go allocator's object sizes up to 32 KiB: an
// allocation takes the first that holds it (runtime/sizeclasses.go; a
// test checks them against the allocator's own rounding).
var sizeClasses = [...]int{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256,
	288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792, 2048,
	2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728, 10240, 10880,
	12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768}

// AllocBytes is the heap memory an allocation of n bytes takes: n rounded
// up to its size class, or to whole pages of 8 KiB beyond the largest.
// Charging a short string or list by its length alone counted half of
// what a bank of them held.
func AllocBytes(n int) int64 {
	switch {
	case n <= 0:
		return 0
	case n <= smallAlloc:
		return int64(smallClasses[(n+7)>>3])
	case n > sizeClasses[len(sizeClasses)-1]:
		return int64((n + 8191) &^ 8191)
	}
	i, _ := slices.BinarySearch(sizeClasses[:], n)
	return int64(sizeClasses[i])
}

// smallClasses is the size class of the sizes up to smallAlloc by eighths
// of their size (every class below it is a multiple of 8): a stored
// program's strings and short lists are charged without a search.
const smallAlloc = 1024

var smallClasses = func() (t [smallAlloc/8 + 1]uint16) {
	for i := 1; i < len(t); i++ {
		j, _ := slices.BinarySearch(sizeClasses[:], 8*i)
		t[i] = uint16(sizeClasses[j])
	}
	return t
}()

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
	case [][]Pair:
		return len(c)
	}
	return 0
}
