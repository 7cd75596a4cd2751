package process

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/sandbox"
)

// Defaults for Options.
const (
	DefaultPython = "python3"
	// DefaultExecTimeout bounds an Exec whose request has no timeout.
	DefaultExecTimeout = 60 * time.Second
	// startDeadline bounds the harness's start and first ping.
	startDeadline = 60 * time.Second
	// uidBase and uidSpan: when the sandbox runs as root and Options.UID is
	// 0, untrusted code runs as a random uid in [uidBase, uidBase+uidSpan),
	// one per Sandbox, so that sandboxes cannot signal each other's
	// processes and RLIMIT_NPROC counts only this sandbox's processes.
	uidBase = 1 << 24
	uidSpan = 1 << 24
)

// ErrClosed is returned by a Sandbox used after Close.
var ErrClosed = errors.New("process sandbox closed")

// Options configure a Sandbox.
type Options struct {
	// Dir is the working directory of the harness and of Exec: the agent's
	// workspace, or the hidden program's directory for an oracle. It is the
	// only directory of the host besides the system ones that sandboxed
	// code sees (read-only; writable for Exec). Default: no host directory
	// at all; sandboxed code works in ScratchDir, an empty directory of its
	// private root (in / when the kernel refuses namespaces).
	Dir string
	// Hide lists files of Dir (relative paths) that sandboxed code must not
	// read: each is covered by an empty file (the task's held-out tests in
	// the oracle's directory).
	Hide []string
	// Python is the interpreter (a name looked up in PATH, or a path).
	// Default DefaultPython.
	Python string
	// Limits are the defaults for requests whose Limits leave fields zero.
	Limits sandbox.Limits
	// Network, when true, keeps the host's network. Default false: the
	// sandbox gets a new network namespace with no usable interface.
	Network bool
	// UID is the user (and group) id untrusted code runs as when the
	// orchestrator runs as root; 0 picks a random unused id per Sandbox.
	// Ignored when not root (the code runs as the caller, inside a user
	// namespace when the kernel allows one).
	UID int
	// Log receives warnings (missing isolation, harness restarts).
	Log *zap.Logger
}

// Isolation says which protections a Sandbox obtained from the kernel.
type Isolation struct {
	// Namespaces: the harness runs in new PID and mount namespaces (and a
	// network namespace unless Options.Network).
	Namespaces bool `json:"namespaces"`
	// NoNetwork: the harness and Exec run in a network namespace of their own.
	NoNetwork bool `json:"no_network"`
	// ReadOnly: untrusted code sees the whole filesystem read-only.
	ReadOnly bool `json:"read_only"`
	// PrivateRoot: untrusted code sees only the system directories and
	// Dir, not the rest of the host's files (homes, /tmp, /var, /run, /sys).
	PrivateRoot bool `json:"private_root"`
	// UID is the uid untrusted code runs as; 0 when it runs as the caller.
	UID int `json:"uid"`
}

// Sandbox is the process sandbox: one resident harness process running
// untrusted Python for one directory. It restarts the harness when it dies.
// Requests are serialized (the harness runs one at a time).
type Sandbox struct {
	opts   Options
	log    *zap.Logger
	python string
	// dir is Options.Dir made absolute; "" for a scratch sandbox.
	dir    string
	uid    int
	hostNS string
	attr   func(network bool) *syscall.SysProcAttr

	mu       sync.Mutex
	h        *harness
	closed   bool
	isolated bool // namespaces work; decided by the first start
	tried    bool
}

var (
	_ sandbox.Sandbox  = (*Sandbox)(nil)
	_ sandbox.Executor = (*Sandbox)(nil)
)

type harness struct {
	cmd    *exec.Cmd
	client *sandbox.Client
	exited chan struct{}
	pidns  bool
	info   sandbox.HarnessInfo
}

// New starts a process sandbox and waits until its harness answers.
func New(ctx context.Context, opts Options) (*Sandbox, error) {
	return open(ctx, opts, isolatedAttr)
}

