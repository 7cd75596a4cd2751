package bank

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Storage errors. Implementations wrap them so callers can use errors.Is.
var (
	// ErrNotFound: no such workspace, revision or blob.
	ErrNotFound = errors.New("not found")
	// ErrExists: the workspace or operation name is taken.
	ErrExists = errors.New("already exists")
	// ErrStale: the workspace head is not the expected revision.
	ErrStale = errors.New("stale revision")
	// ErrSchema: the store holds no bank, or a schema version this build
	// does not write (older: `reconstruct bank migrate` upgrades it; newer:
	// a newer reconstruct wrote it). Nothing was changed.
	ErrSchema = errors.New("bank schema")
	// ErrForeign: a path given for the bank holds something that is not
	// the bank's own — a file that is no bank, a side file (-wal, -shm,
	// the key file) that is a symbolic link or not a regular file. It is
	// refused before anything touches it: nothing was changed.
	ErrForeign = errors.New("not the bank's own file")
	// ErrTampered: stored content does not match the hash it is stored
	// under (the bank was altered behind its back, or the disk failed).
	ErrTampered = errors.New("content does not match its hash")
)

// RevisionRecord is one immutable revision as stored: references to
// content-addressed input values and graph structure.
type RevisionRecord struct {
	Workspace string `json:"workspace"`
	// Name is r000001, r000002, … assigned by Store.Append.
	Name string `json:"revision"`
	// Parent is the revision this one derives from for undo purposes: the
	// base of a commit or checkout, the restored revision's parent for an
	// undo, empty for a workspace's first revision.
	Parent string `json:"parent,omitempty"`
	// Inputs maps input names to value hashes.
	Inputs map[string]string `json:"inputs"`
	// Graph is the hash of the graph structure (nodes and outputs).
	Graph    string    `json:"graph"`
	Registry string    `json:"registry"`
	Time     time.Time `json:"time"`
	// Action is create, commit, fork, undo, checkout or update.
	Action  string `json:"action"`
	Message string `json:"message,omitempty"`
	// ForkedFrom is "workspace@revision" for the revisions of a fork.
	ForkedFrom string `json:"forked_from,omitempty"`
	// Trees maps the hash of an input value stored as a tree of chunks
	// (one larger than ChunkThreshold) to the tree's root blob; content
	// not listed is one blob under its own hash. A storage detail, not
	// part of the record users see.
	Trees map[string]string `json:"-"`
}

// WorkspaceInfo summarises one workspace.
type WorkspaceInfo struct {
	Name       string    `json:"workspace"`
	Head       string    `json:"head"`
	Revisions  int       `json:"revisions"`
	Updated    time.Time `json:"updated"`
	ForkedFrom string    `json:"forked_from,omitempty"`
}

// FunctionRecord is one registered operation as stored, in registration
// order. Kind is "function" (Definition is the function file) or
// "program" (Definition is a program value).
type FunctionRecord struct {
	Name       string          `json:"name"`
	Kind       string          `json:"kind"`
	Definition json.RawMessage `json:"definition"`
	Time       time.Time       `json:"time"`
}

// Event is one record of a workspace's append-only journal.
type Event struct {
	Time  time.Time       `json:"time"`
	RunID string          `json:"run_id"`
	Type  string          `json:"type"`
	Data  json.RawMessage `json:"data"`
}

