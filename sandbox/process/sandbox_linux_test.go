//go:build linux

package process

import (
	"context"
	"syscall"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/sandbox"
)

func TestNamespacesRefused(t *testing.T) {
	testenv.NeedPython(t)
	// CLONE_NEWUSER with CLONE_FS is always EINVAL: a kernel that refuses.
	refuse := func(bool) *syscall.SysProcAttr {
		return &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER | syscall.CLONE_FS}
	}
	core, logs := observer.New(zap.WarnLevel)
	s, err := open(context.Background(), Options{Dir: t.TempDir(), Log: zap.New(core)}, refuse)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	if iso := s.Isolation(); iso.Namespaces || iso.NoNetwork || iso.ReadOnly {
		t.Errorf("Isolation() = %+v, want no namespaces", iso)
	}
	if logs.FilterMessageSnippet("WITHOUT network").Len() != 1 {
		t.Errorf("no warning about the missing isolation; logs: %v", logs.All())
	}
	mustWork(t, s)
	got, err := s.Exec(context.Background(), sandbox.ExecRequest{Command: "echo plain"})
	if err != nil || got.Output != "plain\n" {
		t.Errorf("Exec without namespaces: %+v, %v", got, err)
	}
}
