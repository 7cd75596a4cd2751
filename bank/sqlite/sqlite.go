package sqlite

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/internal/atomicfile"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// DefaultBusyTimeout is how long a write waits for another writer.
const DefaultBusyTimeout = 30 * time.Second

// timeFormat is fixed-width so that times order as text.
const timeFormat = "2006-01-02T15:04:05.000000000Z07:00"

// KeyFile is where the receipt key of the bank file at path is kept: beside
// it, mode 0600, never inside the database (whoever can read a copy of the
// bank could otherwise sign receipts).
func KeyFile(path string) string { return path + ".key" }

// Store is a bank.Store in one SQLite file.
type Store struct {
	db   *sql.DB
	path string
	key  []byte
	// foundVersion is the schema version the file had when opened.
	foundVersion int
	// scrubbed: see Scrubbed.
	scrubbed bool
}

var _ bank.Store = (*Store)(nil)

// Open opens (creating if needed) the bank file at path. A new file gets
// the current schema; a file with an older schema is refused until Migrate
// upgrades it, one with a newer schema always (both wrap bank.ErrSchema).
// The bank's files (the database, its -wal and -shm files, the key file)
// are readable by their owner only, and a directory Open creates for them
// too. The receipt key is bank.KeyEnv's when set, else the key file's; a bank
// that still holds its key in the database (made by an earlier version, whose
// schema Migrate upgrades) has it moved to the key file.
func Open(ctx context.Context, path string) (*Store, error) {
	return openStore(ctx, path, false)
}

// Migrate opens the bank file at path, creating it or upgrading its schema
// to the current version, and returns the version it found (0 for a new
// file).
func Migrate(ctx context.Context, path string) (*Store, int, error) {
	s, err := openStore(ctx, path, true)
	if err != nil {
		return nil, 0, err
	}
	return s, s.foundVersion, nil
}

