package cluster

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/reconstruct/reconstruct/benchmarks"
)

// fakeTasks is a scripted activity: each job fails with the listed errors
// on its first attempts, then succeeds (solved when its name says so).
type fakeTasks struct {
	mu       sync.Mutex
	failures map[string][]error
	block    map[string]bool
	calls    map[string]int
	started  chan string
}

func (f *fakeTasks) run(ctx context.Context, in TaskInput) (Outcome, error) {
	f.mu.Lock()
	f.calls[in.Job.ID]++
	n := f.calls[in.Job.ID]
	var err error
	if fs := f.failures[in.Job.ID]; n <= len(fs) {
		err = fs[n-1]
	}
	block := f.block[in.Job.ID]
	f.mu.Unlock()
	if block {
		if f.started != nil {
			f.started <- in.Job.ID
		}
		for ctx.Err() == nil {
			activity.RecordHeartbeat(ctx, Heartbeat{Phase: "run"})
			time.Sleep(10 * time.Millisecond)
		}
		return Outcome{}, ctx.Err()
	}
	if err != nil {
		return Outcome{}, err
	}
	r := benchmarks.TaskResult{ID: in.Job.ID, Name: in.Job.Task, Level: "base", Repeat: in.Job.Repeat, RunID: in.Job.RunID,
		Solved: strings.HasPrefix(in.Job.Task, "solved")}
	return Outcome{Result: r, Worker: "w1", Attempt: int(activity.GetInfo(ctx).Attempt)}, nil
}

func (f *fakeTasks) callsOf(id string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[id]
}

func testSpec(jobs ...string) Spec {
	spec := Spec{ID: "sweep-test", Repeat: 1, Retry: Retry{MaxAttempts: 3, HeartbeatTimeout: 10 * time.Second, TaskTimeout: time.Hour}}
	for i, j := range jobs {
		spec.Jobs = append(spec.Jobs, Job{ID: j, Task: j, Repeat: 1, RunID: "run-" + j, Tree: "t" + string(rune('a'+i))})
	}
	return spec
}

func runSweep(t *testing.T, f *fakeTasks, spec Spec, setup func(env *testsuite.TestWorkflowEnvironment)) Report {
	t.Helper()
	env := newTestEnv()
	env.RegisterWorkflowWithOptions(SweepWorkflow, workflowRegisterOptions())
	env.RegisterActivityWithOptions(f.run, activity.RegisterOptions{Name: ActivityName})
	env.SetTestTimeout(time.Minute)
	if setup != nil {
		setup(env)
	}
	env.ExecuteWorkflow(WorkflowName, spec)
	if !env.IsWorkflowCompleted() {
		t.Fatal("the sweep did not complete")
	}
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("sweep error: %v", err)
	}
	var rep Report
	if err := env.GetWorkflowResult(&rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// newTestEnv is the SDK's test environment, quiet.
func newTestEnv() *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	s.SetLogger(newLogger(nil))
	return s.NewTestWorkflowEnvironment()
}

// byID maps the report's records by job id.
func byID(rep Report) map[string]benchmarks.TaskResult {
	m := map[string]benchmarks.TaskResult{}
	for _, r := range Results(rep) {
		m[r.ID] = r
	}
	return m
}

func TestSweepWorkflowRetriesAndErrors(t *testing.T) {
	infra := func(msg string) error {
		return temporal.NewApplicationError(msg, ErrInfra, benchmarks.TaskResult{ID: "flaky_gives_up", Name: "flaky_gives_up", Level: "hard"})
	}
	f := &fakeTasks{calls: map[string]int{}, failures: map[string][]error{
		// Two infrastructure failures, then it runs: retried.
		"solved_after_retries": {infra("docker went away"), temporal.NewApplicationError("handed back", ErrHandBack)},
		// A task error: recorded at once, never retried.
		"bad_config": {temporal.NewNonRetryableApplicationError("task.yaml: task.kind: unknown kind", ErrTask, nil,
			benchmarks.TaskResult{ID: "bad_config", Name: "bad_config", Level: "algorithm"})},
		// Fails more often than allowed: recorded with its last error.
		"flaky_gives_up": {infra("endpoint down 1"), infra("endpoint down 2"), infra("endpoint down 3"), infra("endpoint down 4")},
	}}
	spec := testSpec("solved_plain", "unsolved", "solved_after_retries", "bad_config", "flaky_gives_up")
	spec.Previous = []benchmarks.TaskResult{{ID: "earlier", Name: "earlier", Solved: true}}
	rep := runSweep(t, f, spec, nil)

	calls := map[string]int{}
	for _, j := range spec.Jobs {
		calls[j.ID] = f.callsOf(j.ID)
	}
	wantCalls := map[string]int{"solved_plain": 1, "unsolved": 1, "solved_after_retries": 3, "bad_config": 1, "flaky_gives_up": 3}
	if diff := cmp.Diff(wantCalls, calls); diff != "" {
		t.Errorf("attempts per task (-want +got):\n%s", diff)
	}
	got := byID(rep)
	if len(got) != 6 || len(rep.Outcomes) != 5 {
		t.Fatalf("%d records, %d outcomes; want every task once (6 records, 5 outcomes)", len(got), len(rep.Outcomes))
	}
	tests := []struct {
		id, errPart, level string
		solved             bool
	}{
		{"earlier", "", "", true},
		{"solved_plain", "", "base", true},
		{"unsolved", "", "base", false},
		{"solved_after_retries", "", "base", true},
		{"bad_config", "unknown kind", "algorithm", false},
		{"flaky_gives_up", "endpoint down 3 (gave up after 3 attempts)", "hard", false},
	}
	for _, tt := range tests {
		r := got[tt.id]
		if r.Solved != tt.solved || r.Level != tt.level || (tt.errPart == "") != (r.Error == "") || !strings.Contains(r.Error, tt.errPart) {
			t.Errorf("%s: solved %v level %q error %q; want solved %v level %q error containing %q", tt.id, r.Solved, r.Level, r.Error, tt.solved, tt.level, tt.errPart)
		}
	}
	if strings.Contains(got["bad_config"].Error, "gave up") {
		t.Errorf("a task error reads as retried: %q", got["bad_config"].Error)
	}
	for _, o := range rep.Outcomes {
		if o.Result.ID == "solved_after_retries" && o.Attempt != 3 {
			t.Errorf("solved_after_retries finished at attempt %d, want 3", o.Attempt)
		}
	}
	if rep.Cancelled {
		t.Error("report says cancelled")
	}
	sum := Summarize(rep)
	if sum.Tasks != 6 || sum.Solved != 3 || sum.Errors != 2 || sum.Engine != EngineName || sum.Sweep != "sweep-test" {
		t.Errorf("summary: tasks %d solved %d errors %d engine %q sweep %q", sum.Tasks, sum.Solved, sum.Errors, sum.Engine, sum.Sweep)
	}
}

