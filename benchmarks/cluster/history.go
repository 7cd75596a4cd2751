package cluster

import (
	"errors"
	"fmt"

	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	"github.com/reconstruct/reconstruct/benchmarks"
)

// history reads a sweep's workflow history, event by event: the spec from
// the start, which job each scheduled activity is, each job's end (its
// outcome, or the error of its last attempt), and how the sweep closed.
type history struct {
	rep     Report
	started bool
	// jobs by the id of their ActivityTaskScheduled event; attempts by
	// the same id, from the last ActivityTaskStarted.
	jobs     map[int64]Job
	attempts map[int64]int
	byID     map[string]Job
	closed   bool
	// closeErr is set when the sweep did not complete (failed,
	// terminated, timed out).
	closeErr error
}

func newHistory() *history {
	return &history{jobs: map[int64]Job{}, attempts: map[int64]int{}, byID: map[string]Job{}, rep: Report{Outcomes: []Outcome{}}}
}

var dataConverter = converter.GetDefaultDataConverter()

// add reads one event; it returns the outcome of a job that ended.
func (h *history) add(ev *historypb.HistoryEvent) (*Outcome, error) {
	switch ev.GetEventType() {
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
		if err := dataConverter.FromPayloads(ev.GetWorkflowExecutionStartedEventAttributes().GetInput(), &h.rep.Spec); err != nil {
			return nil, fmt.Errorf("the sweep's specification: %w", err)
		}
		for _, j := range h.rep.Spec.Jobs {
			h.byID[j.ID] = j
		}
		h.rep.Started, h.started = ev.GetEventTime().AsTime(), true
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
		id := ev.GetActivityTaskScheduledEventAttributes().GetActivityId()
		j, ok := h.byID[id]
		if !ok {
			return nil, fmt.Errorf("event %d: task %q is not in the sweep", ev.GetEventId(), id)
		}
		h.jobs[ev.GetEventId()] = j
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED:
		a := ev.GetActivityTaskStartedEventAttributes()
		h.attempts[a.GetScheduledEventId()] = int(a.GetAttempt())
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
		a := ev.GetActivityTaskCompletedEventAttributes()
		var out Outcome
		if err := dataConverter.FromPayloads(a.GetResult(), &out); err != nil {
			return nil, fmt.Errorf("event %d: a task's outcome: %w", ev.GetEventId(), err)
		}
		return h.end(&out)
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED:
		a := ev.GetActivityTaskFailedEventAttributes()
		return h.failed(ev, a.GetScheduledEventId(), a.GetFailure())
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT:
		a := ev.GetActivityTaskTimedOutEventAttributes()
		return h.failed(ev, a.GetScheduledEventId(), a.GetFailure())
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
		var fin Finish
		if err := dataConverter.FromPayloads(ev.GetWorkflowExecutionCompletedEventAttributes().GetResult(), &fin); err != nil {
			return nil, fmt.Errorf("the sweep's result: %w", err)
		}
		h.close(ev, nil)
		h.rep.Cancelled = fin.Cancelled
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED:
		h.close(ev, fmt.Errorf("the sweep failed: %w", failureError(ev.GetWorkflowExecutionFailedEventAttributes().GetFailure())))
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED:
		h.close(ev, fmt.Errorf("the sweep was terminated: %s", ev.GetWorkflowExecutionTerminatedEventAttributes().GetReason()))
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT:
		h.close(ev, errors.New("the sweep timed out"))
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED:
		h.close(ev, nil)
		h.rep.Cancelled = true
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
		h.close(ev, errors.New("the sweep continued as a new run, which this reconstruct does not follow"))
	}
	return nil, nil
}

func (h *history) end(out *Outcome) (*Outcome, error) {
	h.rep.Outcomes = append(h.rep.Outcomes, *out)
	return out, nil
}

// failed turns the failure of a job's last attempt into its outcome.
func (h *history) failed(ev *historypb.HistoryEvent, scheduled int64, f *failurepb.Failure) (*Outcome, error) {
	j, ok := h.jobs[scheduled]
	if !ok {
		return nil, fmt.Errorf("event %d: a task that was never scheduled", ev.GetEventId())
	}
	attempts := h.attempts[scheduled]
	if attempts == 0 {
		attempts = h.rep.Spec.Retry.MaxAttempts
	}
	out := failedOutcome(j, failureError(f), attempts)
	out.Finished = ev.GetEventTime().AsTime()
	return h.end(&out)
}

func (h *history) close(ev *historypb.HistoryEvent, err error) {
	h.closed, h.closeErr, h.rep.Finished = true, err, ev.GetEventTime().AsTime()
}

func failureError(f *failurepb.Failure) error {
	if f == nil {
		return errors.New("no failure recorded")
	}
	return temporal.GetDefaultFailureConverter().FailureToError(f)
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
