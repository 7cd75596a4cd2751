package backend

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/bank"
)

// The benchmarks run each backend side by side (sub-benchmarks sqlite and
// postgres; postgres needs RECONSTRUCT_TEST_POSTGRES):
//
//	scripts/with-postgres.sh go test -run '^$' -bench . ./bank/backend/

// chain creates workspace "chain": n number.add nodes in a row.
func chain(tb testing.TB, b *bank.Bank, n int) {
	tb.Helper()
	g := &bank.Graph{Inputs: map[string]bank.Value{"one": bank.Index(1)}, Outputs: map[string]string{}}
	prev := "one"
	for i := range n {
		id := fmt.Sprintf("n%04d", i)
		g.Nodes = append(g.Nodes, bank.Node{ID: id, Op: "number.add", Args: map[string]string{"a": prev, "b": "one"}})
		prev = id
	}
	g.Outputs["last"] = prev
	if _, err := b.Create(context.Background(), "chain", g, ""); err != nil {
		tb.Fatal(err)
	}
}

func BenchmarkObserve1000(b *testing.B) {
	for _, k := range kinds {
		b.Run(k.name, func(b *testing.B) {
			bk := openBank(b, k.newBank(b))
			chain(b, bk, 1000)
			action := []byte(`{"action":"observe","workspace":"chain"}`)
			b.ReportAllocs()
			for b.Loop() {
				resp := bk.Act(context.Background(), action)
				if !resp.OK {
					b.Fatal(resp.Error)
				}
				if _, err := json.Marshal(resp); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkProposeCommit1000(b *testing.B) {
	for _, k := range kinds {
		b.Run(k.name, func(b *testing.B) {
			bk := openBank(b, k.newBank(b))
			chain(b, bk, 1000)
			ctx := context.Background()
			i := int64(1)
			b.ReportAllocs()
			for b.Loop() {
				i++
				fb, err := bk.Propose(ctx, &bank.Proposal{Workspace: "chain", Updates: map[string]bank.Value{"one": bank.Index(i)}})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := bk.Commit(ctx, fb.Receipt, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendEvent appends one journal event per call, as a run does.
func BenchmarkAppendEvent(b *testing.B) {
	for _, k := range kinds {
		b.Run(k.name, func(b *testing.B) {
			bk := openBank(b, k.newBank(b))
			chain(b, bk, 1)
			ctx := context.Background()
			data := []byte(`{"iteration":3,"passed":17,"known":20,"score":0.85,"file":".oc_candidates/iter_003.py"}`)
			start := time.Now()
			n := 0
			for b.Loop() {
				n++
				if err := bk.AppendEvents(ctx, "chain", []bank.Event{{RunID: "bench", Type: "iteration", Data: data}}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "events/s")
		})
	}
}
