package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/bank"
)

// do runs fn, retrying with exponential backoff while the error says the
// server could not be reached (restarting, a connection killed, too many
// connections), for at most s.retryFor. fn gets the attempt number so that
// a write can check whether an attempt whose outcome is unknown committed.
// The final error names the bank.
func (s *Store) do(ctx context.Context, what string, fn func(ctx context.Context, attempt int) error) error {
	start := time.Now()
	wait := DefaultBackoff
	for attempt := 0; ; attempt++ {
		err := fn(ctx, attempt)
		if err == nil {
			return nil
		}
		if !transient(err) {
			if isSemantic(err) {
				return err
			}
			return fmt.Errorf("bank %s: %s: %w", s.location, what, err)
		}
		if ctx.Err() != nil {
			return fmt.Errorf("bank %s: %s: %w", s.location, what, ctx.Err())
		}
		elapsed := time.Since(start)
		if s.retryFor < 0 {
			return fmt.Errorf("bank %s: %s: %w", s.location, what, err)
		}
		if elapsed >= s.retryFor {
			return fmt.Errorf("bank %s unreachable: %s failed for %s (%d attempts): %w", s.location, what, elapsed.Round(time.Millisecond), attempt+1, err)
		}
		// The last attempt comes at the bound.
		wait = min(wait, s.retryFor-elapsed)
		s.log.Warn("bank unreachable, retrying", zap.String("bank", s.location), zap.String("call", what),
			zap.Int("attempt", attempt+1), zap.Duration("wait", wait), zap.Error(err))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("bank %s: %s: %w", s.location, what, ctx.Err())
		case <-t.C:
		}
		wait = min(2*wait, MaxBackoff)
	}
}

// isSemantic reports the bank's own outcomes, which callers match with
// errors.Is and which carry their own message.
func isSemantic(err error) bool {
	for _, e := range []error{bank.ErrStale, bank.ErrExists, bank.ErrNotFound, bank.ErrSchema} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// transient reports an error of reaching the server, as opposed to an
// answer from it: worth retrying.
func transient(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || isSemantic(err) {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "57P01", // admin_shutdown: the server stops, or pg_terminate_backend
			"57P02", // crash_shutdown
			"57P03", // cannot_connect_now: the server is starting
			"53300", // too_many_connections
			"40001", // serialization_failure
			"40P01": // deadlock_detected
			return true
		}
		return len(pgErr.Code) == 5 && pgErr.Code[:2] == "08" // connection exception
	}
	var connErr *pgconn.ConnectError
	var netErr net.Error
	return pgconn.SafeToRetry(err) || errors.As(err, &connErr) || errors.As(err, &netErr) ||
		errors.Is(err, pgconn.ErrConnClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EPIPE)
}
