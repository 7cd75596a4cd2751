package process

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"go.uber.org/zap/zaptest"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/sandbox/sandboxtest"
)

// TestAttacks runs the adversarial suite against the process sandbox, set
// up as a run sets it up: the evaluator with no directory (a scratch one of
// its root), the oracle on the task directory, the agent's shell on its
// workspace.
func TestAttacks(t *testing.T) {
	testenv.NeedPython(t)
	sandboxtest.Run(t, sandboxtest.Env{
		Kind: "process",
		Eval: scratchSandbox,
		Oracle: func(t *testing.T, dir string) sandbox.Sandbox {
			st := sandboxtest.OracleStage(t, dir)
			return sandbox.Staged(newSandbox(t, Options{Dir: st.Dir}), st)
		},
		Agent: func(t *testing.T, ws string) sandbox.Sandbox { return newSandbox(t, Options{Dir: ws}) },
		Generation: func(b sandbox.Sandbox) string {
			s := b.(*Sandbox)
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.h == nil {
				return "none"
			}
			return strconv.Itoa(s.h.cmd.Process.Pid)
		},
	})
}

// scratchSandbox is a sandbox without a directory, as the evaluator's.
func scratchSandbox(t *testing.T) sandbox.Sandbox {
	t.Helper()
	testenv.NeedPython(t)
	s, err := New(context.Background(), Options{Log: zaptest.NewLogger(t)})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// unprivilegedUID runs the suite's second pass: nobody.
const unprivilegedUID = 65534

// TestAttacksUnprivileged runs TestAttacks and TestPoisonedLimits again as a user who is not root,
// the way most people run reconstruct: untrusted code then keeps the
// caller's uid (as root of a user namespace of its own) and only the
// namespaces, the private root and the dropped capabilities hold. When the
// tests do not run as root, TestAttacks itself is that run.
func TestAttacksUnprivileged(t *testing.T) {
	testenv.NeedPython(t)
	if os.Geteuid() != 0 {
		t.Skip("not root: TestAttacks already runs as an unprivileged user")
	}
	python := ""
	for _, p := range []string{"/usr/local/bin/python3", "/usr/bin/python3"} {
		if reachableBy(p) {
			python = p
			break
		}
	}
	if python == "" {
		testenv.Skip(t, "no python3 that another user may run in /usr/local/bin or /usr/bin")
	}
	probe := exec.Command(python, "-I", "-c", "import ctypes, sys; sys.exit(ctypes.CDLL(None).unshare(0x10000000 | 0x20000) != 0)")
	probe.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: unprivilegedUID, Gid: unprivilegedUID}}
	if out, err := probe.CombinedOutput(); err != nil {
		testenv.Skip(t, fmt.Sprintf("the kernel refuses user namespaces to unprivileged users (%v %s): the process sandbox would warn and run without them", err, out))
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// t.TempDir's parent is closed to other users.
	dir, err := os.MkdirTemp("", "reconstruct-unprivileged-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	home := filepath.Join(dir, "home")
	bin := filepath.Join(dir, "process.test")
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(home, unprivilegedUID, unprivilegedUID); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run", "^(TestAttacks|TestPoisonedLimits)$", "-test.v", "-test.count=1")
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=" + filepath.Dir(python) + ":/usr/bin:/bin", "HOME=" + home, "TMPDIR=/tmp", testenv.RequireAllEnv + "=" + os.Getenv(testenv.RequireAllEnv)}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: unprivilegedUID, Gid: unprivilegedUID}}
	out, err := cmd.CombinedOutput()
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "outcome |") || strings.Contains(line, "--- FAIL") || strings.Contains(line, "BREACHED") {
			t.Log(strings.TrimSpace(line))
		}
	}
	if err != nil {
		t.Fatalf("TestAttacks as uid %d: %v\n%s", unprivilegedUID, err, lastLines(string(out), 40))
	}
}

// reachableBy reports whether any user may run the file at path.
func reachableBy(path string) bool {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	for p := real; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm()&0o001 == 0 {
			return false
		}
		if p == "/" {
			return true
		}
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
