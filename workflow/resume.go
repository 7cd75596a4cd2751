package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/reconstruct/reconstruct/task"
)

// checkpoint records an event carrying the run's state (without the
// examples, which their own batch_granted events hold).
func (e *engine) checkpoint(ctx context.Context, typ string, data map[string]any) error {
	if data == nil {
		data = map[string]any{}
	}
	st := e.st
	st.Examples = nil
	data["state"] = st
	return e.event(ctx, typ, e.st.Iteration, data)
}

// ErrFinished is returned when asked to resume a run that already stopped.
var ErrFinished = errors.New("the run has already finished")

// StateFromEvents rebuilds a run's state from its journal: the last
// checkpoint, the examples of every batch up to it, and the sequence number
// of the last event, so that a resumed run continues exactly where the
// recorded one was. Work after the last checkpoint (an interrupted session
// or query) is done again.
func StateFromEvents(events []Event) (*State, error) {
	st, finished, err := lastState(events)
	if err != nil {
		return nil, err
	}
	if finished {
		return nil, ErrFinished
	}
	return st, nil
}

// ForkState is the starting state of a run forked from the recorded one:
// its examples, candidates and counts (iterations, batches, promotions
// carry on), with the consecutive-promotion count, the gates' counters and
// the token spend starting afresh under the new run's settings.
func ForkState(events []Event) (*State, error) {
	st, _, err := lastState(events)
	if err != nil {
		return nil, err
	}
	st.Consecutive, st.MemoRewrites, st.ComplexityStrikes = 0, 0, 0
	st.CoverageKey, st.CoverageBatches = "", 0
	st.Tokens = task.Usage{}
	st.Seq = 0
	return st, nil
}

// LastState is the last checkpoint of a run, finished or not.
func LastState(events []Event) (*State, error) {
	st, _, err := lastState(events)
	return st, err
}

func lastState(events []Event) (*State, bool, error) {
	var st *State
	finished := false
	var examples, pending []task.Example
	seq := 0
	for i, ev := range events {
		seq = max(seq, ev.Seq)
		switch ev.Type {
		case EventStop:
			finished = true
		case EventBatchGranted, EventIterationFinished:
		default:
			continue
		}
		var data struct {
			State    *State         `json:"state"`
			Examples []task.Example `json:"examples"`
		}
		if err := json.Unmarshal(ev.Data, &data); err != nil {
			return nil, false, fmt.Errorf("event %d (%s): %w", i+1, ev.Type, err)
		}
		if data.State == nil {
			return nil, false, fmt.Errorf("event %d (%s) holds no state", i+1, ev.Type)
		}
		pending = append(pending, data.Examples...)
		examples = append(examples[:0:0], pending...)
		st = data.State
	}
	if st == nil {
		if seq == 0 {
			return nil, false, errors.New("the run recorded nothing")
		}
		// Interrupted before its first batch was recorded: nothing was
		// observed, so the run starts over (under the same id).
		st = &State{}
	}
	st.Examples = examples
	st.Seq = seq
	return st, finished, nil
}

// RunStarted decodes a run's run_started event data.
type RunStarted struct {
	Task     task.Task       `json:"task"`
	Settings Settings        `json:"settings"`
	Config   json.RawMessage `json:"config,omitempty"`
}
