//go:build !linux

package sandboxtest

import "testing"

// plantSharedMemory does nothing where there is no System V shared memory.
func plantSharedMemory(t *testing.T, secret string) {}