func openStore(ctx context.Context, path string, upgrade bool) (*Store, error) {
	// The path is the first part of the driver's DSN: '?' or '#' would be
	// read as the start of its parameters.
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("open bank %s: the path may not contain '?' or '#'", path)
	}
	// Nothing is created or changed before the path is known to be a bank
	// (or absent) and its side files the bank's own (see files.go).
	real, err := resolve(path)
	if err != nil {
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	if err := checkSides(real, KeyFile(path)); err != nil {
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	created := false
	if _, err := os.Stat(real); errors.Is(err, os.ErrNotExist) {
		if created, err = create(ctx, path); err != nil {
			return nil, fmt.Errorf("open bank %s: %w", path, err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	} else if err := checkBank(real); err != nil {
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	for _, p := range []string{real, real + "-wal", real + "-shm"} {
		if err := ownerOnly(p); err != nil {
			return nil, fmt.Errorf("open bank %s: %w", path, err)
		}
	}
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	s := &Store{db: db, path: path}
	if err := s.migrate(ctx, upgrade); err != nil {
		db.Close()
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	if created {
		// The schema was written by create, under the temporary name.
		s.foundVersion = 0
	}
	if err := s.loadKey(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	if err := s.scrub(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	return s, nil
}

// dsn is the driver's name of the database at path, with the bank's
// settings. secure_delete: what is deleted (the receipt key of a bank
// made by an earlier version) is overwritten, not left in free space.
func dsn(path string) string {
	return path + "?_pragma=busy_timeout(" + fmt.Sprint(DefaultBusyTimeout.Milliseconds()) + ")" +
		"&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=foreign_keys(1)&_pragma=secure_delete(1)&_txlock=immediate"
}

// create makes a new bank at path with the current schema and its
// receipt key in the key file (never in the database). It is made whole
// under a temporary name beside path and linked into place, so that no
// other process ever opens it while it is empty (OpenChecked refuses an
// empty file), and of two processes creating one bank at once both open
// the one linked first. The key file is linked first: a bank never exists
// without one (a key file left with no bank, by an earlier bank deleted
// without it, is the new bank's key). SQLite gives the -wal and -shm files
// the database file's mode: the file is created owner-only, and so is a
// directory made for it. Nothing is left behind by a creation that fails
// (a full disk, say): neither the temporary files, nor the key file it
// linked, nor the directories it made. It reports whether the bank it
// linked is the one at path (false when another process's was linked
// first).
func create(ctx context.Context, path string) (ok bool, err error) {
	made, err := makeDirs(filepath.Dir(path))
	if err != nil {
		return false, err
	}
	var tag [6]byte
	if _, err := rand.Read(tag[:]); err != nil {
		return false, err
	}
	tmp := fmt.Sprintf("%s.new-%x", path, tag)
	linkedKey := false
	defer func() {
		for _, p := range []string{tmp, tmp + "-wal", tmp + "-shm", tmp + "-journal", tmp + ".key"} {
			os.Remove(p)
		}
		if err != nil {
			if linkedKey {
				os.Remove(KeyFile(path))
			}
			removeDirs(made)
		}
	}()
	key := make([]byte, bank.KeySize)
	if _, err := rand.Read(key); err != nil {
		return false, fmt.Errorf("receipt key: %w", err)
	}
	if err := writeNew(tmp+".key", []byte(hex.EncodeToString(key)+"\n")); err != nil {
		return false, fmt.Errorf("create: receipt key: %w", err)
	}
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return false, err
	}
	f.Close()
	db, err := sql.Open("sqlite", dsn(tmp))
	if err != nil {
		return false, err
	}
	s := &Store{db: db, path: tmp}
	err = s.migrate(ctx, false)
	if err == nil {
		// A new bank has nothing to clean (see scrub).
		_, err = db.ExecContext(ctx, `DELETE FROM meta WHERE key = ?`, scrubPending)
	}
	if err == nil {
		// Checkpointed and truncated: the whole bank is in the file that
		// is linked, and a full disk shows here, not later.
		err = checkpoint(ctx, db)
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return false, fmt.Errorf("create: %w", err)
	}
	if err := syncFile(tmp); err != nil {
		return false, fmt.Errorf("create: %w", err)
	}
	switch err := os.Link(tmp+".key", KeyFile(path)); {
	case err == nil:
		linkedKey = true
	case !errors.Is(err, os.ErrExist):
		return false, fmt.Errorf("create: %w", err)
	}
	switch err := os.Link(tmp, path); {
	case errors.Is(err, os.ErrExist):
		// Another process's bank was linked first, with the key file
		// linked before it (ours, if it was first: the database holds
		// none, so either key is that bank's).
		linkedKey = false
		return false, nil
	case err != nil:
		return false, fmt.Errorf("create: %w", err)
	}
	syncDir(filepath.Dir(path))
	return true, nil
}

// checkpoint copies the write-ahead log into the database and truncates
// it; a reader of another process that keeps it from finishing is an
// error.
func checkpoint(ctx context.Context, db *sql.DB) error {
	var busy, logged, done int
	if err := db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logged, &done); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if busy != 0 {
		return errors.New("checkpoint: another process has the bank open")
	}
	return nil
}

// writeNew writes data to a new file (mode 0600 from the start) and syncs
// it.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// loadKey finds the receipt key. An earlier version kept it in the meta
// table: it is written to the key file first, then deleted from the
// database, so a crash in between loses nothing (the next Open finds the
// same key in both and finishes the move).
func (s *Store) loadKey(ctx context.Context) error {
	file := KeyFile(s.path)
	fileKey, err := readKey(file)
	if err != nil {
		return err
	}
	var dbKey []byte
	err = s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'receipt_key'`).Scan(&dbKey)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("read receipt key: %w", err)
	}
	if dbKey != nil {
		switch {
		case fileKey == nil:
			if err := atomicfile.Write(file, []byte(hex.EncodeToString(dbKey)+"\n"), 0o600); err != nil {
				return fmt.Errorf("move the receipt key out of the database: %w", err)
			}
			fileKey = dbKey
		case !bytes.Equal(fileKey, dbKey):
			return fmt.Errorf("the database holds a receipt key that differs from the key file %s (copied from another bank?): move that file aside to keep the database's key", file)
		}
		if _, err := s.db.ExecContext(ctx, `DELETE FROM meta WHERE key = 'receipt_key'`); err != nil {
			return fmt.Errorf("move the receipt key out of the database: %w", err)
		}
	}
	if v := os.Getenv(bank.KeyEnv); v != "" {
		key, err := bank.ParseKey(v)
		if err != nil {
			return fmt.Errorf("%s: %w", bank.KeyEnv, err)
		}
		s.key = key
		return nil
	}
	if fileKey == nil {
		return fmt.Errorf("the receipt key file %s is missing: receipts can be neither signed nor verified; restore it, or set %s", file, bank.KeyEnv)
	}
	s.key = fileKey
	return nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Path returns the bank file's path.
func (s *Store) Path() string { return s.path }

// migrations are applied in order; migration i brings the schema to
// version i+1. Never edit a released migration: append a new one.
var migrations = []func(ctx context.Context, tx *sql.Tx) error{
	func(ctx context.Context, tx *sql.Tx) error {
		stmts := []string{
			`CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL)`,
			`CREATE TABLE blobs (hash TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID`,
			`CREATE TABLE workspaces (name TEXT PRIMARY KEY, created TEXT NOT NULL, forked_from TEXT NOT NULL DEFAULT '')`,
			`CREATE TABLE revisions (
				workspace TEXT NOT NULL REFERENCES workspaces(name),
				seq INTEGER NOT NULL,
				parent TEXT NOT NULL,
				inputs TEXT NOT NULL,
				graph TEXT NOT NULL REFERENCES blobs(hash),
				registry TEXT NOT NULL,
				time TEXT NOT NULL,
				action TEXT NOT NULL,
				message TEXT NOT NULL,
				forked_from TEXT NOT NULL,
				PRIMARY KEY (workspace, seq))`,
			`CREATE TABLE functions (seq INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, definition BLOB NOT NULL, time TEXT NOT NULL)`,
			`CREATE TABLE events (workspace TEXT NOT NULL REFERENCES workspaces(name), seq INTEGER NOT NULL, time TEXT NOT NULL, run_id TEXT NOT NULL, type TEXT NOT NULL, data BLOB NOT NULL, PRIMARY KEY (workspace, seq))`,
		}
		for _, t := range []string{"blobs", "revisions", "functions", "events", "workspaces"} {
			for _, op := range []string{"UPDATE", "DELETE"} {
				stmts = append(stmts, fmt.Sprintf(`CREATE TRIGGER %s_no_%s BEFORE %s ON %s BEGIN SELECT RAISE(ABORT, '%s are append-only'); END`,
					t, strings.ToLower(op), op, t, t))
			}
		}
		for _, q := range stmts {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("%s: %w", strings.Fields(q)[2], err)
			}
		}
		// As released, this migration also made the receipt key and stored
		// it in meta (loadKey moved it to the key file right after, leaving
		// its bytes in free space until version 3). The schema is as it
		// was; the key is now made by create, in the key file only.
		return nil
	},
	// Version 2: content larger than bank.ChunkThreshold is a tree of
	// chunk blobs; a revision maps the content's hash to the tree's root.
	// Earlier revisions keep '{}': all their content is whole blobs.
	func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `ALTER TABLE revisions ADD COLUMN trees TEXT NOT NULL DEFAULT '{}'`)
		return err
	},
	// Version 3: a bank made by an earlier version holds its receipt key's
	// bytes in free space (or in its meta table): once the key is in the
	// key file, the file is rebuilt without them (scrub). The mark is
	// kept until that is done, so a crash in between does it again.
	func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta(key, value) VALUES (?, x'01')`, scrubPending)
		return err
	},
}

// scrubPending marks, in meta, a bank whose file may still hold its
// receipt key's bytes (see scrub).
const scrubPending = "scrub_pending"

// scrub rebuilds the file of a bank marked scrubPending, once its key is
// out of the meta table: VACUUM writes a new file of the live content only
// (no free pages, no free space in pages), and a truncating checkpoint
// empties the write-ahead log, which may hold pages of before. Another
// process that has the bank open keeps the log from being truncated: the
// mark then stays, and the next open tries again.
func (s *Store) scrub(ctx context.Context) error {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM meta WHERE key = ?`, scrubPending).Scan(&n); err != nil {
		return fmt.Errorf("clean the receipt key out of the file: %w", err)
	}
	if n == 0 {
		return nil
	}
	if _, err := s.db.ExecContext(ctx, `VACUUM`); err != nil {
		return fmt.Errorf("clean the receipt key out of the file: vacuum: %w", err)
	}
	if err := checkpoint(ctx, s.db); err != nil {
		return fmt.Errorf("clean the receipt key out of the file: %w (close it and run `reconstruct bank migrate --bank %s` again)", err, s.path)
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM meta WHERE key = ?`, scrubPending); err != nil {
		return fmt.Errorf("clean the receipt key out of the file: %w", err)
	}
	s.scrubbed = true
	// What this leaves in the log (the mark's deletion, overwritten) holds
	// nothing of the key: a reader in the way is no failure.
	_ = checkpoint(ctx, s.db)
	return nil
}

// Scrubbed reports whether opening the bank cleaned the bytes of a receipt
// key kept in the database by an earlier version out of its file.
func (s *Store) Scrubbed() bool { return s.scrubbed }

// SchemaVersion is the schema version this build writes.
func SchemaVersion() int { return len(migrations) }

func (s *Store) migrate(ctx context.Context, upgrade bool) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	var version int
	err = tx.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&version)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version(version) VALUES (0)`); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	case err != nil:
		return fmt.Errorf("migrate: %w", err)
	}
	s.foundVersion = version
	if version > len(migrations) {
		return fmt.Errorf("the bank has schema version %d, newer than this build's %d: use a newer reconstruct: %w", version, len(migrations), bank.ErrSchema)
	}
	if version > 0 && version < len(migrations) && !upgrade {
		return fmt.Errorf("the bank has schema version %d, older than this build's %d: upgrade it with `reconstruct bank migrate --bank %s`: %w",
			version, len(migrations), s.path, bank.ErrSchema)
	}
	for v := version; v < len(migrations); v++ {
		if err := migrations[v](ctx, tx); err != nil {
			return fmt.Errorf("migrate to version %d: %w", v+1, err)
		}
	}
	if version < len(migrations) {
		if _, err := tx.ExecContext(ctx, `UPDATE schema_version SET version = ?`, len(migrations)); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	return tx.Commit()
}

// Key returns the receipt-signing key.
func (s *Store) Key(ctx context.Context) ([]byte, error) {
	return append([]byte(nil), s.key...), nil
}

type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

// Blobs returns the blobs with the given hashes.
func (s *Store) Blobs(ctx context.Context, hashes []string) (map[string][]byte, error) {
	return blobs(ctx, s.db, hashes)
}

func blobs(ctx context.Context, q querier, hashes []string) (map[string][]byte, error) {
	// SQLite bounds the parameters of a statement.
	const batch = 500
	return bank.ReadBlobs(hashes, batch, func(part []string) (bank.BlobRows, func() error, error) {
		args := make([]any, len(part))
		for j, h := range part {
			args[j] = h
		}
		rows, err := q.QueryContext(ctx, `SELECT hash, data FROM blobs WHERE hash IN (?`+strings.Repeat(",?", len(part)-1)+`)`, args...)
		if err != nil {
			return nil, nil, err
		}
		return rows, rows.Close, nil
	})
}

// PutBlobs stores blobs that no revision refers to yet.
func (s *Store) PutBlobs(ctx context.Context, blobMap map[string][]byte) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store blobs: %w", err)
	}
	defer tx.Rollback()
	if err := putBlobs(ctx, tx, blobMap); err != nil {
		return err
	}
	return tx.Commit()
}

func putBlobs(ctx context.Context, tx *sql.Tx, blobMap map[string][]byte) error {
	if len(blobMap) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO blobs(hash, data) VALUES (?, ?)`)
	if err != nil {
		return fmt.Errorf("store blobs: %w", err)
	}
	defer stmt.Close()
	for h, d := range blobMap {
		if _, err := stmt.ExecContext(ctx, h, d); err != nil {
			return fmt.Errorf("store blob %s: %w", h, err)
		}
	}
	return nil
}

