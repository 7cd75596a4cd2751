package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/reconstruct/reconstruct/bank"
)

// PostgreSQL's SQLSTATEs for a duplicate key and a missing referent.
const (
	uniqueViolation     = "23505"
	foreignKeyViolation = "23503"
)

// maxRaces bounds how often one event append starts again after losing a
// race for the next numbers to another writer.
const maxRaces = 1000

// stamp is a time as the database keeps it: UTC, to the microsecond.
func stamp(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// Key returns the receipt-signing key: Options.Key when given, else the
// one stored in the database when it was created.
func (s *Store) Key(ctx context.Context) ([]byte, error) {
	if len(s.key) > 0 {
		return s.key, nil
	}
	var key []byte
	err := s.do(ctx, "read receipt key", func(ctx context.Context, _ int) error {
		return s.pool.QueryRow(ctx, `SELECT value FROM meta WHERE key = 'receipt_key'`).Scan(&key)
	})
	if err != nil {
		return nil, err
	}
	return key, nil
}

type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// Blobs returns the blobs with the given hashes.
func (s *Store) Blobs(ctx context.Context, hashes []string) (map[string][]byte, error) {
	var out map[string][]byte
	err := s.do(ctx, "read blobs", func(ctx context.Context, _ int) error {
		var err error
		out, err = readBlobs(ctx, s.pool, hashes)
		return err
	})
	return out, err
}

func uniq(hashes []string) []string {
	out := slices.Clone(hashes)
	slices.Sort(out)
	return slices.Compact(out)
}

func readBlobs(ctx context.Context, q querier, hashes []string) (map[string][]byte, error) {
	return bank.ReadBlobs(hashes, 0, func(part []string) (bank.BlobRows, func() error, error) {
		rows, err := q.Query(ctx, `SELECT hash, data FROM blobs WHERE hash = ANY($1)`, part)
		if err != nil {
			return nil, nil, err
		}
		return rows, func() error { rows.Close(); return nil }, nil
	})
}

// PutBlobs stores blobs that no revision refers to yet.
func (s *Store) PutBlobs(ctx context.Context, blobs map[string][]byte) error {
	return s.do(ctx, "store blobs", func(ctx context.Context, _ int) error {
		return s.write(ctx, func(tx pgx.Tx) error { return putBlobs(ctx, tx, blobs) })
	})
}

func putBlobs(ctx context.Context, tx pgx.Tx, blobs map[string][]byte) error {
	if len(blobs) == 0 {
		return nil
	}
	hashes := slices.Sorted(maps.Keys(blobs))
	data := make([][]byte, len(hashes))
	for i, h := range hashes {
		data[i] = blobs[h]
	}
	if _, err := tx.Exec(ctx, `INSERT INTO blobs(hash, data) SELECT * FROM unnest($1::text[], $2::bytea[]) ON CONFLICT (hash) DO NOTHING`, hashes, data); err != nil {
		return fmt.Errorf("store blobs: %w", err)
	}
	return nil
}

// write runs fn in one transaction and commits it.
func (s *Store) write(ctx context.Context, fn func(tx pgx.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if err := fn(tx); err != nil {
		return err
	}
	if s.beforeCommit != nil {
		if err := s.beforeCommit(ctx, tx); err != nil {
			return err
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	if s.afterCommit != nil {
		return s.afterCommit()
	}
	return nil
}

func lock(ctx context.Context, tx pgx.Tx, kind, workspace string) error {
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, advisoryKey(kind, workspace))
	return err
}

// head returns whether the workspace exists and its last revision number.
func head(ctx context.Context, tx pgx.Tx, table, workspace string) (bool, int, error) {
	var exists bool
	var seq *int32
	err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM workspaces WHERE name = $1), (SELECT max(seq) FROM `+table+` WHERE workspace = $1)`, workspace).
		Scan(&exists, &seq)
	if err != nil || seq == nil {
		return exists, 0, err
	}
	return exists, int(*seq), nil
}

// Append stores blobs and appends a revision guarded by the expected head.
func (s *Store) Append(ctx context.Context, expected string, history []bank.RevisionRecord, rev bank.RevisionRecord, blobs map[string][]byte) (bank.RevisionRecord, error) {
	recs := append(slices.Clone(history), rev)
	for i := range recs {
		recs[i].Workspace = rev.Workspace
		recs[i].Time = stamp(recs[i].Time)
	}
	var out bank.RevisionRecord
	err := s.do(ctx, "append to "+rev.Workspace, func(ctx context.Context, attempt int) error {
		var err error
		out, err = s.appendOnce(ctx, expected, recs, blobs)
		if attempt > 0 && (errors.Is(err, bank.ErrStale) || errors.Is(err, bank.ErrExists)) {
			// The previous attempt may have committed before its
			// connection was lost: its revisions are then there.
			if r, ok := s.appended(ctx, expected, recs); ok {
				out = r
				return nil
			}
		}
		return err
	})
	if err != nil {
		return bank.RevisionRecord{}, err
	}
	return out, nil
}

func (s *Store) appendOnce(ctx context.Context, expected string, recs []bank.RevisionRecord, blobs map[string][]byte) (bank.RevisionRecord, error) {
	ws := recs[0].Workspace
	var out bank.RevisionRecord
	err := s.write(ctx, func(tx pgx.Tx) error {
		if err := lock(ctx, tx, "revisions", ws); err != nil {
			return fmt.Errorf("append to %s: %w", ws, err)
		}
		exists, seq, err := head(ctx, tx, "revisions", ws)
		if err != nil {
			return fmt.Errorf("append to %s: %w", ws, err)
		}
		switch {
		case expected == "" && exists:
			return fmt.Errorf("workspace %s: %w", ws, bank.ErrExists)
		case expected == "":
			if _, err := tx.Exec(ctx, `INSERT INTO workspaces(name, created, forked_from) VALUES ($1, now(), $2)`, ws, recs[len(recs)-1].ForkedFrom); err != nil {
				return fmt.Errorf("create workspace %s: %w", ws, err)
			}
		case !exists:
			return fmt.Errorf("workspace %s: %w", ws, bank.ErrNotFound)
		case bank.RevisionName(seq) != expected:
			return fmt.Errorf("workspace %s is at %s, expected %s: %w", ws, bank.RevisionName(seq), expected, bank.ErrStale)
		}
		if err := putBlobs(ctx, tx, blobs); err != nil {
			return err
		}
		var refs []string
		for _, r := range recs {
			refs = append(refs, r.Refs()...)
		}
		if err := present(ctx, tx, refs); err != nil {
			return fmt.Errorf("append %s@%s: %w", ws, bank.RevisionName(seq+1), err)
		}
		n := len(recs)
		seqs, inputs, trees := make([]int32, n), make([]string, n), make([]string, n)
		parents, graphs, registries, actions, messages, forks := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		times := make([]time.Time, n)
		for i := range recs {
			seq++
			recs[i].Name = bank.RevisionName(seq)
			raw, err := json.Marshal(recs[i].Inputs)
			if err != nil {
				return err
			}
			seqs[i], inputs[i], parents[i], graphs[i] = int32(seq), string(raw), recs[i].Parent, recs[i].Graph
			trees[i] = "{}"
			if len(recs[i].Trees) == 0 {
				recs[i].Trees = nil
			} else if raw, err = json.Marshal(recs[i].Trees); err != nil {
				return err
			} else {
				trees[i] = string(raw)
			}
			registries[i], actions[i], messages[i], forks[i], times[i] = recs[i].Registry, recs[i].Action, recs[i].Message, recs[i].ForkedFrom, recs[i].Time
		}
		if _, err := tx.Exec(ctx, `INSERT INTO revisions(workspace, seq, parent, inputs, graph, registry, time, action, message, forked_from, trees)
			SELECT $1, * FROM unnest($2::integer[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[], $9::text[], $10::text[], $11::text[])`,
			ws, seqs, parents, inputs, graphs, registries, times, actions, messages, forks, trees); err != nil {
			var pgErr *pgconn.PgError
			if errors.As(err, &pgErr) && pgErr.Code == uniqueViolation {
				// Only possible if the lock was bypassed: the key still
				// lets one revision per number in.
				return fmt.Errorf("workspace %s moved past %s: %w", ws, expected, bank.ErrStale)
			}
			return fmt.Errorf("append %s@%s: %w", ws, recs[0].Name, err)
		}
		out = recs[n-1]
		return nil
	})
	return out, err
}

// present fails with ErrNotFound unless every referenced blob exists.
func present(ctx context.Context, tx pgx.Tx, refs []string) error {
	list := uniq(refs)
	rows, err := tx.Query(ctx, `SELECT hash FROM blobs WHERE hash = ANY($1)`, list)
	if err != nil {
		return err
	}
	found, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	if len(found) == len(list) {
		return nil
	}
	for _, h := range list {
		if !slices.Contains(found, h) {
			return fmt.Errorf("blob %s: %w", h, bank.ErrNotFound)
		}
	}
	return nil
}

// appended reports whether the workspace holds recs, numbered from the
// revision after expected, exactly as an earlier attempt would have written
// them; it returns the last one.
func (s *Store) appended(ctx context.Context, expected string, recs []bank.RevisionRecord) (bank.RevisionRecord, bool) {
	first := 1
	if expected != "" {
		n, _ := bank.ParseRevisionName(expected)
		first = n + 1
	}
	var got []bank.RevisionRecord
	rows, err := s.pool.Query(ctx, `SELECT `+bank.RevisionColumns+` FROM revisions WHERE workspace = $1 AND seq >= $2 AND seq < $3 ORDER BY seq`,
		recs[0].Workspace, first, first+len(recs))
	if err == nil {
		got, err = pgx.CollectRows(rows, rowsOf(bank.ScanRevision))
	}
	if err != nil || len(got) != len(recs) {
		return bank.RevisionRecord{}, false
	}
	for i, r := range recs {
		r.Name = got[i].Name
		if !sameRevision(r, got[i]) {
			return bank.RevisionRecord{}, false
		}
	}
	return got[len(got)-1], true
}

func sameRevision(a, b bank.RevisionRecord) bool {
	return a.Workspace == b.Workspace && a.Name == b.Name && a.Parent == b.Parent && maps.Equal(a.Inputs, b.Inputs) &&
		a.Graph == b.Graph && a.Registry == b.Registry && a.Time.Equal(b.Time) && a.Action == b.Action &&
		a.Message == b.Message && a.ForkedFrom == b.ForkedFrom && maps.Equal(a.Trees, b.Trees)
}

// timeColumn is how the rows' readers (bank.ScanRevision, …) read a time:
// as pgx reads a timestamptz.
func timeColumn(t *time.Time) any { return t }

// queryAll runs a read that returns many rows, retried as s.do retries
// every statement, and reads each row with scan (one of the rows' readers:
// bank.ScanRevision, …).
func queryAll[T any](ctx context.Context, s *Store, what string, scan func(bank.Row, bank.TimeColumn) (T, error), query string, args ...any) ([]T, error) {
	var out []T
	err := s.do(ctx, what, func(ctx context.Context, _ int) error {
		rows, err := s.pool.Query(ctx, query, args...)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, rowsOf(scan))
		return err
	})
	return out, err
}

// rowsOf makes one of the rows' readers a row function for
// pgx.CollectRows.
func rowsOf[T any](scan func(bank.Row, bank.TimeColumn) (T, error)) pgx.RowToFunc[T] {
	return func(row pgx.CollectableRow) (T, error) { return scan(row, timeColumn) }
}

// Revision returns a saved revision; name "" is the head.
func (s *Store) Revision(ctx context.Context, workspace, name string) (bank.RevisionRecord, error) {
	q, args := `SELECT `+bank.RevisionColumns+` FROM revisions WHERE workspace = $1 ORDER BY seq DESC LIMIT 1`, []any{workspace}
	if name != "" {
		n, ok := bank.ParseRevisionName(name)
		if !ok {
			return bank.RevisionRecord{}, fmt.Errorf("revision %q of %s: want rNNNNNN: %w", name, workspace, bank.ErrNotFound)
		}
		q, args = `SELECT `+bank.RevisionColumns+` FROM revisions WHERE workspace = $1 AND seq = $2`, []any{workspace, n}
	}
	var r bank.RevisionRecord
	err := s.do(ctx, "read revision "+workspace+"@"+name, func(ctx context.Context, _ int) error {
		rows, err := s.pool.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		r, err = pgx.CollectExactlyOneRow(rows, rowsOf(bank.ScanRevision))
		return err
	})
	switch {
	case errors.Is(err, pgx.ErrNoRows) && name == "":
		return r, fmt.Errorf("workspace %s: %w", workspace, bank.ErrNotFound)
	case errors.Is(err, pgx.ErrNoRows):
		return r, fmt.Errorf("revision %s@%s: %w", workspace, name, bank.ErrNotFound)
	}
	return r, err
}

// Log returns every revision of a workspace, oldest first.
func (s *Store) Log(ctx context.Context, workspace string) ([]bank.RevisionRecord, error) {
	out, err := queryAll(ctx, s, "log "+workspace, bank.ScanRevision,
		`SELECT `+bank.RevisionColumns+` FROM revisions WHERE workspace = $1 ORDER BY seq`, workspace)
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("workspace %s: %w", workspace, bank.ErrNotFound)
	}
	return out, nil
}

// Workspaces lists every workspace by name.
func (s *Store) Workspaces(ctx context.Context) ([]bank.WorkspaceInfo, error) {
	return queryAll(ctx, s, "list workspaces", bank.ScanWorkspace, `SELECT `+bank.WorkspaceColumns+`
			FROM workspaces w JOIN revisions r ON r.workspace = w.name GROUP BY w.name ORDER BY w.name COLLATE "C"`)
}

// AddFunction registers an operation.
func (s *Store) AddFunction(ctx context.Context, f bank.FunctionRecord) error {
	f.Time = stamp(f.Time)
	return s.do(ctx, "register "+f.Name, func(ctx context.Context, attempt int) error {
		err := s.write(ctx, func(tx pgx.Tx) error {
			tag, err := tx.Exec(ctx, `INSERT INTO functions(name, kind, definition, time) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING`,
				f.Name, f.Kind, []byte(f.Definition), f.Time)
			if err != nil {
				return fmt.Errorf("register %s: %w", f.Name, err)
			}
			if tag.RowsAffected() == 0 {
				return fmt.Errorf("operation %s: %w", f.Name, bank.ErrExists)
			}
			return nil
		})
		if attempt > 0 && errors.Is(err, bank.ErrExists) && s.registered(ctx, f) {
			return nil
		}
		return err
	})
}

// registered reports whether f is stored exactly as given.
func (s *Store) registered(ctx context.Context, f bank.FunctionRecord) bool {
	var kind string
	var def []byte
	var t time.Time
	err := s.pool.QueryRow(ctx, `SELECT kind, definition, time FROM functions WHERE name = $1`, f.Name).Scan(&kind, &def, &t)
	return err == nil && kind == f.Kind && string(def) == string(f.Definition) && t.Equal(f.Time)
}

// Functions returns the registered operations in registration order.
func (s *Store) Functions(ctx context.Context) ([]bank.FunctionRecord, error) {
	return queryAll(ctx, s, "read functions", bank.ScanFunction, `SELECT `+bank.FunctionColumns+` FROM functions ORDER BY seq`)
}

// AppendEvents appends to a workspace's journal in one statement (one
// round trip): the next numbers are read and the events inserted together,
// and the (workspace, seq) key turns a concurrent appender that took the
// same numbers into a retry.
func (s *Store) AppendEvents(ctx context.Context, workspace string, events []bank.Event) error {
	if len(events) == 0 {
		return s.requireWorkspace(ctx, workspace, "append events to")
	}
	n := len(events)
	times, runs, types, data := make([]time.Time, n), make([]string, n), make([]string, n), make([][]byte, n)
	for i, e := range events {
		times[i], runs[i], types[i], data[i] = stamp(e.Time), e.RunID, e.Type, e.Data
	}
	return s.do(ctx, "append events to "+workspace, func(ctx context.Context, attempt int) error {
		if attempt > 0 && s.eventsAppended(ctx, workspace, times, runs, types, data) {
			return nil
		}
		for race := 0; ; race++ {
			_, err := s.pool.Exec(ctx, `INSERT INTO events(workspace, seq, time, run_id, type, data)
				SELECT $1, h.seq + e.ord, e.time, e.run_id, e.type, e.data
				FROM (SELECT coalesce(max(seq), 0) AS seq FROM events WHERE workspace = $1) h,
					unnest($2::timestamptz[], $3::text[], $4::text[], $5::bytea[]) WITH ORDINALITY AS e(time, run_id, type, data, ord)`,
				workspace, times, runs, types, data)
			var pgErr *pgconn.PgError
			switch {
			case err == nil && s.afterCommit != nil:
				return s.afterCommit()
			case err == nil:
				return nil
			case errors.As(err, &pgErr) && pgErr.Code == foreignKeyViolation:
				return fmt.Errorf("workspace %s: %w", workspace, bank.ErrNotFound)
			case errors.As(err, &pgErr) && pgErr.Code == uniqueViolation && race < maxRaces:
				// Another writer took these numbers first: read again.
				continue
			}
			return fmt.Errorf("append events to %s: %w", workspace, err)
		}
	})
}

// eventsAppended reports whether the journal ends with the given events,
// as an earlier attempt whose commit went unanswered would have left it.
func (s *Store) eventsAppended(ctx context.Context, workspace string, times []time.Time, runs, types []string, data [][]byte) bool {
	rows, err := s.pool.Query(ctx, `SELECT `+bank.EventColumns+` FROM events WHERE workspace = $1 ORDER BY seq DESC LIMIT $2`, workspace, len(times))
	if err != nil {
		return false
	}
	got, err := pgx.CollectRows(rows, rowsOf(bank.ScanEvent))
	if err != nil || len(got) != len(times) {
		return false
	}
	slices.Reverse(got)
	for i, g := range got {
		if !g.Time.Equal(times[i]) || g.RunID != runs[i] || g.Type != types[i] || string(g.Data) != string(data[i]) {
			return false
		}
	}
	return true
}

func (s *Store) requireWorkspace(ctx context.Context, workspace, what string) error {
	var exists bool
	err := s.do(ctx, what+" "+workspace, func(ctx context.Context, _ int) error {
		return s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM workspaces WHERE name = $1)`, workspace).Scan(&exists)
	})
	if err == nil && !exists {
		err = fmt.Errorf("workspace %s: %w", workspace, bank.ErrNotFound)
	}
	return err
}

// Events returns a workspace's journal in order.
func (s *Store) Events(ctx context.Context, workspace string) ([]bank.Event, error) {
	if err := s.requireWorkspace(ctx, workspace, "read events of"); err != nil {
		return nil, err
	}
	return queryAll(ctx, s, "read events of "+workspace, bank.ScanEvent,
		`SELECT `+bank.EventColumns+` FROM events WHERE workspace = $1 ORDER BY seq`, workspace)
}
