package cluster

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent/synth"
	"github.com/reconstruct/reconstruct/benchmarks"
	"github.com/reconstruct/reconstruct/internal/procmem"
)

// ServeOptions configure Serve.
type ServeOptions struct {
	TaskQueue string
	// Parallel is how many tasks run at once.
	Parallel int
	// DrainTimeout is how long running tasks may take to finish once the
	// worker is asked to stop, before they are handed back.
	DrainTimeout time.Duration
	// Status gets one line when the worker starts and when it stops
	// (stderr); nil for none.
	Status io.Writer
}

// DefaultIdentity names a worker after its process and host.
func DefaultIdentity() string {
	host, err := os.Hostname()
	if err != nil {
		host = "unknown-host"
	}
	return fmt.Sprintf("%d@%s", os.Getpid(), host)
}

// Serve runs the sweeps' workflow and tasks on this machine until ctx is
// done; then it takes no new task and lets the running ones finish,
// recorded and reported. When handBack is closed, or DrainTimeout passes,
// the running tasks stop at their next safe point instead, everything so
// far recorded, and go back to the queue, where another worker continues
// their runs. Serve returns once nothing runs.
func Serve(ctx context.Context, c client.Client, w *Worker, opts ServeOptions, handBack <-chan struct{}) error {
	if w.Identity == "" {
		w.Identity = DefaultIdentity()
	}
	if w.Synth == nil {
		w.Synth = synth.NewShared(synth.SharedOptions{})
	}
	if err := os.MkdirAll(w.Workdir, 0o755); err != nil {
		return fmt.Errorf("worker directory: %w", err)
	}
	hb, handBackNow := context.WithCancel(context.Background())
	defer handBackNow()
	w.handBack = hb
	w.mem = procmem.Start(benchmarks.MemSampleEvery)
	defer w.mem.Stop()
	tw := worker.New(c, opts.TaskQueue, worker.Options{
		MaxConcurrentActivityExecutionSize: max(1, opts.Parallel),
		// Serve hands the tasks back itself; the SDK's own deadline only
		// bounds how long they take to stop.
		WorkerStopTimeout: opts.DrainTimeout + time.Minute,
		Identity:          w.Identity,
	})
	tw.RegisterWorkflowWithOptions(SweepWorkflow, workflowRegisterOptions())
	tw.RegisterActivityWithOptions(w.RunTask, activity.RegisterOptions{Name: ActivityName})
	if err := tw.Start(); err != nil {
		return fmt.Errorf("start worker: %w", err)
	}
	status(opts.Status, "worker %s: running up to %d tasks at once from task queue %s; stop it with SIGTERM or Ctrl-C", w.Identity, max(1, opts.Parallel), opts.TaskQueue)
	<-ctx.Done()
	status(opts.Status, "worker %s: stopping: running tasks finish within %s (signal again to hand them back now)", w.Identity, opts.DrainTimeout)
	stopped := make(chan struct{})
	go func() {
		t := time.NewTimer(opts.DrainTimeout)
		defer t.Stop()
		select {
		case <-stopped:
			return
		case <-handBack:
		case <-t.C:
		}
		w.log().Warn("handing the running tasks back", zap.String("worker", w.Identity))
		status(opts.Status, "worker %s: handing the running tasks back", w.Identity)
		handBackNow()
	}()
	tw.Stop()
	close(stopped)
	status(opts.Status, "worker %s: stopped", w.Identity)
	return nil
}

func workflowRegisterOptions() workflow.RegisterOptions {
	return workflow.RegisterOptions{Name: WorkflowName}
}

func status(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}