// present fails with bank.ErrNotFound unless every blob in refs exists.
func present(ctx context.Context, tx *sql.Tx, refs []string) error {
	list := slices.Compact(slices.Sorted(slices.Values(refs)))
	args := make([]any, len(list))
	for i, h := range list {
		args[i] = h
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM blobs WHERE hash IN (?`+strings.Repeat(",?", len(list)-1)+`)`, args...).Scan(&n); err != nil {
		return err
	}
	if n == len(list) {
		return nil
	}
	for _, h := range list {
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM blobs WHERE hash = ?`, h).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("blob %s: %w", h, bank.ErrNotFound)
		}
	}
	return nil
}

func headSeq(ctx context.Context, tx *sql.Tx, workspace string) (int, bool, error) {
	var exists int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM workspaces WHERE name = ?`, workspace).Scan(&exists)
	if err != nil {
		return 0, false, err
	}
	if exists == 0 {
		return 0, false, nil
	}
	var seq sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT max(seq) FROM revisions WHERE workspace = ?`, workspace).Scan(&seq); err != nil {
		return 0, false, err
	}
	return int(seq.Int64), true, nil
}

// Append stores blobs and appends a revision guarded by the expected head.
func (s *Store) Append(ctx context.Context, expected string, history []bank.RevisionRecord, rev bank.RevisionRecord, blobMap map[string][]byte) (bank.RevisionRecord, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return bank.RevisionRecord{}, fmt.Errorf("append to %s: %w", rev.Workspace, err)
	}
	defer tx.Rollback()
	seq, exists, err := headSeq(ctx, tx, rev.Workspace)
	if err != nil {
		return bank.RevisionRecord{}, fmt.Errorf("append to %s: %w", rev.Workspace, err)
	}
	now := time.Now().UTC().Format(timeFormat)
	switch {
	case expected == "" && exists:
		return bank.RevisionRecord{}, fmt.Errorf("workspace %s: %w", rev.Workspace, bank.ErrExists)
	case expected == "":
		if _, err := tx.ExecContext(ctx, `INSERT INTO workspaces(name, created, forked_from) VALUES (?, ?, ?)`, rev.Workspace, now, rev.ForkedFrom); err != nil {
			return bank.RevisionRecord{}, fmt.Errorf("create workspace %s: %w", rev.Workspace, err)
		}
	case !exists:
		return bank.RevisionRecord{}, fmt.Errorf("workspace %s: %w", rev.Workspace, bank.ErrNotFound)
	case bank.RevisionName(seq) != expected:
		return bank.RevisionRecord{}, fmt.Errorf("workspace %s is at %s, expected %s: %w", rev.Workspace, bank.RevisionName(seq), expected, bank.ErrStale)
	}
	if err := putBlobs(ctx, tx, blobMap); err != nil {
		return bank.RevisionRecord{}, err
	}
	var out bank.RevisionRecord
	for _, r := range append(append([]bank.RevisionRecord{}, history...), rev) {
		seq++
		r.Name = bank.RevisionName(seq)
		if err := present(ctx, tx, r.Refs()); err != nil {
			return bank.RevisionRecord{}, fmt.Errorf("append %s@%s: %w", r.Workspace, r.Name, err)
		}
		inputs, err := json.Marshal(r.Inputs)
		if err != nil {
			return bank.RevisionRecord{}, err
		}
		trees := []byte("{}")
		if len(r.Trees) == 0 {
			r.Trees = nil
		} else if trees, err = json.Marshal(r.Trees); err != nil {
			return bank.RevisionRecord{}, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO revisions(workspace, seq, parent, inputs, graph, registry, time, action, message, forked_from, trees)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			rev.Workspace, seq, r.Parent, string(inputs), r.Graph, r.Registry, r.Time.UTC().Format(timeFormat), r.Action, r.Message, r.ForkedFrom, string(trees)); err != nil {
			return bank.RevisionRecord{}, fmt.Errorf("append %s@%s: %w", rev.Workspace, r.Name, err)
		}
		r.Workspace = rev.Workspace
		out = r
	}
	if err := tx.Commit(); err != nil {
		return bank.RevisionRecord{}, fmt.Errorf("append to %s: %w", rev.Workspace, err)
	}
	return out, nil
}

