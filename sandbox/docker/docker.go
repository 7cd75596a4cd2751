package docker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/docker/docker/api/types"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/client"
	"github.com/docker/docker/pkg/stdcopy"
	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/sandbox"
)

// Defaults for Options.
const (
	DefaultMemory   = 1 << 30             // bytes of memory (and memory+swap) per container
	DefaultCPUs     = sandbox.DefaultCPUs // CPUs per container
	DefaultPids     = 128                 // processes per container
	DefaultTmpBytes = 64 << 20            // size of the /tmp tmpfs
	// uidBase and uidSpan: when reconstruct runs as root, each container
	// runs as a random uid (and gid) in [uidBase, uidBase+uidSpan), so that
	// no two containers share a uid: RLIMIT_NPROC, which the kernel counts
	// per uid across the host, then counts one container's processes only.
	uidBase = 1 << 24
	uidSpan = 1 << 24
	// startTimeout bounds a container's start until the harness answers.
	startTimeout = 30 * time.Second
	// removeTimeout bounds the removal of a container on Close.
	removeTimeout = 30 * time.Second
)

// Labels set on every container, so that `reconstruct sandbox prune` finds
// the ones a crashed process left behind.
const (
	LabelRunID = "reconstruct.run-id"
	LabelRole  = "reconstruct.role"
)

// Role is the isolation domain a container serves.
type Role string

// Roles of a run's containers.
const (
	// RoleAgent runs candidates and the agent's tools; it sees the
	// workspace read-write.
	RoleAgent Role = "agent"
	// RoleOracle runs the hidden program; it sees the program's directory
	// read-only and no workspace.
	RoleOracle Role = "oracle"
)

// Options configure a Sandbox.
type Options struct {
	// Image is the runner image (see BuildImage); required.
	Image string
	// RunID labels the container (reconstruct.run-id); required.
	RunID string
	// Role is RoleAgent or RoleOracle.
	Role Role
	// Mounts are bound into the container: WorkspaceMount for the agent,
	// ProgramMount for the oracle.
	Mounts []Mount
	// Limits fill the zero fields of each request's limits.
	Limits sandbox.Limits
	// Memory is the container's memory limit in bytes (no swap); default
	// DefaultMemory.
	Memory int64
	// CPUs is the container's CPU quota; default DefaultCPUs.
	CPUs float64
	// Pids caps the container's processes; default DefaultPids.
	Pids int64
	// TmpBytes is the size of the /tmp tmpfs; default DefaultTmpBytes.
	TmpBytes int64
	// User is "uid:gid" in the container; default the host user when it is
	// not root (so that files it writes in the workspace are the user's),
	// else a random uid and gid of its own, never 0.
	User string
	// API is the engine client; default NewClient().
	API client.APIClient
	Log *zap.Logger

	// listening, when set (tests), is called with the harness socket's
	// path once it listens, before the container starts.
	listening func(path string)
}

func (o Options) withDefaults() (Options, error) {
	if o.Image == "" {
		return o, errors.New("docker sandbox: no image")
	}
	if o.RunID == "" {
		return o, errors.New("docker sandbox: no run id")
	}
	if o.Role != RoleAgent && o.Role != RoleOracle {
		return o, fmt.Errorf("docker sandbox: role %q is neither %q nor %q", o.Role, RoleAgent, RoleOracle)
	}
	if o.Memory <= 0 {
		o.Memory = DefaultMemory
	}
	if o.CPUs <= 0 {
		o.CPUs = DefaultCPUs
	}
	if o.Pids <= 0 {
		o.Pids = DefaultPids
	}
	if o.TmpBytes <= 0 {
		o.TmpBytes = DefaultTmpBytes
	}
	if o.User == "" {
		if uid := os.Getuid(); uid != 0 {
			o.User = fmt.Sprintf("%d:%d", uid, os.Getgid())
		} else {
			id := randomUID()
			o.User = fmt.Sprintf("%d:%d", id, id)
		}
	}
	if uid, _, err := parseUser(o.User); err != nil {
		return o, err
	} else if uid == 0 {
		return o, errors.New("docker sandbox: user 0 (root) is not allowed")
	}
	if o.Log == nil {
		o.Log = zap.NewNop()
	}
	return o, nil
}

