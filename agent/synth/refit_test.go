package synth

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"
)

// When the last program was a sketch's and fails the new examples, the
// sketches learn it again first (a word table with one more exception);
// a program of the levels that fails is searched for again as before.
func TestWriteRefitsSketch(t *testing.T) {
	ex := func(in, out any) task.Example {
		i, _ := json.Marshal(in)
		o, _ := json.Marshal(out)
		return task.Example{Input: i, Output: o}
	}
	title := task.Task{Name: "titles", Kind: task.KindString, InputType: "a title", FunctionName: "solve"}
	word := task.Task{Name: "case", Kind: task.KindString, InputType: "a word", FunctionName: "solve"}
	tests := []struct {
		name        string
		task        task.Task
		first, more []task.Example
		wantRefit   bool
		wantProgram string
	}{
		{name: "sketch", task: title,
			first: []task.Example{
				ex("war OF peace", "War of Peace"), ex("the cat sat", "The Cat Sat"), ex("OWL of night", "Owl of Night"),
				ex("a road of stone", "A Road of Stone"), ex("LAMP", "Lamp"), ex("sky river of OF", "Sky River of Of"),
				ex("quiet of brown owl", "Quiet of Brown Owl"), ex("of night", "Of Night"),
			},
			more: []task.Example{
				ex("cat THE owl", "Cat the Owl"), ex("river the sky of stone", "River the Sky of Stone"),
				ex("the end", "The End"),
			},
			wantRefit: true, wantProgram: `{"of", "the"}`},
		{name: "levels", task: word,
			first:     []task.Example{ex("ab", "AB"), ex("cd", "CD"), ex("x", "X")},
			more:      []task.Example{ex("Ab", "aB")},
			wantRefit: false, wantProgram: "swapcase"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := New(Options{Shared: testShared, Seed: 1, MaxPrograms: testPrograms})
			dir := t.TempDir()
			first, err := a.Write(context.Background(), agent.WriteRequest{Task: tc.task, Examples: tc.first, Workspace: dir})
			if err != nil {
				t.Fatal(err)
			}
			res, err := a.Write(context.Background(), agent.WriteRequest{Task: tc.task, Examples: append(append([]task.Example{}, tc.first...), tc.more...), Workspace: dir})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(res.Notes, "learned it again"); got != tc.wantRefit {
				t.Errorf("refit %v, want %v; first program:\n%s\nnotes:\n%s", got, tc.wantRefit, first.Program, res.Notes)
			}
			if !strings.Contains(string(res.Program), tc.wantProgram) {
				t.Errorf("program:\n%s\nwant it to hold %s", res.Program, tc.wantProgram)
			}
		})
	}
}
