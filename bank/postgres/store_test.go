package postgres

import (
	"context"
	"testing"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/postgres/pgtest"
	"github.com/reconstruct/reconstruct/bank/storetest"
)

// open opens the bank at loc, closed with the test.
func open(t testing.TB, loc string, opts Options) *Store {
	t.Helper()
	s, err := Open(context.Background(), loc, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// newBank creates a database with a bank in it for the test.
func newBank(t testing.TB) string {
	t.Helper()
	loc := pgtest.Database(t)
	s, _, err := Migrate(context.Background(), loc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	return loc
}

func harness() storetest.Harness {
	return storetest.Harness{
		New: func(t *testing.T) (bank.Store, func(t *testing.T) bank.Store) {
			loc := newBank(t)
			reopen := func(t *testing.T) bank.Store { return open(t, loc, Options{}) }
			return reopen(t), reopen
		},
		Exec: func(ctx context.Context, s bank.Store, q string) error {
			_, err := s.(*Store).pool.Exec(ctx, q)
			return err
		},
	}
}

func TestStoreSuite(t *testing.T) { storetest.Run(t, harness()) }