// Sandbox runs untrusted Python in a Docker container: the resident
// harness is the container's main process, attached over stdin and stdout,
// so an evaluation is a message to it. If the harness dies (a candidate
// killed it, the container ran out of memory) the container is replaced.
// A Sandbox is safe for concurrent use.
type Sandbox struct {
	opts   Options
	api    client.APIClient
	mounts []resolved
	groups []string // supplementary groups of the container user
	log    *zap.Logger
	stop   func() bool // unregisters the ctx watch of New

	mu     sync.Mutex
	inst   *instance // nil until started, and after the harness died
	closed bool
	// starting serialises container starts, so that concurrent callers
	// finding no instance start only one.
	starting sync.Mutex
	// exclusive keeps Exec apart from harness requests (which hold it
	// shared): after each request the harness kills every process in the
	// container but itself, which would kill a running Exec.
	exclusive sync.RWMutex
	// noSocket is set once a harness could not use its socket (see
	// socket.go): the next containers use the attach stream.
	noSocket atomic.Bool
}

var (
	_ sandbox.Sandbox  = (*Sandbox)(nil)
	_ sandbox.Executor = (*Sandbox)(nil)
)

// New starts the container and waits until its harness answers. The
// sandbox lives until Close or until ctx is cancelled, whichever comes
// first; either removes the container.
func New(ctx context.Context, opts Options) (*Sandbox, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	mounts, err := resolveMounts(opts.Mounts)
	if err != nil {
		return nil, fmt.Errorf("docker sandbox: %w", err)
	}
	api := opts.API
	if api == nil {
		c, err := NewClient()
		if err != nil {
			return nil, err
		}
		api = c
	}
	s := &Sandbox{
		opts:   opts,
		api:    api,
		mounts: mounts,
		log:    opts.Log.With(zap.String("backend", "docker"), zap.String("role", string(opts.Role)), zap.String("run_id", opts.RunID)),
	}
	if err := s.prepareMounts(); err != nil {
		return nil, err
	}
	if _, err := s.instance(ctx); err != nil {
		return nil, err
	}
	s.stop = context.AfterFunc(ctx, func() {
		if err := s.Close(); err != nil {
			s.log.Warn("remove container after cancellation", zap.Error(err))
		}
	})
	return s, nil
}

// prepareMounts makes the mounts usable by the container's user. A
// read-write mount's top directory is handed to that user when reconstruct
// runs as root (files already there stay root's: readable, and replaceable
// since the directory is the user's). A read-only mount must be readable by
// it: when only its group may read it, that group is added to the
// container user's groups; when nobody but its owner may, New fails with a
// message saying so, rather than every call failing to load.
func (s *Sandbox) prepareMounts() error {
	uid, gid, err := parseUser(s.opts.User)
	if err != nil {
		return err
	}
	for _, m := range s.mounts {
		if m.Scratch > 0 {
			continue
		}
		fi, err := os.Stat(m.Source)
		if err != nil {
			return fmt.Errorf("docker sandbox: %w", err)
		}
		if !m.ReadOnly {
			if os.Geteuid() == 0 {
				if err := os.Chown(m.Source, uid, gid); err != nil {
					return fmt.Errorf("docker sandbox: give %s to the container user %s: %w", m.Source, s.opts.User, err)
				}
			}
			continue
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			continue
		}
		perm := fi.Mode().Perm()
		switch {
		case int(st.Uid) == uid && perm&0o500 == 0o500, perm&0o005 == 0o005:
		case perm&0o050 == 0o050 && st.Gid != 0:
			s.groups = append(s.groups, strconv.Itoa(int(st.Gid)))
		default:
			return fmt.Errorf("docker sandbox: the %s container runs as %s and cannot read %s (mode %v, owner %d:%d): make it readable (chmod -R o+rX %s)", s.opts.Role, s.opts.User, m.Source, perm, st.Uid, st.Gid, m.Source)
		}
	}
	return nil
}

func randomUID() int {
	var b [4]byte
	rand.Read(b[:])
	return uidBase + int(uint32(b[0])|uint32(b[1])<<8|uint32(b[2])<<16)%uidSpan
}

