package docker

import (
	"fmt"
	"net"
	"syscall"
)

// peerPID is the pid of the process at the other end of conn, as this
// process's PID namespace sees it.
func peerPID(conn *net.UnixConn) (int, error) {
	raw, err := conn.SyscallConn()
	if err != nil {
		return 0, err
	}
	var cred *syscall.Ucred
	var serr error
	if err := raw.Control(func(fd uintptr) {
		cred, serr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return 0, err
	}
	if serr != nil {
		return 0, fmt.Errorf("peer credentials: %w", serr)
	}
	return int(cred.Pid), nil
}
