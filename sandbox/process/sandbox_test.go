package process

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap/zaptest"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/sandbox/sandboxtest"
)

func newSandbox(t *testing.T, opts Options) *Sandbox {
	t.Helper()
	testenv.NeedPython(t)
	if opts.Dir == "" {
		opts.Dir = t.TempDir()
	}
	if opts.Log == nil {
		opts.Log = zaptest.NewLogger(t)
	}
	s, err := New(context.Background(), opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

// mustWork checks that the sandbox still answers a trivial call.
func mustWork(t *testing.T, s *Sandbox) {
	t.Helper()
	got, err := s.Call(context.Background(), sandbox.CallRequest{
		Program: sandbox.Program{Source: "def f(x):\n    return x + 1\n", Function: "f"},
		Inputs:  []json.RawMessage{raw(`41`)},
	})
	if err != nil {
		t.Fatalf("follow-up call: %v", err)
	}
	if got[0].Status != sandbox.StatusOK || string(got[0].Output) != "42" {
		t.Fatalf("follow-up call: %+v, want ok 42", got[0])
	}
}

// processesMatching lists host pids whose command line contains marker.
func processesMatching(marker string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		if strings.Contains(string(b), marker) {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestHostilePrograms(t *testing.T) {
	s := newSandbox(t, Options{})
	iso := s.Isolation()
	t.Logf("isolation: %+v", iso)
	if os.Geteuid() == 0 && iso.Namespaces && (iso.UID == 0 || !iso.ReadOnly) {
		t.Errorf("running as root with namespaces, isolation %+v: want a uid drop and a read-only filesystem", iso)
	}
	outside := t.TempDir() // not the sandbox's directory
	outsideFile := filepath.Join(outside, "pwned")
	marker := fmt.Sprintf("%d.%d", os.Getpid(), time.Now().UnixNano()%100000)

	cases := []struct {
		name string
		// body of f(x)
		body   string
		status sandbox.Status // "" accepts any status: only survival is checked
		errRe  string
		needs  string // "netns", "uid", "readonly", "confined" (uid or readonly): skip unless in force
		short  bool   // runs with a 0.5 s timeout (the others get 5 s, for busy machines)
		long   bool   // 30 s: the outcome comes after work a loaded machine slows down
		after  func(t *testing.T)
	}{
		{name: "ok", body: "return x * 2", status: sandbox.StatusOK},
		{name: "raises", body: "raise KeyError('nope')", status: sandbox.StatusError, errRe: `^KeyError: 'nope'$`},
		{name: "infinite loop", body: "while True: pass", status: sandbox.StatusTimeout, errRe: `longer than 0.5s`, short: true},
		{name: "ignores SIGALRM", body: "import signal\n    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n    signal.alarm(1)\n    while True: pass", status: sandbox.StatusTimeout, short: true},
		{name: "ignores SIGTERM and sleeps", body: "import signal, time\n    signal.signal(signal.SIGTERM, signal.SIG_IGN)\n    time.sleep(10**6)", status: sandbox.StatusTimeout, short: true},
		{name: "10 GB allocation", body: "return len(bytearray(10 * 2**30))", status: sandbox.StatusMemory, errRe: `^MemoryError`},
		{name: "growing list", body: "v = []\n    while True: v.append(bytearray(50 << 20))", status: sandbox.StatusMemory, long: true},
		{name: "returns 5 MB", body: "return 'x' * (5 << 20)", status: sandbox.StatusOutputLimit, errRe: `over the limit`},
		{name: "prints 100 MB", body: "print('x' * 100_000_000)\n    return 1", status: sandbox.StatusOutputLimit, errRe: `printed more than`},
		{name: "prints in a loop", body: "while True: print('spam' * 1000)", status: sandbox.StatusOutputLimit},
		{name: "prints instead of returning", body: "print(x * 2)", status: sandbox.StatusOK},
		{name: "returns a set", body: "return {1, 2}", status: sandbox.StatusBadOutput, errRe: `set is not JSON serializable`},
		{name: "returns NaN", body: "return float('nan')", status: sandbox.StatusBadOutput},
		{name: "million-deep nesting", body: "v = []\n    for _ in range(10**6): v = [v]\n    return v", status: sandbox.StatusBadOutput, errRe: `nested too deeply`},
		{name: "sys.exit", body: "import sys\n    sys.exit(3)", status: sandbox.StatusError, errRe: `^SystemExit: 3`},
		{name: "os._exit", body: "import os\n    os._exit(0)", status: sandbox.StatusCrashed, errRe: `exited with status 0`},
		{name: "segfault", body: "import ctypes\n    ctypes.string_at(0)", status: sandbox.StatusCrashed, errRe: `SIGSEGV`},
		{name: "kills itself", body: "import os, signal\n    os.kill(os.getpid(), signal.SIGKILL)", status: sandbox.StatusCrashed, errRe: `SIGKILL`},
		{name: "kills its parent", body: "import os, signal\n    os.kill(os.getppid(), signal.SIGKILL)\n    return 'parent survived the signal'", status: sandbox.StatusError, errRe: `PermissionError`, needs: "uid"},
		{name: "kills pid 1", body: "import os, signal\n    os.kill(1, signal.SIGKILL)", status: sandbox.StatusError, errRe: `PermissionError`, needs: "uid"},
		{name: "kills everything it may", body: "import os, signal\n    os.kill(-1, signal.SIGKILL)\n    return 'alone'"},
		{name: "recursion a million deep", body: "def r(n):\n        return 0 if n == 0 else 1 + r(n - 1)\n    return r(10**6)", status: sandbox.StatusError, errRe: `^RecursionError`},
		{name: "recursion with the limit lifted", body: "import sys\n    sys.setrecursionlimit(10**7)\n    def r(n):\n        return 0 if n == 0 else 1 + r(n - 1)\n    return r(10**6)"},
		{name: "fork bomb", body: "import os\n    while True: os.fork()", status: sandbox.StatusError, errRe: `BlockingIOError`, needs: "uid", long: true},
		{name: "socket to 127.0.0.1", body: "import socket\n    socket.create_connection(('127.0.0.1', 22), timeout=0.2)", status: sandbox.StatusError, errRe: `Network is unreachable`, needs: "netns"},
		{name: "socket to a public address", body: "import socket\n    socket.create_connection(('1.1.1.1', 443), timeout=0.2)", status: sandbox.StatusError, errRe: `Network is unreachable`, needs: "netns"},
		{
			name: "writes outside its directory", body: fmt.Sprintf("open(%q, 'w').write('x')", outsideFile),
			status: sandbox.StatusError, errRe: `PermissionError|Read-only file system|FileNotFoundError`, needs: "confined",
			after: func(t *testing.T) {
				if _, err := os.Stat(outsideFile); err == nil {
					t.Errorf("%s was written", outsideFile)
				}
			},
		},
		{name: "writes its directory", body: "open('candidate.py', 'w').write('x')", status: sandbox.StatusError, errRe: `PermissionError|Read-only file system`, needs: "confined"},
		{name: "fills /tmp", body: "with open('/tmp/fill-" + marker + "', 'wb') as f:\n        while True: f.write(b'x' * (1 << 20))", status: sandbox.StatusError, errRe: `Read-only file system|PermissionError|File too large`, needs: "readonly"},
		{name: "fills /dev/shm", body: "with open('/dev/shm/fill', 'wb') as f:\n        while True: f.write(b'x' * (1 << 20))", status: sandbox.StatusError, errRe: `No space left|File too large`, needs: "netns"},
		{
			name:   "background process outlives the call",
			body:   "import subprocess\n    subprocess.Popen(['sleep', '" + marker + "'], start_new_session=True)\n    return 'started'",
			status: sandbox.StatusOK,
			after: func(t *testing.T) {
				deadline := time.Now().Add(5 * time.Second)
				for len(processesMatching("sleep\x00"+marker)) > 0 {
					if time.Now().After(deadline) {
						t.Fatalf("background process still alive after the call: %v", processesMatching("sleep\x00"+marker))
					}
					time.Sleep(20 * time.Millisecond)
				}
			},
		},
		{
			name:   "daemon via double fork",
			body:   "import os, time\n    if os.fork() == 0:\n        os.setsid()\n        if os.fork() == 0:\n            time.sleep(10**6)\n        os._exit(0)\n    return 'forked'",
			status: sandbox.StatusOK,
		},
		// The harness runs from `python3 -c`: there is no harness file;
		// what a program can reach instead is the harness's /proc entry.
		{name: "overwrites the harness", body: "import __main__, os\n    open(getattr(__main__, '__file__', None) or '/proc/%d/cmdline' % os.getppid(), 'w').write('x')", status: sandbox.StatusError, errRe: `PermissionError|Read-only file system|OSError`},
		{name: "tampers with the harness", body: "import __main__\n    __main__._to_json = __main__._encode = __main__._dumps = lambda *a, **k: 'garbage'\n    return 1", status: sandbox.StatusCrashed, errRe: `protocol violation`},
		{name: "lies about its progress", body: "import gc, struct, time\n    for o in gc.get_objects():\n        if type(o).__name__ == '_Child':\n            struct.pack_into('<d', o.progress, 8, time.monotonic() + 1e6)\n    while True: pass", status: sandbox.StatusTimeout, short: true},
		{name: "writes the protocol pipe", body: "import os\n    for fd in range(3, 10):\n        try: os.write(fd, b'{\"t\":\"out\",\"i\":99}\\n')\n        except OSError: pass\n    return 1", status: ""},
		{name: "reads root's files", body: "return open('/etc/shadow').read()", status: sandbox.StatusError, errRe: `PermissionError|FileNotFoundError`, needs: "uid"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			switch {
			case tc.needs == "netns" && !iso.NoNetwork:
				t.Skip("no network namespace on this system")
			case tc.needs == "uid" && iso.UID == 0:
				t.Skip("untrusted code runs as the caller's uid here (not root)")
			case tc.needs == "readonly" && !iso.ReadOnly:
				t.Skip("the filesystem is writable here (no mount namespace)")
			case tc.needs == "confined" && !iso.ReadOnly && iso.UID == 0:
				t.Skip("neither a read-only filesystem nor a uid drop here")
			}
			src := "def f(x):\n    " + tc.body + "\n"
			timeout := 5 * time.Second
			if tc.short {
				timeout = 500 * time.Millisecond
			}
			if tc.long {
				timeout = 30 * time.Second
			}
			got, err := s.Call(context.Background(), sandbox.CallRequest{
				Program: sandbox.Program{Source: src, Function: "f"},
				Inputs:  []json.RawMessage{raw(`21`)},
				Limits:  sandbox.Limits{Timeout: timeout, MemoryBytes: 256 << 20},
			})
			if err != nil {
				t.Fatalf("Call: %v", err)
			}
			o := got[0]
			t.Logf("%s: %s %s (%.3fs)", o.Status, o.Output, o.Error, o.Seconds)
			if tc.status != "" && o.Status != tc.status {
				t.Errorf("status %q (%s), want %q", o.Status, o.Error, tc.status)
			}
			if tc.errRe != "" && !regexp.MustCompile(tc.errRe).MatchString(o.Error) {
				t.Errorf("error %q, want a match for %q", o.Error, tc.errRe)
			}
			if tc.after != nil {
				tc.after(t)
			}
			mustWork(t, s)
		})
	}
}

func TestBatchIsolatesFailures(t *testing.T) {
	s := newSandbox(t, Options{})
	src := "import os, time\ndef f(x):\n    if x == 1:\n        while True: pass\n    if x == 2:\n        os._exit(1)\n    if x == 3:\n        raise ValueError(x)\n    return x * 10\n"
	inputs := []json.RawMessage{raw(`0`), raw(`1`), raw(`4`), raw(`2`), raw(`5`), raw(`3`), raw(`6`)}
	got, err := s.Call(context.Background(), sandbox.CallRequest{
		Program: sandbox.Program{Source: src, Function: "f"},
		Inputs:  inputs,
		Limits:  sandbox.Limits{Timeout: 300 * time.Millisecond},
	})
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	want := []string{"ok 0", "timeout", "ok 40", "crashed", "ok 50", "error", "ok 60"}
	for i, o := range got {
		g := string(o.Status)
		if o.Output != nil {
			g += " " + string(o.Output)
		}
		if g != want[i] {
			t.Errorf("input %s: %s (%s), want %s", inputs[i], g, o.Error, want[i])
		}
	}
}

// A hidden program in a directory only its owner may read runs from the
// copy a run stages for its sandbox, which the sandbox's user may read.
func TestHiddenProgramInPrivateDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"helper.py": "def double(x):\n    return 2 * x\n",
		"hidden.py": "from helper import double\n\ndef solve(x):\n    return double(x) + 1\n",
		"gen.py":    "def generate(k, exclude, rng):\n    return [rng.randint(-50, 50) for _ in range(k)]\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	st, err := sandbox.NewStage(dir, sandbox.StageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := sandbox.Staged(newSandbox(t, Options{Dir: st.Dir}), st)
	t.Cleanup(func() { s.Close() })
	got, err := s.Call(context.Background(), sandbox.CallRequest{
		Program: sandbox.Program{Path: filepath.Join(dir, "hidden.py"), Function: "solve"},
		Inputs:  []json.RawMessage{raw(`20`)},
	})
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	if got[0].Status != sandbox.StatusOK || string(got[0].Output) != "41" {
		t.Errorf("hidden program: %+v, want ok 41", got[0])
	}
	// A relative path is relative to the caller's working directory.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, filepath.Join(dir, "hidden.py"))
	if err != nil {
		t.Fatal(err)
	}
	got, err = s.Call(context.Background(), sandbox.CallRequest{
		Program: sandbox.Program{Path: rel, Function: "solve"},
		Inputs:  []json.RawMessage{raw(`1`)},
	})
	if err != nil {
		t.Fatalf("Call %s: %v", rel, err)
	}
	if got[0].Status != sandbox.StatusOK || string(got[0].Output) != "3" {
		t.Errorf("hidden program by relative path %s: %+v, want ok 3", rel, got[0])
	}
	inputs, err := s.Generate(context.Background(), sandbox.GenerateRequest{
		Program: sandbox.Program{Path: filepath.Join(dir, "gen.py"), Function: "generate"},
		K:       4, Seed: 1,
	})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if len(inputs) != 4 {
		t.Errorf("Generate: %d inputs, want 4", len(inputs))
	}
	a, err := s.Analyse(context.Background(), sandbox.AnalyseRequest{Source: files["hidden.py"], FunctionName: "solve"})
	if err != nil {
		t.Fatalf("Analyse: %v", err)
	}
	if !a.Parses || !a.DefinesFunc {
		t.Errorf("Analyse: %+v", a)
	}
}

// Finding 2 of the third security issue: the harness read the hidden
// program and the .py files beside it as root, following links, so that a
// task directory with leak.py -> /etc/shadow beside hidden.py put the
// shadow file's bytes into the examples. Task files are read as the
// sandbox's user: what that user may not read, a program does not get,
// link or no link (when reconstruct runs as root; otherwise the sandbox's
// user is the caller).
func TestTaskFilesAreReadAsTheSandboxUser(t *testing.T) {
	testenv.NeedPython(t)
	if os.Geteuid() != 0 {
		testenv.Skip(t, "not root: the sandbox's user is the caller, who may read what it may")
	}
	shadow, err := os.ReadFile("/etc/shadow")
	if err != nil || len(shadow) < 16 {
		testenv.Skip(t, "no /etc/shadow to read")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	testenv.WriteFiles(t, dir, map[string]string{
		"hidden.py": "import sys\n\n\ndef solve(x):\n    got = []\n" +
			"    for f in sys.meta_path:\n        for name, v in (getattr(f, 'files', None) or {}).items():\n            got.append(v[1][:64].decode('latin-1'))\n" +
			"    try:\n        import leak\n    except BaseException as e:\n        got.append(type(e).__name__)\n" +
			"    try:\n        got.append(open('leak.py', 'rb').read(64).decode('latin-1'))\n    except OSError as e:\n        got.append(type(e).__name__)\n" +
			"    return got\n",
		"secret.py": "def solve(x):\n    return 1\n",
	})
	if err := os.Symlink("/etc/shadow", filepath.Join(dir, "leak.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "secret.py"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := newSandbox(t, Options{Dir: dir})
	got, err := s.Call(context.Background(), sandbox.CallRequest{Program: sandbox.Program{Path: filepath.Join(dir, "hidden.py"), Function: "solve"}, Inputs: []json.RawMessage{raw(`0`)}})
	if err != nil {
		t.Fatal(err)
	}
	if !got[0].OK() || strings.Contains(string(got[0].Output), string(shadow[:16])) {
		t.Errorf("the hidden program got %s %s %s; want no byte of /etc/shadow", got[0].Status, got[0].Output, got[0].Error)
	}
	got, err = s.Call(context.Background(), sandbox.CallRequest{Program: sandbox.Program{Path: filepath.Join(dir, "secret.py"), Function: "solve"}, Inputs: []json.RawMessage{raw(`0`)}})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Status != sandbox.StatusLoad || !strings.Contains(got[0].Error, "PermissionError") {
		t.Errorf("a program only root may read: %s %s %s; want a load error (it is read as the sandbox's user)", got[0].Status, got[0].Output, got[0].Error)
	}
}

func TestRestartsAfterTheHarnessDies(t *testing.T) {
	s := newSandbox(t, Options{})
	s.mu.Lock()
	pid := s.h.cmd.Process.Pid
	s.mu.Unlock()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	mustWork(t, s)
	s.mu.Lock()
	newPid := s.h.cmd.Process.Pid
	s.mu.Unlock()
	if newPid == pid {
		t.Errorf("harness pid unchanged (%d): not restarted", pid)
	}
}

// TestHarnessDeath: a call that kills the harness is that input's crashed
// outcome, as in the Docker sandbox, not an error of the request.
func TestHarnessDeath(t *testing.T) {
	s := newSandbox(t, Options{})
	sandboxtest.HarnessDeath(t, s, func() error {
		s.mu.Lock()
		h := s.h
		s.mu.Unlock()
		if h == nil {
			return nil
		}
		if err := syscall.Kill(h.cmd.Process.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			return err
		}
		return nil
	})
}

func TestCancelledCall(t *testing.T) {
	s := newSandbox(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.Call(ctx, sandbox.CallRequest{
			Program: sandbox.Program{Source: "import time\ndef f(x):\n    time.sleep(60)\n", Function: "f"},
			Inputs:  []json.RawMessage{raw(`1`)},
			Limits:  sandbox.Limits{Timeout: time.Minute},
		})
		done <- err
	}()
	time.Sleep(200 * time.Millisecond)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Call: %v, want context.Canceled", err)
	}
	mustWork(t, s)
}

func TestClose(t *testing.T) {
	s := newSandbox(t, Options{})
	s.mu.Lock()
	pid := s.h.cmd.Process.Pid
	s.mu.Unlock()
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("harness %d still running after Close", pid)
	}
	_, err := s.Call(context.Background(), sandbox.CallRequest{Program: sandbox.Program{Source: "def f(x): return x", Function: "f"}, Inputs: []json.RawMessage{raw(`1`)}})
	if !errors.Is(err, ErrClosed) {
		t.Errorf("Call after Close: %v, want ErrClosed", err)
	}
}

func TestExec(t *testing.T) {
	dir := t.TempDir()
	s := newSandbox(t, Options{Dir: dir})
	marker := fmt.Sprintf("%d.%d", os.Getpid(), time.Now().UnixNano()%100000+7)
	cases := []struct {
		name string
		req  sandbox.ExecRequest
		want sandbox.ExecResult
	}{
		{"output and cwd", sandbox.ExecRequest{Command: "echo hello; pwd"}, sandbox.ExecResult{Output: "hello\n" + dir + "\n"}},
		{"exit code", sandbox.ExecRequest{Command: "echo out; echo err >&2; exit 3"}, sandbox.ExecResult{ExitCode: 3, Output: "out\nerr\n"}},
		{"timeout", sandbox.ExecRequest{Command: "echo start; sleep 100", Timeout: 2 * time.Second}, sandbox.ExecResult{ExitCode: 137, Output: "start\n", TimedOut: true}},
		{"output cap", sandbox.ExecRequest{Command: "yes | head -c 100000", OutputBytes: 10}, sandbox.ExecResult{Output: "y\ny\ny\ny\ny\n", Truncated: true}},
		{"writes the workspace", sandbox.ExecRequest{Command: "echo data > made.txt && cat made.txt"}, sandbox.ExecResult{Output: "data\n"}},
		{"leaves a background job", sandbox.ExecRequest{Command: "(sleep " + marker + " &) ; echo bg"}, sandbox.ExecResult{Output: "bg\n"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Exec(context.Background(), tc.req)
			if err != nil {
				t.Fatalf("Exec: %v", err)
			}
			if got != tc.want {
				t.Errorf("Exec(%q) = %+v, want %+v", tc.req.Command, got, tc.want)
			}
		})
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(processesMatching("sleep\x00"+marker)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("Exec's background job outlived it")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if s.Isolation().NoNetwork {
		got, err := s.Exec(context.Background(), sandbox.ExecRequest{Command: s.Python() + " -c \"import socket; socket.create_connection(('1.1.1.1', 443), timeout=0.2)\""})
		if err != nil {
			t.Fatalf("Exec: %v", err)
		}
		if got.ExitCode == 0 || !strings.Contains(got.Output, "Network is unreachable") {
			t.Errorf("network from Exec: %+v, want unreachable", got)
		}
		// Not even a root caller's command may re-enter the host's network
		// namespace: it runs in a user namespace of its own.
		got, err = s.Exec(context.Background(), sandbox.ExecRequest{Command: fmt.Sprintf("nsenter --net=/proc/%d/ns/net true && echo entered || echo refused", os.Getpid())})
		if err != nil {
			t.Fatalf("Exec: %v", err)
		}
		if strings.TrimSpace(got.Output) == "entered" || !strings.Contains(got.Output, "refused") {
			t.Errorf("nsenter from Exec: %+v, want refused", got)
		}
	}
}

func TestConcurrentRequests(t *testing.T) {
	s := newSandbox(t, Options{})
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		go func() {
			for i := 0; i < 5; i++ {
				in := g*100 + i
				got, err := s.Call(context.Background(), sandbox.CallRequest{
					Program: sandbox.Program{Source: "def f(x):\n    return x * 3\n", Function: "f"},
					Inputs:  []json.RawMessage{raw(fmt.Sprint(in))},
				})
				if err != nil {
					errs <- err
					return
				}
				if want := fmt.Sprint(in * 3); string(got[0].Output) != want {
					errs <- fmt.Errorf("f(%d) = %s, want %s", in, got[0].Output, want)
					return
				}
			}
			errs <- nil
		}()
	}
	for g := 0; g < 4; g++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// A sandbox without a directory binds none of the host's: its code works
// in an empty, read-only scratch directory; its shell in a private /tmp.
func TestScratchSandbox(t *testing.T) {
	s := scratchSandbox(t).(*Sandbox)
	if !s.Isolation().PrivateRoot {
		t.Skip("no private root on this system: the scratch directory is /")
	}
	got, err := s.Call(context.Background(), sandbox.CallRequest{
		Program: sandbox.Program{Source: "import os\ndef f(x):\n    try:\n        open('x', 'w')\n        w = 'writable'\n    except OSError as e:\n        w = type(e).__name__\n    return [os.getcwd(), os.listdir('.'), w]\n", Function: "f"},
		Inputs:  []json.RawMessage{raw(`1`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := `["/workspace",[],"OSError"]`; string(got[0].Output) != want {
		t.Errorf("scratch directory: %s %s, want %s", got[0].Output, got[0].Error, want)
	}
	res, err := s.Exec(context.Background(), sandbox.ExecRequest{Command: "pwd; echo x > f && cat f"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != "/tmp\nx\n" {
		t.Errorf("Exec in a scratch sandbox: %+v", res)
	}
}

// TestResident: a resident program is imported once and served by one
// process until a timeout or a crash, as in the Docker sandbox.
func TestResident(t *testing.T) {
	sandboxtest.Resident(t, newSandbox(t, Options{}))
}

// TestPoisonedLimits: a candidate cannot lower the limits of the processes
// that run the next one (sandboxtest.PoisonedLimits).
func TestPoisonedLimits(t *testing.T) {
	sandboxtest.PoisonedLimits(t, scratchSandbox)
}