func parseUser(user string) (uid, gid int, err error) {
	u, g, _ := strings.Cut(user, ":")
	if uid, err = strconv.Atoi(u); err != nil {
		return 0, 0, fmt.Errorf("docker sandbox: user %q is not uid:gid", user)
	}
	gid = uid
	if g != "" {
		if gid, err = strconv.Atoi(g); err != nil {
			return 0, 0, fmt.Errorf("docker sandbox: user %q is not uid:gid", user)
		}
	}
	return uid, gid, nil
}

// workdir is the working directory of the harness and of Exec: the
// workspace, or the hidden program's directory (a command oracle's relative
// paths resolve there, as on the host).
func (s *Sandbox) workdir() string {
	for _, m := range s.mounts {
		if (!m.ReadOnly && m.Target == WorkspaceDir) || (m.ReadOnly && m.Target == ProgramDir) {
			return m.Target
		}
	}
	return "/tmp"
}

// ErrClosed is returned by calls on a closed Sandbox.
var ErrClosed = errors.New("docker sandbox is closed")

// instance returns the running container, starting one when there is none.
func (s *Sandbox) instance(ctx context.Context) (*instance, error) {
	s.mu.Lock()
	inst, closed := s.inst, s.closed
	s.mu.Unlock()
	if closed {
		return nil, ErrClosed
	}
	if inst != nil && !inst.dead() {
		return inst, nil
	}
	s.starting.Lock()
	defer s.starting.Unlock()
	s.mu.Lock()
	inst, closed = s.inst, s.closed
	s.mu.Unlock()
	if closed {
		return nil, ErrClosed
	}
	if inst != nil && !inst.dead() {
		return inst, nil
	}
	if inst != nil {
		s.retire(inst)
	}
	inst, err := s.start(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		// Close ran while we were starting.
		go inst.remove(s.api, s.log)
		return nil, ErrClosed
	}
	s.inst = inst
	return inst, nil
}

// retire drops inst (if it is still current), removes its container and
// returns why its harness stopped.
func (s *Sandbox) retire(inst *instance) string {
	s.mu.Lock()
	if s.inst == inst {
		s.inst = nil
	}
	s.mu.Unlock()
	reason := inst.exitReason(s.api)
	s.log.Warn("harness died; the container is replaced", zap.String("container", shortID(inst.id)), zap.String("reason", reason))
	inst.remove(s.api, s.log)
	return reason
}

// containerConfig is the hardened configuration of the container; sockDir,
// when not empty, is the host directory of the harness's socket.
func (s *Sandbox) containerConfig(sockDir string) (*container.Config, *container.HostConfig) {
	cmd := harnessCmd()
	if sockDir != "" {
		cmd = append(cmd, "--connect", socketDir+"/"+socketName)
	}
	cfg := &container.Config{
		Image:           s.opts.Image,
		User:            s.opts.User,
		Cmd:             cmd,
		WorkingDir:      s.workdir(),
		Env:             []string{"HOME=/tmp", "LANG=C.UTF-8", "PYTHONDONTWRITEBYTECODE=1"},
		AttachStdin:     true,
		AttachStdout:    true,
		AttachStderr:    true,
		OpenStdin:       true,
		StdinOnce:       true, // stdin closes when we detach: the harness exits
		NetworkDisabled: true,
		Labels: map[string]string{
			LabelRunID: s.opts.RunID,
			LabelRole:  string(s.opts.Role),
		},
	}
	pids := s.opts.Pids
	noInit := false
	host := &container.HostConfig{
		NetworkMode:    "none",
		CapDrop:        []string{"ALL"},
		SecurityOpt:    []string{"no-new-privileges"},
		ReadonlyRootfs: true,
		// The harness is PID 1: the kernel ignores the signals a call sends
		// it (it installs no handlers), so a candidate cannot kill its
		// parent; and after each request it kills every other process in
		// the container (kill -1), so nothing a call started outlives it.
		Init:     &noInit,
		IpcMode:  "private",
		GroupAdd: s.groups,
		Tmpfs: map[string]string{
			"/tmp": fmt.Sprintf("rw,nosuid,nodev,noexec,size=%d,mode=1777", s.opts.TmpBytes),
		},
		// The harness's output is read over the attach stream; a log
		// driver would keep a second copy (possibly 100 MB) on disk.
		LogConfig: container.LogConfig{Type: "none"},
		Resources: container.Resources{
			Memory:     s.opts.Memory,
			MemorySwap: s.opts.Memory,
			NanoCPUs:   int64(s.opts.CPUs * 1e9),
			PidsLimit:  &pids,
			Ulimits: []*container.Ulimit{
				{Name: "core", Soft: 0, Hard: 0},
				{Name: "nofile", Soft: 1024, Hard: 1024},
			},
		},
	}
	if sockDir != "" {
		host.Mounts = append(host.Mounts, mount.Mount{
			Type: mount.TypeBind, Source: sockDir, Target: socketDir, ReadOnly: true,
			BindOptions: &mount.BindOptions{Propagation: mount.PropagationRPrivate},
		})
	}
	for _, m := range s.mounts {
		if m.Scratch > 0 {
			host.Tmpfs[m.Target] = fmt.Sprintf("rw,nosuid,nodev,size=%d,mode=1777", m.Scratch)
			continue
		}
		host.Mounts = append(host.Mounts, mount.Mount{
			Type: mount.TypeBind, Source: m.Source, Target: m.Target, ReadOnly: m.ReadOnly,
			BindOptions: &mount.BindOptions{Propagation: mount.PropagationRPrivate},
		})
		for _, h := range m.hide {
			host.Mounts = append(host.Mounts, mount.Mount{Type: mount.TypeBind, Source: os.DevNull, Target: h, ReadOnly: true})
		}
	}
	return cfg, host
}

