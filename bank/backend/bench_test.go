package backend

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/storetest"
)

// The benchmarks run each backend side by side (sub-benchmarks sqlite and
// postgres; postgres needs RECONSTRUCT_TEST_POSTGRES):
//
//	scripts/with-postgres.sh go test -run '^$' -bench . ./bank/backend/

func BenchmarkObserve1000(b *testing.B) {
	for _, k := range kinds {
		b.Run(k.name, func(b *testing.B) {
			bk := openBank(b, k.newBank(b))
			storetest.CreateChain(b, bk, 1000)
			storetest.BenchObserve(b, bk)
		})
	}
}

func BenchmarkProposeCommit1000(b *testing.B) {
	for _, k := range kinds {
		b.Run(k.name, func(b *testing.B) {
			bk := openBank(b, k.newBank(b))
			storetest.CreateChain(b, bk, 1000)
			storetest.BenchProposeCommit(b, bk, false)
		})
	}
}

// BenchmarkAppendEvent appends one journal event per call, as a run does.
func BenchmarkAppendEvent(b *testing.B) {
	for _, k := range kinds {
		b.Run(k.name, func(b *testing.B) {
			bk := openBank(b, k.newBank(b))
			storetest.CreateChain(b, bk, 1)
			ctx := context.Background()
			data := []byte(`{"iteration":3,"passed":17,"known":20,"score":0.85,"file":".oc_candidates/iter_003.py"}`)
			start := time.Now()
			n := 0
			defer storetest.ReportCPU(b)()
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

// BenchmarkListElementChange10000: each revision changes one element of a
// 10,000-element list[example] input (about 1 MB), as a workflow records a
// corrected example; reports the bytes of blobs stored per revision.
func BenchmarkListElementChange10000(b *testing.B) {
	for _, k := range kinds {
		b.Run(k.name, func(b *testing.B) {
			loc := k.newBank(b)
			var before int64
			revs, _ := storetest.BenchListElementChange(b, openBank(b, loc), 10000, func() { before = blobBytes(b, k.name, loc) })
			b.ReportMetric(float64(blobBytes(b, k.name, loc)-before)/float64(revs), "blob-bytes/rev")
		})
	}
}

// blobBytes is the size of all blob data in a bank.
func blobBytes(tb testing.TB, kind, loc string) int64 {
	tb.Helper()
	ctx := context.Background()
	var n int64
	q := `SELECT coalesce(sum(length(data)), 0) FROM blobs`
	if kind == "postgres" {
		conn, err := pgx.Connect(ctx, loc)
		if err != nil {
			tb.Fatal(err)
		}
		defer conn.Close(ctx)
		if err := conn.QueryRow(ctx, q).Scan(&n); err != nil {
			tb.Fatal(err)
		}
		return n
	}
	db, err := sql.Open("sqlite", loc) // the driver bank/sqlite registers
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRowContext(ctx, q).Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}
