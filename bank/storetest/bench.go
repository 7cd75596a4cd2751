package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/reconstruct/reconstruct/bank"
)

// The bank's benchmarks (bank/, bank/sqlite, bank/backend) share their
// workloads from here, so that the numbers of one backend and another, or of
// the bank on its own, measure the same thing.

// ChainGraph is n number.add nodes in a row, each adding one to the
// previous; output "last" is 1+n.
func ChainGraph(n int) *bank.Graph {
	g := &bank.Graph{Inputs: map[string]bank.Value{"one": bank.Index(1)}, Outputs: map[string]string{}}
	prev := "one"
	for i := range n {
		id := fmt.Sprintf("n%04d", i)
		g.Nodes = append(g.Nodes, bank.Node{ID: id, Op: "number.add", Args: map[string]string{"a": prev, "b": "one"}})
		prev = id
	}
	g.Outputs["last"] = prev
	return g
}

// CreateChain creates workspace "chain": ChainGraph(n).
func CreateChain(tb testing.TB, b *bank.Bank, n int) {
	tb.Helper()
	if _, err := b.Create(context.Background(), "chain", ChainGraph(n), ""); err != nil {
		tb.Fatal(err)
	}
}

// Example is the i-th example of a list, or a changed one when output is
// not empty.
func Example(tb testing.TB, i int, output string) bank.Value {
	tb.Helper()
	if output == "" {
		output = fmt.Sprintf(`{"sum":%d,"items":[%d,%d,%d]}`, i*3, i, i+1, i+2)
	}
	v, err := bank.NewExample([]byte(fmt.Sprintf(`{"items":[%d,%d,%d]}`, i, i+1, i+2)), []byte(output), "agent")
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// BenchObserve measures an observe action on workspace "chain" (see
// CreateChain) with its response encoded to JSON as the command line
// encodes it.
func BenchObserve(b *testing.B, bk *bank.Bank) {
	action := []byte(`{"action":"observe","workspace":"chain"}`)
	b.ReportAllocs()
	defer ReportCPU(b)()
	for b.Loop() {
		resp := bk.Act(context.Background(), action)
		if !resp.OK {
			b.Fatal(resp.Error)
		}
		if _, err := resp.AppendJSON(nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchProposeCommit measures proposing an update of input "one" of
// workspace "chain" (see CreateChain) and committing the receipt; with
// encode, it also encodes the feedback to JSON, as the command line does
// (Response.AppendJSON).
func BenchProposeCommit(b *testing.B, bk *bank.Bank, encode bool) {
	ctx := context.Background()
	i := int64(1)
	b.ReportAllocs()
	defer ReportCPU(b)()
	for b.Loop() {
		i++
		fb, err := bk.Propose(ctx, &bank.Proposal{Workspace: "chain", Updates: map[string]bank.Value{"one": bank.Index(i)}})
		if err != nil {
			b.Fatal(err)
		}
		if encode {
			if _, err := (bank.Response{OK: true, Action: "propose", Result: fb}).AppendJSON(nil); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := bk.Commit(ctx, fb.Receipt, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchListElementChange creates workspace "w" with an input "examples", a
// list of n examples, and then, each iteration, appends a revision that
// changes one element of it, as a workflow records a corrected example.
// created is called once the workspace exists, before the loop, so that the
// caller can take the size of its storage then and report the growth per
// revision after; it returns the revisions appended and the size of the
// first list's canonical encoding.
func BenchListElementChange(b *testing.B, bk *bank.Bank, n int, created func()) (revs, listBytes int) {
	ctx := context.Background()
	items := make([]bank.Value, n)
	for i := range items {
		items[i] = Example(b, i, "")
	}
	list := bank.List(bank.KindExample, items)
	g := &bank.Graph{Inputs: map[string]bank.Value{"examples": list},
		Nodes:   []bank.Node{{ID: "n", Op: "list.length", Args: map[string]string{"items": "examples"}}},
		Outputs: map[string]string{"n": "n"}}
	rec, err := bk.Create(ctx, "w", g, "")
	if err != nil {
		b.Fatal(err)
	}
	created()
	defer ReportCPU(b)()
	for b.Loop() {
		revs++
		// A new slice each time: the list of the revision before still
		// refers to the old one.
		items = slices.Clone(items)
		i := (revs * 7919) % n
		items[i] = Example(b, i, fmt.Sprintf(`{"changed":%d}`, revs))
		if rec, err = bk.Update(ctx, "w", rec.Name, map[string]bank.Value{"examples": bank.List(bank.KindExample, items)}, nil, ""); err != nil {
			b.Fatal(err)
		}
	}
	return revs, len(list.Canonical())
}