// Store is the persistence the bank needs: content-addressed blobs,
// append-only revisions guarded by the expected head, the function
// registry, the event journal and the receipt key. Every method is one
// transaction. bank/sqlite is the embedded implementation, bank/postgres
// the shared one; bank/storetest is the suite both pass.
type Store interface {
	// Key returns the bank's secret receipt-signing key.
	Key(ctx context.Context) ([]byte, error)
	// Blobs returns the blobs with the given hashes (ErrNotFound if any is
	// missing).
	Blobs(ctx context.Context, hashes []string) (map[string][]byte, error)
	// PutBlobs stores blobs that no revision refers to (yet), such as a
	// run's workspace archive, deduplicated by hash.
	PutBlobs(ctx context.Context, blobs map[string][]byte) error
	// Append stores the blobs (deduplicated by hash) and appends rev to the
	// workspace if its head is expected; expected "" creates the workspace
	// (ErrExists if it exists). rev.Name is assigned; when history is not
	// empty the workspace is created with those revisions first (a fork).
	// Every blob a revision refers to (RevisionRecord.Refs) must exist
	// afterwards, else ErrNotFound.
	Append(ctx context.Context, expected string, history []RevisionRecord, rev RevisionRecord, blobs map[string][]byte) (RevisionRecord, error)
	// Revision returns a saved revision; name "" is the head.
	Revision(ctx context.Context, workspace, name string) (RevisionRecord, error)
	// Log returns every revision of a workspace, oldest first.
	Log(ctx context.Context, workspace string) ([]RevisionRecord, error)
	// Workspaces lists every workspace by name.
	Workspaces(ctx context.Context) ([]WorkspaceInfo, error)
	// AddFunction registers an operation (ErrExists if the name is taken).
	AddFunction(ctx context.Context, f FunctionRecord) error
	// Functions returns the registered operations in registration order.
	Functions(ctx context.Context) ([]FunctionRecord, error)
	// AppendEvents appends to a workspace's journal (ErrNotFound if the
	// workspace does not exist).
	AppendEvents(ctx context.Context, workspace string, events []Event) error
	// Events returns a workspace's journal in order.
	Events(ctx context.Context, workspace string) ([]Event, error)
	Close() error
}

// Refs returns the blobs a revision refers to: its graph and input hashes,
// or for an input stored as a tree, the tree's root.
func (r RevisionRecord) Refs() []string {
	refs := make([]string, 0, len(r.Inputs)+1)
	for _, h := range append([]string{r.Graph}, mapValues(r.Inputs)...) {
		if root, ok := r.Trees[h]; ok {
			h = root
		}
		refs = append(refs, h)
	}
	return refs
}

func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// RevisionName formats the n-th revision name (1-based).
func RevisionName(n int) string { return fmt.Sprintf("r%06d", n) }

// ParseRevisionName returns n for "rNNNNNN".
func ParseRevisionName(s string) (int, bool) {
	if len(s) != 7 || s[0] != 'r' {
		return 0, false
	}
	n := 0
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n > 0
}

// BlobRows are the rows of a store's `SELECT hash, data FROM blobs` query:
// database/sql's and pgx's rows both fit.
type BlobRows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// ReadBlobs is Store.Blobs for a SQL store: it reads the blobs with the
// given hashes, each once, in batches of at most batch hashes (0: all at
// once). query returns the rows of `SELECT hash, data FROM blobs` for one
// batch and the function that closes them. A missing blob is ErrNotFound.
func ReadBlobs(hashes []string, batch int, query func(part []string) (BlobRows, func() error, error)) (map[string][]byte, error) {
	seen := make(map[string]bool, len(hashes))
	list := make([]string, 0, len(hashes))
	for _, h := range hashes {
		if !seen[h] {
			seen[h] = true
			list = append(list, h)
		}
	}
	if batch <= 0 {
		batch = max(len(list), 1)
	}
	out := make(map[string][]byte, len(list))
	for i := 0; i < len(list); i += batch {
		rows, closeRows, err := query(list[i:min(i+batch, len(list))])
		if err != nil {
			return nil, fmt.Errorf("read blobs: %w", err)
		}
		err = scanBlobs(rows, out)
		if cerr := closeRows(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("read blobs: %w", err)
		}
	}
	for _, h := range list {
		if _, ok := out[h]; !ok {
			return nil, fmt.Errorf("blob %s: %w", h, ErrNotFound)
		}
	}
	return out, nil
}

