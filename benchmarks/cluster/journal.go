package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// Event types of a sweep's journal, the journal of its bank workspace
// (named after the sweep's id).
const (
	// EventSubmitted opens the journal; its data is the Spec.
	EventSubmitted = "sweep_submitted"
	// EventSnapshot records a running task's candidate archive after each
	// candidate, so that an attempt on another machine resumes the run
	// with every candidate its checkpoints refer to.
	EventSnapshot = "snapshot"
)

// treeRecord is the data of a snapshot event.
type treeRecord struct {
	Job  string `json:"job"`
	Tree string `json:"tree"`
}

// createJournal creates the sweep's bank workspace; its one input is the
// spec, so that `bank list` and `bank log` show the sweep.
func createJournal(ctx context.Context, b *bank.Bank, spec Spec) error {
	data, err := json.Marshal(spec)
	if err != nil {
		return err
	}
	v, err := bank.JSONValue(data)
	if err != nil {
		return fmt.Errorf("sweep %s: %w", spec.ID, err)
	}
	g := &bank.Graph{Inputs: map[string]bank.Value{"spec": v}, Outputs: map[string]string{"spec": "spec"}}
	if _, err := b.Create(ctx, spec.ID, g, "sweep submitted"); err != nil {
		return fmt.Errorf("record sweep %s in the bank: %w", spec.ID, err)
	}
	return b.AppendEvents(ctx, spec.ID, []bank.Event{{Time: time.Now().UTC(), Type: EventSubmitted, Data: data}})
}

// appendRecord appends an event about a job's run to the sweep's journal.
func appendRecord(ctx context.Context, b *bank.Bank, sweep, typ, runID string, rec treeRecord) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if err := b.AppendEvents(ctx, sweep, []bank.Event{{Time: time.Now().UTC(), RunID: runID, Type: typ, Data: data}}); err != nil {
		return fmt.Errorf("sweep %s journal: %w", sweep, err)
	}
	return nil
}

// lastTree returns the tree of the last event of type typ for run runID in
// the sweep's journal ("" when there is none).
func lastTree(ctx context.Context, b *bank.Bank, sweep, typ, runID string) (string, error) {
	evs, err := b.Events(ctx, sweep)
	if err != nil {
		return "", fmt.Errorf("sweep %s journal: %w", sweep, err)
	}
	for i := len(evs) - 1; i >= 0; i-- {
		ev := evs[i]
		if ev.Type != typ || ev.RunID != runID {
			continue
		}
		var rec treeRecord
		if err := json.Unmarshal(ev.Data, &rec); err != nil || rec.Tree == "" {
			return "", fmt.Errorf("sweep %s journal: event %d (%s) holds no tree", sweep, i+1, typ)
		}
		return rec.Tree, nil
	}
	return "", nil
}

// snapshotter is a run's recorder (after the bank's): it stores the
// candidate archive in the bank after every candidate, before the run
// records its next checkpoint, and keeps the heartbeat's position current.
type snapshotter struct {
	bank      *bank.Bank
	trees     *treeWriter
	sweep     string
	job       string
	workspace string
	beat      *heartbeat
}

var _ workflow.Recorder = (*snapshotter)(nil)

func (s *snapshotter) RecordExamples(context.Context, string, []task.Example) error { return nil }

func (s *snapshotter) RecordEvent(ctx context.Context, ev workflow.Event) error {
	s.beat.event(ev)
	if ev.Type != workflow.EventCandidateArchived {
		return nil
	}
	h, _, err := s.trees.put(ctx, s.workspace, []string{candidates.Dir}, nil)
	if err != nil {
		return fmt.Errorf("snapshot of run %s: %w", ev.RunID, err)
	}
	return appendRecord(ctx, s.bank, s.sweep, EventSnapshot, ev.RunID, treeRecord{Job: s.job, Tree: h})
}
