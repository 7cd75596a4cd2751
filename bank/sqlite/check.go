package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/reconstruct/reconstruct/bank"
)

// ErrNotABank marks a file that exists but is no sound bank: empty, not a
// SQLite database, or failing SQLite's checks. It is never started afresh.
var ErrNotABank = errors.New("not a sound bank file")

// OpenChecked opens the bank at path for writing, like Open, but refuses a
// file that exists and is empty or fails SQLite's quick_check, naming the
// file: such a file is never silently made a new empty bank. A file that
// is no bank at all (empty, not SQLite, another program's database) is
// also bank.ErrForeign; a bank failing the check is not.
func OpenChecked(ctx context.Context, path string) (*Store, error) {
	_, err := os.Stat(path)
	existed := err == nil
	if existed {
		if err := CheckFile(path); err != nil {
			return nil, err
		}
	}
	s, err := Open(ctx, path)
	if err != nil {
		// A sound bank of an older or newer schema is no broken file: its
		// error says what to do (bank migrate, or a newer reconstruct).
		if existed && !errors.Is(err, bank.ErrSchema) {
			return nil, fmt.Errorf("%w: %w", ErrNotABank, err)
		}
		return nil, err
	}
	problems, err := s.Check(ctx, false)
	if err == nil && len(problems) > 0 {
		err = fmt.Errorf("%w: %s fails SQLite's quick_check: %s (run `reconstruct bank check` for the full report)", ErrNotABank, path, strings.Join(first(problems, 3), "; "))
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// CheckFile refuses an existing path that cannot be a bank without being
// rewritten: not a regular file, or empty (SQLite would make it a new
// database).
func CheckFile(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%w: %w: %s is not a regular file", ErrNotABank, bank.ErrForeign, path)
	}
	if st.Size() == 0 {
		return fmt.Errorf("%w: %w: %s is empty (0 bytes); remove it to start a new bank there, or give another bank", ErrNotABank, bank.ErrForeign, path)
	}
	return nil
}

// Check runs SQLite's integrity_check (full) or quick_check and returns the
// problems it reports; none means the file is sound.
func (s *Store) Check(ctx context.Context, full bool) ([]string, error) {
	pragma := "PRAGMA quick_check"
	if full {
		pragma = "PRAGMA integrity_check"
	}
	rows, err := s.db.QueryContext(ctx, pragma)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %s: %w", ErrNotABank, s.path, pragma, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", s.path, pragma, err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%w: %s: %s: %w", ErrNotABank, s.path, pragma, err)
	}
	return problems, nil
}

func first(xs []string, n int) []string {
	if len(xs) > n {
		return append(xs[:n:n], fmt.Sprintf("and %d more", len(xs)-n))
	}
	return xs
}
