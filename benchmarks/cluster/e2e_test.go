package cluster

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/backend"
	"github.com/reconstruct/reconstruct/bank/postgres/pgtest"
	"github.com/reconstruct/reconstruct/benchmarks"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/runner"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// The end-to-end tests run the real binary against a real Temporal
// development server (RECONSTRUCT_TEST_TEMPORAL) and a real PostgreSQL bank
// (RECONSTRUCT_TEST_POSTGRES): scripts/test.sh starts both.

// e2eTasks are twelve tasks of the io2code-style set that the synthesizer
// solves after a small search (some tens of thousands of programs at most).
const e2eTasks = `^(base_(abs_each|add_seven|double_each|running_max|reverse|square_each|sign_each|prefix_sum)|algorithm_(digit_sum|popcount|gcd_pair|reverse_words))$`

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binOut  []byte
)

// reconstructBinary builds cmd/reconstruct once per test process.
func reconstructBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "reconstruct-e2e-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "reconstruct")
		cmd := exec.Command("go", "build", "-o", binPath, "github.com/reconstruct/reconstruct/cmd/reconstruct")
		binOut, binErr = cmd.CombinedOutput()
	})
	if binErr != nil {
		t.Fatalf("build reconstruct: %v\n%s", binErr, binOut)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// testCluster is one test's Temporal task queue and PostgreSQL bank.
type testCluster struct {
	t        *testing.T
	bin      string
	temporal string
	queue    string
	bank     string
	b        *bank.Bank
}

func newTestCluster(t *testing.T) *testCluster {
	t.Helper()
	testenv.NeedPython(t)
	addr := testenv.NeedTemporal(t)
	url := pgtest.Database(t)
	ctx := context.Background()
	if _, err := backend.Migrate(ctx, url, backend.Options{}); err != nil {
		t.Fatalf("create the bank: %v", err)
	}
	st, err := backend.Open(ctx, url, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	return &testCluster{t: t, bin: reconstructBinary(t), temporal: addr, bank: url, b: bank.New(st, bank.Options{}),
		// A queue of its own: no other test's worker takes these tasks.
		queue: "e2e-" + hex.EncodeToString(rnd[:])}
}

// command runs the binary to the end, with the cluster's settings in its
// environment, and returns its stdout; it fails the test on a non-zero
// exit.
func (c *testCluster) command(ctx context.Context, args ...string) string {
	c.t.Helper()
	stdout, stderr, err := c.clusterRun(ctx, args...)
	if err != nil {
		c.t.Fatalf("reconstruct %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout, stderr)
	}
	return stdout
}

// clusterRun runs the binary to the end with the cluster's settings in
// its environment.
func (c *testCluster) clusterRun(ctx context.Context, args ...string) (string, string, error) {
	return c.run(ctx, []string{"RECONSTRUCT_CLUSTER_TEMPORAL=" + c.temporal, "RECONSTRUCT_CLUSTER_TASK_QUEUE=" + c.queue, "RECONSTRUCT_BANK_PATH=" + c.bank}, args...)
}

// run runs the binary to the end with env added to the test's.
func (c *testCluster) run(ctx context.Context, env []string, args ...string) (string, string, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(os.Environ(), env...)
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

// workerProc is a running `reconstruct worker` process.
type workerProc struct {
	name    string
	cmd     *exec.Cmd
	started chan startedTask
	done    chan error
	mu      sync.Mutex
	log     bytes.Buffer
}

type startedTask struct{ Job, Run string }

func (c *testCluster) startWorker(name string, extra ...string) *workerProc {
	c.t.Helper()
	return c.startWorkerEnv(name, nil, extra...)
}

// startWorkerEnv starts a worker with env added to the test's environment.
func (c *testCluster) startWorkerEnv(name string, env []string, extra ...string) *workerProc {
	c.t.Helper()
	args := append([]string{"worker", "--temporal", c.temporal, "--task-queue", c.queue, "--bank", c.bank,
		"--workdir", filepath.Join(c.t.TempDir(), name), "--identity", name, "--log-level", "info", "--log-format", "json"}, extra...)
	w := &workerProc{name: name, cmd: exec.Command(c.bin, args...), started: make(chan startedTask, 64), done: make(chan error, 1)}
	w.cmd.Env = append(os.Environ(), env...)
	stderr, err := w.cmd.StderrPipe()
	if err != nil {
		c.t.Fatal(err)
	}
	if err := w.cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	go w.read(stderr)
	c.t.Cleanup(func() {
		if w.cmd.ProcessState == nil {
			_ = w.cmd.Process.Kill()
			<-w.done
		}
		if c.t.Failed() {
			c.t.Logf("worker %s log:\n%s", name, w.output())
		}
	})
	return w
}

func (w *workerProc) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		w.mu.Lock()
		w.log.Write(append(line, '\n'))
		w.mu.Unlock()
		var ev struct {
			Msg string `json:"msg"`
			Job string `json:"job"`
			Run string `json:"run"`
		}
		if json.Unmarshal(line, &ev) == nil && ev.Msg == "task started" {
			w.started <- startedTask{ev.Job, ev.Run}
		}
	}
	w.done <- w.cmd.Wait()
}

func (w *workerProc) output() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.log.String()
}

// wait waits for the worker to exit.
func (w *workerProc) wait(t *testing.T, d time.Duration) error {
	t.Helper()
	select {
	case err := <-w.done:
		return err
	case <-time.After(d):
		t.Fatalf("worker %s did not exit within %s", w.name, d)
		return nil
	}
}

// runEventsOf reads a run's events by its job (the task's directory name
// is its task name in these task sets).
func (c *testCluster) runEventsOf(job, runID string) ([]workflow.Event, error) {
	return runner.RunEvents(context.Background(), c.b, runner.RunWorkspaceName(strings.Split(job, "#")[0], runID))
}

func readReport(t *testing.T, out string) Report {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

func solvedList(s benchmarks.Summary) []string {
	var out []string
	for _, r := range s.Results {
		if r.Solved {
			out = append(out, r.ID)
		}
	}
	sort.Strings(out)
	return out
}

func TestSweepSurvivesAKilledWorker(t *testing.T) {
	c := newTestCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	tasks := filepath.Join("..", "tasks", "io2code-style")
	base := baseConfig(t)

	// The local engine's sweep of the same tasks with the same seed.
	local := filepath.Join(t.TempDir(), "local")
	if stdout, stderr, err := c.run(ctx, []string{"RECONSTRUCT_BANK_PATH=" + filepath.Join(local, "bank.db")},
		"bench", "run", "--tasks", tasks, "--filter", e2eTasks, "--config", base, "--out", local, "--parallel", "2"); err != nil {
		t.Fatalf("local sweep: %v\n%s\n%s", err, stdout, stderr)
	}
	want, err := benchmarks.ReadSummary(local)
	if err != nil {
		t.Fatal(err)
	}

	a := c.startWorker("worker-a")
	b := c.startWorker("worker-b")
	out := filepath.Join(t.TempDir(), "cluster")
	id := strings.TrimSpace(c.command(ctx, "bench", "run", "--engine", "temporal", "--tasks", tasks, "--filter", e2eTasks,
		"--config", base, "--out", out, "--heartbeat-timeout", "3s", "--detach"))
	if !strings.HasPrefix(id, "sweep-") {
		t.Fatalf("bench run --detach printed %q, want the sweep id", id)
	}

	// Kill worker A (SIGKILL) once a run it holds has recorded a
	// checkpoint and has not stopped.
	var killed startedTask
	var before []workflow.Event
wait:
	for {
		var st startedTask
		select {
		case st = <-a.started:
		case <-time.After(5 * time.Minute):
			t.Fatal("worker A started no task")
		}
		for {
			evs, err := c.runEventsOf(st.Job, st.Run)
			if err != nil && !strings.Contains(err.Error(), "not found") {
				t.Fatal(err)
			}
			if _, stopped := stopOf(evs); stopped {
				continue wait // finished before we caught it: take the next
			}
			if hasType(evs, workflow.EventIterationFinished) {
				if err := a.cmd.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				a.wait(t, time.Minute)
				killed = st
				break wait
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	before, err = c.runEventsOf(killed.Job, killed.Run)
	if err != nil {
		t.Fatal(err)
	}
	if _, stopped := stopOf(before); stopped {
		t.Fatalf("run %s stopped before worker A was killed", killed.Run)
	}

	// Worker B finishes the sweep, the lost task included.
	c.command(ctx, "bench", "collect", id, "--out", out)
	got, err := benchmarks.ReadSummary(out)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range got.Results {
		ids = append(ids, r.ID)
		if r.Error != "" {
			t.Errorf("%s: %s", r.ID, r.Error)
		}
	}
	var wantIDs []string
	for _, r := range want.Results {
		wantIDs = append(wantIDs, r.ID)
	}
	if diff := cmp.Diff(wantIDs, ids); diff != "" || got.Tasks != 12 {
		t.Errorf("tasks in the summary (-local +cluster):\n%s", diff)
	}
	if diff := cmp.Diff(solvedList(want), solvedList(got)); diff != "" {
		t.Errorf("solved (-local +cluster):\n%s", diff)
		local := map[string]benchmarks.TaskResult{}
		for _, r := range want.Results {
			local[r.ID] = r
		}
		for _, r := range got.Results {
			if l := local[r.ID]; r.Solved != l.Solved {
				t.Logf("%s locally: %s, held-out %d/%d, %q; on the cluster: %s, held-out %d/%d, %q", r.ID,
					l.StopReason, l.HeldoutPassed, l.HeldoutTotal, l.Error, r.StopReason, r.HeldoutPassed, r.HeldoutTotal, r.Error)
			}
		}
	}
	if got.Engine != EngineName || got.Sweep != id {
		t.Errorf("summary engine %q sweep %q", got.Engine, got.Sweep)
	}

	// The killed task: resumed by worker B, the same run, nothing asked
	// twice.
	rep := readReport(t, out)
	for _, o := range rep.Outcomes {
		if o.Result.ID != killed.Job {
			continue
		}
		if !o.Resumed || o.Worker != "worker-b" || o.Attempt != 2 || o.Result.RunID != killed.Run {
			t.Errorf("killed task's outcome: resumed %v worker %s attempt %d run %s; want resumed by worker-b at attempt 2 as run %s",
				o.Resumed, o.Worker, o.Attempt, o.Result.RunID, killed.Run)
		}
	}
	evs, err := c.runEventsOf(killed.Job, killed.Run)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	seen := map[string]bool{}
	for _, ev := range evs {
		counts[ev.Type]++
		if ev.RunID != killed.Run {
			t.Errorf("event %d of run %s in run %s's journal", ev.Seq, ev.RunID, killed.Run)
		}
		if ev.Type == workflow.EventBatchGranted {
			for _, ex := range batchExamples(t, ev) {
				k := task.MustCanonical(ex.Input)
				if seen[k] {
					t.Errorf("run %s asked the hidden program for %s twice", killed.Run, k)
				}
				seen[k] = true
			}
		}
	}
	if counts[workflow.EventRunStarted] != 1 || counts[workflow.EventRunResumed] != 1 || counts[workflow.EventStop] != 1 {
		t.Errorf("killed run's events %v, want one run_started, one run_resumed, one stop", counts)
	}
	// The output directory holds every run's workspace, from the bank, its
	// journals readable by their owner only.
	for _, r := range got.Results {
		st, err := os.Stat(filepath.Join(r.Workspace, workflow.ExamplesFile))
		if err != nil || !strings.HasPrefix(r.Workspace, out) {
			t.Errorf("%s: workspace %q: %v", r.ID, r.Workspace, err)
		} else if st.Mode().Perm() != workflow.JournalPerm {
			t.Errorf("%s: %s has mode %v, want %v", r.ID, workflow.ExamplesFile, st.Mode().Perm(), workflow.JournalPerm)
		}
	}

	var st Status
	if err := json.Unmarshal([]byte(c.command(ctx, "bench", "status", id, "--json")), &st); err != nil {
		t.Fatal(err)
	}
	if st.State != "completed" || st.Done != 12 || st.Total != 12 || len(st.Running) != 0 {
		t.Errorf("status %+v, want completed with 12 of 12", st)
	}
	// SIGTERM stops an idle worker at once.
	if err := b.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := b.wait(t, time.Minute); err != nil {
		t.Errorf("worker B after SIGTERM: %v", err)
	}
}

func hasType(evs []workflow.Event, typ string) bool {
	for _, ev := range evs {
		if ev.Type == typ {
			return true
		}
	}
	return false
}

// nextStarted waits for the worker to start a task.
func (w *workerProc) nextStarted(t *testing.T) startedTask {
	t.Helper()
	select {
	case st := <-w.started:
		return st
	case <-time.After(5 * time.Minute):
		t.Fatalf("worker %s started no task", w.name)
		return startedTask{}
	}
}

// waitCheckpoint waits until the run has recorded a checkpoint.
func (c *testCluster) waitCheckpoint(t *testing.T, st startedTask) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		evs, _ := c.runEventsOf(st.Job, st.Run)
		if hasType(evs, workflow.EventIterationFinished) {
			return
		}
	}
	t.Fatalf("run %s recorded no checkpoint", st.Run)
}

func TestWorkerStopFinishesOrHandsBack(t *testing.T) {
	c := newTestCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	base := baseConfig(t)
	submit := func(filter, out string) string {
		return strings.TrimSpace(c.command(ctx, "bench", "run", "--engine", "temporal", "--tasks", testTasks, "--filter", filter,
			"--config", base, "--out", out, "--heartbeat-timeout", "3s", "--detach"))
	}

	// SIGTERM: the worker takes no new task, finishes the one it holds,
	// reports it and stops.
	drained := filepath.Join(t.TempDir(), "drained")
	id := submit("^negate$", drained)
	w1 := c.startWorker("drainer")
	w1.nextStarted(t)
	if err := w1.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := w1.wait(t, 5*time.Minute); err != nil {
		t.Fatalf("worker after SIGTERM: %v", err)
	}
	if log := w1.output(); !strings.Contains(log, "stopping") || !strings.Contains(log, `"solved":true`) {
		t.Errorf("the stopping worker did not finish its task:\n%s", log)
	}
	w2 := c.startWorker("second") // completes the sweep's workflow
	c.command(ctx, "bench", "collect", id, "--out", drained)
	rep := readReport(t, drained)
	if len(rep.Outcomes) != 1 || rep.Outcomes[0].Worker != "drainer" || rep.Outcomes[0].Attempt != 1 || !rep.Outcomes[0].Result.Solved {
		t.Errorf("drained sweep: %+v, want the task finished once by the stopping worker", rep.Outcomes)
	}

	// Two signals: the worker hands its task back, recorded as far as it
	// got, and another worker finishes it.
	handed := filepath.Join(t.TempDir(), "handed")
	id = submit("^reverse$", handed)
	st := w2.nextStarted(t)
	c.waitCheckpoint(t, st)
	for range 2 {
		if err := w2.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
	}
	if err := w2.wait(t, 5*time.Minute); err != nil {
		t.Fatalf("worker after two signals: %v", err)
	}
	if !strings.Contains(w2.output(), "handing the running tasks back") {
		t.Errorf("the worker did not hand its task back:\n%s", w2.output())
	}
	evs, err := c.runEventsOf(st.Job, st.Run)
	if err != nil {
		t.Fatal(err)
	}
	if reason, stopped := stopOf(evs); !stopped || reason != workflow.StopCancelled {
		t.Errorf("the handed-back run recorded stop %q (%v), want %q", reason, stopped, workflow.StopCancelled)
	}
	c.startWorker("third")
	c.command(ctx, "bench", "collect", id, "--out", handed)
	rep = readReport(t, handed)
	if len(rep.Outcomes) != 1 || rep.Outcomes[0].Worker != "third" || rep.Outcomes[0].Attempt != 2 || !rep.Outcomes[0].Result.Solved {
		t.Errorf("handed-back sweep: %+v, want the task finished once, by the third worker at attempt 2", rep.Outcomes)
	}
}

// TestSweepRetriesInfrastructureFailuresOnly runs one task on a worker
// whose configuration is wrong (a task error: recorded at once, never
// retried) and on a worker whose Docker engine does not answer (an
// infrastructure failure: retried up to --max-attempts, then the last
// attempt's error is the task's).
func TestSweepRetriesInfrastructureFailuresOnly(t *testing.T) {
	c := newTestCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	base := baseConfig(t)
	tests := []struct {
		name string
		// env is the worker's: the sandbox settings are each worker's own.
		env         []string
		wantAttempt int
		wantError   string
	}{
		{"task error", []string{"RECONSTRUCT_SANDBOX_KIND=vm"}, 1, "sandbox.kind"},
		{"infrastructure failure", []string{"RECONSTRUCT_SANDBOX_KIND=docker", "DOCKER_HOST=unix:///nonexistent/docker.sock"}, 2, "does not answer"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			id := strings.TrimSpace(c.command(ctx, "bench", "run", "--engine", "temporal", "--tasks", testTasks, "--filter", "^negate$",
				"--config", base, "--out", out, "--max-attempts", "2", "--detach"))
			w := c.startWorkerEnv(fmt.Sprintf("worker-%d", i), tt.env)
			stdout, stderr, err := c.clusterRun(ctx, "bench", "collect", id, "--out", out)
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(stderr, "1 of 1 task ended in an error") {
				t.Errorf("bench collect: %v, want exit status 1 saying a task ended in an error\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
			}
			sum, err := benchmarks.ReadSummary(out)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Tasks != 1 || sum.Errors != 1 || !strings.Contains(sum.Results[0].Error, tt.wantError) {
				t.Errorf("summary: %d tasks, %d errors, %+v; want the task's error to say %q", sum.Tasks, sum.Errors, sum.Results, tt.wantError)
			}
			rep := readReport(t, out)
			if len(rep.Outcomes) != 1 || rep.Outcomes[0].Attempt != tt.wantAttempt {
				t.Errorf("outcomes %+v, want one after %d attempts", rep.Outcomes, tt.wantAttempt)
			}
			if n := strings.Count(w.output(), `"msg":"task started"`); n != tt.wantAttempt {
				t.Errorf("the worker started the task %d times, want %d:\n%s", n, tt.wantAttempt, w.output())
			}
			if err := w.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			if err := w.wait(t, time.Minute); err != nil {
				t.Errorf("worker after SIGTERM: %v", err)
			}
		})
	}
}
