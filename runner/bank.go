package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/backend"
	"github.com/reconstruct/reconstruct/bank/sqlite"
	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// ErrNoBank marks a bank that does not exist where a command looked for
// it; reading commands never create one.
var ErrNoBank = errors.New("no bank")

// ErrNoRun marks a run id the bank does not know.
var ErrNoRun = errors.New("no run")

// BankAccess says how a command uses the bank.
type BankAccess int

const (
	// ReadBank opens an existing bank; a missing one is ErrNoBank and
	// nothing is created.
	ReadBank BankAccess = iota
	// WriteBank opens the bank to record in it, creating a missing SQLite
	// file. An existing file must be a sound bank: an empty file or one
	// failing SQLite's quick_check is refused, never started afresh.
	WriteBank
	// UpdateBank opens an existing, sound bank to record in it (resume).
	UpdateBank
)

// BankOptions configure OpenBank.
type BankOptions struct {
	Log *zap.Logger
	// Programs runs the program values of bank actions (nil: none).
	Programs bank.ProgramRunner
	// Getenv reads the PostgreSQL bank's settings (RECONSTRUCT_BANK_KEY,
	// RECONSTRUCT_BANK_RETRY); nil reads the process environment.
	Getenv func(string) string
}

// OpenBank opens the bank at location — the one place every command opens
// its bank (see config.ResolveBank for where the location comes from): a
// SQLite file or a postgres:// URL (bank/backend; a PostgreSQL database
// must hold a bank already, made by `bank migrate`). The returned function
// closes it.
func OpenBank(ctx context.Context, location string, access BankAccess, opts BankOptions) (*bank.Bank, func() error, error) {
	log := opts.Log
	if log == nil {
		log = zap.NewNop()
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	sqliteFile := !backend.IsPostgres(location)
	if sqliteFile && access != WriteBank {
		if _, err := os.Stat(location); errors.Is(err, os.ErrNotExist) {
			return nil, nil, fmt.Errorf("%w at %s", ErrNoBank, location)
		}
	}
	var st bank.Store
	var err error
	if sqliteFile && access == ReadBank {
		// Reading spares the file the quick_check of a bank opened to
		// record in it.
		if err = sqlite.CheckFile(location); err == nil {
			st, err = sqlite.Open(ctx, location)
		}
	} else {
		// backend.Open refuses a SQLite file that is no sound bank.
		st, err = backend.Open(ctx, location, backend.Options{Logger: log, Getenv: getenv})
	}
	if err != nil {
		return nil, nil, err // the stores' errors name the bank
	}
	return bank.New(st, bank.Options{Logger: log, Runner: opts.Programs}), st.Close, nil
}

// runIDPattern is what a run id may be: it names the run's bank workspace
// and its archived files, and is kept exactly as given.
var runIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$`)

// CheckRunID refuses a run id that could not be kept exactly as given.
func CheckRunID(id string) error {
	if !runIDPattern.MatchString(id) {
		return fmt.Errorf("%w: run id %q: use 1 to 48 letters, digits, '-' and '_', starting with a letter or digit", ErrConfig, id)
	}
	return nil
}

// RunWorkspaceName names a run's bank workspace after its task and run id.
func RunWorkspaceName(taskName, runID string) string {
	t := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, taskName)
	if t == "" || t[0] == '-' || t[0] >= '0' && t[0] <= '9' {
		t = "run_" + t
	}
	if room := 64 - len(runID) - 1; len(t) > room {
		t = t[:max(room, 1)]
	}
	return t + "-" + runID
}

// FindRun returns the bank workspace of a run id (or the workspace name
// itself). A workspace whose name ends with the id but whose journal
// belongs to another run is not it; one with no journal is a run killed
// during start-up (ErrNotStarted).
func FindRun(ctx context.Context, b *bank.Bank, run string) (string, error) {
	wss, err := b.Workspaces(ctx)
	if err != nil {
		return "", err
	}
	suffix := "-" + run
	var found, unstarted []string
	for _, w := range wss {
		if w.Name != run && !strings.HasSuffix(w.Name, suffix) {
			continue
		}
		events, err := RunEvents(ctx, b, w.Name)
		if err != nil {
			return "", err
		}
		switch {
		case len(events) == 0:
			unstarted = append(unstarted, w.Name)
		case w.Name == run || events[0].RunID == run:
			found = append(found, w.Name)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return "", fmt.Errorf("run %q is ambiguous: %s", run, strings.Join(found, ", "))
	case len(unstarted) > 0:
		return "", fmt.Errorf("%w: run %q was stopped during start-up, before it recorded anything; start it again with --run-id %s", ErrNotStarted, run, run)
	}
	return "", fmt.Errorf("%w %q", ErrNoRun, run)
}

// ErrNotStarted marks a run that was stopped before it recorded anything.
var ErrNotStarted = errors.New("not started")

// RunEvents reads a run's journal back as workflow events.
func RunEvents(ctx context.Context, b *bank.Bank, workspace string) ([]workflow.Event, error) {
	bevs, err := b.Events(ctx, workspace)
	if err != nil {
		return nil, err
	}
	out := make([]workflow.Event, 0, len(bevs))
	for i, be := range bevs {
		var ev workflow.Event
		if err := json.Unmarshal(be.Data, &ev); err != nil {
			return nil, fmt.Errorf("bank workspace %s event %d: %w", workspace, i+1, err)
		}
		out = append(out, ev)
	}
	if err := workflow.CheckEvents("bank workspace "+workspace, out); err != nil {
		return nil, err
	}
	return out, nil
}

// BankRecorder records a run in its bank workspace: every event in the
// journal, each granted batch and the final program as revisions.
type BankRecorder struct {
	bank      *bank.Bank
	workspace string
	function  string

	mu       sync.Mutex
	head     string
	examples []bank.Value
	// archive, when set, is the candidate archive each archived
	// candidate's program is read from into the bank (KeepCandidates).
	archive *candidates.Archive
}

var _ workflow.Recorder = (*BankRecorder)(nil)

// KeepCandidates makes the recorder store the program of every candidate
// the run archives in the workspace's archive as a blob of the bank, named
// by its SHA-256 as the archive's record is: a resumed run whose workspace
// lost its archive gets it back from the bank (RestoreCandidates).
func (r *BankRecorder) KeepCandidates(a *candidates.Archive) { r.archive = a }

// runGraph is a run workspace's computation: the examples, the program, and
// how many examples are known.
func runGraph(function string) (*bank.Graph, error) {
	prog, err := bank.NewProgram(function, "")
	if err != nil {
		return nil, err
	}
	return &bank.Graph{
		Inputs:  map[string]bank.Value{"examples": bank.List(bank.KindExample, nil), "program": prog},
		Nodes:   []bank.Node{{ID: "known", Op: "list.length", Args: map[string]string{"items": "examples"}}},
		Outputs: map[string]string{"known": "known", "program": "program"},
	}, nil
}

// NewRunWorkspace creates the bank workspace of a new run. The workspace
// of a run stopped during start-up, before its journal got its first
// event, is taken over: that run id is free again. A run id in use is a
// configuration error.
func NewRunWorkspace(ctx context.Context, b *bank.Bank, workspace, function string) (*BankRecorder, error) {
	g, err := runGraph(function)
	if err != nil {
		return nil, err
	}
	rec, err := b.Create(ctx, workspace, g, "run started")
	if err == nil {
		return &BankRecorder{bank: b, workspace: workspace, function: function, head: rec.Name}, nil
	}
	if _, lerr := b.Load(ctx, workspace, ""); lerr != nil {
		return nil, fmt.Errorf("create bank workspace %s: %w", workspace, err)
	}
	events, eerr := b.Events(ctx, workspace)
	if eerr != nil {
		return nil, fmt.Errorf("create bank workspace %s: %w", workspace, eerr)
	}
	if len(events) > 0 {
		return nil, fmt.Errorf("%w: the bank already holds a run with this id (bank workspace %s): resume it with --resume, or give another --run-id", ErrConfig, workspace)
	}
	return ContinueRunWorkspace(ctx, b, workspace, function, nil)
}

// ContinueRunWorkspace reopens a run's workspace (resume, or a fork's new
// workspace) and brings its examples revision up to the given examples.
func ContinueRunWorkspace(ctx context.Context, b *bank.Bank, workspace, function string, examples []task.Example) (*BankRecorder, error) {
	rev, err := b.Load(ctx, workspace, "")
	if err != nil {
		return nil, fmt.Errorf("load bank workspace %s: %w", workspace, err)
	}
	r := &BankRecorder{bank: b, workspace: workspace, function: function, head: rev.Name}
	if v, ok := rev.Graph.Inputs["examples"]; ok {
		r.examples, _ = v.Items()
	}
	// The journal the run goes on from must hold the examples the bank
	// holds (checked against their hash), one for one.
	if ps := compareExamples("", workspace, rev.Name, examples, r.examples, ""); len(ps) > 0 {
		return nil, fmt.Errorf("bank workspace %s: %w: the run's journal and its content-hashed examples differ: %s (run `reconstruct bank check`)", workspace, bank.ErrTampered, ps[0].Problem)
	}
	if len(examples) > len(r.examples) {
		// A crash between recording a batch's event and its revision.
		if err := r.RecordExamples(ctx, "", examples[len(r.examples):]); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Workspace is the bank workspace name.
func (r *BankRecorder) Workspace() string { return r.workspace }

// RecordEvent appends the event to the workspace journal. The final event
// records the final program as a revision first: a final event in the
// journal means the program is in the bank.
func (r *BankRecorder) RecordEvent(ctx context.Context, ev workflow.Event) error {
	data, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	if ev.Type == workflow.EventCandidateArchived && r.archive != nil {
		// Before the event: a checkpoint naming a candidate implies its
		// program is in the bank.
		if err := r.keepCandidate(ctx, ev); err != nil {
			return err
		}
	}
	if ev.Type == workflow.EventFinal {
		var final struct {
			Source string `json:"source"`
		}
		if err := json.Unmarshal(ev.Data, &final); err != nil {
			return err
		}
		prog, err := bank.NewProgram(r.function, final.Source)
		if err != nil {
			return fmt.Errorf("final program: %w", err)
		}
		if err := r.update(ctx, map[string]bank.Value{"program": prog}, "final program"); err != nil {
			return err
		}
	}
	if err := r.bank.AppendEvents(ctx, r.workspace, []bank.Event{{Time: ev.Time, RunID: ev.RunID, Type: ev.Type, Data: data}}); err != nil {
		return fmt.Errorf("bank journal of %s: %w", r.workspace, err)
	}
	return nil
}

// keepCandidate stores the program of the candidate an archived event
// names as a blob (the same program is stored once).
func (r *BankRecorder) keepCandidate(ctx context.Context, ev workflow.Event) error {
	var d workflow.CandidateArchived
	if err := json.Unmarshal(ev.Data, &d); err != nil {
		return err
	}
	src, err := r.archive.Source(candidates.Record{File: d.File, SHA256: d.SHA256})
	if err != nil {
		return err
	}
	if _, err := r.bank.PutBlob(ctx, src); err != nil {
		return fmt.Errorf("bank workspace %s: candidate %s: %w", r.workspace, d.File, err)
	}
	return nil
}

// RestoreCandidates puts back into the workspace's archive every candidate
// of recs (a run's, as its checkpoint lists them) that the archive lost:
// the program from the bank (KeepCandidates stored it), else from the
// workspace bundle the run stored when it last ended (RunArchive). When
// some cannot be found, nothing is written and the error names them.
func RestoreCandidates(ctx context.Context, b *bank.Bank, run, workspace string, recs []candidates.Record) (restored int, err error) {
	a, err := candidates.Open(workspace)
	if err != nil {
		return 0, err
	}
	missing := map[string][]byte{}
	var lost []candidates.Record
	for _, rec := range recs {
		if rec.SameAs != 0 {
			continue // its program is the earlier record's
		}
		if _, err := a.Source(rec); err == nil {
			continue
		}
		lost = append(lost, rec)
		if src, err := b.Blob(ctx, "sha256:"+rec.SHA256); err == nil && len(src) > 0 {
			missing[rec.File] = src
		}
	}
	if len(lost) == 0 {
		return 0, nil
	}
	if len(missing) < len(lost) {
		if data, _, err := RunArchive(ctx, b, run); err == nil {
			dir, derr := os.MkdirTemp("", "reconstruct-restore-*")
			if derr != nil {
				return 0, derr
			}
			defer os.RemoveAll(dir)
			if err := candidates.Unpack(data, dir, candidates.DefaultBundleLimit); err == nil {
				if from, err := candidates.OpenExisting(dir); err == nil {
					for _, rec := range lost {
						if _, ok := missing[rec.File]; ok {
							continue
						}
						if src, err := from.Source(rec); err == nil {
							missing[rec.File] = src
						}
					}
				}
			}
		}
	}
	var gone []string
	for _, rec := range lost {
		if _, ok := missing[rec.File]; !ok {
			gone = append(gone, rec.File)
		}
	}
	if len(gone) > 0 {
		return 0, fmt.Errorf("%d of the run's archived candidates are missing from %s and the bank holds no copy of them (%s)",
			len(gone), filepath.Join(workspace, candidates.Dir), strings.Join(gone, ", "))
	}
	for _, rec := range lost {
		if err := a.Restore(rec, missing[rec.File]); err != nil {
			return restored, err
		}
		restored++
	}
	return restored, nil
}

// RecordExamples records a granted batch as a revision of the examples.
func (r *BankRecorder) RecordExamples(ctx context.Context, _ string, exs []task.Example) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	items := append([]bank.Value(nil), r.examples...)
	for _, ex := range exs {
		v, err := bank.NewExample(ex.Input, ex.Output, string(ex.Source))
		if err != nil {
			return fmt.Errorf("example %s: %w", ex.Input, err)
		}
		items = append(items, v)
	}
	msg := fmt.Sprintf("batch of %d examples (%d known)", len(exs), len(items))
	if err := r.updateLocked(ctx, map[string]bank.Value{"examples": bank.List(bank.KindExample, items)}, msg); err != nil {
		return err
	}
	r.examples = items
	return nil
}

func (r *BankRecorder) update(ctx context.Context, inputs map[string]bank.Value, msg string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.updateLocked(ctx, inputs, msg)
}

func (r *BankRecorder) updateLocked(ctx context.Context, inputs map[string]bank.Value, msg string) error {
	rec, err := r.bank.Update(ctx, r.workspace, r.head, inputs, nil, msg)
	if err != nil {
		return fmt.Errorf("bank workspace %s: %w", r.workspace, err)
	}
	r.head = rec.Name
	return nil
}

// ArchiveInput names the run workspace input that points at the blob
// holding the run's workspace bundle (candidates.Pack).
const ArchiveInput = "archive"

// archiveEntries are what a run's workspace bundle holds: the final
// candidate, the result, the journals and the candidate archive.
var archiveEntries = []string{agent.CandidateFile, workflow.ResultFile, workflow.EventsFile, workflow.ExamplesFile, candidates.Dir}

// RecordArchive stores the run's workspace (candidate.py, result.json,
// the journals, .oc_candidates/) in the bank as one blob and records it as
// a revision, so that another machine can inspect the run's candidates.
func (r *BankRecorder) RecordArchive(ctx context.Context, workspace string) error {
	data, files, err := candidates.Pack(workspace, archiveEntries, candidates.DefaultBundleLimit)
	if err != nil {
		return err
	}
	hash, err := r.bank.PutBlob(ctx, data)
	if err != nil {
		return fmt.Errorf("bank workspace %s: %w", r.workspace, err)
	}
	ref, err := json.Marshal(archiveRef{Blob: hash, Bytes: len(data), Files: files, Workspace: workspace})
	if err != nil {
		return err
	}
	v, err := bank.JSONValue(ref)
	if err != nil {
		return err
	}
	return r.update(ctx, map[string]bank.Value{ArchiveInput: v}, fmt.Sprintf("workspace archive (%d files, %d bytes)", files, len(data)))
}

// archiveRef is the value of a run's archive input.
type archiveRef struct {
	Blob      string `json:"blob"`
	Bytes     int    `json:"bytes"`
	Files     int    `json:"files"`
	Workspace string `json:"workspace"`
}

// RunArchive returns the workspace bundle a run recorded (candidates.Unpack
// restores it) and the hash it is stored under.
func RunArchive(ctx context.Context, b *bank.Bank, run string) ([]byte, string, error) {
	ws, err := FindRun(ctx, b, run)
	if err != nil {
		return nil, "", err
	}
	rev, err := b.Load(ctx, ws, "")
	if err != nil {
		return nil, "", err
	}
	raw, ok := rev.Graph.Inputs[ArchiveInput].JSON()
	var ref archiveRef
	if !ok || json.Unmarshal(raw, &ref) != nil || ref.Blob == "" {
		return nil, "", fmt.Errorf("run %s recorded no workspace archive in the bank", run)
	}
	data, err := b.Blob(ctx, ref.Blob)
	if err != nil {
		return nil, "", fmt.Errorf("run %s: workspace archive: %w", run, err)
	}
	if bank.HashBytes(data) != ref.Blob {
		return nil, "", fmt.Errorf("run %s: the workspace archive does not match its hash %s", run, ref.Blob)
	}
	return data, ref.Blob, nil
}

// ProgramOfRun returns the final program a run recorded.
func ProgramOfRun(ctx context.Context, b *bank.Bank, run string) (bank.Value, error) {
	ws, err := FindRun(ctx, b, run)
	if err != nil {
		return bank.Value{}, err
	}
	rev, err := b.Load(ctx, ws, "")
	if err != nil {
		return bank.Value{}, err
	}
	v, ok := rev.Graph.Inputs["program"]
	if p, isProg := v.Program(); !ok || !isProg || p.Source == "" {
		return bank.Value{}, errors.New("run " + run + " has no final program yet")
	}
	return v, nil
}

// CheckBank runs SQLite's full integrity_check on the bank at location,
// then checks every stored value against its content hash and every run's
// examples against its journal (CheckContent), and returns the problems
// it finds, each naming the run, revision and example it belongs to
// (none: the bank is sound). A missing bank is ErrNoBank; nothing is
// created.
func CheckBank(ctx context.Context, location string) ([]string, error) {
	if _, err := os.Stat(location); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w at %s", ErrNoBank, location)
	}
	if err := sqlite.CheckFile(location); err != nil {
		return []string{err.Error()}, nil
	}
	st, err := sqlite.Open(ctx, location)
	if err != nil {
		if errors.Is(err, os.ErrPermission) {
			return nil, fmt.Errorf("open bank %s: %w", location, err)
		}
		return []string{err.Error()}, nil
	}
	defer st.Close()
	problems, err := st.Check(ctx, true)
	if err != nil {
		return nil, err
	}
	content, err := CheckContent(ctx, bank.New(st, bank.Options{}))
	if err != nil {
		return append(problems, "the content cannot be read back: "+err.Error()), nil
	}
	return append(problems, content...), nil
}
