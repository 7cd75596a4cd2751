package candidates

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/reconstruct/reconstruct/internal/atomicfile"
	"github.com/reconstruct/reconstruct/internal/stamp"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

// Dir is the archive directory inside a workspace.
const Dir = ".oc_candidates"

// FormatVersion is the major version of the manifest format this package
// writes and reads; a manifest of a newer major is refused, older ones read.
const FormatVersion = 1

const manifestName = "manifest.json"

// Record describes one archived candidate and its evaluation when archived.
type Record struct {
	RunID     string `json:"run_id"`
	Iteration int    `json:"iteration"`
	// File is the program's file name inside the archive directory. A
	// program the same run archived before is not copied again: File names
	// the earlier copy and SameAs its iteration.
	File       string `json:"file"`
	SameAs     int    `json:"same_as,omitempty"`
	SHA256     string `json:"sha256"`
	Transcript string `json:"transcript,omitempty"`
	// Passed of Known observed examples when the candidate was evaluated.
	Passed     int        `json:"passed"`
	Known      int        `json:"known"`
	Accuracy   float64    `json:"accuracy"`
	Score      float64    `json:"score"`
	Complexity float64    `json:"complexity"`
	Hardcoding float64    `json:"hardcoding"`
	Memorised  int        `json:"memorised"`
	Tokens     task.Usage `json:"tokens"`
	Notes      string     `json:"notes,omitempty"`
	Time       time.Time  `json:"time"`
}

// Manifest lists every archived candidate of a workspace, all runs.
type Manifest struct {
	// Stamp names the manifest's format and the reconstruct that last
	// wrote it.
	stamp.Stamp
	Entries []Record `json:"entries"`
}

// Archive is the .oc_candidates directory of one workspace.
type Archive struct {
	dir string
	mu  sync.Mutex
}

// Open opens (creating when needed) the archive of a workspace.
func Open(workspace string) (*Archive, error) {
	dir := filepath.Join(workspace, Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("open candidate archive: %w", err)
	}
	a := &Archive{dir: dir}
	if err := a.check(); err != nil {
		return nil, err
	}
	return a, nil
}

// check refuses an archive directory that is not a real directory: an
// agent with a shell in the workspace must not redirect the archive's
// writes elsewhere with a symbolic link.
func (a *Archive) check() error {
	st, err := os.Lstat(a.dir)
	if err != nil {
		return fmt.Errorf("candidate archive: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("candidate archive %s is not a directory (%s)", a.dir, st.Mode().Type())
	}
	return nil
}

// OpenExisting opens an archive that must already exist.
func OpenExisting(workspace string) (*Archive, error) {
	dir := filepath.Join(workspace, Dir)
	if _, err := os.Stat(filepath.Join(dir, manifestName)); err != nil {
		return nil, fmt.Errorf("no candidate archive in %s: %w", workspace, err)
	}
	return &Archive{dir: dir}, nil
}

// Path returns the archive directory.
func (a *Archive) Path() string { return a.dir }

// Add archives a candidate: the program, its record, the transcript when
// not empty, then the manifest. It returns the completed record. A program
// identical to one the same run archived earlier is recorded in the
// manifest only, referring to the earlier copy (its transcript, if any, is
// still kept).
func (a *Archive) Add(rec Record, source, transcript []byte) (Record, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.check(); err != nil {
		return Record{}, err
	}
	m, err := a.read()
	if err != nil {
		return Record{}, err
	}
	base := fmt.Sprintf("iter_%03d-%s", rec.Iteration, fileID(rec.RunID))
	sum := sha256.Sum256(source)
	rec.SHA256 = hex.EncodeToString(sum[:])
	rec.File, rec.SameAs = base+".py", 0
	if rec.Time.IsZero() {
		rec.Time = time.Now().UTC()
	}
	if same, ok := a.earlierCopy(m, rec); ok {
		rec.File, rec.SameAs = same.File, same.Iteration
	} else if err := atomicfile.Write(filepath.Join(a.dir, rec.File), source, 0o644); err != nil {
		return Record{}, fmt.Errorf("archive candidate iter_%03d: %w", rec.Iteration, err)
	}
	if len(transcript) > 0 {
		rec.Transcript = base + ".transcript.json"
		if err := atomicfile.Write(filepath.Join(a.dir, rec.Transcript), transcript, 0o644); err != nil {
			return Record{}, fmt.Errorf("archive transcript iter_%03d: %w", rec.Iteration, err)
		}
	}
	if rec.SameAs == 0 {
		recJSON, err := json.MarshalIndent(rec, "", "  ")
		if err != nil {
			return Record{}, err
		}
		if err := atomicfile.Write(filepath.Join(a.dir, base+".json"), append(recJSON, '\n'), 0o644); err != nil {
			return Record{}, fmt.Errorf("archive record iter_%03d: %w", rec.Iteration, err)
		}
	}
	replaced := false
	for i, e := range m.Entries {
		if e.RunID == rec.RunID && e.Iteration == rec.Iteration {
			m.Entries[i], replaced = rec, true
		}
	}
	if !replaced {
		m.Entries = append(m.Entries, rec)
	}
	if err := a.write(m); err != nil {
		return Record{}, err
	}
	return rec, nil
}

// earlierCopy finds the copy of rec's program archived by the same run at
// an earlier iteration, if its file is still intact.
func (a *Archive) earlierCopy(m Manifest, rec Record) (Record, bool) {
	for _, e := range m.Entries {
		if e.RunID != rec.RunID || e.SHA256 != rec.SHA256 || e.Iteration >= rec.Iteration || e.SameAs != 0 {
			continue
		}
		data, err := os.ReadFile(filepath.Join(a.dir, e.File))
		if err != nil {
			continue
		}
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) == rec.SHA256 {
			return e, true
		}
	}
	return Record{}, false
}

