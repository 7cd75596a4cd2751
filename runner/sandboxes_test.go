package runner

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/sandbox/docker"
)

// A sandbox that fails to start is reported as an infrastructure failure,
// and closing what was started so far does not trip over it (a typed nil
// sandbox once made Close panic).
func TestOpenSandboxesFailedStart(t *testing.T) {
	t.Parallel()
	needPython(t)
	tests := []struct {
		name   string
		python string
	}{
		{name: "an interpreter that exits at once", python: "/bin/false"},
		{name: "an interpreter that does not exist", python: "/nonexistent/python3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := quickstart(t, nil)
			c.Sandbox.Python = tt.python
			boxes, err := OpenSandboxes(context.Background(), c, "failed-start", zap.NewNop())
			if err == nil {
				boxes.Close()
				t.Fatal("sandboxes started with a broken interpreter")
			}
			if !errors.Is(err, ErrInfra) {
				t.Errorf("error %v is not an infrastructure failure", err)
			}
		})
	}
}

// fakeBox is a sandbox that only records whether it was closed.
type fakeBox struct {
	sandbox.Sandbox
	role   string
	closed atomic.Bool
}

func (b *fakeBox) Close() error {
	b.closed.Store(true)
	return nil
}

// The evaluator's and the oracle's sandboxes start at once; when one fails,
// the other is closed once it started: nothing is left running, and the
// error names the start that failed.
func TestSandboxesStart(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	// Each start gets a channel closed when the other role's start has
	// returned, so that a test can order the two.
	type starter func(otherDone <-chan struct{}) error
	ok := func(<-chan struct{}) error { return nil }
	fail := func(<-chan struct{}) error { return boom }
	failAfterOther := func(other <-chan struct{}) error { <-other; return boom }
	okAfterOther := func(other <-chan struct{}) error { <-other; return nil }
	tests := []struct {
		name              string
		evaluator, oracle starter
		wantErr           string // "" for success
	}{
		{"both start", ok, ok, ""},
		{"the evaluator fails", fail, ok, "start the evaluator's fake sandbox: boom"},
		{"the oracle fails", ok, fail, "start the oracle's fake sandbox: boom"},
		{"the oracle fails after the evaluator started", ok, failAfterOther, "start the oracle's fake sandbox: boom"},
		{"the evaluator fails before the oracle started", fail, okAfterOther, "start the evaluator's fake sandbox: boom"},
		{"both fail, the oracle first", failAfterOther, fail, "start the oracle's fake sandbox: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			done := map[string]chan struct{}{"evaluator": make(chan struct{}), "oracle": make(chan struct{})}
			other := map[string]string{"evaluator": "oracle", "oracle": "evaluator"}
			starts := map[string]starter{"evaluator": tt.evaluator, "oracle": tt.oracle}
			var mu sync.Mutex
			var started []*fakeBox
			s := &Sandboxes{Kind: "fake"}
			err := s.start(context.Background(), func(_ context.Context, role string) (sandbox.Sandbox, error) {
				defer close(done[role])
				if err := starts[role](done[other[role]]); err != nil {
					return nil, err
				}
				b := &fakeBox{role: role}
				mu.Lock()
				started = append(started, b)
				mu.Unlock()
				return b, nil
			})
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("start: %v", err)
				}
				if s.Eval.(*fakeBox).role != "evaluator" || s.Oracle.(*fakeBox).role != "oracle" {
					t.Errorf("sandboxes in the wrong roles: evaluator %v, oracle %v", s.Eval, s.Oracle)
				}
				for _, b := range started {
					if b.closed.Load() {
						t.Errorf("the %s's sandbox was closed after a successful start", b.role)
					}
				}
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				for _, b := range started {
					if !b.closed.Load() {
						t.Errorf("Close left the %s's sandbox open", b.role)
					}
				}
				return
			}
			if err == nil || err.Error() != tt.wantErr {
				t.Fatalf("start: error %v, want %q", err, tt.wantErr)
			}
			if !errors.Is(err, boom) {
				t.Errorf("error %v does not wrap the start's", err)
			}
			if s.Eval != nil || s.Oracle != nil {
				t.Errorf("failed start left sandboxes in place: evaluator %v, oracle %v", s.Eval, s.Oracle)
			}
			for _, b := range started {
				if !b.closed.Load() {
					t.Errorf("the %s's sandbox, started, was not closed after the other failed", b.role)
				}
			}
		})
	}
}

// With Docker, an oracle whose sandbox cannot start leaves no container
// behind: the evaluator's, started beside it, is removed.
func TestOpenSandboxesDockerFailedOracle(t *testing.T) {
	t.Parallel()
	needSandbox(t, "docker")
	c := quickstart(t, nil)
	c.Sandbox.Kind = "docker"
	c.Task.Oracle.Python = filepath.Join(t.TempDir(), "missing", "hidden.py")
	runID := NewRunID()
	boxes, err := OpenSandboxes(context.Background(), c, runID, zap.NewNop())
	if err == nil {
		boxes.Close()
		t.Fatal("the oracle's sandbox started on a missing directory")
	}
	if !errors.Is(err, ErrInfra) || !strings.Contains(err.Error(), "start the oracle's docker sandbox") {
		t.Errorf("error %v is not the oracle's start failure", err)
	}
	left, err := docker.Prune(context.Background(), nil, runID)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) > 0 {
		t.Errorf("%d containers of run %s were left running: %v", len(left), runID, left)
	}
}
