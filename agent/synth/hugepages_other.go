//go:build !linux

package synth

// newChunk returns an empty chunk with room for n elements (huge pages
// are asked for on Linux only).
func newChunk[T any](n int) []T { return make([]T, 0, n) }
