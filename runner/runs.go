package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// RunInfo is a run as the bank recorded it.
type RunInfo struct {
	RunID         string            `json:"run_id"`
	BankWorkspace string            `json:"bank_workspace"`
	Task          task.Task         `json:"task"`
	Settings      workflow.Settings `json:"settings"`
	Workspace     string            `json:"workspace,omitempty"`
	ForkedFrom    string            `json:"forked_from,omitempty"`
	StartedAt     time.Time         `json:"started_at"`
	// Status is "finished" for a run that reached a stop of the protocol
	// and recorded its final selection (its final program and result);
	// "stopped" for one cancelled or ended by an infrastructure failure, and
	// "interrupted" for one that recorded no stop (killed, or still
	// running) or was killed during its final selection (StopReason says
	// which stop it reached): those two can be continued with run --resume.
	Status     string         `json:"status"`
	StopReason string         `json:"stop_reason,omitempty"`
	Error      string         `json:"error,omitempty"`
	Iterations int            `json:"iterations"`
	Promotions int            `json:"promotions"`
	Known      int            `json:"known_examples"`
	FinalScore *float64       `json:"final_score,omitempty"`
	Tokens     task.Usage     `json:"tokens"`
	Examples   []task.Example `json:"examples,omitempty"`
	Events     int            `json:"events"`
}

// Runs lists every run recorded in the bank, oldest first.
func Runs(ctx context.Context, b *bank.Bank) ([]RunInfo, error) {
	wss, err := b.Workspaces(ctx)
	if err != nil {
		return nil, err
	}
	var out []RunInfo
	for _, w := range wss {
		events, err := RunEvents(ctx, b, w.Name)
		if err != nil || len(events) == 0 || events[0].Type != workflow.EventRunStarted {
			continue // not a run's workspace
		}
		info, err := runInfo(w.Name, events)
		if err != nil {
			return nil, err
		}
		out = append(out, info)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].StartedAt.Before(out[j].StartedAt) })
	return out, nil
}

// ShowRun describes one run, with its examples.
func ShowRun(ctx context.Context, b *bank.Bank, run string) (RunInfo, error) {
	ws, err := FindRun(ctx, b, run)
	if err != nil {
		return RunInfo{}, err
	}
	events, err := RunEvents(ctx, b, ws)
	if err != nil {
		return RunInfo{}, err
	}
	info, err := runInfo(ws, events)
	if err != nil {
		return RunInfo{}, err
	}
	// The bank's examples input holds every example, a fork's inherited
	// ones included. Content that fails its hash is never shown as if
	// true.
	rev, err := b.Load(ctx, ws, "")
	if errors.Is(err, bank.ErrTampered) {
		return RunInfo{}, fmt.Errorf("run %s: %w", run, err)
	}
	if err == nil {
		if items, ok := rev.Graph.Inputs["examples"].Items(); ok {
			info.Examples = make([]task.Example, 0, len(items))
			for _, it := range items {
				if ex, ok := it.Example(); ok {
					info.Examples = append(info.Examples, task.Example{Input: ex.Input, Output: ex.Output, Source: task.Source(ex.Source)})
				}
			}
			info.Known = len(info.Examples)
		}
	}
	return info, nil
}

func runInfo(ws string, events []workflow.Event) (RunInfo, error) {
	info := RunInfo{RunID: events[0].RunID, BankWorkspace: ws, StartedAt: events[0].Time, Status: "interrupted", Events: len(events)}
	started, err := workflow.DecodeRunStarted(events[0])
	if err != nil {
		return RunInfo{}, fmt.Errorf("bank workspace %s: %w", ws, err)
	}
	info.Task, info.Settings, info.ForkedFrom = started.Task, started.Settings, started.ForkedFrom
	if c, err := recordedConfig(events); err == nil {
		info.Workspace = c.Workspace
	}
	for _, ev := range events {
		switch ev.Type {
		case workflow.EventStop:
			var d workflow.Stop
			_ = json.Unmarshal(ev.Data, &d)
			info.StopReason, info.Error = d.Reason, d.Error
		case workflow.EventFinal:
			var d workflow.Final
			if json.Unmarshal(ev.Data, &d) == nil {
				info.FinalScore = &d.Score
			}
		}
	}
	switch stop := workflow.LastStop(events); {
	case stop == "":
		info.Status, info.StopReason, info.Error = "interrupted", "", ""
	case workflow.Resumable(stop):
		info.Status = "stopped"
	case !workflow.Finished(events):
		// Killed during its final selection: its stop is kept, and
		// --resume completes the selection.
		info.Status = "interrupted"
	default:
		info.Status = "finished"
	}
	if st, err := workflow.LastState(events); err == nil {
		info.Iterations, info.Promotions, info.Known, info.Tokens = st.Iteration, st.Promotions, len(st.Examples), st.Tokens
	}
	return info, nil
}
