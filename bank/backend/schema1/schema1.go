// Package schema1 restores the banks of schema version 1 kept in
// bank/backend/testdata/schema1, for the tests that upgrade them
// (bank/backend's and the bank migrate command's).
package schema1

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/reconstruct/reconstruct/bank/postgres/pgtest"
)

// Dir is the directory of the schema 1 banks: one directory per backend
// (sqlite, postgres) holding the bank and a proposal.json it made and did
// not commit, and expect.json, what that code read back.
func Dir(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("schema1: cannot locate the package's source")
	}
	return filepath.Join(filepath.Dir(file), "..", "testdata", "schema1")
}

// Bank restores the schema 1 bank of the backend ("sqlite" or "postgres")
// and returns its location: a file in the test's temporary directory, or a
// database of its own on the test PostgreSQL server.
func Bank(t *testing.T, backend string) string {
	t.Helper()
	dir := filepath.Join(Dir(t), backend)
	if backend == "postgres" {
		return pgtest.DatabaseFrom(t, gunzip(t, filepath.Join(dir, "bank.sql.gz")))
	}
	loc := filepath.Join(t.TempDir(), "bank.db")
	if err := os.WriteFile(loc, gunzip(t, filepath.Join(dir, "bank.db.gz")), 0o600); err != nil {
		t.Fatal(err)
	}
	return loc
}

func gunzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
