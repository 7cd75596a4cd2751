package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent/synth"
	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/benchmarks"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/atomicfile"
	"github.com/reconstruct/reconstruct/internal/procmem"
	"github.com/reconstruct/reconstruct/oracle"
	"github.com/reconstruct/reconstruct/runner"
	"github.com/reconstruct/reconstruct/workflow"
)

// Worker runs a sweep's tasks on this machine: Temporal's activities. Runs
// are recorded in the shared bank; a task's directory is fetched from it
// into Workdir, and its workspace lives in Workdir while it runs.
type Worker struct {
	Bank *bank.Bank
	// Workdir holds tasks/ (the task directories, by tree) and runs/ (the
	// workspaces of running tasks).
	Workdir string
	// Identity names the worker in heartbeats, outcomes and logs.
	Identity string
	// Getenv reads the machine's RECONSTRUCT_* settings (nil: none).
	Getenv func(string) string
	Log    *zap.Logger
	// Synth holds the synthesizer's lambda banks, shared by the tasks
	// this worker runs (Serve makes one when nil).
	Synth *synth.Shared

	// handBack, when done, makes running tasks stop at their next safe
	// point and return to the queue (a worker stopping for good).
	handBack context.Context
	unpack   sync.Mutex
	// mem samples the worker's memory while tasks run (nil: a task's
	// memory is read when it starts and ends only).
	mem *procmem.Watch
}

// taskError is a failure caused by the task or its configuration: it is
// not retried.
type taskError struct{ err error }

func (e *taskError) Error() string { return e.err.Error() }
func (e *taskError) Unwrap() error { return e.err }

func asTaskError(err error) error {
	if err == nil {
		return nil
	}
	return &taskError{err}
}

// RunTask is the activity: run one job (or continue the run an earlier
// attempt started), store its workspace in the bank, score it on the
// held-out tests and return its record.
func (w *Worker) RunTask(ctx context.Context, in TaskInput) (out Outcome, err error) {
	start := time.Now().UTC()
	out = Outcome{Worker: w.Identity, Attempt: 1, Started: start}
	var hbTimeout time.Duration
	if activity.IsActivity(ctx) {
		info := activity.GetInfo(ctx)
		out.Attempt, hbTimeout = int(info.Attempt), info.HeartbeatTimeout
		if !info.ScheduledTime.IsZero() {
			out.Timing.Queued = max(0, start.Sub(info.ScheduledTime).Seconds())
		}
	}
	log := w.log().With(zap.String("sweep", in.Sweep), zap.String("job", in.Job.ID), zap.Int("attempt", out.Attempt))
	beat := startHeartbeat(ctx, w.Identity, hbTimeout)
	defer beat.stop()
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if w.handBack != nil {
		defer context.AfterFunc(w.handBack, cancel)()
	}
	log.Info("task started", zap.String("run", in.Job.RunID), zap.String("worker", w.Identity))
	defer func() {
		if p := recover(); p != nil {
			out.Result.Error = fmt.Sprintf("panic: %v\n%s", p, debug.Stack())
			err = temporal.NewNonRetryableApplicationError(out.Result.Error, ErrTask, nil, out.Result)
		}
		out.Finished = time.Now().UTC()
		log.Info("task ended", zap.Bool("solved", out.Result.Solved), zap.Error(err))
	}()
	cpu0, kids0 := procmem.CPU()
	span := w.mem.Begin()
	r, err := w.runTask(runCtx, in, &out, beat, log)
	out.Result = r
	out.Result.WallSeconds = time.Since(start).Seconds()
	// As in a local sweep: the worker's process, the tasks running beside
	// this one included.
	cpu, kids := procmem.CPU()
	out.Result.CPUSeconds, out.Result.SandboxCPUSeconds = (cpu - cpu0).Seconds(), (kids - kids0).Seconds()
	peak := span.End()
	out.Result.PeakRSSBytes, out.Result.PeakHeapBytes = peak.RSS, peak.Heap
	var te *taskError
	switch {
	case err == nil:
		return out, nil
	case ctx.Err() != nil:
		// The sweep cancelled the task, or the attempt timed out: the run
		// recorded what it did; a new attempt continues it.
		return out, ctx.Err()
	case runCtx.Err() != nil:
		return out, temporal.NewApplicationError(fmt.Sprintf("handed back by worker %s as it stopped", w.Identity), ErrHandBack, out.Result)
	case errors.As(err, &te):
		return out, temporal.NewNonRetryableApplicationError(err.Error(), ErrTask, nil, out.Result)
	}
	// The details tell the sweep what is known of the task, should this be
	// the last attempt.
	return out, temporal.NewApplicationError(err.Error(), ErrInfra, out.Result)
}

