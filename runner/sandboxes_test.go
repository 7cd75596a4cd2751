package runner

import (
	"context"
	"errors"
	"testing"

	"go.uber.org/zap"
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
