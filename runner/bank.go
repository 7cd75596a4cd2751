package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/sqlite"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// OpenBank opens (creating when needed) the bank file at path. The returned
// close function closes the store.
func OpenBank(ctx context.Context, path string, log *zap.Logger, programs bank.ProgramRunner) (*bank.Bank, func() error, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, nil, fmt.Errorf("create bank directory: %w", err)
		}
	}
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	if log == nil {
		log = zap.NewNop()
	}
	return bank.New(st, bank.Options{Logger: log, Runner: programs}), st.Close, nil
}

// RunWorkspaceName names a run's bank workspace after its task and run id.
func RunWorkspaceName(taskName, runID string) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
				return r
			}
			return '_'
		}, s)
	}
	t := clean(taskName)
	if t == "" || t[0] == '-' || t[0] >= '0' && t[0] <= '9' {
		t = "run_" + t
	}
	id := clean(runID)
	if room := 64 - len(id) - 1; len(t) > room {
		t = t[:max(room, 1)]
	}
	return t + "-" + id
}

// FindRun returns the bank workspace of a run id (or the workspace name
// itself).
func FindRun(ctx context.Context, b *bank.Bank, run string) (string, error) {
	wss, err := b.Workspaces(ctx)
	if err != nil {
		return "", err
	}
	suffix := "-" + run
	var found []string
	for _, w := range wss {
		if w.Name == run || strings.HasSuffix(w.Name, suffix) {
			found = append(found, w.Name)
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("no run %q in the bank", run)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("run %q is ambiguous: %s", run, strings.Join(found, ", "))
}

// RunEvents reads a run's journal back as workflow events.
func RunEvents(ctx context.Context, b *bank.Bank, workspace string) ([]workflow.Event, error) {
	bevs, err := b.Events(ctx, workspace)
	if err != nil {
		return nil, err
	}
	out := make([]workflow.Event, 0, len(bevs))
	for i, be := range bevs {
		var ev workflow.Event
		if err := json.Unmarshal(be.Data, &ev); err != nil {
			return nil, fmt.Errorf("bank workspace %s event %d: %w", workspace, i+1, err)
		}
		out = append(out, ev)
	}
	return out, nil
}

// BankRecorder records a run in its bank workspace: every event in the
// journal, each granted batch and the final program as revisions.
type BankRecorder struct {
	bank      *bank.Bank
	workspace string
	function  string

	mu       sync.Mutex
	head     string
	examples []bank.Value
}

var _ workflow.Recorder = (*BankRecorder)(nil)

// runGraph is a run workspace's computation: the examples, the program, and
// how many examples are known.
func runGraph(function string) (*bank.Graph, error) {
	prog, err := bank.NewProgram(function, "")
	if err != nil {
		return nil, err
	}
	return &bank.Graph{
		Inputs:  map[string]bank.Value{"examples": bank.List(bank.KindExample, nil), "program": prog},
		Nodes:   []bank.Node{{ID: "known", Op: "list.length", Args: map[string]string{"items": "examples"}}},
		Outputs: map[string]string{"known": "known", "program": "program"},
	}, nil
}

// NewRunWorkspace creates the bank workspace of a new run.
func NewRunWorkspace(ctx context.Context, b *bank.Bank, workspace, function string) (*BankRecorder, error) {
	g, err := runGraph(function)
	if err != nil {
		return nil, err
	}
	rec, err := b.Create(ctx, workspace, g, "run started")
	if err != nil {
		return nil, fmt.Errorf("create bank workspace %s: %w", workspace, err)
	}
	return &BankRecorder{bank: b, workspace: workspace, function: function, head: rec.Name}, nil
}

// ContinueRunWorkspace reopens a run's workspace (resume, or a fork's new
// workspace) and brings its examples revision up to the given examples.
func ContinueRunWorkspace(ctx context.Context, b *bank.Bank, workspace, function string, examples []task.Example) (*BankRecorder, error) {
	rev, err := b.Load(ctx, workspace, "")
	if err != nil {
		return nil, fmt.Errorf("load bank workspace %s: %w", workspace, err)
	}
	r := &BankRecorder{bank: b, workspace: workspace, function: function, head: rev.Name}
	if v, ok := rev.Graph.Inputs["examples"]; ok {
		r.examples, _ = v.Items()
	}
	if len(examples) > len(r.examples) {
		// A crash between recording a batch's event and its revision.
		if err := r.RecordExamples(ctx, "", examples[len(r.examples):]); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Workspace is the bank workspace name.
func (r *BankRecorder) Workspace() string { return r.workspace }

// RecordEvent appends the event to the workspace journal; the final event
// also records the final program as a revision.
func (r *BankRecorder) RecordEvent(ctx context.Context, ev workflow.Event) error {
	data, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	if err := r.bank.AppendEvents(ctx, r.workspace, []bank.Event{{Time: ev.Time, RunID: ev.RunID, Type: ev.Type, Data: data}}); err != nil {
		return fmt.Errorf("bank journal of %s: %w", r.workspace, err)
	}
	if ev.Type != workflow.EventFinal {
		return nil
	}
	var final struct {
		Source string `json:"source"`
	}
	if err := json.Unmarshal(ev.Data, &final); err != nil {
		return err
	}
	prog, err := bank.NewProgram(r.function, final.Source)
	if err != nil {
		return fmt.Errorf("final program: %w", err)
	}
	return r.update(ctx, map[string]bank.Value{"program": prog}, "final program")
}

// RecordExamples records a granted batch as a revision of the examples.
func (r *BankRecorder) RecordExamples(ctx context.Context, _ string, exs []task.Example) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	items := append([]bank.Value(nil), r.examples...)
	for _, ex := range exs {
		v, err := bank.NewExample(ex.Input, ex.Output, string(ex.Source))
		if err != nil {
			return fmt.Errorf("example %s: %w", ex.Input, err)
		}
		items = append(items, v)
	}
	msg := fmt.Sprintf("batch of %d examples (%d known)", len(exs), len(items))
	if err := r.updateLocked(ctx, map[string]bank.Value{"examples": bank.List(bank.KindExample, items)}, msg); err != nil {
		return err
	}
	r.examples = items
	return nil
}

func (r *BankRecorder) update(ctx context.Context, inputs map[string]bank.Value, msg string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.updateLocked(ctx, inputs, msg)
}

func (r *BankRecorder) updateLocked(ctx context.Context, inputs map[string]bank.Value, msg string) error {
	rec, err := r.bank.Update(ctx, r.workspace, r.head, inputs, nil, msg)
	if err != nil {
		return fmt.Errorf("bank workspace %s: %w", r.workspace, err)
	}
	r.head = rec.Name
	return nil
}

// ProgramOfRun returns the final program a run recorded.
func ProgramOfRun(ctx context.Context, b *bank.Bank, run string) (bank.Value, error) {
	ws, err := FindRun(ctx, b, run)
	if err != nil {
		return bank.Value{}, err
	}
	rev, err := b.Load(ctx, ws, "")
	if err != nil {
		return bank.Value{}, err
	}
	v, ok := rev.Graph.Inputs["program"]
	if p, isProg := v.Program(); !ok || !isProg || p.Source == "" {
		return bank.Value{}, errors.New("run " + run + " has no final program yet")
	}
	return v, nil
}
