package workflow

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/reconstruct/reconstruct/internal/atomicfile"
	"github.com/reconstruct/reconstruct/internal/stamp"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

// JournalPerm is the mode of the files holding observed examples (the
// journals and result.json): readable by their owner only, so that a
// candidate running as another user in a sandbox cannot look the answers up.
const JournalPerm = 0o600

// Journal file names in the workspace.
const (
	EventsFile   = "events.jsonl"
	ExamplesFile = "examples.jsonl"
	// BindingLogFile receives what a task bound from Python returns from
	// its on_example hook (written by the runner).
	BindingLogFile = "binding_log.jsonl"
)

// FileRecorder appends events and examples to the workspace's JSON-lines
// files, syncing each write so that a crash loses nothing already recorded.
type FileRecorder struct {
	mu       sync.Mutex
	events   *os.File
	examples *os.File
	stamp    stamp.Stamp
}

// exampleLine is one line of examples.jsonl: the example and the stamp of
// the journal's format (a line without one is format 1).
type exampleLine struct {
	Input  json.RawMessage `json:"input"`
	Output json.RawMessage `json:"output"`
	Source task.Source     `json:"source"`
	stamp.Stamp
}

func newExampleLine(ex task.Example, s stamp.Stamp) exampleLine {
	return exampleLine{Input: ex.Input, Output: ex.Output, Source: ex.Source, Stamp: s}
}

var _ Recorder = (*FileRecorder)(nil)

// NewFileRecorder opens the journal files of a workspace. A new run starts
// them afresh; a resumed run appends.
func NewFileRecorder(workspace string, resume bool) (*FileRecorder, error) {
	// O_NOFOLLOW: a link left in the workspace must not redirect the journal.
	flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND | syscall.O_NOFOLLOW
	if !resume {
		flags |= os.O_TRUNC
	}
	if err := os.MkdirAll(workspace, 0o755); err != nil {
		return nil, fmt.Errorf("create workspace: %w", err)
	}
	ev, err := os.OpenFile(filepath.Join(workspace, EventsFile), flags, JournalPerm)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", EventsFile, err)
	}
	ex, err := os.OpenFile(filepath.Join(workspace, ExamplesFile), flags, JournalPerm)
	if err != nil {
		ev.Close()
		return nil, fmt.Errorf("open %s: %w", ExamplesFile, err)
	}
	for _, f := range []*os.File{ev, ex} {
		if err := f.Chmod(JournalPerm); err != nil {
			ev.Close()
			ex.Close()
			return nil, fmt.Errorf("restrict %s: %w", f.Name(), err)
		}
	}
	return &FileRecorder{events: ev, examples: ex, stamp: stamp.New(Format, sandbox.HarnessSHA256())}, nil
}

// RecordEvent appends one event line.
func (f *FileRecorder) RecordEvent(_ context.Context, ev Event) error {
	return f.append(f.events, ev)
}

// RecordExamples appends one line per example.
func (f *FileRecorder) RecordExamples(_ context.Context, _ string, exs []task.Example) error {
	for _, ex := range exs {
		if err := f.append(f.examples, newExampleLine(ex, f.stamp)); err != nil {
			return err
		}
	}
	return nil
}

func (f *FileRecorder) append(file *os.File, v any) error {
	line, err := json.Marshal(v)
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := file.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("append to %s: %w", file.Name(), err)
	}
	return file.Sync()
}

// Close closes both files, keeping the first error.
func (f *FileRecorder) Close() error {
	err := f.events.Close()
	if e := f.examples.Close(); err == nil {
		err = e
	}
	return err
}

// ReadExamples reads a workspace's examples.jsonl; a line of a newer
// format than this build reads is refused (stamp.ErrNewerFormat).
func ReadExamples(workspace string) ([]task.Example, error) {
	path := filepath.Join(workspace, ExamplesFile)
	lines, err := readJSONLines[exampleLine](path)
	out := make([]task.Example, 0, len(lines))
	for i, l := range lines {
		if cerr := l.Check(fmt.Sprintf("%s: line %d", path, i+1), Format); cerr != nil {
			return nil, cerr
		}
		out = append(out, task.Example{Input: l.Input, Output: l.Output, Source: l.Source})
	}
	return out, err
}

// ReadEvents reads a workspace's events.jsonl; a journal holding an event
// of a newer format than this build reads is refused (stamp.ErrNewerFormat).
func ReadEvents(workspace string) ([]Event, error) {
	path := filepath.Join(workspace, EventsFile)
	evs, err := readJSONLines[Event](path)
	if err != nil {
		return evs, err
	}
	if err := CheckEvents(path, evs); err != nil {
		return nil, err
	}
	return evs, nil
}

func readJSONLines[T any](path string) ([]T, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []T
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var v T
		if err := dec.Decode(&v); err != nil {
			return out, fmt.Errorf("read %s: %w", path, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// WriteJournal replaces a workspace's events.jsonl and examples.jsonl with
// the given records (a resumed run re-synchronises them with the bank; a
// fork starts from its parent's examples).
func WriteJournal(workspace string, events []Event, examples []task.Example) error {
	var evBuf, exBuf bytes.Buffer
	for _, ev := range events {
		line, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		evBuf.Write(append(line, '\n'))
	}
	st := stamp.New(Format, sandbox.HarnessSHA256())
	for _, ex := range examples {
		line, err := json.Marshal(newExampleLine(ex, st))
		if err != nil {
			return err
		}
		exBuf.Write(append(line, '\n'))
	}
	if err := atomicfile.Write(filepath.Join(workspace, EventsFile), evBuf.Bytes(), JournalPerm); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(workspace, ExamplesFile), exBuf.Bytes(), JournalPerm)
}
