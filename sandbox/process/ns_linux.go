//go:build linux

package process

import (
	"os"
	"syscall"
)

// isolatedAttr returns the process attributes that put a new process in new
// PID, mount and IPC namespaces (no System V shared memory, semaphores or
// message queues of the host) and, unless network is true, a new network
// namespace (with only a loopback interface, down: no route anywhere). A
// non-root caller also gets a new user namespace in which it is root.
func isolatedAttr(network bool) *syscall.SysProcAttr {
	flags := uintptr(syscall.CLONE_NEWPID | syscall.CLONE_NEWNS | syscall.CLONE_NEWIPC)
	if !network {
		flags |= syscall.CLONE_NEWNET
	}
	attr := &syscall.SysProcAttr{Cloneflags: flags, Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if os.Geteuid() != 0 {
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
		attr.GidMappingsEnableSetgroups = false
	}
	return attr
}

// plainAttr is the fallback when the kernel refuses namespaces.
func plainAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// mountNamespace identifies the caller's mount namespace, so that the
// harness can refuse to remount anything unless it is in a different one.
func mountNamespace() string {
	ns, err := os.Readlink("/proc/self/ns/mnt")
	if err != nil {
		return ""
	}
	return ns
}

// execAttr is isolatedAttr always with a new user namespace: even a root
// caller's command then holds no capability over the host's namespaces, so
// it cannot nsenter its way back to the host's network, and the private
// root is built by a process that is root only there.
func execAttr(network bool) *syscall.SysProcAttr {
	attr := isolatedAttr(network)
	if attr.Cloneflags&syscall.CLONE_NEWUSER == 0 {
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1}}
		attr.GidMappingsEnableSetgroups = false
	}
	return attr
}
