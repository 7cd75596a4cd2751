package cluster

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/reconstruct/reconstruct/benchmarks"
)

// events builds a workflow history the way the server records one.
type events struct {
	t   *testing.T
	evs []*historypb.HistoryEvent
	at  time.Time
}

func (e *events) payloads(v any) *commonpb.Payloads {
	p, err := dataConverter.ToPayloads(v)
	if err != nil {
		e.t.Fatal(err)
	}
	return p
}

func (e *events) add(typ enumspb.EventType, set func(ev *historypb.HistoryEvent)) int64 {
	e.at = e.at.Add(time.Second)
	ev := &historypb.HistoryEvent{EventId: int64(len(e.evs) + 1), EventType: typ, EventTime: timestamppb.New(e.at)}
	set(ev)
	e.evs = append(e.evs, ev)
	return ev.EventId
}

// task records a scheduled task, its last attempt's start, and its end.
func (e *events) task(id string, attempt int32, end func(scheduled int64) (enumspb.EventType, func(*historypb.HistoryEvent))) {
	sched := e.add(enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, func(ev *historypb.HistoryEvent) {
		ev.Attributes = &historypb.HistoryEvent_ActivityTaskScheduledEventAttributes{ActivityTaskScheduledEventAttributes: &historypb.ActivityTaskScheduledEventAttributes{ActivityId: id}}
	})
	e.add(enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED, func(ev *historypb.HistoryEvent) {
		ev.Attributes = &historypb.HistoryEvent_ActivityTaskStartedEventAttributes{ActivityTaskStartedEventAttributes: &historypb.ActivityTaskStartedEventAttributes{ScheduledEventId: sched, Attempt: attempt}}
	})
	if end != nil {
		typ, set := end(sched)
		e.add(typ, set)
	}
}

func (e *events) completed(out Outcome) func(int64) (enumspb.EventType, func(*historypb.HistoryEvent)) {
	return func(sched int64) (enumspb.EventType, func(*historypb.HistoryEvent)) {
		return enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, func(ev *historypb.HistoryEvent) {
			ev.Attributes = &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{ScheduledEventId: sched, Result: e.payloads(out)}}
		}
	}
}

func (e *events) failed(err error) func(int64) (enumspb.EventType, func(*historypb.HistoryEvent)) {
	f := temporal.GetDefaultFailureConverter().ErrorToFailure(err)
	return func(sched int64) (enumspb.EventType, func(*historypb.HistoryEvent)) {
		return enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED, func(ev *historypb.HistoryEvent) {
			ev.Attributes = &historypb.HistoryEvent_ActivityTaskFailedEventAttributes{ActivityTaskFailedEventAttributes: &historypb.ActivityTaskFailedEventAttributes{ScheduledEventId: sched, Failure: f}}
		}
	}
}

func (e *events) timedOut(err error) func(int64) (enumspb.EventType, func(*historypb.HistoryEvent)) {
	f := temporal.GetDefaultFailureConverter().ErrorToFailure(err)
	return func(sched int64) (enumspb.EventType, func(*historypb.HistoryEvent)) {
		return enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT, func(ev *historypb.HistoryEvent) {
			ev.Attributes = &historypb.HistoryEvent_ActivityTaskTimedOutEventAttributes{ActivityTaskTimedOutEventAttributes: &historypb.ActivityTaskTimedOutEventAttributes{ScheduledEventId: sched, Failure: f}}
		}
	}
}

