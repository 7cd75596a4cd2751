package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// RunCandidates are the archived candidates of the run a command acts on.
type RunCandidates struct {
	// Workspace holds the archive: the workspace asked for, or the
	// directory a run read from the bank was unpacked into.
	Workspace string
	Archive   *candidates.Archive
	Records   []candidates.Record
	// Run is the run's id, or candidates.AllRuns.
	Run string
}

// NoCandidatesError is a selection that finds no candidates: no archive
// in the workspace, an empty one, or no such run there nor in the bank.
// It is a request that cannot be met, not a failure.
type NoCandidatesError struct {
	Err error
	// NoArchive is set when the workspace holds no readable archive and
	// no run was named, so the bank was not asked.
	NoArchive bool
}

func (e *NoCandidatesError) Error() string { return e.Err.Error() }
func (e *NoCandidatesError) Unwrap() error { return e.Err }

// RunFetcher returns a directory holding the workspace of run as the bank
// recorded it (RunArchive, UnpackRun).
type RunFetcher func(ctx context.Context, run string) (string, error)

// SelectRun opens a workspace's candidate archive and selects the run a
// command acts on (candidates.Archive.Select): run "" is the latest run
// there, candidates.AllRuns every run. A named run that the workspace
// lacks, or whose workspace is not on this machine, is read with fetch.
// Only a manifest that cannot be read is not a *NoCandidatesError.
func SelectRun(ctx context.Context, workspace, run string, fetch RunFetcher) (RunCandidates, error) {
	arch, err := candidates.OpenExisting(workspace)
	if run != "" && run != candidates.AllRuns && (err != nil || !arch.HasRun(run)) {
		dir, ferr := fetch(ctx, run)
		if ferr != nil {
			if err == nil {
				err = fmt.Errorf("%s: %w", workspace, &candidates.NoRunError{Run: run})
			}
			return RunCandidates{}, &NoCandidatesError{Err: fmt.Errorf("%w; nor in the bank: %w", err, ferr)}
		}
		workspace = dir
		arch, err = candidates.OpenExisting(dir)
	}
	if err != nil {
		return RunCandidates{}, &NoCandidatesError{Err: err, NoArchive: run == ""}
	}
	recs, run, err := arch.Select(run)
	var noRun *candidates.NoRunError
	switch {
	case errors.Is(err, candidates.ErrEmpty) || errors.As(err, &noRun):
		return RunCandidates{}, &NoCandidatesError{Err: fmt.Errorf("%s: %w", workspace, err)}
	case err != nil:
		return RunCandidates{}, err
	}
	return RunCandidates{Workspace: workspace, Archive: arch, Records: recs, Run: run}, nil
}

// UnpackRun unpacks a run's workspace bundle (RunArchive) into cache,
// once per bundle: the directory is named by the bundle's hash. fresh
// reports whether this call unpacked it.
func UnpackRun(data []byte, hash, cache string) (dir string, fresh bool, err error) {
	dir = filepath.Join(cache, strings.TrimPrefix(hash, "sha256:"))
	if _, err := os.Stat(dir); err == nil {
		return dir, false, nil
	}
	if err := os.MkdirAll(cache, 0o700); err != nil {
		return "", false, err
	}
	if err := candidates.Unpack(data, dir, candidates.DefaultBundleLimit); err != nil {
		if _, serr := os.Stat(dir); serr == nil {
			return dir, false, nil // another command unpacked it meanwhile
		}
		return "", false, err
	}
	return dir, true, nil
}

// ErrNoFunction marks a run whose journal does not say which function
// its candidates define.
var ErrNoFunction = errors.New("cannot tell the function name")

// Rescoring is how a run's candidates are scored again: their accuracy on
// Examples, their hard-coding penalty against Observed, the examples the
// run observed (nil: Examples).
type Rescoring struct {
	Function string
	Atol     float64
	Examples []task.Example
	Observed []task.Example
}

// RescoringOf reads from a run's workspace journal the function name
// (unless function is given) and the tolerance its run_started recorded;
// a journal that cannot be read leaves the tolerance at task.DefaultAtol
// and function as given. The only error is ErrNoFunction, when no
// function is known. Examples are left to the caller.
func RescoringOf(workspace, run, function string) (Rescoring, error) {
	r := Rescoring{Function: function, Atol: task.DefaultAtol}
	if rs, err := runStarted(workspace, run); err == nil {
		if r.Function == "" {
			r.Function = rs.Task.FunctionName
		}
		if rs.Settings.Atol > 0 {
			r.Atol = rs.Settings.Atol
		}
	}
	if r.Function == "" {
		return r, ErrNoFunction
	}
	return r, nil
}

// runStarted is the run_started event of run ("" or candidates.AllRuns:
// the first run) in a workspace's journal.
func runStarted(workspace, run string) (workflow.RunStarted, error) {
	evs, err := workflow.ReadEvents(workspace)
	if err != nil {
		return workflow.RunStarted{}, err
	}
	for _, ev := range evs {
		if ev.Type == workflow.EventRunStarted && (run == "" || run == candidates.AllRuns || ev.RunID == run) {
			rs, err := workflow.DecodeRunStarted(ev)
			if err != nil {
				return workflow.RunStarted{}, fmt.Errorf("%s: %w", workspace, err)
			}
			return rs, nil
		}
	}
	return workflow.RunStarted{}, fmt.Errorf("%s: no run_started event for run %q in %s", workspace, run, workflow.EventsFile)
}

// Rescore runs every selected candidate on r.Examples in a scoring
// sandbox of the settings s (candidates.Rescore).
func Rescore(ctx context.Context, s config.Sandbox, log *zap.Logger, sel RunCandidates, r Rescoring) ([]candidates.Rescored, error) {
	box, err := OpenScoringSandbox(ctx, s, log)
	if err != nil {
		return nil, err
	}
	defer box.Close()
	return candidates.Rescore(ctx, sel.Archive, sel.Records, box, r.Function, r.Examples, r.Observed, s.Limits(), r.Atol)
}

// RunExamples reads the examples run observed from a workspace's journal:
// the workspace's own when its top-level files are the run's, else those
// moved aside when another run started there (workflow.PreviousDir); path
// is the file read.
func RunExamples(workspace, run string) (examples []task.Example, path string, err error) {
	dir := workspace
	if run != "" && run != candidates.AllRuns {
		if evs, err := workflow.ReadEvents(workspace); err != nil || len(evs) == 0 || evs[0].RunID != run {
			if prev := filepath.Join(workspace, workflow.PreviousDir, run); dirExists(prev) {
				dir = prev
			} else {
				return nil, "", fmt.Errorf("%s holds no examples of run %s (its %s is another run's, and %s has none)", workspace, run,
					workflow.ExamplesFile, filepath.Join(workflow.PreviousDir, run))
			}
		}
	}
	path = filepath.Join(dir, workflow.ExamplesFile)
	examples, err = workflow.ReadExamples(dir)
	return examples, path, err
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
