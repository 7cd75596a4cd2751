package workflow

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/internal/atomicfile"
)

// ErrAgentInfrastructure marks an agent error that is a failure of the
// agent's infrastructure (an endpoint down after its retries, a refused
// key, a broken sandbox): it ends the run with stop reason error. Any other
// error of Write or Propose is the agent's own mistake: the session counts
// as one that wrote nothing, the proposal attempt as rejected.
var ErrAgentInfrastructure = errors.New("agent infrastructure failure")

// AgentGrace is how long a cancelled run waits for the agent's session or
// proposal in flight to return before abandoning it, so that Ctrl-C stops a
// run promptly even with an agent that does not watch its context.
const AgentGrace = 200 * time.Millisecond

// agentOutcome classifies an agent error: nil, the run's cancellation, an
// infrastructure failure (returned), or the agent's mistake (mistake set).
func agentOutcome(ctx context.Context, err error) (mistake string, fatal error) {
	switch {
	case err == nil:
		return "", nil
	case ctx.Err() != nil:
		return "", context.Cause(ctx)
	case errors.Is(err, ErrAgentInfrastructure):
		return "", err
	}
	return err.Error(), nil
}

// callAgent runs f and returns its result, or ctx's error once ctx is done
// and f has not returned within AgentGrace. An abandoned call keeps running
// in the background; late is then called with its result when it returns.
func callAgent[T any](ctx context.Context, f func(context.Context) (T, error), late func()) (T, error) {
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := f(ctx)
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
	}
	grace := time.NewTimer(AgentGrace)
	defer grace.Stop()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-grace.C:
	}
	if late != nil {
		go func() {
			<-ch
			late()
		}()
	}
	var zero T
	return zero, context.Cause(ctx)
}

// finalFile keeps candidate.py holding the run's final program even when a
// session abandoned at cancellation writes its candidate after the run
// ended.
type finalFile struct {
	mu      sync.Mutex
	path    string
	written bool
	source  []byte // nil: the run has no final program
}

func newFinalFile(workspace string) *finalFile {
	return &finalFile{path: filepath.Join(workspace, agent.CandidateFile)}
}

// set writes the final program (or, with none, removes what a session left).
func (f *finalFile) set(source []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.written, f.source = true, source
	return f.writeLocked()
}

// restore is called when an abandoned session returns: once the final
// program is written, what the session wrote is replaced by it again.
func (f *finalFile) restore() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.written {
		_ = f.writeLocked()
	}
}

func (f *finalFile) writeLocked() error {
	if f.source == nil {
		if err := os.Remove(f.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	return atomicfile.Write(f.path, f.source, 0o644)
}
