//go:build !linux

package process

import "syscall"

// Namespaces are Linux-only: elsewhere the process sandbox runs without them
// (New logs a warning).
func isolatedAttr(network bool) *syscall.SysProcAttr { return nil }

func plainAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func mountNamespace() string { return "" }

func execAttr(network bool) *syscall.SysProcAttr { return plainAttr() }
