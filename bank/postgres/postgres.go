package postgres

import (
	"context"
	"crypto/rand"
	"embed"
	"fmt"
	"io/fs"
	"net/url"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/bank"
)

// DefaultRetryFor bounds how long a call keeps retrying while the server
// is unreachable before it fails.
const DefaultRetryFor = time.Minute

// Backoff between retries: doubling from DefaultBackoff up to MaxBackoff.
const (
	DefaultBackoff = 100 * time.Millisecond
	MaxBackoff     = 5 * time.Second
)

// Options configure a Store.
type Options struct {
	// Logger receives a warning per retry; nil logs nothing.
	Logger *zap.Logger
	// RetryFor bounds the retries of a call whose server is unreachable:
	// 0 means DefaultRetryFor, a negative value disables retries.
	RetryFor time.Duration
	// Key, when set, is the receipt key instead of the one stored in the
	// database (RECONSTRUCT_BANK_KEY).
	Key []byte
}

// Store is a bank.Store in a PostgreSQL database.
type Store struct {
	pool     *pgxpool.Pool
	location string
	log      *zap.Logger
	retryFor time.Duration
	key      []byte

	// beforeCommit, when set (tests), runs inside every write transaction
	// just before it commits.
	beforeCommit func(ctx context.Context, tx pgx.Tx) error
	// afterCommit, when set (tests), runs after every commit; its error
	// stands for an answer to COMMIT lost with the connection.
	afterCommit func() error
}

var _ bank.Store = (*Store)(nil)

//go:embed migrations/*.sql
var embedded embed.FS

// migrationFiles holds the migrations (tests add versions).
var migrationFiles fs.FS = embedded

// migrations returns the embedded migrations in order; migration i brings
// the schema to version i+1. Never edit a released migration: add a file.
func migrations() []string {
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		panic(err) // the pattern is a constant
	}
	sort.Strings(names)
	out := make([]string, len(names))
	for i, n := range names {
		raw, err := fs.ReadFile(migrationFiles, n)
		if err != nil {
			panic(err) // embedded
		}
		out[i] = string(raw)
	}
	return out
}

// SchemaVersion is the schema version this build writes.
func SchemaVersion() int { return len(migrations()) }

// Redact returns the location with its password hidden, for messages.
func Redact(location string) string {
	u, err := url.Parse(location)
	if err != nil || u.User == nil {
		return location
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

func connect(ctx context.Context, location string, opts Options) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(location)
	if err != nil {
		return nil, fmt.Errorf("bank %s: %w", Redact(location), err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("bank %s: %w", Redact(location), err)
	}
	s := &Store{pool: pool, location: Redact(location), log: opts.Logger, retryFor: opts.RetryFor, key: opts.Key}
	if s.log == nil {
		s.log = zap.NewNop()
	}
	if s.retryFor == 0 {
		s.retryFor = DefaultRetryFor
	}
	return s, nil
}

// Open connects to the bank at location, a postgres:// or postgresql://
// URL. The database must hold a bank of this build's schema version:
// Migrate creates or upgrades it.
func Open(ctx context.Context, location string, opts Options) (*Store, error) {
	s, err := connect(ctx, location, opts)
	if err != nil {
		return nil, err
	}
	var version int
	err = s.do(ctx, "open", func(ctx context.Context, _ int) error {
		var err error
		version, err = schemaVersion(ctx, s.pool)
		return err
	})
	if err == nil {
		err = s.checkVersion(version)
	}
	if err != nil {
		s.pool.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) checkVersion(version int) error {
	current := SchemaVersion()
	switch {
	case version == 0:
		return fmt.Errorf("bank %s: the database holds no bank; create one with `reconstruct bank migrate --bank URL`: %w", s.location, bank.ErrSchema)
	case version < current:
		return fmt.Errorf("bank %s: schema version %d is older than this build's %d; upgrade it with `reconstruct bank migrate --bank URL`: %w",
			s.location, version, current, bank.ErrSchema)
	case version > current:
		return fmt.Errorf("bank %s: schema version %d is newer than this build's %d; use a newer reconstruct: %w", s.location, version, current, bank.ErrSchema)
	}
	return nil
}

type queryRower interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// schemaVersion is the highest applied migration, 0 for a database
// without a bank.
func schemaVersion(ctx context.Context, q queryRower) (int, error) {
	var exists bool
	if err := q.QueryRow(ctx, `SELECT to_regclass('schema_migrations') IS NOT NULL`).Scan(&exists); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	if !exists {
		return 0, nil
	}
	var v *int32
	if err := q.QueryRow(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	if v == nil {
		return 0, nil
	}
	return int(*v), nil
}

// Migrate creates the bank at location or upgrades its schema to this
// build's version, in one transaction, and returns the store with the
// version it found (0: created) and the version it left. A newer schema is
// refused.
func Migrate(ctx context.Context, location string, opts Options) (*Store, int, error) {
	s, err := connect(ctx, location, opts)
	if err != nil {
		return nil, 0, err
	}
	var from int
	err = s.do(ctx, "migrate", func(ctx context.Context, _ int) error {
		var err error
		from, err = s.migrate(ctx)
		return err
	})
	if err != nil {
		s.pool.Close()
		return nil, 0, err
	}
	return s, from, nil
}

func (s *Store) migrate(ctx context.Context) (int, error) {
	all := migrations()
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback(ctx)
	// One migrator at a time; the others find the work done.
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('reconstruct bank migrate', 0))`); err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	from, err := schemaVersion(ctx, tx)
	if err != nil {
		return 0, err
	}
	if from > len(all) {
		return from, s.checkVersion(from)
	}
	for v := from; v < len(all); v++ {
		if _, err := tx.Exec(ctx, all[v]); err != nil {
			return from, fmt.Errorf("migrate to version %d: %w", v+1, err)
		}
		if v == 0 {
			key := make([]byte, bank.KeySize)
			if _, err := rand.Read(key); err != nil {
				return from, fmt.Errorf("receipt key: %w", err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO meta(key, value) VALUES ('receipt_key', $1)`, key); err != nil {
				return from, fmt.Errorf("migrate to version 1: receipt key: %w", err)
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations(version) VALUES ($1)`, v+1); err != nil {
			return from, fmt.Errorf("migrate to version %d: %w", v+1, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return from, fmt.Errorf("migrate: commit: %w", err)
	}
	return from, nil
}

// Close closes the connection pool.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// Location is the bank's URL with its password hidden.
func (s *Store) Location() string { return s.location }

// advisoryKey names the lock that serialises one kind of write to one
// workspace.
func advisoryKey(kind, workspace string) string { return kind + ":" + workspace }