// start creates, attaches and starts a container and waits for its
// harness: over a Unix socket when the engine allows it (see socket.go),
// else, or when the harness could not use the socket, over the attach
// stream.
func (s *Sandbox) start(ctx context.Context) (*instance, error) {
	if s.socketUsable() {
		inst, err := s.startWith(ctx, true)
		var noSocket *errNoSocket
		if !errors.As(err, &noSocket) {
			return inst, err
		}
		s.noSocket.Store(true)
		s.log.Warn("the harness cannot use a Unix socket: its protocol runs over the engine's attach stream, which is slower", zap.Error(err))
	}
	return s.startWith(ctx, false)
}

// startWith is start over the socket (sock) or the attach stream.
func (s *Sandbox) startWith(ctx context.Context, sock bool) (_ *instance, err error) {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	var hl *harnessListener
	sockDir := ""
	if sock {
		if hl, err = s.listenHarness(); err != nil {
			return nil, &errNoSocket{err}
		}
		defer hl.close()
		sockDir = hl.dir
		if s.opts.listening != nil {
			s.opts.listening(filepath.Join(hl.dir, socketName))
		}
	}
	cfg, host := s.containerConfig(sockDir)
	name := containerName(s.opts.RunID, s.opts.Role)
	// The steps' durations are logged: a start is most of a short run's
	// set-up, and which step is slow depends on the engine and the load.
	began := time.Now()
	created, err := s.api.ContainerCreate(ctx, cfg, host, nil, nil, name)
	if err != nil {
		return nil, fmt.Errorf("docker sandbox: create container from %s: %w", s.opts.Image, err)
	}
	// Not the named result: a failed start returns a nil instance, and
	// this one must still be removed.
	inst := &instance{id: created.ID, stderr: &tailBuffer{max: 4 << 10}}
	defer func() {
		if err != nil {
			inst.remove(s.api, s.log)
		}
	}()
	// The attach connection outlives this call: it must not be tied to a
	// context that ends when start returns.
	conn, err := s.api.ContainerAttach(context.WithoutCancel(ctx), created.ID, container.AttachOptions{Stream: true, Stdin: true, Stdout: true, Stderr: true})
	if err != nil {
		return nil, fmt.Errorf("docker sandbox: attach to container %s: %w", shortID(created.ID), err)
	}
	inst.conn = conn
	attached := time.Now()
	if err := s.api.ContainerStart(ctx, created.ID, container.StartOptions{}); err != nil {
		return nil, fmt.Errorf("docker sandbox: start container %s: %w", shortID(created.ID), err)
	}
	// The attach stream multiplexes stdout and stderr (no TTY): stdout is
	// the protocol unless the harness has a socket, stderr the harness's
	// diagnostics.
	pr, pw := io.Pipe()
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		var stdout io.Writer = pw
		if sock {
			stdout = io.Discard
		}
		_, err := stdcopy.StdCopy(stdout, inst.stderr, conn.Reader)
		if err == nil {
			err = io.EOF
		}
		pw.CloseWithError(err)
	}()
	log := s.log.With(zap.String("container", shortID(created.ID)))
	started := time.Now()
	if sock {
		info, err := s.api.ContainerInspect(ctx, created.ID)
		if err == nil && (info.State == nil || info.State.Pid == 0) {
			// Most likely the harness exited at once, unable to connect.
			err = errors.New("the container has no running process")
		}
		if err != nil {
			return nil, fmt.Errorf("docker sandbox: the harness's pid in container %s: %w%s", shortID(created.ID), &errNoSocket{fmt.Errorf("inspect: %w", err)}, inst.stderr.suffix())
		}
		uc, err := hl.accept(ctx, info.State.Pid, exited, log)
		if err != nil {
			return nil, fmt.Errorf("docker sandbox: container %s: %w%s", shortID(created.ID), err, inst.stderr.suffix())
		}
		inst.sock = uc
		inst.h = sandbox.NewClient(uc, socketWriter{uc}, log)
	} else {
		inst.h = sandbox.NewClient(pr, &stdinWriter{conn: conn}, log)
	}
	version, err := inst.h.Ping(ctx)
	if err != nil {
		return nil, fmt.Errorf("docker sandbox: harness in container %s does not answer: %w%s", shortID(created.ID), err, inst.stderr.suffix())
	}
	if version != sandbox.HarnessVersion {
		return nil, fmt.Errorf("docker sandbox: image %s runs harness version %q, this binary speaks %q: run `reconstruct sandbox build-image`", s.opts.Image, version, sandbox.HarnessVersion)
	}
	log.Debug("container started", zap.String("image", s.opts.Image), zap.Duration("create_attach", attached.Sub(began)),
		zap.Duration("start", started.Sub(attached)), zap.Duration("harness", time.Since(started)))
	return inst, nil
}

