package synth

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"
)

// A stuck run keeps searching for its whole session: while the run's
// budget lasts, each session on the same examples goes on with the search
// for its whole budget of programs and says it has strategies left (the
// workflow then counts no stall); once the run's budget is spent, it says
// so, and what it tried.
func TestStuckRunKeepsSearching(t *testing.T) {
	tk, exs := stuckTask(t, "7001")
	const budget = 1 << 15
	// The run's budget: 45 s over 20 s sessions, 2.25 sessions' worth,
	// raised to six (minRunSessions).
	a := New(Options{Shared: testShared, MaxPrograms: budget, TimeLimit: 20 * time.Second, RunTimeLimit: 45 * time.Second})
	dir := t.TempDir()
	fb := &agent.Feedback{Passed: 0, Total: len(exs)}
	key := examplesKey(exs)
	var before int64
	var lefts []bool
	var last string
	for i := 0; i < 8; i++ {
		res, err := a.Write(context.Background(), agent.WriteRequest{Task: tk, Examples: exs, Workspace: dir, Feedback: fb})
		if err != nil {
			t.Fatal(err)
		}
		got := a.sessions[key].result.evaluated
		// (The enumerator looks at its clock every 1024 programs.)
		if i < 6 && got-before < budget-1024 {
			t.Errorf("session %d evaluated %d programs, want its whole budget of %d:\n%s", i+1, got-before, budget, res.Notes)
		}
		before = got
		left, account := a.SearchLeft()
		lefts = append(lefts, left)
		if left != (account == "") {
			t.Errorf("session %d: left %v with account %q", i+1, left, account)
		}
		last = account
	}
	// Each session stops at a clock check short of its budget, so six
	// fall just short of the run's budget and the seventh spends it.
	if want := []bool{true, true, true, true, true, true, false, false}; !slices.Equal(lefts, want) {
		t.Errorf("search left after each session %v, want %v", lefts, want)
	}
	for _, want := range []string{"no program fits the 8 examples", "the run's search budget is spent (196608 programs)", "every program up to size"} {
		if !strings.Contains(last, want) {
			t.Errorf("account %q does not say %q", last, want)
		}
	}
}

// A search that found a program, and a task whose values the DSL cannot
// express, leave nothing to go on with; the second says why.
func TestSearchLeftWhenNothingToGoOn(t *testing.T) {
	a := New(Options{Shared: testShared, MaxPrograms: 1 << 16})
	c := familyCases[1] // scalar: a * 2 - b
	if _, err := a.Write(context.Background(), agent.WriteRequest{Task: taskFor(c), Examples: examplesFor(t, c, c.inputs), Workspace: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if left, account := a.SearchLeft(); left || account != "" {
		t.Errorf("after a solved session: left %v, account %q; want nothing", left, account)
	}
	dicts := task.Task{Name: "dicts", Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"}
	// Objects whose keys vary and whose values are of several kinds.
	exs := []task.Example{{Input: json.RawMessage(`[1]`), Output: json.RawMessage(`{"a": 1}`)}, {Input: json.RawMessage(`[2]`), Output: json.RawMessage(`{"b": "x"}`)}}
	if _, err := a.Write(context.Background(), agent.WriteRequest{Task: dicts, Examples: exs, Workspace: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	left, account := a.SearchLeft()
	if left || !strings.Contains(account, "cannot express") {
		t.Errorf("outputs the DSL cannot express: left %v, account %q; want none left, saying why", left, account)
	}
}
