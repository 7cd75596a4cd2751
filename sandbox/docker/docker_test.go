package docker

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/client"
	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap/zaptest"

	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/sandbox/sandboxtest"
)

// newTestSandbox starts a sandbox labelled with the test's name as run id;
// it is closed (and its container removed) when the test ends.
func newTestSandbox(t *testing.T, ref string, role Role, mounts ...Mount) *Sandbox {
	t.Helper()
	s, err := New(context.Background(), Options{
		Image:  ref,
		RunID:  testRunID(t),
		Role:   role,
		Mounts: mounts,
		Limits: sandbox.Limits{Timeout: time.Second},
		Log:    zaptest.NewLogger(t),
	})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func testRunID(t *testing.T) string {
	return "test-" + strings.NewReplacer("/", "-", " ", "-").Replace(t.Name())
}

func raw(vs ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(vs))
	for i, v := range vs {
		out[i] = json.RawMessage(v)
	}
	return out
}

func source(src, fn string) sandbox.Program { return sandbox.Program{Source: src, Function: fn} }

// statuses and outputs of a batch, for comparison.
func summary(out []sandbox.Outcome) []string {
	s := make([]string, len(out))
	for i, o := range out {
		s[i] = string(o.Status)
		if o.OK() {
			s[i] += " " + string(o.Output)
		}
	}
	return s
}

