package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/benchmarks"
	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/internal/atomicfile"
)

// ErrNoSweep marks a sweep id the Temporal server does not know.
var ErrNoSweep = errors.New("no such sweep")

// Dial connects to the Temporal server at addr (HOST:PORT).
func Dial(ctx context.Context, addr, namespace string, log *zap.Logger) (client.Client, error) {
	c, err := client.DialContext(ctx, client.Options{HostPort: addr, Namespace: namespace, Logger: newLogger(log)})
	if err != nil {
		return nil, fmt.Errorf("connect to the Temporal server at %s (namespace %s): %w", addr, namespace, err)
	}
	return c, nil
}

// Submit starts the sweep's workflow on the task queue.
func Submit(ctx context.Context, c client.Client, taskQueue string, spec Spec) error {
	_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: spec.ID, TaskQueue: taskQueue,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	}, WorkflowName, spec)
	if err != nil {
		return fmt.Errorf("submit sweep %s: %w", spec.ID, err)
	}
	return nil
}

// Cancel asks the sweep to stop: running tasks stop at their next safe
// point, everything recorded; the sweep completes with the finished ones.
func Cancel(ctx context.Context, c client.Client, id string) error {
	if err := c.CancelWorkflow(ctx, id, ""); err != nil {
		return sweepError(id, err)
	}
	return nil
}

func sweepError(id string, err error) error {
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return fmt.Errorf("%w %s on the Temporal server", ErrNoSweep, id)
	}
	return fmt.Errorf("sweep %s: %w", id, err)
}

// pollEvery is how often a follower asks for progress.
const pollEvery = time.Second

// Follow reports the sweep's tasks to p as they finish and returns the
// sweep's report once it has completed. Progress comes from the workflow's
// progress query, which a worker answers; without workers the sweep waits
// and so does Follow. Cancelling ctx stops following, not the sweep.
func Follow(ctx context.Context, c client.Client, id string, p benchmarks.Progress, log *zap.Logger) (Report, error) {
	if log == nil {
		log = zap.NewNop()
	}
	if _, err := c.DescribeWorkflowExecution(ctx, id, ""); err != nil {
		return Report{}, sweepError(id, err)
	}
	type result struct {
		rep Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		var rep Report
		err := c.GetWorkflow(ctx, id, "").Get(ctx, &rep)
		done <- result{rep, err}
	}()
	f := follower{p: p}
	warned := false
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		select {
		case r := <-done:
			if r.err != nil {
				return Report{}, sweepError(id, r.err)
			}
			f.start(len(r.rep.Spec.Jobs)+len(r.rep.Spec.Previous), r.rep.Spec.Previous)
			f.finish(r.rep.Outcomes[min(f.seen, len(r.rep.Outcomes)):])
			if p != nil {
				p.Stop()
			}
			return r.rep, nil
		case <-ctx.Done():
			if p != nil && f.started {
				p.Stop()
			}
			return Report{}, ctx.Err()
		case <-tick.C:
		}
		prog, err := queryProgress(ctx, c, id, f.seen)
		if err != nil {
			if !warned && ctx.Err() == nil {
				log.Warn("no progress from the sweep yet (is a worker running?)", zap.String("sweep", id), zap.Error(err))
				warned = true
			}
			continue
		}
		if !f.started {
			// The previous tasks are in the report only; the first query
			// tells how many there are.
			prev, err := previousOf(ctx, c, id)
			if err != nil {
				continue
			}
			f.start(prog.Total, prev)
		}
		f.finish(prog.Finished)
	}
}

// follower feeds a Progress once per finished task.
type follower struct {
	p                  benchmarks.Progress
	started            bool
	seen, done, solved int
}

func (f *follower) start(total int, previous []benchmarks.TaskResult) {
	if f.started {
		return
	}
	f.started = true
	f.done = len(previous)
	for _, r := range previous {
		if r.Solved {
			f.solved++
		}
	}
	if f.p != nil {
		f.p.Start(total, f.done, f.solved)
	}
}

func (f *follower) finish(outs []Outcome) {
	for _, o := range outs {
		f.seen++
		f.done++
		if o.Result.Solved {
			f.solved++
		}
		if f.p != nil {
			f.p.Finished(o.Result, f.done, f.solved)
		}
	}
}

func queryProgress(ctx context.Context, c client.Client, id string, since int) (Progress, error) {
	qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	v, err := c.QueryWorkflow(qctx, id, "", QueryProgress, since)
	if err != nil {
		return Progress{}, err
	}
	var p Progress
	if err := v.Get(&p); err != nil {
		return Progress{}, err
	}
	return p, nil
}

// previousOf reads the tasks an earlier sweep finished from the sweep's
// input, recorded in the workflow's first event.
func previousOf(ctx context.Context, c client.Client, id string) ([]benchmarks.TaskResult, error) {
	spec, err := specOf(ctx, c, id)
	return spec.Previous, err
}