func containerName(runID string, role Role) string {
	var b [4]byte
	rand.Read(b[:])
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '-'
	}, runID)
	if len(clean) > 40 {
		clean = clean[:40]
	}
	return fmt.Sprintf("reconstruct-%s-%s-%s", clean, role, hex.EncodeToString(b[:]))
}

// attempt runs f once on the current container's harness. If the harness
// is lost during the request (it died, missed its deadline, or another
// request abandoned it), its container is removed, so that the next attempt
// starts a fresh one, and the error is a *sandbox.LostError.
func (s *Sandbox) attempt(ctx context.Context, what string, f func(*sandbox.Client) error) error {
	inst, err := s.instance(ctx)
	if err != nil {
		return err
	}
	s.exclusive.RLock()
	err = f(inst.h)
	s.exclusive.RUnlock()
	switch {
	case err == nil:
		return nil
	case !inst.broken(err) || ctx.Err() != nil:
		return fmt.Errorf("docker sandbox: %s: %w", what, err)
	}
	return fmt.Errorf("docker sandbox: %s: %w", what, &sandbox.LostError{Reason: s.retire(inst), Err: err})
}

// prepare gives a request's program its path in the container and fills
// its limits from the sandbox's.
func (s *Sandbox) prepare(p *sandbox.Program, l *sandbox.Limits) error {
	prog, err := s.translate(*p)
	if err != nil {
		return err
	}
	*p, *l = prog, l.WithDefaultsFrom(s.opts.Limits)
	return nil
}

// Call runs the program once per input in the container. Program.Path is a
// host path under one of the mounts (or already a container path). A call
// that kills the harness is that input's StatusCrashed outcome, and the
// other inputs are run again in a fresh container (sandbox.CallIsolating).
func (s *Sandbox) Call(ctx context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error) {
	if err := s.prepare(&req.Program, &req.Limits); err != nil {
		return nil, err
	}
	return sandbox.CallIsolating(ctx, req, s.attempt)
}

// Analyse runs the static analysis in the container.
func (s *Sandbox) Analyse(ctx context.Context, req sandbox.AnalyseRequest) (sandbox.Analysis, error) {
	return sandbox.AnalyseRetrying(ctx, req, s.attempt)
}

