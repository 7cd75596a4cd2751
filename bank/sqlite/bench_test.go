package sqlite

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/storetest"
)

// BenchmarkListElementChange10000: each revision changes one element of a
// 10,000-element list[example] input (about 1 MB), as a workflow records a
// corrected example; reports the bytes the bank file and its blobs grow by
// per revision.
func BenchmarkListElementChange10000(b *testing.B) {
	ctx := context.Background()
	s, path := open(b)
	bk := bank.New(s, bank.Options{})
	const n = 10000
	items := make([]bank.Value, n)
	for i := range items {
		items[i] = storetest.Example(b, i, "")
	}
	list := bank.List(bank.KindExample, items)
	g := &bank.Graph{Inputs: map[string]bank.Value{"examples": list},
		Nodes:   []bank.Node{{ID: "n", Op: "list.length", Args: map[string]string{"items": "examples"}}},
		Outputs: map[string]string{"n": "n"}}
	rec, err := bk.Create(ctx, "w", g, "")
	if err != nil {
		b.Fatal(err)
	}
	fileBefore, blobsBefore := fileSize(b, s, path), blobBytes(b, s)
	revs := 0
	defer storetest.ReportCPU(b)()
	for b.Loop() {
		revs++
		items = slices.Clone(items)
		k := (revs * 7919) % n
		items[k] = storetest.Example(b, k, fmt.Sprintf(`{"changed":%d}`, revs))
		if rec, err = bk.Update(ctx, "w", rec.Name, map[string]bank.Value{"examples": bank.List(bank.KindExample, items)}, nil, ""); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(fileSize(b, s, path)-fileBefore)/float64(revs), "file-bytes/rev")
	b.ReportMetric(float64(blobBytes(b, s)-blobsBefore)/float64(revs), "blob-bytes/rev")
	b.ReportMetric(float64(len(list.Canonical())), "list-bytes")
}

func blobBytes(tb testing.TB, s *Store) int64 {
	tb.Helper()
	var n int64
	if err := s.db.QueryRowContext(context.Background(), `SELECT coalesce(sum(length(data)), 0) FROM blobs`).Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}
