package workflow

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/internal/atomicfile"
	"github.com/reconstruct/reconstruct/internal/dirlock"
)

// MarkerFile marks a directory as a workspace of this tool: the workspace
// may then be used again, its earlier runs' files being moved aside.
const MarkerFile = ".reconstruct-workspace"

// PreviousDir holds, under one directory per run id, the files an earlier
// run left at the top of the workspace (candidate.py, result.json and the
// journals) when another run starts there. The candidate archive keeps
// every run's candidates in place.
const PreviousDir = ".previous"

// ErrWorkspace marks a workspace that cannot be used: a bad input, nothing
// was written.
var ErrWorkspace = errors.New("workspace refused")

// runFiles are the files of one run at the top of a workspace.
var runFiles = []string{agent.CandidateFile, ResultFile, EventsFile, ExamplesFile, BindingLogFile}

// CheckWorkspace reports whether dir may hold a run's files, without
// writing anything. The root directory and the home directory are always
// refused; so is a directory that holds files this tool did not write
// (no workspace marker, no candidate archive), unless force is set.
func CheckWorkspace(dir string, force bool) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrWorkspace, dir, err)
	}
	real := abs
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		real = r
	}
	if real == "/" {
		return fmt.Errorf("%w: %s is the root directory; give a workspace of its own (--workspace DIR)", ErrWorkspace, dir)
	}
	if home, err := os.UserHomeDir(); err == nil {
		if h, err := filepath.EvalSymlinks(home); err == nil && h == real {
			return fmt.Errorf("%w: %s is the home directory; give a workspace of its own (--workspace DIR)", ErrWorkspace, dir)
		}
	}
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%w: %w", ErrWorkspace, err)
	case !st.IsDir():
		return fmt.Errorf("%w: %s is not a directory", ErrWorkspace, dir)
	}
	if force || Owned(abs) {
		return nil
	}
	all, err := os.ReadDir(abs)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrWorkspace, err)
	}
	// The note of a run that held the directory and died is this tool's.
	var entries []os.DirEntry
	for _, e := range all {
		if e.Name() != dirlock.File {
			entries = append(entries, e)
		}
	}
	if len(entries) == 0 {
		return nil
	}
	var names []string
	for _, e := range entries {
		if len(names) == 3 {
			names = append(names, "…")
			break
		}
		names = append(names, e.Name())
	}
	return fmt.Errorf("%w: %s holds files reconstruct did not write (%s); give an empty or new directory, or --force to use it anyway",
		ErrWorkspace, dir, strings.Join(names, ", "))
}

// Owned reports whether dir is a workspace of this tool: it has the marker,
// or (a workspace of an earlier version) a candidate archive manifest.
func Owned(dir string) bool {
	for _, p := range []string{MarkerFile, filepath.Join(candidates.Dir, "manifest.json")} {
		if st, err := os.Lstat(filepath.Join(dir, p)); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// WorkspaceLock is a workspace held by one run for as long as it runs.
type WorkspaceLock struct {
	*dirlock.Lock
	// Created is the outermost directory made for the workspace ("" when
	// it existed), for DiscardWorkspace.
	Created string
}

// LockWorkspace creates dir when needed and holds it for run runID: a
// second run there (two runs of one task started together) is refused
// with ErrWorkspace, naming the run that holds it, before it moves any of
// that run's files. The lock goes with the process that holds it, however
// it ends: the directory of a run killed outright is taken over (Stale
// says by whom it was held). Call CheckWorkspace first, PrepareWorkspace
// after, and Release when the run is over.
func LockWorkspace(dir, runID string) (*WorkspaceLock, error) {
	created, err := createDir(dir)
	if err != nil {
		return nil, err
	}
	l, err := dirlock.Acquire(dir, dirlock.Holder{What: "run", RunID: runID})
	var busy *dirlock.BusyError
	switch {
	case errors.As(err, &busy):
		DiscardWorkspace(dir, created)
		return nil, fmt.Errorf("%w: %w: wait for it to end, or give another workspace (--workspace DIR)", ErrWorkspace, err)
	case err != nil:
		DiscardWorkspace(dir, created)
		return nil, err
	}
	return &WorkspaceLock{Lock: l, Created: created}, nil
}

// createDir makes dir and the directories above it that are missing; it
// returns the outermost one it made ("" when dir existed).
func createDir(dir string) (created string, err error) {
	dir = filepath.Clean(dir)
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, os.ErrNotExist) || d == filepath.Dir(d) {
			break
		}
		created = d
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create workspace %s: %w", dir, err)
	}
	return created, nil
}