// textTime is a time column as SQLite keeps it: text in timeFormat.
type textTime time.Time

// Scan reads the column's text.
func (t *textTime) Scan(src any) error {
	var s string
	switch v := src.(type) {
	case string:
		s = v
	case []byte:
		s = string(v)
	default:
		return fmt.Errorf("time column: want text, got %T", src)
	}
	p, err := time.Parse(timeFormat, s)
	if err != nil {
		return fmt.Errorf("time column: %w", err)
	}
	*t = textTime(p)
	return nil
}

// timeColumn is how the rows' readers (bank.ScanRevision, …) read a time.
func timeColumn(t *time.Time) any { return (*textTime)(t) }

// query runs q and reads every row it returns with scan, one of the rows'
// readers.
func query[T any](ctx context.Context, db *sql.DB, scan func(bank.Row, bank.TimeColumn) (T, error), q string, args ...any) ([]T, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		x, err := scan(rows, timeColumn)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, rows.Err()
}

// Revision returns a saved revision; name "" is the head.
func (s *Store) Revision(ctx context.Context, workspace, name string) (bank.RevisionRecord, error) {
	var row *sql.Row
	if name == "" {
		row = s.db.QueryRowContext(ctx, `SELECT `+bank.RevisionColumns+` FROM revisions WHERE workspace = ? ORDER BY seq DESC LIMIT 1`, workspace)
	} else {
		n, ok := bank.ParseRevisionName(name)
		if !ok {
			return bank.RevisionRecord{}, fmt.Errorf("revision %q of %s: want rNNNNNN: %w", name, workspace, bank.ErrNotFound)
		}
		row = s.db.QueryRowContext(ctx, `SELECT `+bank.RevisionColumns+` FROM revisions WHERE workspace = ? AND seq = ?`, workspace, n)
	}
	r, err := bank.ScanRevision(row, timeColumn)
	if errors.Is(err, sql.ErrNoRows) {
		if name == "" {
			return r, fmt.Errorf("workspace %s: %w", workspace, bank.ErrNotFound)
		}
		return r, fmt.Errorf("revision %s@%s: %w", workspace, name, bank.ErrNotFound)
	}
	if err != nil {
		return r, fmt.Errorf("read revision %s@%s: %w", workspace, name, err)
	}
	return r, nil
}