func (w *Worker) log() *zap.Logger {
	if w.Log == nil {
		return zap.NewNop()
	}
	return w.Log
}

// runTask does the job; a *taskError is final, any other error is worth
// another attempt.
func (w *Worker) runTask(ctx context.Context, in TaskInput, out *Outcome, beat *heartbeat, log *zap.Logger) (benchmarks.TaskResult, error) {
	j := in.Job
	r := benchmarks.TaskResult{ID: j.ID, Name: j.Task, Repeat: j.Repeat, RunID: j.RunID, ConfigSHA256: j.ConfigSHA256,
		TaskSHA256: j.TaskSHA256, TaskFiles: j.TaskFiles, Rerun: j.Rerun}
	t0 := time.Now()
	dir, base, err := w.fetch(ctx, in)
	if err != nil {
		return r, err
	}
	out.Timing.Fetch = time.Since(t0).Seconds()
	ws := filepath.Join(w.Workdir, "runs", in.Sweep, jobDir(j.ID))
	var overlays []string
	if base != "" {
		overlays = []string{base}
	}
	getenv := w.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	c, err := config.Load(config.Options{File: filepath.Join(dir, "task.yaml"), Overlays: overlays, Env: true,
		Getenv:   func(k string) string { return envOr(in.Env, k, getenv) },
		Override: map[string]any{"workspace": ws, "bank.enabled": true, "task.heldout": ""}, Repeat: j.Repeat})
	if err != nil {
		return r, asTaskError(err)
	}
	r.Name, r.Level, r.Family, r.Kind = c.Task.Name, c.Task.Level, c.Task.Family, c.Task.Kind
	r.Settings = benchmarks.EffectiveSettings(c)

	t0 = time.Now()
	beat.phase("run")
	res, resumed, err := w.run(ctx, in, c, beat, log)
	out.Timing.Run, out.Resumed = time.Since(t0).Seconds(), resumed
	if res != nil {
		r.FromRun(res)
	}
	if err != nil {
		if errors.Is(err, runner.ErrConfig) || errors.Is(err, oracle.ErrTask) {
			return r, asTaskError(err)
		}
		return r, err
	}
	// The run stored its workspace in the bank as it ended (runner).
	if _, h, err := runner.RunArchive(ctx, w.Bank, res.RunID); err == nil {
		out.Archive = h
	} else {
		log.Warn("the run's workspace is not in the bank", zap.Error(err))
	}

	t0 = time.Now()
	beat.phase("score")
	if err := w.score(ctx, c, j, res.FinalProgram, &r, log); err != nil {
		return r, err
	}
	out.Timing.Score = time.Since(t0).Seconds()
	if err := os.RemoveAll(ws); err != nil {
		log.Warn("remove the finished task's workspace", zap.Error(err))
	}
	return r, nil
}

// fetch makes the job's task directory (and the base configuration) exist
// in the workdir and returns their paths.
func (w *Worker) fetch(ctx context.Context, in TaskInput) (dir, base string, err error) {
	if _, err := w.Bank.Blob(ctx, in.Job.Tree); err != nil {
		if errors.Is(err, bank.ErrNotFound) {
			return "", "", fmt.Errorf("task %s: its directory (tree %s) is not in this worker's bank: start the worker with the bank the sweep was submitted to", in.Job.ID, short(in.Job.Tree))
		}
		return "", "", fmt.Errorf("task %s: %w", in.Job.ID, err)
	}
	w.unpack.Lock()
	defer w.unpack.Unlock()
	dir = filepath.Join(w.Workdir, "tasks", short(in.Job.Tree))
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		if err := restoreTree(ctx, w.Bank, in.Job.Tree, dir); err != nil {
			return "", "", fmt.Errorf("task %s: %w", in.Job.ID, err)
		}
	}
	if in.Base == "" {
		return dir, "", nil
	}
	base = filepath.Join(w.Workdir, "tasks", "base-"+short(in.Base)+".yaml")
	if _, err := os.Stat(base); errors.Is(err, os.ErrNotExist) {
		data, err := w.Bank.Blob(ctx, in.Base)
		if err != nil {
			return "", "", fmt.Errorf("the sweep's base configuration: %w", err)
		}
		if err := atomicfile.Write(base, data, 0o644); err != nil {
			return "", "", err
		}
	}
	return dir, base, nil
}

