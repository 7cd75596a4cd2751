//go:build !linux

package dsl

// NewChunk returns an empty chunk with room for n elements, zeroed when
// zero is set (else T must hold no pointers: see noZeroSlice). Its pages
// are faulted in ahead on Linux only.
func NewChunk[T any](n int, zero bool) []T {
	if !zero {
		return noZeroSlice[T](n)[:0]
	}
	return make([]T, 0, n)
}
