package sandboxtest

import (
	"testing"

	"golang.org/x/sys/unix"
)

// plantSharedMemory creates a System V shared memory segment, mode 0666,
// holding secret in the host's IPC namespace; it is removed when the test
// ends.
func plantSharedMemory(t *testing.T, secret string) {
	t.Helper()
	id, err := unix.SysvShmGet(unix.IPC_PRIVATE, 4096, unix.IPC_CREAT|0o666)
	if err != nil {
		t.Logf("no System V shared memory here: %v", err)
		return
	}
	t.Cleanup(func() { unix.SysvShmCtl(id, unix.IPC_RMID, nil) })
	mem, err := unix.SysvShmAttach(id, 0, 0)
	if err != nil {
		t.Fatalf("attach shared memory: %v", err)
	}
	copy(mem, secret)
	if err := unix.SysvShmDetach(mem); err != nil {
		t.Fatal(err)
	}
}