// run starts the job's run, or continues the one an earlier attempt
// started: from its last checkpoint in the bank, in a workspace restored
// from its last snapshot, so that no example is asked again. A run that
// had already finished is read back (one killed during its final
// selection is continued: it completes it). A run that cannot be continued
// (stopped by an infrastructure failure, or killed before it recorded its
// start) is replaced by a new one under the next run id of the job.
func (w *Worker) run(ctx context.Context, in TaskInput, c *config.Config, beat *heartbeat, log *zap.Logger) (res *workflow.Result, resumed bool, err error) {
	prev, events, gen, err := w.latestRun(ctx, c.Task.Name, in.Job.RunID)
	if err != nil {
		return nil, false, err
	}
	snap := &snapshotter{bank: w.Bank, trees: newTreeWriter(w.Bank), sweep: in.Sweep, job: in.Job.ID, workspace: c.Workspace, beat: beat}
	opts := runner.Options{Log: log, Bank: w.Bank, Recorders: []workflow.Recorder{snap}, Config: c, Synth: w.Synth}
	fresh := func(runID string) (*workflow.Result, bool, error) {
		if err := os.RemoveAll(c.Workspace); err != nil {
			return nil, false, err
		}
		opts.RunID = runID
		beat.run(runID)
		res, err := runner.Run(ctx, c, opts)
		return res, false, err
	}
	if prev == "" {
		return fresh(in.Job.RunID)
	}
	if len(events) == 0 {
		log.Warn("an earlier attempt was lost before its run started; starting a new run", zap.String("run", prev))
		return fresh(generation(in.Job.RunID, gen+1))
	}
	if workflow.Finished(events) {
		res, err := w.finishedRun(ctx, prev, events)
		return res, true, err
	}
	tree, err := lastTree(ctx, w.Bank, in.Sweep, EventSnapshot, prev)
	if err != nil {
		return nil, false, err
	}
	if err := os.RemoveAll(c.Workspace); err != nil {
		return nil, false, err
	}
	if tree != "" {
		err = restoreTree(ctx, w.Bank, tree, c.Workspace)
	} else {
		err = os.MkdirAll(c.Workspace, 0o755)
	}
	if err != nil {
		return nil, false, fmt.Errorf("restore the workspace of run %s: %w", prev, err)
	}
	log.Info("resuming the run of an earlier attempt", zap.String("run", prev))
	beat.run(prev)
	res, err = runner.Resume(ctx, "", prev, opts)
	if errors.Is(err, workflow.ErrFinished) {
		log.Warn("the run stopped and cannot be continued; starting a new run", zap.String("run", prev), zap.Error(err))
		return fresh(generation(in.Job.RunID, gen+1))
	}
	return res, true, err
}

// latestRun finds the newest run of a job in the bank: its id ("" when no
// attempt started one), its events, and its generation (1 for the job's
// own run id, k for the k-th replacement).
func (w *Worker) latestRun(ctx context.Context, taskName, runID string) (string, []workflow.Event, int, error) {
	prev, gen := "", 0
	var prevEvents []workflow.Event
	for k := 1; ; k++ {
		id := generation(runID, k)
		events, err := runner.RunEvents(ctx, w.Bank, runner.RunWorkspaceName(taskName, id))
		if errors.Is(err, bank.ErrNotFound) {
			return prev, prevEvents, gen, nil
		}
		if err != nil {
			return "", nil, 0, fmt.Errorf("look up run %s: %w", id, err)
		}
		prev, prevEvents, gen = id, events, k
	}
}

// generation is the run id of a job's k-th run.
func generation(runID string, k int) string {
	if k <= 1 {
		return runID
	}
	return runID + "-" + strconv.Itoa(k)
}

// stopOf returns the stop reason of a run that recorded its stop.
func stopOf(events []workflow.Event) (string, bool) {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type != workflow.EventStop {
			continue
		}
		var d struct {
			Reason string `json:"reason"`
		}
		_ = json.Unmarshal(events[i].Data, &d)
		return d.Reason, true
	}
	return "", false
}