// open is New with the namespace attributes as a parameter (tests make the
// kernel "refuse" them).
func open(ctx context.Context, opts Options, attr func(network bool) *syscall.SysProcAttr) (*Sandbox, error) {
	log := opts.Log
	if log == nil {
		log = zap.NewNop()
	}
	for _, h := range opts.Hide {
		if rel := filepath.Clean(h); filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") {
			return nil, fmt.Errorf("process sandbox: hidden file %q is not under the sandbox's directory", h)
		}
	}
	dir := ""
	if opts.Dir != "" {
		var err error
		if dir, err = filepath.Abs(opts.Dir); err != nil {
			return nil, fmt.Errorf("process sandbox: directory %q: %w", opts.Dir, err)
		}
		if fi, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("process sandbox: directory: %w", err)
		} else if !fi.IsDir() {
			return nil, fmt.Errorf("process sandbox: %s is not a directory", dir)
		}
	}
	python := opts.Python
	if python == "" {
		python = DefaultPython
	}
	resolved, err := resolvePython(ctx, python)
	if err != nil {
		return nil, fmt.Errorf("process sandbox: python %q: %w", python, err)
	}
	s := &Sandbox{
		attr:   attr,
		opts:   opts,
		log:    log.With(zap.String("sandbox", "process"), zap.String("dir", dir)),
		python: resolved,
		dir:    dir,
		hostNS: mountNamespace(),
	}
	if os.Geteuid() == 0 {
		s.uid = opts.UID
		if s.uid <= 0 {
			s.uid = randomUID()
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.ensure(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

func randomUID() int {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return uidBase
	}
	return uidBase + int(binary.LittleEndian.Uint32(b[:])%uidSpan)
}

// resolvePython finds the interpreter. A launcher script (a pyenv shim, say)
// is resolved to the interpreter it runs, once, with the caller's
// environment: the sandbox runs with a minimal environment in which such
// launchers may not work, and starting them costs more than Python itself.
func resolvePython(ctx context.Context, python string) (string, error) {
	path, err := exec.LookPath(python)
	if err != nil {
		return "", err
	}
	path, err = filepath.Abs(path)
	if err != nil {
		return "", err
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	head := make([]byte, 2)
	_, rerr := io.ReadFull(f, head)
	f.Close()
	if rerr != nil || string(head) != "#!" {
		return path, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "-I", "-c", "import sys; sys.stdout.write(sys.executable)").Output()
	if err != nil {
		return "", fmt.Errorf("resolve launcher %s: %w", path, err)
	}
	real := strings.TrimSpace(string(out))
	if real == "" {
		return path, nil
	}
	return real, nil
}

// Isolation reports the protections in force.
func (s *Sandbox) Isolation() Isolation {
	s.mu.Lock()
	defer s.mu.Unlock()
	iso := Isolation{Namespaces: s.isolated, NoNetwork: s.isolated && !s.opts.Network}
	if s.h != nil {
		iso.ReadOnly = s.h.info.ReadOnly
		iso.PrivateRoot = s.h.info.PrivateRoot
		if s.h.info.UID != nil {
			iso.UID = *s.h.info.UID
		}
	}
	return iso
}

// Python is the interpreter the sandbox runs.
func (s *Sandbox) Python() string { return s.python }

// env is the whole environment of sandboxed processes: nothing of the
// caller's (API keys) leaks in. The harness's private /dev/shm is the only
// place its children can write; Exec has a private /tmp as well.
func (s *Sandbox) env(harness bool) []string {
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	env := []string{"PATH=" + path, "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "HOME=" + s.workdir()}
	if harness {
		return append(env, "TMPDIR=/dev/shm")
	}
	return append(env, "TMPDIR=/tmp")
}

// ScratchDir is where sandboxed code works in a sandbox without a
// directory: an empty, read-only directory of its private root (the
// agent's shell works in its private /tmp instead).
const ScratchDir = "/workspace"

// hostDir is the working directory the harness starts in.
func (s *Sandbox) hostDir() string {
	if s.dir == "" {
		return "/"
	}
	return s.dir
}

// workdir is the working directory of sandboxed code.
func (s *Sandbox) workdir() string {
	if s.dir == "" {
		return ScratchDir
	}
	return s.dir
}

// hardenArgs are the harness's flags that build its private root.
func (s *Sandbox) hardenArgs() []string {
	args := []string{"--harden", s.hostNS}
	if s.dir == "" {
		return append(args, "--scratch", ScratchDir)
	}
	for _, h := range s.opts.Hide {
		args = append(args, "--hide", filepath.Clean(h))
	}
	return args
}

// ensure returns a running harness, starting one if needed. Caller holds mu.
func (s *Sandbox) ensure(ctx context.Context) (*harness, error) {
	if s.closed {
		return nil, ErrClosed
	}
	if s.h != nil && s.h.client.Err() == nil {
		return s.h, nil
	}
	if s.h != nil {
		s.h.stop()
		s.h = nil
	}
	h, err := s.start(ctx)
	if err != nil {
		return nil, err
	}
	s.h = h
	return h, nil
}

// errRefused marks a harness that could not be started at all with the
// namespaces: the kernel refused them.
type errRefused struct{ err error }

func (e *errRefused) Error() string { return e.err.Error() }
func (e *errRefused) Unwrap() error { return e.err }

func (s *Sandbox) start(ctx context.Context) (*harness, error) {
	if s.tried {
		return s.spawn(ctx, s.isolated)
	}
	h, err := s.spawn(ctx, true)
	var refused *errRefused
	if err == nil || !errors.As(err, &refused) {
		if err == nil {
			s.tried, s.isolated = true, true
		}
		return h, err
	}
	h, err = s.spawn(ctx, false)
	if err != nil {
		return nil, err
	}
	s.tried = true
	s.log.Warn("the kernel refused namespaces: the process sandbox runs WITHOUT network, PID and mount isolation", zap.Error(refused))
	return h, nil
}

func (s *Sandbox) spawn(ctx context.Context, isolated bool) (*harness, error) {
	args := []string{"-I", "-u", "-c", sandbox.Harness}
	if s.uid > 0 {
		args = append(args, "--uid", strconv.Itoa(s.uid), "--gid", strconv.Itoa(s.uid))
	}
	cmd := exec.Command(s.python, args...)
	cmd.Dir = s.hostDir()
	cmd.Env = s.env(true)
	if isolated {
		cmd.SysProcAttr = s.attr(s.opts.Network)
		if cmd.SysProcAttr == nil {
			return nil, &errRefused{errors.New("namespaces are not supported on this system")}
		}
		if s.hostNS != "" {
			cmd.Args = append(cmd.Args, s.hardenArgs()...)
		}
	} else {
		cmd.SysProcAttr = plainAttr()
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start harness: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start harness: %w", err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, fmt.Errorf("start harness: %w", err)
	}
	if err := cmd.Start(); err != nil {
		err = fmt.Errorf("start harness %s: %w", s.python, err)
		if isolated {
			return nil, &errRefused{err}
		}
		return nil, err
	}
	h := &harness{cmd: cmd, exited: make(chan struct{}), pidns: isolated}
	h.client = sandbox.NewClient(stdout, stdin, s.log)
	logDone := make(chan struct{})
	go func() {
		defer close(logDone)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 0, 4096), 64<<10)
		for sc.Scan() {
			line := sc.Text()
			if strings.Contains(line, "warning:") {
				s.log.Warn("harness", zap.String("stderr", line))
			} else {
				s.log.Info("harness", zap.String("stderr", line))
			}
		}
	}()
	go func() {
		<-logDone
		err := cmd.Wait()
		s.log.Debug("harness exited", zap.Error(err))
		close(h.exited)
	}()
	pctx, cancel := context.WithTimeout(ctx, startDeadline)
	defer cancel()
	info, err := h.client.Info(pctx)
	if err != nil {
		h.stop()
		return nil, fmt.Errorf("start harness: first ping: %w", err)
	}
	if info.Version != sandbox.HarnessVersion {
		h.stop()
		return nil, fmt.Errorf("start harness: version %q, want %q", info.Version, sandbox.HarnessVersion)
	}
	h.info = info
	return h, nil
}

// stop ends the harness and everything it started.
func (h *harness) stop() {
	h.client.Close()
	if !h.pidns {
		// Without a PID namespace, a closed stdin lets the server kill its
		// children before it exits.
		select {
		case <-h.exited:
			return
		case <-time.After(time.Second):
		}
	}
	if h.cmd.Process != nil {
		_ = h.cmd.Process.Kill()
		_ = syscall.Kill(-h.cmd.Process.Pid, syscall.SIGKILL)
	}
	<-h.exited
}

// attempt runs f once against a healthy harness. If the harness is lost
// during the request (it died, missed its deadline, or another request
// abandoned it), it is stopped, so that the next attempt starts a fresh one,
// and the error is a *sandbox.LostError; if the request was cancelled, the
// error is ctx's.
func (s *Sandbox) attempt(ctx context.Context, what string, f func(*sandbox.Client) error) error {
	s.mu.Lock()
	h, err := s.ensure(ctx)
	s.mu.Unlock()
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	err = f(h.client)
	if err == nil || h.client.Err() == nil {
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	}
	s.mu.Lock()
	if s.h == h {
		s.h = nil
	}
	s.mu.Unlock()
	h.stop()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	s.log.Warn("harness lost during a request; a fresh one replaces it", zap.String("request", what), zap.Error(err))
	return fmt.Errorf("%s: %w", what, &sandbox.LostError{Reason: err.Error(), Err: err})
}

// prepare fills a request's limits from the sandbox's and makes its
// program's relative path absolute from the caller's working directory
// (the harness runs in Dir, not there).
func (s *Sandbox) prepare(p *sandbox.Program, l *sandbox.Limits) error {
	*l = l.WithDefaultsFrom(s.opts.Limits)
	if p.Path == "" || filepath.IsAbs(p.Path) {
		return nil
	}
	abs, err := filepath.Abs(p.Path)
	if err != nil {
		return fmt.Errorf("program path %q: %w", p.Path, err)
	}
	p.Path = abs
	return nil
}

// Call runs the program once per input; see sandbox.Sandbox. A call that
// kills the harness is that input's StatusCrashed outcome
// (sandbox.CallIsolating).
func (s *Sandbox) Call(ctx context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error) {
	if err := s.prepare(&req.Program, &req.Limits); err != nil {
		return nil, fmt.Errorf("call: %w", err)
	}
	return sandbox.CallIsolating(ctx, req, s.attempt)
}

// Analyse computes a candidate's static analysis; see sandbox.Sandbox.
func (s *Sandbox) Analyse(ctx context.Context, req sandbox.AnalyseRequest) (sandbox.Analysis, error) {
	return sandbox.AnalyseRetrying(ctx, req, s.attempt)
}

// Generate asks a generator for fresh inputs; see sandbox.Sandbox.
func (s *Sandbox) Generate(ctx context.Context, req sandbox.GenerateRequest) ([]json.RawMessage, error) {
	if err := s.prepare(&req.Program, &req.Limits); err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	return sandbox.GenerateRetrying(ctx, req, s.attempt)
}

// Close stops the harness and every process it started.
func (s *Sandbox) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	if s.h != nil {
		s.h.stop()
		s.h = nil
	}
	return nil
}

// Exec runs a shell command in Dir; see sandbox.Executor. It runs as the
// caller's uid (so that it can write the workspace) with no capability, in
// new user, PID, mount and network namespaces when available, and sees
// what the harness sees: the system directories read-only and Dir, here
// writable, with a private /tmp; nothing else of the host. Every process it
// leaves behind is killed when the shell exits.
func (s *Sandbox) Exec(ctx context.Context, req sandbox.ExecRequest) (sandbox.ExecResult, error) {
	s.mu.Lock()
	closed, isolated := s.closed, s.isolated
	s.mu.Unlock()
	if closed {
		return sandbox.ExecResult{}, ErrClosed
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = DefaultExecTimeout
	}
	limit := req.OutputBytes
	if limit <= 0 {
		limit = sandbox.DefaultOutputBytes
	}
	out := sandbox.NewCappedOutput(limit)
	cmd := exec.Command("/bin/sh", "-c", req.Command)
	// ready is closed by the harness when the shell starts: the timeout is
	// the command's, not the sandbox's set-up.
	var ready *os.File
	if isolated && s.hostNS != "" {
		// The harness builds the private root, drops every capability
		// and execs the shell.
		r, w, err := os.Pipe()
		if err != nil {
			return sandbox.ExecResult{}, fmt.Errorf("exec %q: %w", req.Command, err)
		}
		defer r.Close()
		defer w.Close()
		ready = r
		cmd = exec.Command(s.python, append([]string{"-I", "-u", "-c", sandbox.Harness, "--ready", "3", "--shell", req.Command}, s.hardenArgs()...)...)
		cmd.ExtraFiles = []*os.File{w}
	}
	cmd.Dir = s.hostDir()
	cmd.Env = s.env(false)
	cmd.Stdout = out
	cmd.Stderr = out
	cmd.WaitDelay = time.Second
	if isolated {
		cmd.SysProcAttr = execAttr(s.opts.Network)
	} else {
		cmd.SysProcAttr = plainAttr()
	}
	if err := cmd.Start(); err != nil {
		return sandbox.ExecResult{}, fmt.Errorf("exec %q: %w", req.Command, err)
	}
	pid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	killAll := func() {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		_ = cmd.Process.Kill()
	}
	if ready != nil {
		cmd.ExtraFiles[0].Close()
		started := make(chan struct{})
		go func() {
			// A byte, or EOF if the harness failed before the shell.
			ready.Read(make([]byte, 1))
			close(started)
		}()
		select {
		case <-started:
		case <-time.After(startDeadline):
			killAll()
			<-done
			return sandbox.ExecResult{}, fmt.Errorf("exec %q: the sandbox did not start within %s", req.Command, startDeadline)
		case <-ctx.Done():
			killAll()
			<-done
			return sandbox.ExecResult{}, ctx.Err()
		}
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var res sandbox.ExecResult
	var waitErr error
	select {
	case waitErr = <-done:
	case <-timer.C:
		killAll()
		res.TimedOut = true
		waitErr = <-done
	case <-ctx.Done():
		killAll()
		<-done
		return sandbox.ExecResult{}, ctx.Err()
	}
	// Background jobs of the command share its process group (and, in a
	// PID namespace, died with the shell already).
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	res.Output, res.Truncated = out.Result()
	res.ExitCode = exitCode(cmd.ProcessState)
	if waitErr != nil && cmd.ProcessState == nil {
		return res, fmt.Errorf("exec %q: %w", req.Command, waitErr)
	}
	return res, nil
}

func exitCode(ps *os.ProcessState) int {
	if ps == nil {
		return -1
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
