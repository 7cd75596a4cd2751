package docker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.uber.org/zap"
)

// The harness's protocol runs over a Unix socket rather than the engine's
// attach stream when the engine shares this machine's kernel: a request
// then goes straight from this process to the harness, as in the process
// sandbox, instead of through the engine and the container's shim (two
// more processes each way, about 2 ms a batch on an idle machine). The
// attach stream still carries the harness's stderr.
//
// The socket is a hole only while a process other than the harness can
// connect to it, so it is open only before any untrusted code runs:
//
//   - this process listens on a socket in a new directory of its own (mode
//     0700, the container user's), bound read-only into the container at
//     socketDir, and starts the container with the harness's --connect
//     flag;
//   - the harness, PID 1 of the container and the only process in it until
//     it reads its first request, connects before it reads any;
//   - this process accepts one connection, checks that its peer is the
//     container's PID 1 (SO_PEERCRED: a host process of the same user
//     that raced to connect is refused), then stops listening and removes
//     the directory: from then on a connect gets ECONNREFUSED or finds
//     nothing, in the container and on the host. A connection from any
//     other process (a host process that raced to connect first) is
//     closed at once and logged, and the harness's still awaited.
//
// The connection is then what stdin and stdout were: a descriptor of the
// harness, which is not dumpable (its /proc/PID/fd cannot be opened by the
// programs that share its uid) and closes it in the zygote, so no child
// holds it. sandboxtest's attack "connect to any Unix socket in sight"
// checks that a candidate finds none to connect to.
const (
	socketDir  = "/run/reconstruct"
	socketName = "harness.sock"
)

// errNoSocket marks a start that failed because the harness could not use
// the socket (an engine on another kernel, a user namespace remapping
// uids): the sandbox falls back to the attach stream.
type errNoSocket struct{ err error }

func (e *errNoSocket) Error() string { return "harness socket: " + e.err.Error() }
func (e *errNoSocket) Unwrap() error { return e.err }

// harnessListener is the listening end of the harness's socket.
type harnessListener struct {
	dir string
	ln  *net.UnixListener
}

// socketUsable says whether the engine runs on this machine's kernel (it is
// reached over a local Unix socket), so that a host directory bound into a
// container holds a socket both sides can use.
func (s *Sandbox) socketUsable() bool {
	return !s.noSocket.Load() && strings.HasPrefix(s.api.DaemonHost(), "unix://")
}

// listenHarness creates the socket the container's harness connects to, in
// a new directory that only the container's user can enter.
func (s *Sandbox) listenHarness() (*harnessListener, error) {
	uid, gid, err := parseUser(s.opts.User)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "reconstruct-harness-")
	if err != nil {
		return nil, fmt.Errorf("harness socket: %w", err)
	}
	hl := &harnessListener{dir: dir}
	if os.Geteuid() == 0 {
		// The container runs as another uid, which must enter the
		// directory and write to the socket; no one else may.
		if err := os.Chown(dir, uid, gid); err != nil {
			hl.close()
			return nil, fmt.Errorf("harness socket: %w", err)
		}
	}
	path := filepath.Join(dir, socketName)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		hl.close()
		return nil, fmt.Errorf("harness socket: %w", err)
	}
	hl.ln = ln
	// Closing the listener must not unlink the path behind close's back
	// (close removes the whole directory).
	ln.SetUnlinkOnClose(false)
	if os.Geteuid() == 0 {
		if err := os.Chown(path, uid, gid); err != nil {
			hl.close()
			return nil, fmt.Errorf("harness socket: %w", err)
		}
	}
	if err := os.Chmod(path, 0o600); err != nil {
		hl.close()
		return nil, fmt.Errorf("harness socket: %w", err)
	}
	return hl, nil
}

// close stops listening and removes the directory: nothing can connect
// any more.
func (hl *harnessListener) close() {
	if hl.ln != nil {
		hl.ln.Close()
	}
	os.RemoveAll(hl.dir)
}

// accept waits for the harness's connection until ctx ends or exited is
// closed (the container stopped), then stops listening. The connection is
// taken only from pid, the container's PID 1 as this process sees it: a
// connection from any other process (one on the host that raced to
// connect first) is refused — closed at once and logged — and the
// harness's own is still awaited.
func (hl *harnessListener) accept(ctx context.Context, pid int, exited <-chan struct{}, log *zap.Logger) (*net.UnixConn, error) {
	defer hl.close()
	type result struct {
		conn *net.UnixConn
		err  error
	}
	got := make(chan result, 1)
	next := func() {
		go func() {
			conn, err := hl.ln.AcceptUnix()
			got <- result{conn, err}
		}()
	}
	// abandon stops the accept and closes a connection that came in
	// meanwhile.
	abandon := func(err error) (*net.UnixConn, error) {
		hl.ln.SetDeadline(time.Now())
		if r := <-got; r.err == nil {
			r.conn.Close()
		}
		return nil, &errNoSocket{err}
	}
	for next(); ; next() {
		var r result
		select {
		case r = <-got:
		case <-ctx.Done():
			return abandon(fmt.Errorf("the harness did not connect: %w", ctx.Err()))
		case <-exited:
			return abandon(errors.New("the harness exited without connecting"))
		}
		if r.err != nil {
			return nil, &errNoSocket{r.err}
		}
		peer, err := peerPID(r.conn)
		if err != nil {
			r.conn.Close()
			return nil, &errNoSocket{err}
		}
		if peer == pid {
			return r.conn, nil
		}
		r.conn.Close()
		log.Warn("the harness socket refused a connection that did not come from the container's harness",
			zap.Int("peer_pid", peer), zap.Int("harness_pid", pid), zap.String("socket", hl.dir))
	}
}

// socketWriter is the request side of the harness's socket; Close
// half-closes it, which ends the harness's input (it then exits).
type socketWriter struct{ conn *net.UnixConn }

func (w socketWriter) Write(p []byte) (int, error) { return w.conn.Write(p) }
func (w socketWriter) Close() error                { return w.conn.CloseWrite() }
