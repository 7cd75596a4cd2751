package cluster

import (
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/reconstruct/reconstruct/benchmarks"
)

// Retry back-off between attempts of a task.
const (
	retryInitial = time.Second
	retryMaximum = time.Minute
)

// SweepWorkflow runs a sweep: one activity per job, all scheduled at once
// (the workers' slots decide how many run), each retried by Temporal on an
// infrastructure failure. A job whose attempts are spent, or that failed
// for a task reason, is recorded with its error, as the local engine does.
// Cancelling the sweep cancels the running tasks (each records its run as
// far as it got) and completes with the tasks that had finished.
func SweepWorkflow(ctx workflow.Context, spec Spec) (Report, error) {
	rep := Report{Spec: spec, Outcomes: []Outcome{}, Started: workflow.Now(ctx)}
	if err := workflow.SetQueryHandler(ctx, QueryProgress, func(since int) (Progress, error) {
		p := Progress{Total: len(spec.Jobs) + len(spec.Previous), Since: since, Cancelling: ctx.Err() != nil}
		if since >= 0 && since < len(rep.Outcomes) {
			p.Finished = rep.Outcomes[since:]
		}
		return p, nil
	}); err != nil {
		return rep, err
	}
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
	sel := workflow.NewSelector(ctx)
	for _, j := range spec.Jobs {
		o := opts
		o.ActivityID = j.ID
		f := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, o), ActivityName,
			TaskInput{Sweep: spec.ID, Job: j, Base: spec.Base, Env: spec.Env})
		sel.AddFuture(f, func(f workflow.Future) {
			var out Outcome
			err := f.Get(ctx, &out)
			switch {
			case err == nil:
			case temporal.IsCanceledError(err):
				return // not finished: a new sweep into the same output runs it
			default:
				out = failedOutcome(j, err, spec.Retry.MaxAttempts)
				out.Finished = workflow.Now(ctx)
			}
			rep.Outcomes = append(rep.Outcomes, out)
		})
	}
	for range spec.Jobs {
		sel.Select(ctx)
	}
	rep.Cancelled = ctx.Err() != nil
	rep.Finished = workflow.Now(ctx)
	return rep, nil
}

// failedOutcome records a job whose last attempt failed: the task's error
// as the sweep summary shows it.
func failedOutcome(j Job, err error, attempts int) Outcome {
	r := benchmarks.TaskResult{ID: j.ID, Name: j.Task, Repeat: j.Repeat, RunID: j.RunID}
	out := Outcome{Attempt: attempts}
	var app *temporal.ApplicationError
	var timeout *temporal.TimeoutError
	if errors.As(err, &app) {
		// The details hold what the worker knew of the task.
		var partial benchmarks.TaskResult
		if app.HasDetails() && app.Details(&partial) == nil && partial.ID == j.ID {
			r = partial
		}
	}
	switch {
	case app != nil && app.Type() == ErrTask:
		// A task error is final at its first attempt.
		r.Error = app.Message()
		out.Attempt = 1
	case errors.As(err, &timeout):
		r.Error = fmt.Sprintf("no worker finished the task: %s timeout (gave up after %d attempts)", timeoutName(timeout), attempts)
	case app != nil:
		r.Error = fmt.Sprintf("%s (gave up after %d attempts)", app.Message(), attempts)
	default:
		r.Error = err.Error()
	}
	out.Result = r
	return out
}

func timeoutName(t *temporal.TimeoutError) string {
	switch t.TimeoutType() {
	case enumspb.TIMEOUT_TYPE_HEARTBEAT:
		return "heartbeat (the worker was lost)"
	case enumspb.TIMEOUT_TYPE_START_TO_CLOSE:
		return "task_timeout"
	}
	return t.TimeoutType().String()
}