// scanBlobs reads every (hash, data) row into out.
func scanBlobs(rows BlobRows, out map[string][]byte) error {
	for rows.Next() {
		var h string
		var d []byte
		if err := rows.Scan(&h, &d); err != nil {
			return err
		}
		out[h] = d
	}
	return rows.Err()
}

// DecodeColumns fills r's Inputs and Trees from the JSON texts a SQL store
// keeps them in (no trees: nil); r's Workspace and Name name it in errors.
func (r *RevisionRecord) DecodeColumns(inputs, trees string) error {
	if err := json.Unmarshal([]byte(inputs), &r.Inputs); err != nil {
		return fmt.Errorf("revision %s@%s inputs: %w", r.Workspace, r.Name, err)
	}
	if err := json.Unmarshal([]byte(trees), &r.Trees); err != nil {
		return fmt.Errorf("revision %s@%s trees: %w", r.Workspace, r.Name, err)
	}
	if len(r.Trees) == 0 {
		r.Trees = nil
	}
	return nil
}

// The rows of the stores' tables are read by one piece of code, whichever
// store queried them: only how a store keeps a time differs.

// Row is one row of a query: database/sql's and pgx's rows both fit.
type Row interface {
	Scan(dest ...any) error
}

// TimeColumn returns what a store's driver scans a time column into for
// *t: SQLite keeps times as text, PostgreSQL as timestamptz. Times are
// read back in UTC.
type TimeColumn func(t *time.Time) any

// RevisionColumns are the columns of a revision that ScanRevision reads,
// in order.
const RevisionColumns = `workspace, seq, parent, inputs, graph, registry, time, action, message, forked_from, trees`

// ScanRevision reads a row of RevisionColumns.
func ScanRevision(row Row, at TimeColumn) (RevisionRecord, error) {
	var r RevisionRecord
	var seq int
	var inputs, trees string
	if err := row.Scan(&r.Workspace, &seq, &r.Parent, &inputs, &r.Graph, &r.Registry, at(&r.Time), &r.Action, &r.Message, &r.ForkedFrom, &trees); err != nil {
		return r, err
	}
	r.Name, r.Time = RevisionName(seq), r.Time.UTC()
	if err := r.DecodeColumns(inputs, trees); err != nil {
		return r, err
	}
	return r, nil
}

// WorkspaceColumns are the columns of a workspace summary that
// ScanWorkspace reads, in order, over workspaces w joined with their
// revisions r and grouped by workspace.
const WorkspaceColumns = `w.name, w.forked_from, max(r.seq), count(*), max(r.time)`

// ScanWorkspace reads a row of WorkspaceColumns.
func ScanWorkspace(row Row, at TimeColumn) (WorkspaceInfo, error) {
	var w WorkspaceInfo
	var seq int
	if err := row.Scan(&w.Name, &w.ForkedFrom, &seq, &w.Revisions, at(&w.Updated)); err != nil {
		return w, err
	}
	w.Head, w.Updated = RevisionName(seq), w.Updated.UTC()
	return w, nil
}

// FunctionColumns are the columns of a registered operation that
// ScanFunction reads, in order.
const FunctionColumns = `name, kind, definition, time`

// ScanFunction reads a row of FunctionColumns.
func ScanFunction(row Row, at TimeColumn) (FunctionRecord, error) {
	var f FunctionRecord
	var def []byte
	if err := row.Scan(&f.Name, &f.Kind, &def, at(&f.Time)); err != nil {
		return f, err
	}
	f.Definition, f.Time = def, f.Time.UTC()
	return f, nil
}

// EventColumns are the columns of a journal event that ScanEvent reads,
// in order.
const EventColumns = `time, run_id, type, data`

// ScanEvent reads a row of EventColumns.
func ScanEvent(row Row, at TimeColumn) (Event, error) {
	var e Event
	var data []byte
	if err := row.Scan(at(&e.Time), &e.RunID, &e.Type, &data); err != nil {
		return e, err
	}
	e.Time, e.Data = e.Time.UTC(), data
	return e, nil
}