func specOf(ctx context.Context, c client.Client, id string) (Spec, error) {
	it := c.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	if !it.HasNext() {
		return Spec{}, fmt.Errorf("sweep %s: empty history", id)
	}
	ev, err := it.Next()
	if err != nil {
		return Spec{}, sweepError(id, err)
	}
	attrs := ev.GetWorkflowExecutionStartedEventAttributes()
	if attrs == nil {
		return Spec{}, fmt.Errorf("sweep %s: its history does not start with the sweep", id)
	}
	var spec Spec
	if err := converter.GetDefaultDataConverter().FromPayloads(attrs.GetInput(), &spec); err != nil {
		return Spec{}, fmt.Errorf("sweep %s: %w", id, err)
	}
	return spec, nil
}

// Status is where a sweep stands.
type Status struct {
	ID string `json:"id"`
	// State is running, completed, cancelled, failed, terminated or
	// timed_out (Temporal's workflow states).
	State    string    `json:"state"`
	Total    int       `json:"total"`
	Done     int       `json:"done"`
	Solved   int       `json:"solved"`
	Errors   int       `json:"errors"`
	Started  time.Time `json:"started"`
	Closed   time.Time `json:"closed,omitzero"`
	Progress bool      `json:"progress"` // Done, Solved and Errors are known
	// TaskQueue is where the sweep's tasks wait; Workers are the workers
	// polling it now (for a running sweep).
	TaskQueue string   `json:"task_queue"`
	Workers   []string `json:"workers"`
	// Running are the tasks scheduled or running now.
	Running []RunningTask `json:"running"`
}

// RunningTask is a task the sweep waits for.
type RunningTask struct {
	Job string `json:"job"`
	// State is scheduled (waiting for a worker), started, or
	// cancel_requested.
	State         string    `json:"state"`
	Attempt       int       `json:"attempt"`
	Worker        string    `json:"worker,omitempty"`
	LastHeartbeat time.Time `json:"last_heartbeat,omitzero"`
	Heartbeat     Heartbeat `json:"heartbeat"`
	// LastFailure is why the previous attempt failed.
	LastFailure string `json:"last_failure,omitempty"`
}

// GetStatus describes the sweep. The counts come from the workflow's
// progress query (Progress false when no worker answered) or, once the
// sweep completed, from its report.
func GetStatus(ctx context.Context, c client.Client, id string) (Status, error) {
	d, err := c.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return Status{}, sweepError(id, err)
	}
	info := d.GetWorkflowExecutionInfo()
	st := Status{ID: id, State: stateName(info.GetStatus()), Started: info.GetStartTime().AsTime(), Running: []RunningTask{},
		TaskQueue: info.GetTaskQueue(), Workers: []string{}}
	if info.GetCloseTime() != nil {
		st.Closed = info.GetCloseTime().AsTime()
	}
	for _, pa := range d.GetPendingActivities() {
		rt := RunningTask{Job: pa.GetActivityId(), State: strings.ToLower(strings.TrimPrefix(pa.GetState().String(), "PENDING_ACTIVITY_STATE_")),
			Attempt: int(pa.GetAttempt()), Worker: pa.GetLastWorkerIdentity()}
		if t := pa.GetLastHeartbeatTime(); t != nil {
			rt.LastHeartbeat = t.AsTime()
		}
		if hd := pa.GetHeartbeatDetails(); hd != nil {
			_ = converter.GetDefaultDataConverter().FromPayloads(hd, &rt.Heartbeat)
		}
		if f := pa.GetLastFailure(); f != nil {
			rt.LastFailure = f.GetMessage()
		}
		st.Running = append(st.Running, rt)
	}
	sort.Slice(st.Running, func(i, j int) bool { return st.Running[i].Job < st.Running[j].Job })
	var results []benchmarks.TaskResult
	switch info.GetStatus() {
	case enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		var rep Report
		if err := c.GetWorkflow(ctx, id, "").Get(ctx, &rep); err != nil {
			return st, sweepError(id, err)
		}
		st.Total = len(rep.Spec.Jobs) + len(rep.Spec.Previous)
		results = Results(rep)
		st.Progress = true
	case enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING:
		if st.Workers, err = pollers(ctx, c, st.TaskQueue); err != nil || len(st.Workers) == 0 {
			break // nobody would answer the query
		}
		prog, err := queryProgress(ctx, c, id, 0)
		if err != nil {
			break
		}
		prev, err := previousOf(ctx, c, id)
		if err != nil {
			break
		}
		st.Total, st.Progress = prog.Total, true
		results = prev
		for _, o := range prog.Finished {
			results = append(results, o.Result)
		}
		if prog.Cancelling {
			st.State = "cancelling"
		}
	}
	st.Done = len(results)
	for _, r := range results {
		if r.Solved {
			st.Solved++
		}
		if r.Error != "" {
			st.Errors++
		}
	}
	return st, nil
}

// pollers are the identities of the workers polling a task queue for
// tasks.
func pollers(ctx context.Context, c client.Client, queue string) ([]string, error) {
	d, err := c.DescribeTaskQueue(ctx, queue, enumspb.TASK_QUEUE_TYPE_ACTIVITY)
	if err != nil {
		return []string{}, fmt.Errorf("task queue %s: %w", queue, err)
	}
	out := []string{}
	for _, p := range d.GetPollers() {
		out = append(out, p.GetIdentity())
	}
	sort.Strings(out)
	return out, nil
}

