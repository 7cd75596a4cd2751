package backend

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/postgres"
	"github.com/reconstruct/reconstruct/bank/sqlite"
)

// Environment variables read by Open through Options.Getenv.
const (
	// KeyEnv holds a receipt key (hex, at least bank.KeySize bytes) that
	// replaces the one a PostgreSQL bank stores.
	KeyEnv = bank.KeyEnv
	// RetryEnv bounds how long a PostgreSQL bank call retries while the
	// server is unreachable (a Go duration such as 90s; 0 disables
	// retries; default postgres.DefaultRetryFor).
	RetryEnv = "RECONSTRUCT_BANK_RETRY"
)

// ErrSetting marks a bad value in KeyEnv or RetryEnv: bad input, not an
// unreachable bank.
var ErrSetting = errors.New("bad bank setting")

// Options configure Open.
type Options struct {
	// Logger receives retry warnings; nil logs nothing.
	Logger *zap.Logger
	// Getenv reads KeyEnv and RetryEnv; nil reads nothing.
	Getenv func(string) string
}

// IsPostgres reports whether location names a PostgreSQL bank.
func IsPostgres(location string) bool {
	l := strings.ToLower(location)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// Describe is location as it may be shown: a URL's password is hidden.
func Describe(location string) string {
	if IsPostgres(location) {
		return postgres.Redact(location)
	}
	return location
}

// Open opens the bank at location. A SQLite file is created when missing,
// and one that exists but is no sound bank (empty, or failing SQLite's
// quick_check) is refused, never started afresh; a PostgreSQL database
// must hold a bank already (Migrate creates it).
// A schema that is older or newer than this build's is refused with an
// error wrapping bank.ErrSchema.
func Open(ctx context.Context, location string, opts Options) (bank.Store, error) {
	if !IsPostgres(location) {
		return sqlite.OpenChecked(ctx, location)
	}
	po, err := pgOptions(opts)
	if err != nil {
		return nil, err
	}
	return postgres.Open(ctx, location, po)
}

// Migration is what Migrate did.
type Migration struct {
	// From is the schema version found (0: a new bank), To the one left.
	From, To int
	// Cleaned: the file of a SQLite bank made by an earlier version was
	// rebuilt without the bytes of the receipt key it once held.
	Cleaned bool
}

// Migrate creates the bank at location or upgrades its schema to this
// build's version.
func Migrate(ctx context.Context, location string, opts Options) (Migration, error) {
	if !IsPostgres(location) {
		s, from, err := sqlite.Migrate(ctx, location)
		if err != nil {
			return Migration{}, err
		}
		m := Migration{From: from, To: sqlite.SchemaVersion(), Cleaned: s.Scrubbed()}
		return m, s.Close()
	}
	po, err := pgOptions(opts)
	if err != nil {
		return Migration{}, err
	}
	s, from, err := postgres.Migrate(ctx, location, po)
	if err != nil {
		return Migration{}, err
	}
	return Migration{From: from, To: postgres.SchemaVersion()}, s.Close()
}

func pgOptions(opts Options) (postgres.Options, error) {
	po := postgres.Options{Logger: opts.Logger}
	if opts.Getenv == nil {
		return po, nil
	}
	if v := opts.Getenv(KeyEnv); v != "" {
		key, err := bank.ParseKey(v)
		if err != nil {
			return po, fmt.Errorf("%s: %w: %w", KeyEnv, ErrSetting, err)
		}
		po.Key = key
	}
	if v := opts.Getenv(RetryEnv); v != "" {
		d, err := time.ParseDuration(v)
		if v == "0" {
			d, err = 0, nil
		}
		if err != nil || d < 0 {
			return po, fmt.Errorf("%s=%q: want a duration such as 90s (0 disables retries): %w", RetryEnv, v, ErrSetting)
		}
		po.RetryFor = d
		if d == 0 {
			po.RetryFor = -1
		}
	}
	return po, nil
}
