package docker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/sandbox"
)

// adversary is a hostile candidate: solve(x) attacks when x == "attack" and
// echoes x otherwise, so one batch shows that the attack fails only its
// own call.
type adversary struct {
	name string
	// body runs on the attack input; it may return a value.
	body string
	// statuses the attack's outcome may have (a hostile call never
	// succeeds, except where ok is listed: the attack is then harmless).
	statuses []sandbox.Status
	// reason is a substring the outcome's error must contain.
	reason string
	// mayReplace allows the attack to kill the harness (the container is
	// then replaced; the outcomes must still be right).
	mayReplace bool
}

var adversaries = []adversary{
	{name: "fork bomb", body: "while True:\n        os.fork()", statuses: []sandbox.Status{sandbox.StatusError, sandbox.StatusTimeout, sandbox.StatusMemory}},
	{name: "10 GB allocation", body: "return len(bytearray(10 * 1024 ** 3))", statuses: []sandbox.Status{sandbox.StatusMemory}, reason: "MemoryError"},
	// Children under the per-call memory limit that together exceed the
	// container's: the kernel's OOM killer acts inside the container.
	{name: "exhaust the container's memory", body: "for _ in range(4):\n        if os.fork() == 0:\n            b = b'x' * (400 << 20)\n            time.sleep(60)\n    time.sleep(60)", statuses: []sandbox.Status{sandbox.StatusTimeout, sandbox.StatusCrashed, sandbox.StatusMemory, sandbox.StatusError}},
	{name: "infinite loop", body: "while True:\n        pass", statuses: []sandbox.Status{sandbox.StatusTimeout}, reason: "longer than"},
	{name: "loop ignoring SIGALRM", body: "signal.signal(signal.SIGALRM, signal.SIG_IGN)\n    signal.alarm(1)\n    while True:\n        pass", statuses: []sandbox.Status{sandbox.StatusTimeout}, reason: "longer than"},
	{name: "sleep forever", body: "time.sleep(10 ** 6)", statuses: []sandbox.Status{sandbox.StatusTimeout}, reason: "longer than"},
	{name: "socket to 127.0.0.1", body: "socket.create_connection(('127.0.0.1', 80), timeout=2)", statuses: []sandbox.Status{sandbox.StatusError}, reason: "Connection refused"},
	// 192.0.2.1 is TEST-NET-1 (RFC 5737): even with a network it would
	// reach nobody; without one the connect fails before any packet.
	{name: "socket to a public address", body: "socket.create_connection(('192.0.2.1', 80), timeout=2)", statuses: []sandbox.Status{sandbox.StatusError}, reason: "Network is unreachable"},
	{name: "DNS lookup", body: "socket.getaddrinfo('example.com', 80)", statuses: []sandbox.Status{sandbox.StatusError}, reason: "gaierror"},
	{name: "read the hidden program", body: "return open('/oracle/hidden.py').read()", statuses: []sandbox.Status{sandbox.StatusError}, reason: "FileNotFoundError"},
	{name: "read the hidden program by host path", body: "return open(HIDDEN).read()", statuses: []sandbox.Status{sandbox.StatusError}, reason: "FileNotFoundError"},
	{name: "write outside the workspace", body: "open('/etc/reconstruct-was-here', 'w').write('x')", statuses: []sandbox.Status{sandbox.StatusError}, reason: "Read-only file system"},
	{name: "fill /tmp", body: "for i in range(10 ** 6):\n        with open('/tmp/fill-%d' % i, 'wb') as f:\n            f.write(b'x' * (1 << 19))", statuses: []sandbox.Status{sandbox.StatusError}, reason: "No space left on device"},
	{name: "print 100 MB", body: "print('x' * (100 << 20))", statuses: []sandbox.Status{sandbox.StatusOutputLimit}},
	{name: "write 100 MB to fd 1", body: "os.write(1, b'x' * (100 << 20))", statuses: []sandbox.Status{sandbox.StatusOK}},
	{name: "sys.exit", body: "sys.exit(3)", statuses: []sandbox.Status{sandbox.StatusError}, reason: "sys.exit"},
	{name: "os._exit", body: "os._exit(3)", statuses: []sandbox.Status{sandbox.StatusCrashed}, reason: "status 3"},
	{name: "kill the parent", body: "os.kill(os.getppid(), signal.SIGKILL)\n    time.sleep(0.2)\n    return 'alive'", statuses: []sandbox.Status{sandbox.StatusOK, sandbox.StatusCrashed}},
	// The harness ignores SIGINT and SIGTERM, so interrupting it does
	// nothing: the call goes on and the container stays.
	{name: "interrupt the parent", body: "os.kill(os.getppid(), signal.SIGINT)\n    time.sleep(0.2)\n    return 'alive'", statuses: []sandbox.Status{sandbox.StatusOK, sandbox.StatusCrashed}},
	{name: "terminate the parent", body: "os.kill(os.getppid(), signal.SIGTERM)\n    time.sleep(0.2)\n    return 'alive'", statuses: []sandbox.Status{sandbox.StatusOK, sandbox.StatusCrashed}},
	// kill(-1) reaches every process the call may signal but PID 1 (the
	// harness, which the kernel protects) and itself: the zygote (the
	// harness's forking process, same uid) among them; the harness starts
	// a fresh one and the container stays.
	{name: "kill every process", body: "os.kill(-1, signal.SIGKILL)", statuses: []sandbox.Status{sandbox.StatusOK, sandbox.StatusError, sandbox.StatusCrashed}},
	{name: "recursion a million deep", body: "sys.setrecursionlimit(10 ** 7)\n    def r(n):\n        return r(n + 1) + 1\n    return r(0)", statuses: []sandbox.Status{sandbox.StatusError, sandbox.StatusCrashed, sandbox.StatusMemory, sandbox.StatusTimeout}},
	{name: "recursion at the default limit", body: "def r(n):\n        return r(n + 1) + 1\n    return r(0)", statuses: []sandbox.Status{sandbox.StatusError}, reason: "RecursionError"},
	{name: "return a set", body: "return {1, 2}", statuses: []sandbox.Status{sandbox.StatusBadOutput}, reason: "set"},
	{name: "return NaN", body: "return float('nan')", statuses: []sandbox.Status{sandbox.StatusBadOutput}},
	{name: "return a 10^6-deep list", body: "v = []\n    for _ in range(10 ** 6):\n        v = [v]\n    return v", statuses: []sandbox.Status{sandbox.StatusBadOutput}, reason: "deep"},
	{name: "background process", body: "subprocess.Popen(['sleep', '1000'], start_new_session=True)\n    os.system('sleep 1000 &')\n    return 'started'", statuses: []sandbox.Status{sandbox.StatusOK}},
	// The harness is not dumpable: its /proc entries are closed to a call
	// running as the same uid, which would otherwise forge its replies.
	{name: "forge a reply on the harness's stdout", body: "f = os.open('/proc/1/fd/1', os.O_WRONLY)\n    os.write(f, b'{\"id\": 2, \"ok\": true, \"outcomes\": []}\\n')\n    return 'forged'", statuses: []sandbox.Status{sandbox.StatusError}, reason: "Permission"},
	{name: "overwrite the harness", body: "open('" + HarnessPath + "', 'w').write('x')", statuses: []sandbox.Status{sandbox.StatusError}, reason: "Read-only file system"},
	{name: "chmod the harness", body: "os.chmod('" + HarnessPath + "', 0o777)", statuses: []sandbox.Status{sandbox.StatusError}},
}

