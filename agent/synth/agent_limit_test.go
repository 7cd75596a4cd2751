package synth

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"
)

func TestSessionLimit(t *testing.T) {
	tests := []struct {
		name     string
		session  time.Duration
		run      time.Duration
		searched time.Duration
		want     time.Duration
	}{
		{"no run bound", 20 * time.Second, 0, time.Hour, 20 * time.Second},
		{"plenty left", 20 * time.Second, 45 * time.Second, 10 * time.Second, 20 * time.Second},
		{"cut to what is left", 20 * time.Second, 45 * time.Second, 40 * time.Second, 5 * time.Second},
		{"spent: the least a session gets", 20 * time.Second, 45 * time.Second, 50 * time.Second, minSessionTime},
		{"run bound below a session", 20 * time.Second, 3 * time.Second, 0, 3 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := New(Options{TimeLimit: tc.session, RunTimeLimit: tc.run})
			a.searched = tc.searched
			if got := a.sessionLimit(); got != tc.want {
				t.Errorf("sessionLimit() = %v, want %v", got, tc.want)
			}
		})
	}
}

// A program that passes the new examples too is kept without a search;
// one that fails them is searched again.
func TestWriteKeepsConsistentProgram(t *testing.T) {
	tk := task.Task{Name: "double", Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"}
	ex := func(in, out string) task.Example {
		return task.Example{Input: json.RawMessage(in), Output: json.RawMessage(out)}
	}
	first := []task.Example{ex("[1, 2]", "[2, 4]"), ex("[3]", "[6]"), ex("[0, -5, 7]", "[0, -10, 14]")}
	tests := []struct {
		name     string
		more     []task.Example
		wantKept bool
	}{
		{"confirmed", []task.Example{ex("[9, 9]", "[18, 18]"), ex("[]", "[]")}, true},
		{"contradicted", []task.Example{ex("[4]", "[5]")}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := New(Options{Seed: 1, TimeLimit: 2 * time.Second})
			dir := t.TempDir()
			if _, err := a.Write(context.Background(), agent.WriteRequest{Task: tk, Examples: first, Workspace: dir}); err != nil {
				t.Fatal(err)
			}
			res, err := a.Write(context.Background(), agent.WriteRequest{Task: tk, Examples: append(append([]task.Example{}, first...), tc.more...), Workspace: dir})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(res.Notes, "kept without a new search"); got != tc.wantKept {
				t.Errorf("kept = %v, want %v; notes:\n%s", got, tc.wantKept, res.Notes)
			}
		})
	}
}