func TestSandboxContract(t *testing.T) {
	_, ref := needImage(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "candidate.py"), []byte("import helper\n\ndef solve(x):\n    return helper.double(x)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "helper.py"), []byte("def double(x):\n    return x * 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "gen.py"), []byte("def generate(k, exclude, rng):\n    return [rng.randint(0, 9) for _ in range(k)]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestSandbox(t, ref, RoleAgent, WorkspaceMount(ws))
	ctx := context.Background()

	t.Run("call", func(t *testing.T) {
		prog := source("import time\ndef f(x):\n    if x == 'raise':\n        raise ValueError('bad input')\n    if x == 'loop':\n        while True: pass\n    if x == 'sleep':\n        time.sleep(100)\n    return [x, x]\n", "f")
		out, err := s.Call(ctx, sandbox.CallRequest{Program: prog, Inputs: raw(`1`, `"raise"`, `"loop"`, `{"a":null}`, `"sleep"`, `2.5`)})
		if err != nil {
			t.Fatalf("Call: %v", err)
		}
		want := []string{`ok [1,1]`, "error", "timeout", `ok [{"a":null},{"a":null}]`, "timeout", `ok [2.5,2.5]`}
		if diff := cmp.Diff(want, summary(out)); diff != "" {
			t.Errorf("outcomes (-want +got):\n%s", diff)
		}
		if !strings.Contains(out[1].Error, "ValueError: bad input") {
			t.Errorf("raise: error %q does not name the exception", out[1].Error)
		}
	})
	t.Run("path program with host path", func(t *testing.T) {
		out, err := s.Call(ctx, sandbox.CallRequest{Program: sandbox.Program{Path: filepath.Join(ws, "candidate.py"), Function: "solve"}, Inputs: raw(`21`, `"ab"`)})
		if err != nil {
			t.Fatalf("Call: %v", err)
		}
		if diff := cmp.Diff([]string{"ok 42", `ok "abab"`}, summary(out)); diff != "" {
			t.Errorf("outcomes (-want +got):\n%s\n%+v", diff, out)
		}
	})
	t.Run("path outside the mounts", func(t *testing.T) {
		_, err := s.Call(ctx, sandbox.CallRequest{Program: sandbox.Program{Path: "/etc/hostname", Function: "f"}, Inputs: raw(`1`)})
		if err == nil || !strings.Contains(err.Error(), "outside the sandbox's mounts") {
			t.Errorf("Call of a program outside the mounts: err = %v", err)
		}
	})
	t.Run("load error", func(t *testing.T) {
		out, err := s.Call(ctx, sandbox.CallRequest{Program: source("def f(x) return 1", "f"), Inputs: raw(`1`, `2`)})
		if err != nil {
			t.Fatalf("Call: %v", err)
		}
		if diff := cmp.Diff([]string{"load_error", "load_error"}, summary(out)); diff != "" {
			t.Errorf("outcomes (-want +got):\n%s", diff)
		}
	})
	t.Run("analyse", func(t *testing.T) {
		a, err := s.Analyse(ctx, sandbox.AnalyseRequest{Source: "def solve(x):\n    if x == [3, 4]:\n        return 7\n    return sum(x)\n", FunctionName: "solve", Inputs: raw(`[3,4]`), Outputs: raw(`7`)})
		if err != nil {
			t.Fatalf("Analyse: %v", err)
		}
		if !a.Parses || !a.DefinesFunc || !cmp.Equal(a.Embedded, []int{0}) {
			t.Errorf("Analyse = %+v, want parses, defines solve, input 0 embedded", a)
		}
	})
	t.Run("generate", func(t *testing.T) {
		got, err := s.Generate(ctx, sandbox.GenerateRequest{Program: sandbox.Program{Path: filepath.Join(ws, "gen.py"), Function: "generate"}, K: 5, Seed: 7})
		if err != nil {
			t.Fatalf("Generate: %v", err)
		}
		if len(got) != 5 {
			t.Errorf("Generate returned %d inputs, want 5", len(got))
		}
		_, err = s.Generate(ctx, sandbox.GenerateRequest{Program: source("def g(k, e, r):\n    raise KeyError('nope')\n", "g"), K: 1})
		if err == nil || !strings.Contains(err.Error(), "KeyError") {
			t.Errorf("Generate with a raising generator: err = %v, want one naming the KeyError", err)
		}
	})
}

// TestTwoContainers checks the two isolation domains of a run: the agent
// sees the workspace read-write and nothing of the hidden program; the
// oracle sees the program read-only, without the held-out tests, and no
// workspace.
func TestTwoContainers(t *testing.T) {
	_, ref := needImage(t)
	ws := t.TempDir()
	task := t.TempDir()
	hidden := "SECRET = 'hidden-program-marker'\ndef solve(x):\n    return x + 1\n"
	for name, text := range map[string]string{"hidden.py": hidden, HeldoutFile: `{"input": 1, "output": 2}` + "\n"} {
		if err := os.WriteFile(filepath.Join(task, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	agent := newTestSandbox(t, ref, RoleAgent, WorkspaceMount(ws))
	oracle := newTestSandbox(t, ref, RoleOracle, ProgramMount(task))
	ctx := context.Background()

	out, err := oracle.Call(ctx, sandbox.CallRequest{Program: sandbox.Program{Path: filepath.Join(task, "hidden.py"), Function: "solve"}, Inputs: raw(`41`)})
	if err != nil {
		t.Fatalf("oracle Call: %v", err)
	}
	if diff := cmp.Diff([]string{"ok 42"}, summary(out)); diff != "" {
		t.Errorf("oracle outcomes (-want +got):\n%s", diff)
	}

	probe := source(`import os
def probe(path):
    try:
        with open(path) as f:
            return "read:" + f.read()
    except OSError as e:
        return "denied:" + type(e).__name__
def write(path):
    try:
        with open(path, "w") as f:
            f.write("x")
        return "wrote"
    except OSError as e:
        return "denied:" + type(e).__name__
`, "probe")
	write := probe
	write.Function = "write"
	tests := []struct {
		name string
		s    *Sandbox
		prog sandbox.Program
		in   string
		want string
	}{
		{"agent cannot read /oracle", agent, probe, `"/oracle/hidden.py"`, `"denied:FileNotFoundError"`},
		{"agent cannot read the host path", agent, probe, mustJSON(filepath.Join(task, "hidden.py")), `"denied:FileNotFoundError"`},
		{"agent writes the workspace", agent, write, `"/workspace/out.txt"`, `"wrote"`},
		{"agent cannot write the image", agent, write, `"/opt/reconstruct/x"`, `"denied:OSError"`},
		{"oracle reads its program", oracle, probe, `"/oracle/hidden.py"`, mustJSON("read:" + hidden)},
		{"oracle sees no held-out tests", oracle, probe, `"/oracle/heldout.jsonl"`, `"read:"`},
		{"oracle cannot write its program", oracle, write, `"/oracle/hidden.py"`, `"denied:OSError"`},
		{"oracle has no workspace", oracle, probe, `"/workspace/out.txt"`, `"denied:FileNotFoundError"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := tt.s.Call(ctx, sandbox.CallRequest{Program: tt.prog, Inputs: raw(tt.in)})
			if err != nil {
				t.Fatalf("Call: %v", err)
			}
			if diff := cmp.Diff([]string{"ok " + tt.want}, summary(out)); diff != "" {
				t.Errorf("outcome (-want +got):\n%s", diff)
			}
		})
	}
	if b, err := os.ReadFile(filepath.Join(ws, "out.txt")); err != nil || string(b) != "x" {
		t.Errorf("the agent's write is not in the host workspace: %q, %v", b, err)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestSecuritySettings inspects the container and looks from inside it.
func TestSecuritySettings(t *testing.T) {
	api, ref := needImage(t)
	ws := t.TempDir()
	s, err := New(context.Background(), Options{
		Image: ref, RunID: testRunID(t), Role: RoleAgent, Mounts: []Mount{WorkspaceMount(ws)},
		Memory: 700 << 20, CPUs: 0.5, Pids: 77, TmpBytes: 8 << 20, Log: zaptest.NewLogger(t),
	})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	defer s.Close()
	ctx := context.Background()
	info, err := api.ContainerInspect(ctx, s.ContainerID())
	if err != nil {
		t.Fatal(err)
	}
	hc := info.HostConfig
	checks := []struct {
		what      string
		got, want any
	}{
		{"network mode", string(hc.NetworkMode), "none"},
		{"capabilities dropped", []string(hc.CapDrop), []string{"ALL"}},
		{"capabilities added", len(hc.CapAdd), 0},
		{"security options", hc.SecurityOpt, []string{"no-new-privileges"}},
		{"read-only root", hc.ReadonlyRootfs, true},
		{"privileged", hc.Privileged, false},
		{"tmpfs", hc.Tmpfs, map[string]string{"/tmp": "rw,nosuid,nodev,noexec,size=8388608,mode=1777"}},
		{"memory", hc.Memory, int64(700 << 20)},
		{"memory+swap", hc.MemorySwap, int64(700 << 20)},
		{"cpus", hc.NanoCPUs, int64(5e8)},
		{"pids", *hc.PidsLimit, int64(77)},
		{"user", info.Config.User, s.opts.User},
		{"network disabled", info.Config.NetworkDisabled, true},
		{"labels", map[string]string{LabelRunID: info.Config.Labels[LabelRunID], LabelRole: info.Config.Labels[LabelRole]}, map[string]string{LabelRunID: testRunID(t), LabelRole: "agent"}},
		{"log driver", hc.LogConfig.Type, "none"},
	}
	for _, c := range checks {
		if diff := cmp.Diff(c.want, c.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.what, diff)
		}
	}

	inside := []struct {
		cmd  string
		want string
	}{
		{"id -u", strings.Split(s.opts.User, ":")[0] + "\n"},
		{"grep -E '^(CapEff|CapPrm|CapBnd|NoNewPrivs)' /proc/self/status | tr -s '\\t ' ' '", "CapPrm: 0000000000000000\nCapEff: 0000000000000000\nCapBnd: 0000000000000000\nNoNewPrivs: 1\n"},
		{"ls /sys/class/net", "lo\n"},
		{"touch /etc/x 2>&1 | sed 's/.*: //'", "Read-only file system\n"},
		{"cat /sys/fs/cgroup/pids/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids.max", "77\n"},
		{"pwd", "/workspace\n"},
	}
	for _, c := range inside {
		res, err := s.Exec(ctx, sandbox.ExecRequest{Command: c.cmd, Timeout: 10 * time.Second})
		if err != nil {
			t.Fatalf("Exec %q: %v", c.cmd, err)
		}
		if res.Output != c.want {
			t.Errorf("%s: output %q, want %q", c.cmd, res.Output, c.want)
		}
	}
}

// TestDefaultUser: the host user when not root, else a uid of the
// sandbox's own, different per sandbox.
func TestDefaultUser(t *testing.T) {
	a, err := Options{Image: "i", RunID: "r", Role: RoleAgent}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Options{Image: "i", RunID: "r", Role: RoleAgent}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if os.Getuid() != 0 {
		if want := strconv.Itoa(os.Getuid()) + ":" + strconv.Itoa(os.Getgid()); a.User != want {
			t.Errorf("user = %q, want the host's %q", a.User, want)
		}
		return
	}
	for _, u := range []string{a.User, b.User} {
		uid, gid, err := parseUser(u)
		if err != nil || uid < uidBase || uid >= uidBase+uidSpan || gid != uid {
			t.Errorf("user = %q, want uid = gid in [%d, %d)", u, uidBase, uidBase+uidSpan)
		}
	}
	if a.User == b.User {
		t.Errorf("two sandboxes share the user %q", a.User)
	}
	if _, err := (Options{Image: "i", RunID: "r", Role: RoleAgent, User: "0:0"}).withDefaults(); err == nil {
		t.Error("user 0:0 accepted")
	}
}

func TestExec(t *testing.T) {
	_, ref := needImage(t)
	ws := t.TempDir()
	s := newTestSandbox(t, ref, RoleAgent, WorkspaceMount(ws))
	ctx := context.Background()
	tests := []struct {
		name string
		req  sandbox.ExecRequest
		want sandbox.ExecResult
	}{
		{"output and exit code", sandbox.ExecRequest{Command: "echo out; echo err >&2; exit 3"}, sandbox.ExecResult{ExitCode: 3, Output: "out\nerr\n"}},
		{"workspace is the working directory", sandbox.ExecRequest{Command: "echo hi > made.txt && python3 -c 'print(open(\"made.txt\").read().strip())'"}, sandbox.ExecResult{Output: "hi\n"}},
		{"timeout kills the command", sandbox.ExecRequest{Command: "echo start; sleep 100; echo never", Timeout: time.Second}, sandbox.ExecResult{ExitCode: 137, Output: "start\n", TimedOut: true}},
		{"timeout kills background children", sandbox.ExecRequest{Command: "sleep 100 & wait", Timeout: time.Second}, sandbox.ExecResult{ExitCode: 137, TimedOut: true}},
		{"output is capped", sandbox.ExecRequest{Command: "yes | head -c 100000", OutputBytes: 10}, sandbox.ExecResult{Output: "y\ny\ny\ny\ny\n", Truncated: true}},
		{"no network", sandbox.ExecRequest{Command: "python3 -c 'import socket; socket.create_connection((\"192.0.2.1\", 80), timeout=2)' 2>&1 | tail -1"}, sandbox.ExecResult{Output: "OSError: [Errno 101] Network is unreachable\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Exec(ctx, tt.req)
			if err != nil {
				t.Fatalf("Exec: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
	if b, err := os.ReadFile(filepath.Join(ws, "made.txt")); err != nil || string(b) != "hi\n" {
		t.Errorf("file made by Exec in the host workspace: %q, %v", b, err)
	}
	// The sandbox still evaluates after all that.
	out, err := s.Call(ctx, sandbox.CallRequest{Program: source("def f(x): return x", "f"), Inputs: raw(`1`)})
	if err != nil || !out[0].OK() {
		t.Errorf("Call after Exec: %v, %v", out, err)
	}
}

func gone(t *testing.T, api client.APIClient, id string) bool {
	t.Helper()
	_, err := api.ContainerInspect(context.Background(), id)
	if err == nil {
		return false
	}
	if !client.IsErrNotFound(err) {
		t.Fatalf("inspect %s: %v", id, err)
	}
	return true
}

func TestCloseRemovesContainer(t *testing.T) {
	api, ref := needImage(t)
	s, err := New(context.Background(), Options{Image: ref, RunID: testRunID(t), Role: RoleAgent, Log: zaptest.NewLogger(t)})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	id := s.ContainerID()
	if gone(t, api, id) {
		t.Fatal("container missing before Close")
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if !gone(t, api, id) {
		t.Error("container still exists after Close")
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := s.Call(context.Background(), sandbox.CallRequest{Program: source("def f(x): return x", "f"), Inputs: raw(`1`)}); !errors.Is(err, ErrClosed) {
		t.Errorf("Call after Close: err = %v, want ErrClosed", err)
	}
}

func TestCancelRemovesContainer(t *testing.T) {
	api, ref := needImage(t)
	ctx, cancel := context.WithCancel(context.Background())
	s, err := New(ctx, Options{Image: ref, RunID: testRunID(t), Role: RoleAgent, Log: zaptest.NewLogger(t)})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	defer s.Close()
	id := s.ContainerID()
	cancel()
	deadline := time.Now().Add(30 * time.Second)
	for !gone(t, api, id) {
		if time.Now().After(deadline) {
			t.Fatal("container still exists 30s after its context was cancelled")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestNewFailureLeavesNoContainer(t *testing.T) {
	api, _ := needImage(t)
	runID := testRunID(t)
	// A harness that exits at once: the container is created, never answers.
	_, err := New(context.Background(), Options{Image: "reconstruct-no-such-image:none", RunID: runID, Role: RoleAgent})
	if err == nil {
		t.Fatal("New with a missing image succeeded")
	}
	list, err := api.ContainerList(context.Background(), container.ListOptions{All: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range list {
		if c.Labels[LabelRunID] == runID {
			t.Errorf("container %s left behind by a failed New", shortID(c.ID))
		}
	}
}

func TestPrune(t *testing.T) {
	api, ref := needImage(t)
	runID := testRunID(t)
	// Two sandboxes of this run, as a crashed process would leave them.
	ids := runSandboxes(t, ref, runID)
	removed, err := Prune(context.Background(), api, runID)
	if err != nil {
		t.Fatalf("Prune: %v", err)
	}
	if diff := cmp.Diff(sorted(ids), sorted(removed)); diff != "" {
		t.Errorf("removed (-want +got):\n%s", diff)
	}
	for _, id := range ids {
		if !gone(t, api, id) {
			t.Errorf("container %s survived Prune", shortID(id))
		}
	}
	again, err := Prune(context.Background(), api, runID)
	if err != nil || len(again) != 0 {
		t.Errorf("second Prune = %v, %v; want nothing removed", again, err)
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// TestHarnessDeathReplacesContainer kills the container from outside in
// the middle of a batch: the call reports the crash and the next works.
func TestHarnessDeathReplacesContainer(t *testing.T) {
	api, ref := needImage(t)
	s := newTestSandbox(t, ref, RoleAgent)
	ctx := context.Background()
	first := s.ContainerID()
	if err := api.ContainerKill(ctx, first, "KILL"); err != nil {
		t.Fatal(err)
	}
	out, err := s.Call(ctx, sandbox.CallRequest{Program: source("def f(x): return x", "f"), Inputs: raw(`1`, `2`)})
	if err != nil {
		t.Fatalf("Call after the container was killed: %v", err)
	}
	if diff := cmp.Diff([]string{"ok 1", "ok 2"}, summary(out)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if s.ContainerID() == first {
		t.Error("the killed container was not replaced")
	}
	if !gone(t, api, first) {
		t.Error("the killed container was not removed")
	}

	// Killed while a call runs: that call crashes, the rest of the batch
	// is re-run in a fresh container.
	second := s.ContainerID()
	go func() {
		time.Sleep(500 * time.Millisecond)
		api.ContainerKill(context.Background(), second, "KILL")
	}()
	out, err = s.Call(ctx, sandbox.CallRequest{Program: source("import time\ndef f(x):\n    if x == 'slow':\n        time.sleep(0.9)\n    return x\n", "f"), Limits: sandbox.Limits{Timeout: 5 * time.Second}, Inputs: raw(`1`, `"slow"`, `3`)})
	if err != nil {
		t.Fatalf("Call while the container is killed: %v", err)
	}
	got := summary(out)
	if got[0] != "ok 1" || got[2] != "ok 3" {
		t.Errorf("outcomes = %v, want inputs 0 and 2 to succeed", got)
	}
	if got[1] != `ok "slow"` && !(out[1].Status == sandbox.StatusCrashed && strings.Contains(out[1].Error, "harness")) {
		t.Errorf("outcome of the interrupted input = %+v, want ok or crashed naming the harness", out[1])
	}
}

// TestHarnessDeath: a call that kills the harness is that input's crashed
// outcome, as in the process sandbox, and the container is replaced.
func TestHarnessDeath(t *testing.T) {
	api, ref := needImage(t)
	s := newTestSandbox(t, ref, RoleAgent)
	sandboxtest.HarnessDeath(t, s, func() error {
		id := s.ContainerID()
		if id == "" {
			return nil
		}
		err := api.ContainerKill(context.Background(), id, "KILL")
		if err != nil && (client.IsErrNotFound(err) || strings.Contains(err.Error(), "is not running")) {
			return nil // already dead, or being replaced
		}
		return err
	})
}

// TestReadOnlyMountPermissions: a hidden program only its group may read
// is read through that group; one only its owner may read is refused at
// New with a message naming the directory.
func TestReadOnlyMountPermissions(t *testing.T) {
	_, ref := needImage(t)
	if os.Geteuid() != 0 {
		skipOrFail(t, "needs root to give the program directory another owner")
	}
	task := t.TempDir()
	if err := os.WriteFile(filepath.Join(task, "hidden.py"), []byte("def solve(x):\n    return -x\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{task, filepath.Join(task, "hidden.py")} {
		if err := os.Chown(p, 4242, 4243); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(task, 0o750); err != nil {
		t.Fatal(err)
	}
	oracle := newTestSandbox(t, ref, RoleOracle, ProgramMount(task))
	out, err := oracle.Call(context.Background(), sandbox.CallRequest{Program: sandbox.Program{Path: filepath.Join(task, "hidden.py"), Function: "solve"}, Inputs: raw(`5`)})
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	if diff := cmp.Diff([]string{"ok -5"}, summary(out)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s (%+v)", diff, out)
	}

	if err := os.Chmod(task, 0o700); err != nil {
		t.Fatal(err)
	}
	_, err = New(context.Background(), Options{Image: ref, RunID: testRunID(t), Role: RoleOracle, Mounts: []Mount{ProgramMount(task)}})
	if err == nil || !strings.Contains(err.Error(), "cannot read "+task) {
		t.Errorf("New with an owner-only program directory: err = %v, want one naming %s", err, task)
	}
}

// TestResident: a resident program is imported once and served by one
// process until a timeout or a crash, as in the process sandbox; set up
// as the oracle's container.
func TestResident(t *testing.T) {
	_, ref := needImage(t)
	sandboxtest.Resident(t, newTestSandbox(t, ref, RoleOracle, ProgramMount(t.TempDir())))
}

// TestPoisonedLimits: a candidate cannot lower the limits of the processes
// that run the next one (sandboxtest.PoisonedLimits).
func TestPoisonedLimits(t *testing.T) {
	_, ref := needImage(t)
	sandboxtest.PoisonedLimits(t, func(t *testing.T) sandbox.Sandbox {
		return newTestSandbox(t, ref, RoleAgent, ScratchMount(0))
	})
}