// Generate runs a generator program in the container.
func (s *Sandbox) Generate(ctx context.Context, req sandbox.GenerateRequest) ([]json.RawMessage, error) {
	if err := s.prepare(&req.Program, &req.Limits); err != nil {
		return nil, err
	}
	return sandbox.GenerateRetrying(ctx, req, s.attempt)
}

// Close removes the container. It is safe to call more than once.
func (s *Sandbox) Close() error {
	if s.stop != nil {
		s.stop()
	}
	s.mu.Lock()
	inst := s.inst
	s.inst, s.closed = nil, true
	s.mu.Unlock()
	if inst == nil {
		return nil
	}
	return inst.remove(s.api, s.log)
}

// ContainerID is the ID of the current container ("" when none runs).
func (s *Sandbox) ContainerID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inst == nil {
		return ""
	}
	return s.inst.id
}

func (s *Sandbox) translate(p sandbox.Program) (sandbox.Program, error) {
	if p.Path == "" {
		return p, nil
	}
	cp, err := containerPath(s.mounts, p.Path)
	if err != nil {
		return p, fmt.Errorf("docker sandbox: %w", err)
	}
	p.Path = cp
	return p, nil
}

// instance is one container and its attached harness.
type instance struct {
	id   string
	conn types.HijackedResponse
	// sock is the harness's socket (nil when the protocol runs over conn).
	sock   *net.UnixConn
	h      *sandbox.Client
	stderr *tailBuffer

	removeOnce sync.Once
	removeErr  error
}

// dead reports whether the harness can no longer be used: it exited, or a
// request was cancelled or overran its deadline while the harness worked
// on it (its state is then unknown).
func (i *instance) dead() bool { return i.h.Err() != nil }

// broken reports whether err, returned by a request, means the harness is
// gone (rather than a request it refused while staying healthy).
func (i *instance) broken(err error) bool {
	var remote *sandbox.RemoteError
	if errors.As(err, &remote) {
		return false
	}
	return i.dead()
}

// exitReason describes how the container's harness stopped.
func (i *instance) exitReason(api client.APIClient) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var parts []string
	if err := i.h.Err(); err != nil && !errors.Is(err, sandbox.ErrHarnessExited) {
		// Abandoned (cancelled or overran its deadline), not dead: the
		// container still runs and is removed below.
		return err.Error()
	}
	// The container may take a moment to be marked as exited.
	for range 20 {
		info, err := api.ContainerInspect(ctx, i.id)
		if err != nil || info.State == nil {
			break
		}
		if !info.State.Running {
			parts = append(parts, fmt.Sprintf("exit code %d", info.State.ExitCode))
			if info.State.OOMKilled {
				parts = append(parts, "out of memory")
			}
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(parts) == 0 {
		parts = append(parts, "its output stream ended")
	}
	return "harness exited: " + strings.Join(parts, ", ") + i.stderr.suffix()
}

// remove detaches from and force-removes the container.
func (i *instance) remove(api client.APIClient, log *zap.Logger) error {
	i.removeOnce.Do(func() {
		if i.h != nil {
			i.h.Close()
		}
		if i.conn.Conn != nil {
			i.conn.Close()
		}
		if i.sock != nil {
			i.sock.Close()
		}
		ctx, cancel := context.WithTimeout(context.Background(), removeTimeout)
		defer cancel()
		began := time.Now()
		err := api.ContainerRemove(ctx, i.id, container.RemoveOptions{Force: true, RemoveVolumes: true})
		if err != nil && !client.IsErrNotFound(err) {
			i.removeErr = fmt.Errorf("docker sandbox: remove container %s: %w", shortID(i.id), err)
			return
		}
		log.Debug("container removed", zap.String("container", shortID(i.id)), zap.Duration("took", time.Since(began)))
	})
	return i.removeErr
}

// stdinWriter writes to the container's stdin over the attach connection;
// Close half-closes it, which ends the harness's input.
type stdinWriter struct {
	conn types.HijackedResponse
}

func (w *stdinWriter) Write(p []byte) (int, error) { return w.conn.Conn.Write(p) }
func (w *stdinWriter) Close() error                { return w.conn.CloseWrite() }

// tailBuffer keeps the last max bytes written to it (the harness's stderr,
// quoted in error messages).
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// suffix is ": <last stderr line>" or "" when the harness wrote nothing.
func (t *tailBuffer) suffix() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	if s == "" {
		return ""
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return ": " + s
}