// PrepareWorkspace makes dir ready for run runID: it creates it when
// needed, marks it as a workspace, and moves the files another run left at
// its top to PreviousDir/<that run's id>/, so that no two runs' files are
// ever mixed. created is the outermost directory made here ("" when dir
// existed), for DiscardWorkspace. Call CheckWorkspace first.
func PrepareWorkspace(dir, runID string) (created string, err error) {
	dir = filepath.Clean(dir)
	if created, err = createDir(dir); err != nil {
		return "", err
	}
	if err := moveAside(dir, runID); err != nil {
		return created, err
	}
	if !isRegular(filepath.Join(dir, MarkerFile)) {
		if err := atomicfile.Write(filepath.Join(dir, MarkerFile), []byte("{\"format\": 1, \"tool\": \"reconstruct\"}\n"), 0o644); err != nil {
			return created, fmt.Errorf("mark workspace %s: %w", dir, err)
		}
	}
	return created, nil
}

// DiscardWorkspace removes what PrepareWorkspace created for a run that
// then failed to start: the marker, then each directory from dir up to
// created, as long as nothing else was written in it.
func DiscardWorkspace(dir, created string) {
	if created == "" {
		return
	}
	dir = filepath.Clean(dir)
	_ = os.Remove(filepath.Join(dir, MarkerFile))
	for d := dir; ; d = filepath.Dir(d) {
		if os.Remove(d) != nil || d == created || d == filepath.Dir(d) {
			return
		}
	}
}

func isRegular(p string) bool {
	st, err := os.Lstat(p)
	return err == nil && st.Mode().IsRegular()
}

// moveAside moves the top-level run files of a run other than runID into
// PreviousDir/<its run id>/.
func moveAside(dir, runID string) error {
	var present []string
	for _, f := range runFiles {
		if _, err := os.Lstat(filepath.Join(dir, f)); err == nil {
			present = append(present, f)
		}
	}
	if len(present) == 0 {
		return nil
	}
	owner := filesRunID(dir)
	if owner == runID {
		return nil
	}
	if owner == "" {
		owner = "unknown-" + time.Now().UTC().Format("20060102T150405")
	}
	dest := filepath.Join(dir, PreviousDir, owner)
	for i := 2; ; i++ {
		if _, err := os.Lstat(dest); errors.Is(err, os.ErrNotExist) {
			break
		}
		dest = filepath.Join(dir, PreviousDir, fmt.Sprintf("%s.%d", owner, i))
	}
	if err := os.MkdirAll(dest, 0o700); err != nil {
		return fmt.Errorf("move the files of run %s aside: %w", owner, err)
	}
	for _, f := range present {
		if err := os.Rename(filepath.Join(dir, f), filepath.Join(dest, f)); err != nil {
			return fmt.Errorf("move the files of run %s aside: %w", owner, err)
		}
	}
	return nil
}

var safeID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$`)

// filesRunID is the run id the workspace's top-level files belong to, from
// result.json or the first line of events.jsonl ("" when neither says).
func filesRunID(dir string) string {
	var id struct {
		RunID string `json:"run_id"`
	}
	if data, err := os.ReadFile(filepath.Join(dir, ResultFile)); err == nil && json.Unmarshal(data, &id) == nil && safeID.MatchString(id.RunID) {
		return id.RunID
	}
	f, err := os.Open(filepath.Join(dir, EventsFile))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	if sc.Scan() && json.Unmarshal(sc.Bytes(), &id) == nil && safeID.MatchString(id.RunID) {
		return id.RunID
	}
	return ""
}
