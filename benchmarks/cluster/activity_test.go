package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/sqlite"
	"github.com/reconstruct/reconstruct/benchmarks"
	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/runner"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// testTasks is the benchmarks package's small task set.
var testTasks = filepath.Join("..", "testdata", "tasks")

// baseConfig keeps runs short and in the process sandbox, with limits a
// loaded machine does not reach on these tasks: the synthesizer's default
// time limits, and calls and queries that may take far longer than they
// do (a call or a search cut short by the load would make a run, and so
// the local and the cluster sweep, differ).
func baseConfig(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "base.yaml")
	writeFile(t, p, "sandbox: {kind: process, call_timeout: 30s}\ntask: {oracle: {timeout: 60s}}\nworkflow: {max_iterations: 8}\n", 0o644)
	return p
}

// lostStore lets a run record its first checkpoints, then fails every
// write: the bank is left as a worker killed at that point leaves it (no
// stop event), and the attempt ends with an error.
type lostStore struct {
	bank.Store
	mu          sync.Mutex
	checkpoints int
	lost        bool
}

var errLost = errors.New("the worker's connection is gone (test)")

func (s *lostStore) AppendEvents(ctx context.Context, ws string, evs []bank.Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lost {
		return errLost
	}
	err := s.Store.AppendEvents(ctx, ws, evs)
	for _, e := range evs {
		if e.Type == workflow.EventIterationFinished {
			if s.checkpoints--; s.checkpoints == 0 {
				s.lost = true
			}
		}
	}
	return err
}

func (s *lostStore) Append(ctx context.Context, expected string, history []bank.RevisionRecord, rev bank.RevisionRecord, blobs map[string][]byte) (bank.RevisionRecord, error) {
	s.mu.Lock()
	lost := s.lost
	s.mu.Unlock()
	if lost {
		return bank.RevisionRecord{}, errLost
	}
	return s.Store.Append(ctx, expected, history, rev, blobs)
}

