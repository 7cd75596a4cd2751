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
	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/benchmarks"
	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/internal/atomicfile"
	"github.com/reconstruct/reconstruct/workflow"
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

// Follow reports the sweep's tasks to p as they finish, from the
// workflow's history as it grows, and returns the sweep's report once it
// has closed; the error says how, when it did not complete (the report
// holds the tasks that had finished). It needs no worker: the history is
// the server's. Cancelling ctx stops following, not the sweep.
func Follow(ctx context.Context, c client.Client, id string, p benchmarks.Progress) (Report, error) {
	if _, err := c.DescribeWorkflowExecution(ctx, id, ""); err != nil {
		return Report{}, sweepError(id, err)
	}
	f := follower{p: p}
	defer f.stop()
	h, err := scan(ctx, c, id, true, func(h *history, out *Outcome) {
		if h.started && !f.started {
			f.start(len(h.rep.Spec.Jobs)+len(h.rep.Spec.Previous), h.rep.Spec.Previous)
		}
		if out != nil {
			f.finish(out.Result)
		}
	})
	switch {
	case err != nil:
		return Report{}, err
	case !h.closed:
		return Report{}, fmt.Errorf("sweep %s: its history ended before the sweep did", id)
	}
	return h.rep, h.closeErr
}

// scan reads the sweep's history, calling each after every event with
// the outcome of a task that ended there; when follow is set it waits for
// new events until the sweep closes.
func scan(ctx context.Context, c client.Client, id string, follow bool, each func(*history, *Outcome)) (*history, error) {
	h := newHistory()
	it := c.GetWorkflowHistory(ctx, id, "", follow, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return nil, sweepError(id, err)
		}
		out, err := h.add(ev)
		if err != nil {
			return nil, fmt.Errorf("sweep %s: %w", id, err)
		}
		if each != nil {
			each(h, out)
		}
	}
	return h, nil
}

// follower feeds a Progress once per finished task.
type follower struct {
	p            benchmarks.Progress
	started      bool
	done, solved int
}

func (f *follower) start(total int, previous []benchmarks.TaskResult) {
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

func (f *follower) finish(r benchmarks.TaskResult) {
	f.done++
	if r.Solved {
		f.solved++
	}
	if f.p != nil {
		f.p.Finished(r, f.done, f.solved)
	}
}

func (f *follower) stop() {
	if f.p != nil && f.started {
		f.p.Stop()
	}
}

// Status is where a sweep stands.
type Status struct {
	ID string `json:"id"`
	// State is running, completed, cancelled, failed, terminated or
	// timed_out (Temporal's workflow states).
	State   string    `json:"state"`
	Total   int       `json:"total"`
	Done    int       `json:"done"`
	Solved  int       `json:"solved"`
	Errors  int       `json:"errors"`
	Started time.Time `json:"started"`
	Closed  time.Time `json:"closed,omitzero"`
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

// GetStatus describes the sweep: its state and tasks from the server, the
// finished ones from its history.
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
			_ = dataConverter.FromPayloads(hd, &rt.Heartbeat)
		}
		if f := pa.GetLastFailure(); f != nil {
			rt.LastFailure = f.GetMessage()
		}
		st.Running = append(st.Running, rt)
	}
	sort.Slice(st.Running, func(i, j int) bool { return st.Running[i].Job < st.Running[j].Job })
	if info.GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		if st.Workers, err = pollers(ctx, c, st.TaskQueue); err != nil {
			return st, err
		}
		if d.GetWorkflowExtendedInfo().GetCancelRequested() {
			st.State = "cancelling"
		}
	}
	h, err := scan(ctx, c, id, false, nil)
	if err != nil {
		return st, err
	}
	st.Total = len(h.rep.Spec.Jobs) + len(h.rep.Spec.Previous)
	results := Results(h.rep)
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
		if err := restoreWorkspace(ctx, b, o.Archive, ws); err != nil {
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

// restoreWorkspace unpacks a run's workspace bundle into ws, with the
// journals readable by their owner only, as the run wrote them.
func restoreWorkspace(ctx context.Context, b Blobs, archive, ws string) error {
	data, err := b.Blob(ctx, archive)
	if err != nil {
		return err
	}
	if err := candidates.Unpack(data, ws, candidates.DefaultBundleLimit); err != nil {
		return err
	}
	for _, f := range []string{workflow.EventsFile, workflow.ExamplesFile, workflow.ResultFile} {
		if err := os.Chmod(filepath.Join(ws, f), workflow.JournalPerm); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}
