package cluster

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

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
	// heartbeatTimeout is the one the tasks ran with.
	heartbeatTimeout time.Duration
}

func (f *fakeTasks) run(ctx context.Context, in TaskInput) (Outcome, error) {
	f.mu.Lock()
	f.heartbeatTimeout = activity.GetInfo(ctx).HeartbeatTimeout
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

func runSweep(t *testing.T, f *fakeTasks, spec Spec, setup func(env *testsuite.TestWorkflowEnvironment)) Finish {
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
	var fin Finish
	if err := env.GetWorkflowResult(&fin); err != nil {
		t.Fatal(err)
	}
	return fin
}

// newTestEnv is the SDK's test environment, quiet, without its deadlock
// detector: it fails a workflow task that runs for more than a second of
// wall time, which a loaded machine's scheduler alone can make it do.
func newTestEnv() *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	s.SetLogger(newLogger(nil))
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: time.Hour})
	return env
}

func TestSweepWorkflowRetries(t *testing.T) {
	infra := func(msg string) error { return temporal.NewApplicationError(msg, ErrInfra) }
	f := &fakeTasks{calls: map[string]int{}, failures: map[string][]error{
		// An infrastructure failure and a hand-back, then it runs: retried.
		"solved_after_retries": {infra("docker went away"), temporal.NewApplicationError("handed back", ErrHandBack)},
		// A task error: never retried.
		"bad_config": {temporal.NewNonRetryableApplicationError("task.yaml: task.kind: unknown kind", ErrTask, nil)},
		// Fails more often than allowed: given up after max_attempts.
		"flaky_gives_up": {infra("endpoint down 1"), infra("endpoint down 2"), infra("endpoint down 3"), infra("endpoint down 4")},
	}}
	spec := testSpec("solved_plain", "solved_after_retries", "bad_config", "flaky_gives_up")
	fin := runSweep(t, f, spec, nil)
	calls := map[string]int{}
	for _, j := range spec.Jobs {
		calls[j.ID] = f.callsOf(j.ID)
	}
	want := map[string]int{"solved_plain": 1, "solved_after_retries": 3, "bad_config": 1, "flaky_gives_up": 3}
	if diff := cmp.Diff(want, calls); diff != "" {
		t.Errorf("attempts per task (-want +got):\n%s", diff)
	}
	if fin.Cancelled {
		t.Error("the sweep says it was cancelled")
	}
	if f.heartbeatTimeout != spec.Retry.HeartbeatTimeout {
		t.Errorf("tasks ran with heartbeat timeout %s, want the sweep's %s", f.heartbeatTimeout, spec.Retry.HeartbeatTimeout)
	}
}

func TestSweepWorkflowCancel(t *testing.T) {
	f := &fakeTasks{calls: map[string]int{}, block: map[string]bool{"slow_a": true, "slow_b": true}, started: make(chan string, 2)}
	spec := testSpec("quick", "slow_a", "slow_b")
	var quickDone atomic.Bool
	fin := runSweep(t, f, spec, func(env *testsuite.TestWorkflowEnvironment) {
		env.SetOnActivityCompletedListener(func(info *activity.Info, _ converter.EncodedValue, err error) {
			if info.ActivityID == "quick" && err == nil {
				quickDone.Store(true)
			}
		})
		// Cancel (bench cancel ID) once the quick task is done and both
		// slow ones run; the check runs on the workflow's clock.
		var poll func()
		poll = func() {
			if quickDone.Load() && len(f.started) == 2 {
				env.CancelWorkflow()
				return
			}
			env.RegisterDelayedCallback(poll, 10*time.Millisecond)
		}
		env.RegisterDelayedCallback(poll, 10*time.Millisecond)
	})
	if !fin.Cancelled {
		t.Error("the sweep does not say it was cancelled")
	}
	for _, id := range []string{"quick", "slow_a", "slow_b"} {
		if n := f.callsOf(id); n != 1 {
			t.Errorf("%s ran %d times, want once (a cancelled task is not retried)", id, n)
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
		{"task timeout", temporal.NewTimeoutError(enumspb.TIMEOUT_TYPE_START_TO_CLOSE, nil), "task_timeout timeout"},
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
