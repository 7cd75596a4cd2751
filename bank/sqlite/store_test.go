package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/storetest"
)

// Harness opens SQLite banks for the shared store suite.
func harness() storetest.Harness {
	return storetest.Harness{
		New: func(t *testing.T) (bank.Store, func(t *testing.T) bank.Store) {
			path := filepath.Join(t.TempDir(), "bank.db")
			open := func(t *testing.T) bank.Store {
				s, err := Open(context.Background(), path)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
				return s
			}
			return open(t), open
		},
		Exec: func(ctx context.Context, s bank.Store, q string) error {
			_, err := s.(*Store).db.ExecContext(ctx, q)
			return err
		},
	}
}

func TestStoreSuite(t *testing.T) { storetest.Run(t, harness()) }