// finishedRun reads back a run that finished before its attempt could
// report it (a worker lost while scoring, say).
func (w *Worker) finishedRun(ctx context.Context, run string, events []workflow.Event) (*workflow.Result, error) {
	info, err := runner.ShowRun(ctx, w.Bank, run)
	if err != nil {
		return nil, err
	}
	res := &workflow.Result{RunID: info.RunID, StopReason: info.StopReason, Error: info.Error, Iterations: info.Iterations,
		Promotions: info.Promotions, KnownExamples: info.Known, Tokens: info.Tokens}
	if info.FinalScore != nil {
		res.FinalScore = *info.FinalScore
	}
	for _, ev := range events {
		if ev.Type != workflow.EventFinal {
			continue
		}
		var d struct {
			Source string `json:"source"`
		}
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			return nil, fmt.Errorf("run %s: final event: %w", run, err)
		}
		res.FinalProgram = d.Source
	}
	return res, nil
}

// score runs the final program on the held-out tests, which come from the
// bank straight to the scoring sandbox: they never touch a workspace.
func (w *Worker) score(ctx context.Context, c *config.Config, j Job, program string, r *benchmarks.TaskResult, log *zap.Logger) error {
	data, err := w.Bank.Blob(ctx, j.Heldout)
	if err != nil {
		return fmt.Errorf("task %s: held-out tests: %w", j.ID, err)
	}
	tests, err := benchmarks.ParseTests(j.Task+"/heldout.jsonl", data)
	if err != nil {
		return asTaskError(err)
	}
	r.HeldoutTotal = len(tests)
	if program == "" {
		return nil
	}
	box, err := runner.OpenScoringSandbox(ctx, c.Sandbox, log)
	if err != nil {
		return err
	}
	defer box.Close()
	sc, err := benchmarks.ScoreProgram(ctx, box, program, c.Task.FunctionName, tests, c.Sandbox.Limits(), c.Workflow.Atol)
	if err != nil {
		return err
	}
	r.HeldoutAccuracy, r.HeldoutPassed = sc.Accuracy, sc.Passed
	r.Solved = sc.Passed == sc.Total
	return nil
}

// jobDir is a job's file name (repeats carry '#').
func jobDir(id string) string { return strings.ReplaceAll(id, "#", "_") }

// short is a blob hash cut to a file name.
func short(hash string) string {
	_, h, found := strings.Cut(hash, ":")
	if !found {
		h = hash
	}
	return h[:min(len(h), 16)]
}

func envOr(env map[string]string, key string, getenv func(string) string) string {
	if v, ok := env[key]; ok {
		return v
	}
	return getenv(key)
}

// heartbeat reports a running task's position to Temporal at a steady
// pace (cancellation reaches an activity through its heartbeats) and at
// every event of the run.
type heartbeat struct {
	ctx  context.Context
	mu   sync.Mutex
	hb   Heartbeat
	done chan struct{}
	wg   sync.WaitGroup
}

func startHeartbeat(ctx context.Context, worker string, timeout time.Duration) *heartbeat {
	h := &heartbeat{ctx: ctx, hb: Heartbeat{Worker: worker, Phase: "fetch"}, done: make(chan struct{})}
	if !activity.IsActivity(ctx) {
		return h
	}
	every := 10 * time.Second
	if timeout > 0 {
		every = max(timeout/4, 100*time.Millisecond)
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			h.send()
			select {
			case <-h.done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return h
}

func (h *heartbeat) send() {
	if !activity.IsActivity(h.ctx) {
		return
	}
	h.mu.Lock()
	hb := h.hb
	h.mu.Unlock()
	activity.RecordHeartbeat(h.ctx, hb)
}

func (h *heartbeat) update(f func(*Heartbeat)) {
	h.mu.Lock()
	f(&h.hb)
	h.mu.Unlock()
}

func (h *heartbeat) phase(p string)   { h.update(func(hb *Heartbeat) { hb.Phase = p }) }
func (h *heartbeat) run(runID string) { h.update(func(hb *Heartbeat) { hb.RunID = runID }) }

// event notes a run's event; a checkpoint is reported at once.
func (h *heartbeat) event(ev workflow.Event) {
	h.update(func(hb *Heartbeat) { hb.RunID, hb.Iteration = ev.RunID, ev.Iteration })
	if ev.Type == workflow.EventIterationFinished || ev.Type == workflow.EventBatchGranted {
		h.send()
	}
}

func (h *heartbeat) stop() {
	close(h.done)
	h.wg.Wait()
}
