package sqlite

import (
	"context"
	"testing"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/storetest"
)

// BenchmarkListElementChange10000: each revision changes one element of a
// 10,000-element list[example] input (about 1 MB), as a workflow records a
// corrected example; reports the bytes the bank file and its blobs grow by
// per revision.
func BenchmarkListElementChange10000(b *testing.B) {
	s, path := open(b)
	var fileBefore, blobsBefore int64
	revs, listBytes := storetest.BenchListElementChange(b, bank.New(s, bank.Options{}), 10000, func() {
		fileBefore, blobsBefore = fileSize(b, s, path), blobBytes(b, s)
	})
	b.ReportMetric(float64(fileSize(b, s, path)-fileBefore)/float64(revs), "file-bytes/rev")
	b.ReportMetric(float64(blobBytes(b, s)-blobsBefore)/float64(revs), "blob-bytes/rev")
	b.ReportMetric(float64(listBytes), "list-bytes")
}

func blobBytes(tb testing.TB, s *Store) int64 {
	tb.Helper()
	var n int64
	if err := s.db.QueryRowContext(context.Background(), `SELECT coalesce(sum(length(data)), 0) FROM blobs`).Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}
