package bank_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/bank"
)

// TestCachedStructuresAreNotShared: a bank keeps structures decoded and
// validated between actions, but what it hands out is the caller's to
// change without changing what the next action sees.
func TestCachedStructuresAreNotShared(t *testing.T) {
	ctx := context.Background()
	b, _ := openBank(t, bank.Options{})
	setupObjects(t, b)
	first, err := b.Load(ctx, "objects", "")
	if err != nil {
		t.Fatal(err)
	}
	want := first.Graph.Structure()
	first.Graph.Nodes[0].ID = "changed"
	first.Graph.Nodes[0].Args["grid"] = "changed"
	first.Graph.Outputs["extra"] = "changed"
	obs, err := b.Observe(ctx, "objects", "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(obs.Graph)); diff != "" {
		t.Fatalf("changing a loaded graph changed the next observation (-want +got):\n%s", diff)
	}
	wantDeps := slices.Clone(obs.Dependencies["result"])
	obs.Dependencies["result"][0] = "changed"
	delete(obs.Dependencies, "count")
	again, err := b.Observe(ctx, "objects", "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantDeps, again.Dependencies["result"]); diff != "" || again.Dependencies["count"] == nil {
		t.Fatalf("changing an observation changed the next one (-want +got):\n%s", diff)
	}
	second, err := b.Load(ctx, "objects", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := second.Graph.Structure(); string(got) != string(want) {
		t.Fatalf("load after a change to an earlier load:\n got %s\nwant %s", got, want)
	}
}

// TestManyStructures: more structures than the cache holds, each still
// observed as committed.
func TestManyStructures(t *testing.T) {
	ctx := context.Background()
	b, _ := openBank(t, bank.Options{})
	const n = 40
	for i := range n {
		g := &bank.Graph{Inputs: map[string]bank.Value{"a": bank.Index(int64(i))}, Outputs: map[string]string{"o": fmt.Sprintf("n%d", i)},
			Nodes: []bank.Node{{ID: fmt.Sprintf("n%d", i), Op: "number.add", Args: map[string]string{"a": "a", "b": "a"}}}}
		if _, err := b.Create(ctx, fmt.Sprintf("w%d", i), g, ""); err != nil {
			t.Fatal(err)
		}
	}
	for round := range 2 {
		for i := range n {
			obs, err := b.Observe(ctx, fmt.Sprintf("w%d", i), "")
			if err != nil || obs.Error != "" {
				t.Fatalf("round %d, w%d: %v %s", round, i, err, obs.Error)
			}
			if got := obs.Outputs["o"]; !got.Equal(bank.Index(int64(2 * i))) {
				t.Fatalf("round %d, w%d: o = %s", round, i, got.Canonical())
			}
		}
	}
}