func stateName(s enumspb.WorkflowExecutionStatus) string {
	switch s {
	case enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING:
		return "running"
	case enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		return "completed"
	case enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED:
		return "cancelled"
	case enumspb.WORKFLOW_EXECUTION_STATUS_FAILED:
		return "failed"
	case enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED:
		return "terminated"
	case enumspb.WORKFLOW_EXECUTION_STATUS_TIMED_OUT:
		return "timed_out"
	}
	return strings.ToLower(s.String())
}

// Results are the sweep's task records: the earlier sweep's, then the
// finished ones.
func Results(rep Report) []benchmarks.TaskResult {
	out := append([]benchmarks.TaskResult(nil), rep.Spec.Previous...)
	for _, o := range rep.Outcomes {
		out = append(out, o.Result)
	}
	return out
}

// Summarize builds the sweep's summary, as the local engine writes it.
// Parallel is the most tasks that ran at once.
func Summarize(rep Report) benchmarks.Summary {
	sum := benchmarks.Summarize(Results(rep))
	sum.Engine, sum.Sweep = EngineName, rep.Spec.ID
	sum.TasksDir, sum.Config, sum.Filter, sum.Repeat = rep.Spec.TasksDir, rep.Spec.Config, rep.Spec.Filter, rep.Spec.Repeat
	sum.Parallel = peakConcurrency(rep.Outcomes)
	sum.StartedAt, sum.FinishedAt = rep.Started.UTC(), rep.Finished.UTC()
	sum.WallSeconds = rep.Finished.Sub(rep.Started).Seconds()
	return sum
}

// peakConcurrency is the most attempts whose [Started, Finished] overlap.
func peakConcurrency(outs []Outcome) int {
	type edge struct {
		t     time.Time
		delta int
	}
	var edges []edge
	for _, o := range outs {
		if o.Started.IsZero() || o.Finished.IsZero() {
			continue
		}
		edges = append(edges, edge{o.Started, 1}, edge{o.Finished, -1})
	}
	sort.Slice(edges, func(i, j int) bool {
		if edges[i].t.Equal(edges[j].t) {
			return edges[i].delta < edges[j].delta
		}
		return edges[i].t.Before(edges[j].t)
	})
	peak, cur := 0, 0
	for _, e := range edges {
		cur += e.delta
		peak = max(peak, cur)
	}
	return max(peak, 1)
}

// RefFile, in a sweep's output directory, names the cluster sweep that
// writes there.
const RefFile = "sweep.json"

// Ref is RefFile: the sweep and the server it runs on.
type Ref struct {
	Sweep     string `json:"sweep"`
	Temporal  string `json:"temporal"`
	Namespace string `json:"namespace"`
	TaskQueue string `json:"task_queue"`
}

// WriteRef writes out/sweep.json.
func WriteRef(out string, r Ref) error { return writeJSON(filepath.Join(out, RefFile), r) }

// ReadRef reads out/sweep.json.
func ReadRef(out string) (Ref, bool) {
	data, err := os.ReadFile(filepath.Join(out, RefFile))
	if err != nil {
		return Ref{}, false
	}
	var r Ref
	if json.Unmarshal(data, &r) != nil || r.Sweep == "" {
		return Ref{}, false
	}
	return r, true
}

// ReportFile is the cluster's account of a sweep in its output directory:
// which worker ran each task, in how many attempts, and where the time
// went.
const ReportFile = "cluster.json"

// Write writes a sweep's output directory as the local engine does: one
// record per task under tasks/, each run's workspace under runs/ (from its
// archive in the bank), summary.json/csv/md, plus cluster.json. A
// workspace that cannot be restored is reported after everything else is
// written.
func Write(ctx context.Context, b Blobs, rep Report, out string) (benchmarks.Summary, error) {
	for _, d := range []string{benchmarks.TasksDir, benchmarks.RunsDir} {
		if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
			return benchmarks.Summary{}, fmt.Errorf("create sweep output: %w", err)
		}
	}
	var errs []error
	for i := range rep.Outcomes {
		o := &rep.Outcomes[i]
		if o.Archive == "" {
			continue
		}
		ws := filepath.Join(out, benchmarks.RunsDir, jobDir(o.Result.ID))
		if err := os.RemoveAll(ws); err != nil {
			errs = append(errs, err)
			continue
		}
		data, err := b.Blob(ctx, o.Archive)
		if err == nil {
			err = candidates.Unpack(data, ws, candidates.DefaultBundleLimit)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("task %s: workspace: %w", o.Result.ID, err))
			continue
		}
		o.Result.Workspace = ws
	}
	for _, r := range Results(rep) {
		if err := writeJSON(recordPath(out, r.ID), r); err != nil {
			return benchmarks.Summary{}, err
		}
	}
	sum := Summarize(rep)
	if err := benchmarks.WriteSummary(out, sum); err != nil {
		return sum, err
	}
	if err := writeJSON(filepath.Join(out, ReportFile), rep); err != nil {
		return sum, err
	}
	return sum, errors.Join(errs...)
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'), 0o644)
}
