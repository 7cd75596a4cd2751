package cluster

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// Retry back-off between attempts of a task.
const (
	retryInitial = time.Second
	retryMaximum = time.Minute
)

// SweepWorkflow runs a sweep: one activity per job, all scheduled at once
// (the workers' slots decide how many run), each retried by Temporal on an
// infrastructure failure. Each job's end — its outcome, or the error of
// its last attempt — is an event of the workflow's history, where Follow
// reads it; the workflow itself only waits for them all. Cancelling the
// sweep cancels the running tasks (each records its run as far as it got)
// and completes the sweep with the tasks that had finished.
func SweepWorkflow(ctx workflow.Context, spec Spec) (Finish, error) {
	opts := workflow.ActivityOptions{
		StartToCloseTimeout: spec.Retry.TaskTimeout,
		HeartbeatTimeout:    spec.Retry.HeartbeatTimeout,
		WaitForCancellation: true,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:        retryInitial,
			BackoffCoefficient:     2,
			MaximumInterval:        retryMaximum,
			MaximumAttempts:        int32(max(1, spec.Retry.MaxAttempts)),
			NonRetryableErrorTypes: []string{ErrTask},
		},
	}
	futures := make([]workflow.Future, len(spec.Jobs))
	for i, j := range spec.Jobs {
		o := opts
		o.ActivityID = j.ID
		futures[i] = workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, o), ActivityName,
			TaskInput{Sweep: spec.ID, Job: j, Base: spec.Base, Env: spec.Env})
	}
	for _, f := range futures {
		// A failed task is a result too: its error is in the history.
		_ = f.Get(ctx, nil)
	}
	return Finish{Cancelled: ctx.Err() != nil}, nil
}