// Log returns every revision of a workspace, oldest first.
func (s *Store) Log(ctx context.Context, workspace string) ([]bank.RevisionRecord, error) {
	out, err := query(ctx, s.db, bank.ScanRevision, `SELECT `+bank.RevisionColumns+` FROM revisions WHERE workspace = ? ORDER BY seq`, workspace)
	if err != nil {
		return nil, fmt.Errorf("log %s: %w", workspace, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("workspace %s: %w", workspace, bank.ErrNotFound)
	}
	return out, nil
}

// Workspaces lists every workspace by name.
func (s *Store) Workspaces(ctx context.Context) ([]bank.WorkspaceInfo, error) {
	out, err := query(ctx, s.db, bank.ScanWorkspace, `SELECT `+bank.WorkspaceColumns+`
		FROM workspaces w JOIN revisions r ON r.workspace = w.name GROUP BY w.name ORDER BY w.name`)
	if err != nil {
		return nil, fmt.Errorf("list workspaces: %w", err)
	}
	return out, nil
}

// AddFunction registers an operation.
func (s *Store) AddFunction(ctx context.Context, f bank.FunctionRecord) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("register %s: %w", f.Name, err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM functions WHERE name = ?`, f.Name).Scan(&n); err != nil {
		return fmt.Errorf("register %s: %w", f.Name, err)
	}
	if n > 0 {
		return fmt.Errorf("operation %s: %w", f.Name, bank.ErrExists)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO functions(name, kind, definition, time) VALUES (?, ?, ?, ?)`,
		f.Name, f.Kind, []byte(f.Definition), f.Time.UTC().Format(timeFormat)); err != nil {
		return fmt.Errorf("register %s: %w", f.Name, err)
	}
	return tx.Commit()
}

