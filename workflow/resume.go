package workflow

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/reconstruct/reconstruct/task"
)

// checkpoint is the run's state for a checkpoint event (without the
// examples, which their own batch_granted events hold).
func (e *engine) checkpoint() Checkpoint {
	st := e.st
	st.Examples = nil
	return Checkpoint{State: &st}
}

// ErrFinished is returned when asked to resume a run that reached a stop
// of the protocol and recorded its final selection (a run interrupted or
// ended by an infrastructure failure can be resumed, and so can one killed
// during its final selection).
var ErrFinished = errors.New("the run has already finished")

// StateFromEvents rebuilds a run's state from its journal: the last
// checkpoint, the examples of every batch up to it, and the sequence number
// of the last event, so that a resumed run continues exactly where the
// recorded one was. Work after the last checkpoint (an interrupted session
// or query) is done again. A run that stopped because it was cancelled or
// because of an infrastructure failure resumes from its last checkpoint
// before that stop; one that reached a stop of the protocol is finished,
// unless it was killed during its final selection (PendingFinal): its
// state is then the one its stop recorded, from which only the final
// selection remains to be done.
func StateFromEvents(events []Event) (*State, error) {
	pending := PendingFinal(events)
	st, stop, err := lastState(events, pending != "")
	if err != nil {
		return nil, err
	}
	if stop != "" && !Resumable(stop) && pending == "" {
		return nil, fmt.Errorf("%w (%s)", ErrFinished, stop)
	}
	return st, nil
}

// LastStop is the stop reason a run's journal ends with: "" when the run
// recorded no stop since it last started or resumed (killed, or running).
func LastStop(events []Event) string {
	stop, _ := lastStop(events)
	return stop
}

// lastStop is LastStop and whether the final selection that follows the
// stop was recorded: a run_finished event, or (as journals written before
// run_finished have it) a final event, which is recorded once the final
// program is in the bank.
func lastStop(events []Event) (stop string, selected bool) {
	for _, ev := range events {
		switch ev.Type {
		case EventStop:
			var d struct {
				Reason string `json:"reason"`
			}
			_ = json.Unmarshal(ev.Data, &d)
			stop, selected = d.Reason, false
		case EventFinal, EventRunFinished:
			selected = stop != ""
		case EventRunResumed:
			stop, selected = "", false
		}
	}
	return stop, selected
}

// Finished reports whether a run reached a stop of the protocol and
// recorded its final selection: it cannot be resumed (ErrFinished).
func Finished(events []Event) bool {
	stop, selected := lastStop(events)
	return stop != "" && !Resumable(stop) && selected
}

// PendingFinal is the stop of the protocol a run reached without recording
// its final selection (killed during it): resuming it does only that. ""
// for any other run.
func PendingFinal(events []Event) string {
	stop, selected := lastStop(events)
	if stop == "" || Resumable(stop) || selected {
		return ""
	}
	return stop
}

// ForkState is the starting state of a run forked from the recorded one:
// its examples, candidates and counts (iterations, batches, promotions
// carry on), with the consecutive-promotion count, the gates' counters,
// the rival searches and the token spend starting afresh under the new
// run's settings.
func ForkState(events []Event) (*State, error) {
	st, _, err := lastState(events, true)
	if err != nil {
		return nil, err
	}
	st.Consecutive, st.MemoRewrites, st.ComplexityStrikes = 0, 0, 0
	st.CoverageKey, st.CoverageBatches = "", 0
	// The fork's agent searched no rivals yet.
	st.RivalsFor, st.RivalsWhy, st.StallDetail = "", "", ""
	st.Tokens = task.Usage{}
	st.Seq = 0
	return st, nil
}

// LastState is the last checkpoint of a run, finished or not (the state
// its stop recorded, when it stopped).
func LastState(events []Event) (*State, error) {
	st, _, err := lastState(events, true)
	return st, err
}

// lastState returns the state of the last checkpoint and the stop reason
// the journal ends with. The state a stop recorded counts as a checkpoint
// only with withStop: a resumed run starts from the checkpoint before it,
// since the stop may have come in the middle of an iteration.
func lastState(events []Event, withStop bool) (*State, string, error) {
	var st *State
	var examples, pending []task.Example
	seq := 0
	for i, ev := range events {
		seq = max(seq, ev.Seq)
		switch ev.Type {
		case EventBatchGranted, EventIterationFinished:
		case EventStop:
			if !withStop {
				continue
			}
		case EventRunStarted:
			// A fork's run_started holds the state it starts from.
		default:
			continue
		}
		var data struct {
			State    *State         `json:"state"`
			Examples []task.Example `json:"examples"`
		}
		if err := json.Unmarshal(ev.Data, &data); err != nil {
			return nil, "", fmt.Errorf("event %d (%s): %w", i+1, ev.Type, err)
		}
		if data.State == nil {
			if ev.Type == EventRunStarted {
				continue
			}
			return nil, "", fmt.Errorf("event %d (%s) holds no state", i+1, ev.Type)
		}
		pending = append(pending, data.Examples...)
		examples = append(examples[:0:0], pending...)
		st = data.State
	}
	if st == nil {
		if seq == 0 {
			return nil, "", errors.New("the run recorded nothing")
		}
		// Interrupted before its first batch was recorded: nothing was
		// observed, so the run starts over (under the same id).
		st = &State{}
	}
	st.Examples = examples
	st.Seq = seq
	return st, LastStop(events), nil
}
