package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// A run's examples are stored twice: in its journal (the batch events,
// which resume reads) and as its bank workspace's "examples" input, a
// content-addressed value checked against its hash whenever it is read.
// The two must agree, example by example; where they do not, whichever
// fails its hash was altered, and otherwise the journal was.

// ExampleProblem is an example whose copies in a run's journal and in its
// bank workspace differ, or whose bank copy fails its hash.
type ExampleProblem struct {
	RunID     string `json:"run_id"`
	Workspace string `json:"bank_workspace"`
	// Example is the example's number (1-based) in the run's list.
	Example int `json:"example"`
	// Input is the example's input, as the journal has it.
	Input   string `json:"input,omitempty"`
	Problem string `json:"problem"`
}

func (p ExampleProblem) String() string {
	if p.Example == 0 {
		return fmt.Sprintf("run %s (bank workspace %s): %s", p.RunID, p.Workspace, p.Problem)
	}
	return fmt.Sprintf("run %s (bank workspace %s) example %d (input %s): %s", p.RunID, p.Workspace, p.Example, p.Input, p.Problem)
}

// runExamples compares a run's examples as its journal holds them with
// its bank workspace's examples at the head revision. A bank copy that
// fails its hash is read as stored, to name the examples that changed.
func runExamples(ctx context.Context, b *bank.Bank, ws string, events []workflow.Event) ([]ExampleProblem, error) {
	runID := events[0].RunID
	st, err := workflow.LastState(events)
	if err != nil {
		return []ExampleProblem{{RunID: runID, Workspace: ws, Problem: "its journal cannot be read back: " + err.Error()}}, nil
	}
	rec, err := b.Revision(ctx, ws, "")
	if err != nil {
		return nil, err
	}
	if _, ok := rec.Inputs["examples"]; !ok {
		return nil, nil
	}
	tampered := ""
	items, err := verifiedExamples(ctx, b, ws)
	if errors.Is(err, bank.ErrTampered) {
		tampered = err.Error()
		v, rerr := b.InputAsStored(ctx, rec, "examples")
		if rerr != nil {
			return []ExampleProblem{{RunID: runID, Workspace: ws, Problem: "the bank's examples (revision " + rec.Name + "): " + tampered}}, nil
		}
		items, _ = v.Items()
	} else if err != nil {
		return []ExampleProblem{{RunID: runID, Workspace: ws, Problem: "the bank's examples (revision " + rec.Name + "): " + err.Error()}}, nil
	}
	return compareExamples(runID, ws, rec.Name, st.Examples, items, tampered), nil
}

// verifiedExamples is the examples input of a workspace's head, checked.
func verifiedExamples(ctx context.Context, b *bank.Bank, ws string) ([]bank.Value, error) {
	rev, err := b.Load(ctx, ws, "")
	if err != nil {
		return nil, err
	}
	items, _ := rev.Graph.Inputs["examples"].Items()
	return items, nil
}

// compareExamples names each example that differs between the journal's
// list and the bank's (compared in the bank's canonical form), and a bank
// copy holding more examples than the journal. A bank copy that recorded
// fewer is a run killed between the two records (resume brings it up to
// date), not a problem. tampered is the bank copy's hash failure, if any.
func compareExamples(runID, ws, rev string, journal []task.Example, items []bank.Value, tampered string) []ExampleProblem {
	var out []ExampleProblem
	where := "the bank's copy (revision " + rev + ")"
	for i, ex := range journal {
		if i >= len(items) {
			break
		}
		want, err := bank.NewExample(ex.Input, ex.Output, string(ex.Source))
		if err != nil {
			out = append(out, ExampleProblem{RunID: runID, Workspace: ws, Example: i + 1, Input: task.MustCanonical(ex.Input), Problem: "the journal's record is not an example: " + err.Error()})
			continue
		}
		if bytes.Equal(want.Canonical(), items[i].Canonical()) {
			continue
		}
		p := ExampleProblem{RunID: runID, Workspace: ws, Example: i + 1, Input: task.MustCanonical(ex.Input)}
		if got, ok := items[i].Example(); ok {
			p.Problem = fmt.Sprintf("the journal has %s -> %s, %s %s -> %s", task.MustCanonical(ex.Input), task.MustCanonical(ex.Output), where, got.Input, got.Output)
		} else {
			p.Problem = fmt.Sprintf("the journal has %s -> %s, %s is not an example", task.MustCanonical(ex.Input), task.MustCanonical(ex.Output), where)
		}
		if tampered != "" {
			p.Problem += "; the bank's copy fails its hash (" + tampered + ")"
		} else {
			p.Problem += "; the bank's copy matches its hash: the journal was altered"
		}
		out = append(out, p)
	}
	if len(items) > len(journal) {
		out = append(out, ExampleProblem{RunID: runID, Workspace: ws, Problem: fmt.Sprintf("%s holds %d examples, the journal %d", where, len(items), len(journal))})
	}
	if tampered != "" && len(out) == 0 {
		out = append(out, ExampleProblem{RunID: runID, Workspace: ws, Problem: where + " fails its hash: " + tampered})
	}
	return out
}

// CheckContent checks every blob of the bank against its hash and every
// run's examples against its journal, and describes each problem with
// the run, revision and example it belongs to.
func CheckContent(ctx context.Context, b *bank.Bank) ([]string, error) {
	problems, err := b.Verify(ctx)
	if err != nil {
		return nil, err
	}
	runs := map[string]string{} // bank workspace → run id
	var out []string
	wss, err := b.Workspaces(ctx)
	if err != nil {
		return nil, err
	}
	for _, w := range wss {
		events, err := RunEvents(ctx, b, w.Name)
		if err != nil || len(events) == 0 || events[0].Type != workflow.EventRunStarted {
			continue // not a run's workspace
		}
		runs[w.Name] = events[0].RunID
		exs, err := runExamples(ctx, b, w.Name, events)
		if err != nil {
			return nil, err
		}
		for _, p := range exs {
			out = append(out, p.String())
		}
	}
	for _, p := range problems {
		line := p.String()
		if id, ok := runs[p.Workspace]; ok {
			line = "run " + id + ": " + line
		}
		out = append(out, line)
	}
	return out, nil
}