const adversaryPrelude = `import os, signal, socket, subprocess, sys, time
HIDDEN = %s

def solve(x):
    if x != "attack":
        return x
    %s
`

// TestAdversarial runs every hostile candidate in the agent's container
// (with an oracle container beside it, as in a run): each attack fails only
// its own call, with a clear reason, and the next evaluation works.
func TestAdversarial(t *testing.T) {
	_, ref := needImage(t)
	ws := t.TempDir()
	task := t.TempDir()
	hidden := filepath.Join(task, "hidden.py")
	if err := os.WriteFile(hidden, []byte("def solve(x):\n    return x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	agent := newTestSandbox(t, ref, RoleAgent, WorkspaceMount(ws))
	oracle := newTestSandbox(t, ref, RoleOracle, ProgramMount(task))
	ctx := context.Background()
	for _, a := range adversaries {
		t.Run(a.name, func(t *testing.T) {
			src := fmt.Sprintf(adversaryPrelude, mustJSON(hidden), a.body)
			// An attack that may time out gets 2 s; one whose outcome comes
			// after work (printing 100 MB, building a deep list) gets what
			// the container's one CPU needs on a loaded machine.
			timeout := 30 * time.Second
			if statusIn(sandbox.StatusTimeout, a.statuses) {
				timeout = 2 * time.Second
			}
			before := agent.ContainerID()
			out, err := agent.Call(ctx, sandbox.CallRequest{
				Program: sandbox.Program{Source: src, Function: "solve"},
				Inputs:  raw(`"before"`, `"attack"`, `"after"`),
				Limits:  sandbox.Limits{Timeout: timeout},
			})
			if err != nil {
				t.Fatalf("Call: %v", err)
			}
			if got := summary(out); got[0] != `ok "before"` || got[2] != `ok "after"` {
				t.Errorf("the attack affected the other calls of its batch: %v", got)
			}
			att := out[1]
			if !statusIn(att.Status, a.statuses) {
				t.Errorf("attack outcome = %+v, want status in %v", att, a.statuses)
			}
			if !att.OK() && att.Error == "" {
				t.Errorf("attack failed without a reason: %+v", att)
			}
			if a.reason != "" && !strings.Contains(att.Error, a.reason) {
				t.Errorf("attack error %q does not say %q", att.Error, a.reason)
			}
			if agent.ContainerID() != before && !a.mayReplace {
				t.Errorf("the attack cost the container (replaced)")
			}
			// The next evaluation works, and nothing is left running.
			check, err := agent.Call(ctx, sandbox.CallRequest{
				Program: sandbox.Program{Source: leftoverProbe, Function: "procs"},
				Inputs:  raw(`null`),
			})
			if err != nil {
				t.Fatalf("next Call: %v", err)
			}
			if !check[0].OK() {
				t.Fatalf("next Call failed: %+v", check[0])
			}
			if got := string(check[0].Output); strings.Contains(got, "sleep") || strings.Contains(got, "solve") {
				t.Errorf("processes outlived the attack: %s", got)
			}
			// The oracle's container is untouched.
			res, err := oracle.Call(ctx, sandbox.CallRequest{Program: sandbox.Program{Path: hidden, Function: "solve"}, Inputs: raw(`7`)})
			if err != nil || !res[0].OK() || string(res[0].Output) != "7" {
				t.Errorf("oracle after the attack: %+v, %v", res, err)
			}
		})
	}
}

// leftoverProbe lists the command lines of the container's processes other
// than the harness and the probe itself.
const leftoverProbe = `import os
def procs(_):
    me = os.getpid()
    out = []
    for p in os.listdir('/proc'):
        if not p.isdigit() or int(p) in (1, me, os.getppid()):
            continue
        try:
            with open('/proc/%s/cmdline' % p, 'rb') as f:
                cmd = f.read().replace(b'\0', b' ').decode().strip()
        except OSError:
            continue
        if cmd and 'harness.py' not in cmd:
            out.append(cmd)
    return sorted(out)
`

func statusIn(s sandbox.Status, set []sandbox.Status) bool {
	for _, v := range set {
		if s == v {
			return true
		}
	}
	return false
}
