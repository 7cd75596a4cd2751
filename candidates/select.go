package candidates

import (
	"errors"
	"fmt"
)

// AllRuns selects the entries of every run (Select).
const AllRuns = "all"

// ErrEmpty marks an archive that holds no entries.
var ErrEmpty = errors.New("the archive is empty")

// NoRunError marks a run that wrote no entry into the archive.
type NoRunError struct{ Run string }

func (e *NoRunError) Error() string { return fmt.Sprintf("no candidates from run %q", e.Run) }

// Select returns the entries of the run a command acts on and that run's
// id: run "" is the latest run in the archive (the run of its last entry),
// AllRuns every entry, in archive order.
func (a *Archive) Select(run string) ([]Record, string, error) {
	all, err := a.List()
	if err != nil {
		return nil, "", err
	}
	if len(all) == 0 {
		return nil, "", ErrEmpty
	}
	if run == AllRuns {
		return all, run, nil
	}
	if run == "" {
		run = all[len(all)-1].RunID
	}
	var recs []Record
	for _, r := range all {
		if r.RunID == run {
			recs = append(recs, r)
		}
	}
	if len(recs) == 0 {
		return nil, "", &NoRunError{Run: run}
	}
	return recs, run, nil
}

// HasRun reports whether run wrote any entry into the archive; an archive
// that cannot be read has none.
func (a *Archive) HasRun(run string) bool {
	recs, err := a.Run(run)
	return err == nil && len(recs) > 0
}