// List returns every entry of the manifest, all runs, in archive order.
func (a *Archive) List() ([]Record, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	m, err := a.read()
	if err != nil {
		return nil, err
	}
	return m.Entries, nil
}

// Run returns the entries written by one run, in iteration order.
func (a *Archive) Run(runID string) ([]Record, error) {
	all, err := a.List()
	if err != nil {
		return nil, err
	}
	var out []Record
	for _, r := range all {
		if r.RunID == runID {
			out = append(out, r)
		}
	}
	return out, nil
}

// Restore puts back a candidate the archive lost (a workspace moved or
// emptied since): its program under the file name its record gives, and
// its record in the manifest when missing. A program that does not hash to
// the record's SHA256 is refused.
func (a *Archive) Restore(rec Record, source []byte) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.check(); err != nil {
		return err
	}
	if sum := sha256.Sum256(source); hex.EncodeToString(sum[:]) != rec.SHA256 {
		return fmt.Errorf("restore candidate %s: the program does not match its record (sha256)", rec.File)
	}
	if rec.File == "" || filepath.Base(rec.File) != rec.File {
		return fmt.Errorf("restore candidate: bad file name %q", rec.File)
	}
	if err := atomicfile.Write(filepath.Join(a.dir, rec.File), source, 0o644); err != nil {
		return fmt.Errorf("restore candidate %s: %w", rec.File, err)
	}
	m, err := a.read()
	if err != nil {
		return err
	}
	for _, e := range m.Entries {
		if e.RunID == rec.RunID && e.Iteration == rec.Iteration {
			return nil
		}
	}
	m.Entries = append(m.Entries, rec)
	return a.write(m)
}

// Source reads an entry's program and checks it against the recorded hash.
func (a *Archive) Source(rec Record) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(a.dir, rec.File))
	if err != nil {
		return nil, fmt.Errorf("read archived candidate %s: %w", rec.File, err)
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != rec.SHA256 {
		return nil, fmt.Errorf("archived candidate %s was changed after archiving (sha256 mismatch)", rec.File)
	}
	return data, nil
}

// Transcript reads an entry's transcript, nil when it has none.
func (a *Archive) Transcript(rec Record) ([]byte, error) {
	if rec.Transcript == "" {
		return nil, nil
	}
	return os.ReadFile(filepath.Join(a.dir, rec.Transcript))
}

func (a *Archive) read() (Manifest, error) {
	path := filepath.Join(a.dir, manifestName)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Manifest{}, nil
	}
	if err != nil {
		return Manifest{}, fmt.Errorf("read archive manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return Manifest{}, fmt.Errorf("read archive manifest %s: %w", path, err)
	}
	if err := m.Stamp.Check("archive manifest "+path, FormatVersion); err != nil {
		return Manifest{}, err
	}
	return m, nil
}

func (a *Archive) write(m Manifest) error {
	m.Stamp = stamp.New(FormatVersion, sandbox.HarnessSHA256())
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(a.dir, manifestName), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write archive manifest: %w", err)
	}
	return nil
}

// fileID makes a run id safe for a file name.
func fileID(id string) string {
	if id == "" {
		return "norun"
	}
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, id)
}
