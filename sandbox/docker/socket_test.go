package docker

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
	"go.uber.org/zap/zaptest/observer"

	"github.com/reconstruct/reconstruct/sandbox"
)

// TestHarnessSocket checks the harness's socket (socket.go): the protocol
// runs over it, its directory is gone from the host once the harness
// connected, and from inside the container nothing answers at its path.
func TestHarnessSocket(t *testing.T) {
	api, ref := needImage(t)
	if !strings.HasPrefix(api.DaemonHost(), "unix://") {
		skipOrFail(t, "the engine at "+api.DaemonHost()+" is not on this machine: the attach stream carries the protocol")
	}
	s := newTestSandbox(t, ref, RoleAgent, WorkspaceMount(t.TempDir()))
	s.mu.Lock()
	inst := s.inst
	s.mu.Unlock()
	if inst.sock == nil {
		t.Fatal("the harness does not use its socket")
	}
	leftovers, err := filepath.Glob(filepath.Join(os.TempDir(), "reconstruct-harness-*", socketName))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range leftovers {
		if c, err := net.Dial("unix", p); err == nil {
			c.Close()
			t.Errorf("a socket on the host still accepts connections: %s", p)
		}
	}
	probe := `import os, socket
def f(x):
    p = "` + socketDir + "/" + socketName + `"
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(p)
    except OSError as e:
        return [sorted(os.listdir("` + socketDir + `")), type(e).__name__]
    return "connected"
`
	out, err := s.Call(context.Background(), sandbox.CallRequest{Program: source(probe, "f"), Inputs: raw(`0`)})
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	var got []any
	if !out[0].OK() || json.Unmarshal(out[0].Output, &got) != nil || len(got) != 2 {
		t.Fatalf("connecting from the container: %s %s %s", out[0].Status, out[0].Output, out[0].Error)
	}
	if names, _ := got[0].([]any); len(names) != 0 {
		t.Errorf("%s holds %v in the container, want nothing", socketDir, names)
	}
}

// TestHarnessListenerAccept checks who the listener takes a connection
// from: only the expected pid, and not after the container stopped or the
// start's deadline passed. Either failure falls back to the attach stream.
func TestHarnessListenerAccept(t *testing.T) {
	s := &Sandbox{opts: Options{User: strconv.Itoa(os.Getuid()) + ":" + strconv.Itoa(os.Getgid())}}
	dial := func(hl *harnessListener) *net.UnixConn {
		t.Helper()
		c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: filepath.Join(hl.dir, socketName), Net: "unix"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	never := make(chan struct{})
	tests := []struct {
		name    string
		pid     int
		connect bool
		exited  bool
		timeout time.Duration
		wantErr string
	}{
		{name: "the expected peer", pid: os.Getpid(), connect: true},
		// Refused, and the harness's connection still awaited.
		{name: "another peer", pid: os.Getpid() + 1, connect: true, timeout: time.Second, wantErr: "did not connect"},
		{name: "the container stopped", pid: os.Getpid(), exited: true, wantErr: "exited without connecting"},
		{name: "no connection in time", pid: os.Getpid(), timeout: time.Millisecond, wantErr: "did not connect"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hl, err := s.listenHarness()
			if err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(filepath.Join(hl.dir, socketName))
			if err != nil {
				t.Fatal(err)
			}
			if perm := fi.Mode().Perm(); perm != 0o600 {
				t.Errorf("socket mode %v, want 0600", perm)
			}
			if tc.connect {
				dial(hl)
			}
			exited := never
			if tc.exited {
				done := make(chan struct{})
				close(done)
				exited = done
			}
			ctx := context.Background()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			conn, err := hl.accept(ctx, tc.pid, exited, zaptest.NewLogger(t))
			if conn != nil {
				conn.Close()
			}
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("accept: %v", err)
				}
			} else {
				var noSocket *errNoSocket
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.As(err, &noSocket) {
					t.Fatalf("accept: err = %v, want an errNoSocket saying %q", err, tc.wantErr)
				}
			}
			if _, err := os.Stat(hl.dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the socket's directory survives accept: %v", err)
			}
		})
	}
}

// TestForeignPeerOnHarnessSocket is finding 6 of the security issue: a
// process on the host that connects to the harness's socket before the
// harness does made reconstruct panic (a nil instance removed), leaving
// the container and the socket's directory behind. The foreign peer is
// refused (its connection closed), the refusal logged, and the harness's
// own connection taken: the sandbox starts and works, over its socket.
func TestForeignPeerOnHarnessSocket(t *testing.T) {
	api, ref := needImage(t)
	if !strings.HasPrefix(api.DaemonHost(), "unix://") {
		skipOrFail(t, "the engine at "+api.DaemonHost()+" is not on this machine: there is no harness socket")
	}
	core, logs := observer.New(zap.WarnLevel)
	var foreign []*net.UnixConn
	var dir string
	opts := Options{
		Image: ref, RunID: testRunID(t), Role: RoleAgent, Mounts: []Mount{ScratchMount(0)},
		Limits: sandbox.Limits{Timeout: time.Second}, Log: zap.New(core),
		// A host process (this test) connects first, twice.
		listening: func(path string) {
			dir = filepath.Dir(path)
			for range 2 {
				c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
				if err != nil {
					t.Errorf("connect first: %v", err)
					return
				}
				foreign = append(foreign, c)
			}
		},
	}
	s, err := New(context.Background(), opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	if len(foreign) != 2 {
		t.Fatalf("the test connected %d times, want 2", len(foreign))
	}
	for i, c := range foreign {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if n, err := c.Read(make([]byte, 1)); err == nil || n != 0 {
			t.Errorf("foreign connection %d was not closed (read %d bytes, %v)", i+1, n, err)
		}
		c.Close()
	}
	s.mu.Lock()
	inst := s.inst
	s.mu.Unlock()
	if inst == nil || inst.sock == nil {
		t.Errorf("the harness does not use its socket after the foreign peers were refused")
	}
	if n := logs.FilterMessageSnippet("refused a connection").Len(); n != 2 {
		t.Errorf("%d refusals logged, want 2: %v", n, logs.All())
	}
	out, err := s.Call(context.Background(), sandbox.CallRequest{Program: source("def f(x):\n    return x + 1\n", "f"), Inputs: raw(`41`)})
	if err != nil || string(out[0].Output) != "42" {
		t.Fatalf("Call after the refusals: %v %v", out, err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket's directory %s survives the start: %v", dir, err)
	}
	id := s.ContainerID()
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := api.ContainerInspect(context.Background(), id); err == nil {
		t.Errorf("container %s survives Close", shortID(id))
	}
}
