package workflow

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"
)

// crashAt stops recording after n events, as a killed process would.
type crashAt struct {
	memRecorder
	n int
}

var errCrash = errors.New("process killed")

func (c *crashAt) RecordEvent(ctx context.Context, ev Event) error {
	if len(c.events) >= c.n {
		return errCrash
	}
	return c.memRecorder.RecordEvent(ctx, ev)
}

// proposeAfter proposes fresh integers above every observed input, so a
// resumed agent proposes what the uninterrupted one would have.
func proposeAfter(req agent.ProposeRequest) []jsonRaw {
	top := 0
	for _, ex := range req.Examples {
		top = max(top, decodeInts(ex.Input)[0])
	}
	out := make([]jsonRaw, req.K)
	for i := range out {
		out[i] = jsonRaw(itoa(top + 1 + i))
	}
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestResumeFromEveryCrashPoint(t *testing.T) {
	s := settings(func(s *Settings) { s.CoverageGate = true; s.ComplexityGate = true })
	programs := []string{"square", "double#complexity:0.9", "double"}
	full := newHarness(t, programs...)
	full.agent.proposeFn = proposeAfter
	want, err := full.run(context.Background(), s, task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	total := len(full.rec.events)
	for n := 3; n < total-2; n++ {
		h := newHarness(t, programs...)
		h.agent.proposeFn = proposeAfter
		crash := &crashAt{n: n}
		h.rec = &crash.memRecorder
		spec := Spec{Task: task.Task{Name: "double", FunctionName: "solve", Kind: task.KindInt, Domain: &task.Domain{Lo: -1000, Hi: 100000}},
			Settings: s, Workspace: h.dir, RunID: "run-test-0001"}
		_, err := Run(context.Background(), spec, Deps{Agent: h.agent, Oracle: h.oracle, Evaluator: fakeEvaluator{}, Archive: h.archive, Recorders: []Recorder{crash}})
		if !errors.Is(err, errCrash) {
			t.Fatalf("crash after %d events: err = %v", n, err)
		}
		journal := append([]Event(nil), crash.events[:min(n, len(crash.events))]...)
		st, err := StateFromEvents(journal)
		if err != nil {
			t.Logf("crash after %d events (%s): %v", n, journal[len(journal)-1].Type, err)
			continue
		}
		// A new process: a fresh agent told where it was, the same archive.
		agent2 := &scriptAgent{programs: programs, proposeFn: proposeAfter}
		spec.Resume = st
		rec2 := &memRecorder{}
		got, err := Run(context.Background(), spec, Deps{Agent: agent2, Oracle: h.oracle, Evaluator: fakeEvaluator{}, Archive: h.archive, Recorders: []Recorder{rec2}})
		if err != nil {
			t.Fatalf("resume after %d events: %v", n, err)
		}
		opts := cmpopts.IgnoreFields(Result{}, "StartedAt", "FinishedAt", "WallSeconds", "Workspace")
		if diff := cmp.Diff(want, got, opts); diff != "" {
			t.Errorf("resumed after %d events (%s): result differs (-want +got):\n%s", n, journal[len(journal)-1].Type, diff)
		}
		// No example observed before the crash is asked again.
		for _, ex := range st.Examples {
			for _, ev := range rec2.events {
				if ev.Type == EventProposalAccepted && containsInput(ev.Data, ex.Input) {
					t.Errorf("resume after %d events queried %s again", n, ex.Input)
				}
			}
		}
	}
}

func containsInput(data jsonRaw, in jsonRaw) bool {
	var d struct {
		Inputs []jsonRaw `json:"inputs"`
	}
	_ = jsonUnmarshal(data, &d)
	for _, x := range d.Inputs {
		if task.Equal(x, in, 0) {
			return true
		}
	}
	return false
}

func TestStateFromEventsRefusesFinishedRuns(t *testing.T) {
	h := newHarness(t, "double")
	if _, err := h.run(context.Background(), settings(func(s *Settings) { s.EarlyStop = 1 }), task.KindInt); err != nil {
		t.Fatal(err)
	}
	if _, err := StateFromEvents(h.rec.events); !errors.Is(err, ErrFinished) {
		t.Errorf("err = %v, want ErrFinished", err)
	}
}