// Functions returns the registered operations in registration order.
func (s *Store) Functions(ctx context.Context) ([]bank.FunctionRecord, error) {
	out, err := query(ctx, s.db, bank.ScanFunction, `SELECT `+bank.FunctionColumns+` FROM functions ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("read functions: %w", err)
	}
	return out, nil
}

// AppendEvents appends to a workspace's journal.
func (s *Store) AppendEvents(ctx context.Context, workspace string, events []bank.Event) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("append events to %s: %w", workspace, err)
	}
	defer tx.Rollback()
	var exists int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM workspaces WHERE name = ?`, workspace).Scan(&exists); err != nil {
		return fmt.Errorf("append events to %s: %w", workspace, err)
	}
	if exists == 0 {
		return fmt.Errorf("workspace %s: %w", workspace, bank.ErrNotFound)
	}
	var seq sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT max(seq) FROM events WHERE workspace = ?`, workspace).Scan(&seq); err != nil {
		return fmt.Errorf("append events to %s: %w", workspace, err)
	}
	next := seq.Int64
	for _, e := range events {
		next++
		if _, err := tx.ExecContext(ctx, `INSERT INTO events(workspace, seq, time, run_id, type, data) VALUES (?, ?, ?, ?, ?, ?)`,
			workspace, next, e.Time.UTC().Format(timeFormat), e.RunID, e.Type, []byte(e.Data)); err != nil {
			return fmt.Errorf("append events to %s: %w", workspace, err)
		}
	}
	return tx.Commit()
}

// Events returns a workspace's journal in order.
func (s *Store) Events(ctx context.Context, workspace string) ([]bank.Event, error) {
	var exists int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM workspaces WHERE name = ?`, workspace).Scan(&exists); err != nil {
		return nil, fmt.Errorf("read events of %s: %w", workspace, err)
	}
	if exists == 0 {
		return nil, fmt.Errorf("workspace %s: %w", workspace, bank.ErrNotFound)
	}
	out, err := query(ctx, s.db, bank.ScanEvent, `SELECT `+bank.EventColumns+` FROM events WHERE workspace = ? ORDER BY seq`, workspace)
	if err != nil {
		return nil, fmt.Errorf("read events of %s: %w", workspace, err)
	}
	return out, nil
}

// IntegrityCheck runs SQLite's integrity check and returns its report
// ("ok" when the file is sound).
func (s *Store) IntegrityCheck(ctx context.Context) string {
	var res string
	if err := s.db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&res); err != nil {
		return err.Error()
	}
	return res
}