func TestSweepWorkflowCancel(t *testing.T) {
	f := &fakeTasks{calls: map[string]int{}, block: map[string]bool{"slow_a": true, "slow_b": true}, started: make(chan string, 2)}
	spec := testSpec("quick", "slow_a", "slow_b")
	var progress Progress
	rep := runSweep(t, f, spec, func(env *testsuite.TestWorkflowEnvironment) {
		// Cancel (bench cancel ID) once the quick task is recorded and both
		// slow ones run; the check runs on the workflow's clock.
		var poll func()
		poll = func() {
			v, err := env.QueryWorkflow(QueryProgress, 0)
			if err != nil {
				t.Errorf("progress query: %v", err)
				return
			}
			if err := v.Get(&progress); err != nil {
				t.Error(err)
			}
			if len(progress.Finished) == 1 && len(f.started) == 2 {
				env.CancelWorkflow()
				return
			}
			env.RegisterDelayedCallback(poll, 10*time.Millisecond)
		}
		env.RegisterDelayedCallback(poll, 10*time.Millisecond)
	})
	if !rep.Cancelled {
		t.Error("report does not say cancelled")
	}
	var ids []string
	for _, r := range Results(rep) {
		ids = append(ids, r.ID)
	}
	if diff := cmp.Diff([]string{"quick"}, ids); diff != "" {
		t.Errorf("finished tasks (-want +got):\n%s", diff)
	}
	if f.callsOf("slow_a") != 1 || f.callsOf("slow_b") != 1 {
		t.Errorf("cancelled tasks were retried: %d and %d attempts", f.callsOf("slow_a"), f.callsOf("slow_b"))
	}
	if progress.Total != 3 {
		t.Errorf("progress query: total %d, want 3", progress.Total)
	}
}

func TestProgressQuerySince(t *testing.T) {
	f := &fakeTasks{calls: map[string]int{}}
	spec := testSpec("solved_1", "solved_2", "unsolved_3")
	env := newTestEnv()
	env.RegisterWorkflowWithOptions(SweepWorkflow, workflowRegisterOptions())
	env.RegisterActivityWithOptions(f.run, activity.RegisterOptions{Name: ActivityName})
	env.ExecuteWorkflow(WorkflowName, spec)
	for _, tt := range []struct{ since, want int }{{0, 3}, {1, 2}, {3, 0}, {7, 0}, {-1, 0}} {
		v, err := env.QueryWorkflow(QueryProgress, tt.since)
		if err != nil {
			t.Fatal(err)
		}
		var p Progress
		if err := v.Get(&p); err != nil {
			t.Fatal(err)
		}
		if len(p.Finished) != tt.want || p.Total != 3 || p.Since != tt.since {
			t.Errorf("since %d: %d finished of %d; want %d of 3", tt.since, len(p.Finished), p.Total, tt.want)
		}
	}
}

func TestFailedOutcomeNamesTimeouts(t *testing.T) {
	j := Job{ID: "t#r2", Task: "t", Repeat: 2, RunID: "r"}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"heartbeat", temporal.NewTimeoutError(enumspb.TIMEOUT_TYPE_HEARTBEAT, errors.New("x")), "heartbeat (the worker was lost) timeout (gave up after 3 attempts)"},
		{"plain", errors.New("boom"), "boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := failedOutcome(j, tt.err, 3)
			if !strings.Contains(o.Result.Error, tt.want) || o.Result.ID != j.ID || o.Result.Repeat != 2 {
				t.Errorf("got %+v, want error containing %q", o.Result, tt.want)
			}
		})
	}
}

func TestPeakConcurrency(t *testing.T) {
	at := func(s int) time.Time { return time.Unix(int64(s), 0) }
	outs := []Outcome{
		{Started: at(0), Finished: at(10)}, {Started: at(2), Finished: at(5)}, {Started: at(5), Finished: at(8)},
		{Started: at(9), Finished: at(12)}, {}, // a failed outcome has no times
	}
	if got := peakConcurrency(outs); got != 2 {
		t.Errorf("peak %d, want 2 (a task ending as another starts does not overlap it)", got)
	}
	if got := peakConcurrency(nil); got != 1 {
		t.Errorf("empty: %d, want 1", got)
	}
}