func openSQLite(t *testing.T, path string) bank.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func prepare(t *testing.T, b *bank.Bank, filter string, out string) Spec {
	t.Helper()
	spec, err := Prepare(context.Background(), b, Plan{TasksDir: testTasks, Base: baseConfig(t), Filter: regexp.MustCompile(filter),
		Repeat: 1, Out: out, Retry: Retry{MaxAttempts: 3}})
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// runEvents reads a job's run back from the bank.
func runEvents(t *testing.T, b *bank.Bank, taskName, runID string) []workflow.Event {
	t.Helper()
	evs, err := runner.RunEvents(context.Background(), b, runner.RunWorkspaceName(taskName, runID))
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func TestRunTaskOnAnotherWorkerResumesTheLostRun(t *testing.T) {
	testenv.NeedPython(t)
	ctx := context.Background()
	st := openSQLite(t, filepath.Join(t.TempDir(), "bank.db"))
	healthy := bank.New(st, bank.Options{})
	spec := prepare(t, healthy, "^negate$", "")
	in := TaskInput{Sweep: spec.ID, Job: spec.Jobs[0], Base: spec.Base}

	// The first worker is lost after the run's second checkpoint.
	first := &Worker{Bank: bank.New(&lostStore{Store: st, checkpoints: 2}, bank.Options{}), Workdir: t.TempDir(), Identity: "first"}
	if _, err := first.RunTask(ctx, in); err == nil {
		t.Fatal("the lost attempt succeeded")
	} else if app := (*temporal.ApplicationError)(nil); !errors.As(err, &app) || app.Type() != ErrInfra || app.NonRetryable() {
		t.Fatalf("lost attempt: %v, want a retryable infrastructure error", err)
	}
	before := runEvents(t, healthy, "negate", in.Job.RunID)
	if _, stopped := stopOf(before); stopped {
		t.Fatal("the lost attempt recorded a stop")
	}

	// Another worker, with its own directory, continues the same run.
	second := &Worker{Bank: healthy, Workdir: t.TempDir(), Identity: "second"}
	out, err := second.RunTask(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	r := out.Result
	if !out.Resumed || !r.Solved || r.RunID != in.Job.RunID || r.HeldoutTotal != 15 || r.Name != "negate" || r.Level != "algorithm" {
		t.Errorf("outcome %+v, want the same run resumed and solved", out)
	}
	if r.CPUSeconds <= 0 || r.PeakRSSBytes <= 0 || r.PeakHeapBytes <= 0 {
		t.Errorf("cpu %.2f s, peak %d bytes resident, %d heap: want the worker's figures while the task ran", r.CPUSeconds, r.PeakRSSBytes, r.PeakHeapBytes)
	}
	evs := runEvents(t, healthy, "negate", in.Job.RunID)
	counts := map[string]int{}
	seen := map[string]bool{}
	for _, ev := range evs {
		counts[ev.Type]++
		if ev.RunID != in.Job.RunID {
			t.Errorf("event %d (%s) of run %s", ev.Seq, ev.Type, ev.RunID)
		}
		if ev.Type != workflow.EventBatchGranted {
			continue
		}
		for _, ex := range batchExamples(t, ev) {
			key := task.MustCanonical(ex.Input)
			if seen[key] {
				t.Errorf("input %s was asked twice", key)
			}
			seen[key] = true
		}
	}
	if counts[workflow.EventRunStarted] != 1 || counts[workflow.EventRunResumed] != 1 || counts[workflow.EventStop] != 1 {
		t.Errorf("events %v, want one run_started, one run_resumed, one stop", counts)
	}
	// The candidates of the lost attempt came back from the bank: the
	// archive holds all of them.
	ws := filepath.Join(t.TempDir(), "ws")
	if err := restoreWorkspace(ctx, healthy, out.Archive, ws); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(ws, workflow.EventsFile)); err != nil || st.Mode().Perm() != workflow.JournalPerm {
		t.Errorf("restored journal: %v, %v; want mode %v", st, err, workflow.JournalPerm)
	}
	arch, err := candidates.OpenExisting(ws)
	if err != nil {
		t.Fatal(err)
	}
	archived, err := arch.Run(in.Job.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if len(archived) != r.Iterations || r.Iterations < 3 {
		t.Errorf("%d archived candidates for %d iterations", len(archived), r.Iterations)
	}
	for _, rec := range archived {
		if _, err := arch.Source(rec); err != nil {
			t.Errorf("iteration %d: %v", rec.Iteration, err)
		}
	}
	if _, err := os.Stat(filepath.Join(second.Workdir, "runs", spec.ID, "negate")); !os.IsNotExist(err) {
		t.Errorf("the finished task's workspace is still on the worker (%v)", err)
	}

	// An attempt after the run finished (its worker lost while scoring)
	// reads it back: no new run, no new event.
	again, err := (&Worker{Bank: healthy, Workdir: t.TempDir()}).RunTask(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Resumed || again.Result.Solved != r.Solved || again.Result.Iterations != r.Iterations || again.Archive != out.Archive {
		t.Errorf("read-back outcome %+v, want the finished run's", again)
	}
	if n := len(runEvents(t, healthy, "negate", in.Job.RunID)); n != len(evs) {
		t.Errorf("reading the finished run back recorded %d events", n-len(evs))
	}
}

func batchExamples(t *testing.T, ev workflow.Event) []task.Example {
	t.Helper()
	var d struct {
		Examples []task.Example `json:"examples"`
	}
	if err := json.Unmarshal(ev.Data, &d); err != nil {
		t.Fatal(err)
	}
	return d.Examples
}

func TestRunTaskErrors(t *testing.T) {
	ctx := context.Background()
	b := testBank(t)
	spec := prepare(t, b, "^negate$", "")
	tests := []struct {
		name      string
		in        TaskInput
		typ, want string
	}{
		{"bad setting of the sweep", TaskInput{Sweep: spec.ID, Job: spec.Jobs[0], Base: spec.Base, Env: map[string]string{"RECONSTRUCT_AGENT_KIND": "oracle"}},
			ErrTask, `unknown value "oracle"`},
		{"another bank", TaskInput{Sweep: spec.ID, Job: Job{ID: "x", Task: "x", Tree: "sha256:0123456789abcdef"}},
			ErrInfra, "not in this worker's bank"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := (&Worker{Bank: b, Workdir: t.TempDir()}).RunTask(ctx, tt.in)
			var app *temporal.ApplicationError
			if !errors.As(err, &app) || app.Type() != tt.typ || !strings.Contains(app.Message(), tt.want) {
				t.Fatalf("err = %v, want %s containing %q", err, tt.typ, tt.want)
			}
			if app.NonRetryable() != (tt.typ == ErrTask) {
				t.Errorf("non-retryable %v for a %s", app.NonRetryable(), tt.typ)
			}
			var partial benchmarks.TaskResult
			if err := app.Details(&partial); err != nil || partial.ID != tt.in.Job.ID || out.Result.ID != tt.in.Job.ID {
				t.Errorf("details %+v (%v), want the task's record", partial, err)
			}
		})
	}
}

func TestPrepare(t *testing.T) {
	ctx := context.Background()
	b := testBank(t)
	out := t.TempDir()
	writeFile(t, recordPath(out, "negate"), `{"id": "negate", "name": "negate", "solved": true}`, 0o644)
	spec, err := Prepare(ctx, b, Plan{TasksDir: testTasks, Base: baseConfig(t), Repeat: 2, Out: out,
		Getenv: func(k string) string {
			return map[string]string{"RECONSTRUCT_WORKFLOW_SEED": "7", "RECONSTRUCT_SANDBOX_KIND": "docker", "RECONSTRUCT_CLUSTER_TEMPORAL": "h:1"}[k]
		}})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	runIDs := map[string]bool{}
	for _, j := range spec.Jobs {
		ids = append(ids, j.ID)
		runIDs[j.RunID] = true
		tree, err := readTree(ctx, b, j.Tree)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range tree.Files {
			if f.Path == "heldout.jsonl" {
				t.Errorf("%s: the held-out tests travel with the task directory", j.ID)
			}
		}
		if data, err := b.Blob(ctx, j.Heldout); err != nil || !strings.Contains(string(data), `"input"`) {
			t.Errorf("%s: held-out blob %q, %v", j.ID, data, err)
		}
	}
	if got, want := strings.Join(ids, " "), "crashing_oracle crashing_oracle#r2 negate#r2 reverse reverse#r2"; got != want {
		t.Errorf("jobs %s, want %s (negate finished earlier)", got, want)
	}
	if len(runIDs) != 5 || len(spec.Previous) != 1 || !spec.Previous[0].Solved {
		t.Errorf("%d run ids, previous %+v", len(runIDs), spec.Previous)
	}
	if want := map[string]string{"RECONSTRUCT_WORKFLOW_SEED": "7"}; len(spec.Env) != 1 || spec.Env["RECONSTRUCT_WORKFLOW_SEED"] != "7" {
		t.Errorf("env %v, want %v (the experiment's settings only)", spec.Env, want)
	}
	evs, err := b.Events(ctx, spec.ID)
	if err != nil || len(evs) != 1 || evs[0].Type != EventSubmitted {
		t.Errorf("sweep journal %v, %v", evs, err)
	}
}

// TestPrepareSettings: a task an earlier sweep into the same output
// directory finished with the same settings is not run again; with other
// settings it refuses the sweep, unless Force, which runs it again.
func TestPrepareSettings(t *testing.T) {
	ctx := context.Background()
	b := testBank(t)
	base := baseConfig(t)
	plan := func(out string, force bool) (Spec, error) {
		return Prepare(ctx, b, Plan{TasksDir: testTasks, Base: base, Filter: regexp.MustCompile("^negate$"), Repeat: 2, Out: out, Force: force})
	}
	first, err := plan("", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Jobs) != 2 || first.Jobs[0].ConfigSHA256 == "" || first.Jobs[0].ConfigSHA256 == first.Jobs[1].ConfigSHA256 {
		t.Fatalf("jobs %+v, want two with settings hashes that differ by their seed", first.Jobs)
	}
	record := func(out, id, hash string) {
		writeFile(t, recordPath(out, id), fmt.Sprintf(`{"id": %q, "name": "negate", "solved": true, "config_sha256": %q}`, id, hash), 0o644)
	}
	tests := []struct {
		name     string
		hash     string
		force    bool
		wantErr  string
		wantJobs int
	}{
		{"same settings", first.Jobs[0].ConfigSHA256, false, "", 1},
		{"no hash recorded", "", false, "", 1},
		{"other settings", "0123", false, "holds the results of 1 tasks run with other settings (negate)", 0},
		{"other settings forced", "0123", true, "", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			record(out, "negate", tt.hash)
			spec, err := plan(out, tt.force)
			if tt.wantErr != "" {
				if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Prepare: %v, want ErrInput saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(spec.Jobs) != tt.wantJobs || len(spec.Jobs)+len(spec.Previous) != 2 {
				t.Errorf("%d jobs and %d previous, want %d jobs of 2", len(spec.Jobs), len(spec.Previous), tt.wantJobs)
			}
		})
	}
}

func TestPrepareRefuses(t *testing.T) {
	const task = "task: {name: t, input_type: int, kind: int, oracle: {python: %s, function: f}}\n"
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"oracle outside", map[string]string{"set/t/task.yaml": strings.Replace(task, "%s", "../../hidden.py", 1), "hidden.py": "", "set/t/heldout.jsonl": `{"input": 1, "output": 1}`},
			"task.oracle.python"},
		{"no held-out tests", map[string]string{"set/t/task.yaml": strings.Replace(task, "%s", "hidden.py", 1), "set/t/hidden.py": ""},
			"no held-out tests"},
		{"bad held-out tests", map[string]string{"set/t/task.yaml": strings.Replace(task, "%s", "hidden.py", 1), "set/t/hidden.py": "", "set/t/heldout.jsonl": "{"},
			"heldout.jsonl:1"},
		{"bad task", map[string]string{"set/t/task.yaml": "task: {name: t}\n"}, "task.input_type"},
		{"no tasks", map[string]string{"set/readme": ""}, "no task directories"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for p, c := range tt.files {
				writeFile(t, filepath.Join(root, p), c, 0o644)
			}
			b := testBank(t)
			_, err := Prepare(context.Background(), b, Plan{TasksDir: filepath.Join(root, "set")})
			if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want ErrInput naming %q", err, tt.want)
			}
			if wss, _ := b.Workspaces(context.Background()); len(wss) != 0 {
				t.Errorf("a refused sweep was recorded: %v", wss)
			}
		})
	}
}

func TestCheckSize(t *testing.T) {
	job := Job{ID: "base_running_max#r2", Task: "base_running_max", Repeat: 2, RunID: "20260101T000000-abcdef-0001",
		Tree: "sha256:" + strings.Repeat("a", 64), Heldout: "sha256:" + strings.Repeat("b", 64)}
	for _, tt := range []struct {
		jobs int
		ok   bool
	}{{1000, true}, {4000, true}, {8000, false}} {
		spec := Spec{ID: "sweep-x", Jobs: make([]Job, tt.jobs)}
		for i := range spec.Jobs {
			spec.Jobs[i] = job
		}
		err := checkSize(spec)
		if (err == nil) != tt.ok || err != nil && (!errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "--filter")) {
			t.Errorf("%d jobs: %v", tt.jobs, err)
		}
	}
}