func TestHistoryTurnsEventsIntoOutcomes(t *testing.T) {
	spec := testSpec("solved", "flaky", "bad_config", "lost", "running")
	spec.Previous = []benchmarks.TaskResult{{ID: "earlier", Solved: true}}
	e := &events{t: t, at: time.Unix(1000, 0)}
	e.add(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, func(ev *historypb.HistoryEvent) {
		ev.Attributes = &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{Input: e.payloads(spec)}}
	})
	e.task("solved", 1, e.completed(Outcome{Result: benchmarks.TaskResult{ID: "solved", Solved: true}, Worker: "w1", Attempt: 1}))
	e.task("flaky", 3, e.failed(temporal.NewApplicationError("endpoint down", ErrInfra, benchmarks.TaskResult{ID: "flaky", Name: "flaky", Level: "hard"})))
	e.task("bad_config", 1, e.failed(temporal.NewNonRetryableApplicationError("task.kind: unknown kind", ErrTask, nil)))
	e.task("lost", 2, e.timedOut(temporal.NewTimeoutError(enumspb.TIMEOUT_TYPE_HEARTBEAT, nil)))
	e.task("running", 1, nil)

	h := newHistory()
	var ended []string
	for _, ev := range e.evs {
		out, err := h.add(ev)
		if err != nil {
			t.Fatal(err)
		}
		if out != nil {
			ended = append(ended, out.Result.ID+": "+out.Result.Error)
		}
	}
	want := []string{
		"solved: ",
		"flaky: endpoint down (gave up after 3 attempts)",
		"bad_config: task.kind: unknown kind",
		"lost: no worker finished the task: heartbeat (the worker was lost) timeout (gave up after 2 attempts)",
	}
	if diff := cmp.Diff(want, ended); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if h.closed || h.rep.Outcomes[1].Result.Level != "hard" || h.rep.Outcomes[1].Attempt != 3 {
		t.Errorf("closed %v, flaky outcome %+v", h.closed, h.rep.Outcomes[1])
	}
	if got := len(Results(h.rep)); got != 5 {
		t.Errorf("%d records, want 5 (one earlier, four ended)", got)
	}

	// How the sweep closed.
	tests := []struct {
		name      string
		typ       enumspb.EventType
		set       func(ev *historypb.HistoryEvent)
		cancelled bool
		errPart   string
	}{
		{"completed", enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, func(ev *historypb.HistoryEvent) {
			ev.Attributes = &historypb.HistoryEvent_WorkflowExecutionCompletedEventAttributes{WorkflowExecutionCompletedEventAttributes: &historypb.WorkflowExecutionCompletedEventAttributes{Result: e.payloads(Finish{Cancelled: true})}}
		}, true, ""},
		{"terminated", enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED, func(ev *historypb.HistoryEvent) {
			ev.Attributes = &historypb.HistoryEvent_WorkflowExecutionTerminatedEventAttributes{WorkflowExecutionTerminatedEventAttributes: &historypb.WorkflowExecutionTerminatedEventAttributes{Reason: "operator"}}
		}, false, "terminated: operator"},
		{"timed out", enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT, func(*historypb.HistoryEvent) {}, false, "timed out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHistory()
			for _, ev := range e.evs {
				if _, err := h.add(ev); err != nil {
					t.Fatal(err)
				}
			}
			ev := &historypb.HistoryEvent{EventId: 99, EventType: tt.typ, EventTime: timestamppb.New(e.at.Add(time.Minute))}
			tt.set(ev)
			if _, err := h.add(ev); err != nil {
				t.Fatal(err)
			}
			if !h.closed || h.rep.Cancelled != tt.cancelled || (tt.errPart == "") != (h.closeErr == nil) ||
				h.closeErr != nil && !strings.Contains(h.closeErr.Error(), tt.errPart) {
				t.Errorf("closed %v cancelled %v error %v; want cancelled %v error %q", h.closed, h.rep.Cancelled, h.closeErr, tt.cancelled, tt.errPart)
			}
			if got, want := h.rep.Finished.Sub(h.rep.Started), e.at.Add(time.Minute).Sub(e.evs[0].EventTime.AsTime()); got != want {
				t.Errorf("the sweep took %s by its history, want %s", got, want)
			}
		})
	}
}

func TestHistoryRefusesForeignTasks(t *testing.T) {
	e := &events{t: t, at: time.Unix(0, 0)}
	e.add(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, func(ev *historypb.HistoryEvent) {
		ev.Attributes = &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{Input: e.payloads(testSpec("a"))}}
	})
	e.task("b", 1, nil)
	h := newHistory()
	var err error
	for _, ev := range e.evs {
		if _, err = h.add(ev); err != nil {
			break
		}
	}
	if err == nil || !strings.Contains(err.Error(), `task "b" is not in the sweep`) {
		t.Errorf("err = %v", err)
	}
}
