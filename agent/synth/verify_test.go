package synth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"
)

// A candidate that fits every example may only test what the examples
// made it test: "xs == ys" for two lists holding the same elements, when
// every example pair was equal or unrelated. Its rival sorted(xs) ==
// sorted(ys) differs from it only on permutations, which the pool holds
// because it is built with them; the proposal splits the rival from the
// candidate and reports which input split which rival, for the candidate
// the last Write wrote.
func TestProposalSplitsTheCandidatesRivals(t *testing.T) {
	tk := task.Task{Name: "same_elements", Kind: task.KindTwoLists, FunctionName: "solve",
		InputType: "two lists of integers", InputConstraints: "0 to 6 integers each, between 0 and 9",
		Domain: &task.Domain{Lo: 0, Hi: 9}}
	same := func(xs, ys []int64) bool {
		a, b := slices.Clone(xs), slices.Clone(ys)
		slices.Sort(a)
		slices.Sort(b)
		return slices.Equal(a, b)
	}
	var exs []task.Example
	for _, in := range []string{`[[1, 2, 3], [1, 2, 3]]`, `[[4, 5], [1]]`, `[[3, 3], [7, 2, 1]]`, `[[0], [0]]`,
		`[[5, 1, 2], [4, 8, 9]]`, `[[6, 6, 1, 0], [6, 6, 1, 0]]`, `[[2, 9], [9, 3]]`, `[[], [8]]`} {
		xs, ys := pairOf(t, in)
		out, _ := json.Marshal(same(xs, ys))
		exs = append(exs, task.Example{Input: json.RawMessage(in), Output: out})
	}
	a := New(Options{Shared: testShared, MaxPrograms: 200_000, Seed: 1})
	dir := t.TempDir()
	wres, err := a.Write(context.Background(), agent.WriteRequest{Task: tk, Examples: exs, Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	src := handedOver(t, wres, dir)
	if !strings.Contains(string(src), "xs == ys") {
		t.Fatalf("the candidate is not xs == ys, the test needs it:\n%s", src)
	}
	res, err := a.Propose(context.Background(), agent.ProposeRequest{Task: tk, K: 4, Examples: exs, Attempt: 1, Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	rep, ok := a.Rivals(res.Inputs)
	if !ok {
		t.Fatalf("no rival report for the proposal %s", res.Inputs)
	}
	sum := sha256.Sum256(src)
	if rep.Candidate != hex.EncodeToString(sum[:]) {
		t.Errorf("the report is for candidate %s, want the one written (%x)", rep.Candidate, sum)
	}
	if rep.Complete != (rep.Unsplit == 0) || len(rep.Rivals) == 0 {
		t.Errorf("report %+v: want rivals split, complete exactly when none is left unsplit", rep)
	}
	// An input of the proposal refutes the candidate: a permutation that
	// is not the same list.
	refuting := 0
	for i, in := range res.Inputs {
		xs, ys := pairOf(t, string(in))
		if same(xs, ys) && !slices.Equal(xs, ys) {
			refuting = i + 1
		}
	}
	if refuting == 0 {
		t.Fatalf("no input of the proposal %s refutes xs == ys; report %+v", res.Inputs, rep)
	}
	split := false
	for _, r := range rep.Rivals {
		if slices.Contains(r.SplitBy, refuting) {
			split = true
		}
	}
	if !split {
		t.Errorf("the report names no rival split by input %d: %+v", refuting, rep.Rivals)
	}
	t.Logf("proposal %s, report %+v", res.Inputs, rep)
	if _, ok := a.Rivals([]json.RawMessage{json.RawMessage(`[[1], [2]]`)}); ok {
		t.Errorf("a report for inputs the agent never proposed")
	}
}

func pairOf(t *testing.T, in string) (xs, ys []int64) {
	t.Helper()
	var p [2][]int64
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	return p[0], p[1]
}
