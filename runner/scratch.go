package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// scratchRoles are the sandboxes that work in a scratch directory of their
// own under the temporary directory: reconstruct-<role>-<random>.
var scratchRoles = []string{"evaluator", "score"}

// newScratchDir makes a scratch directory and holds an exclusive lock on
// it for as long as the returned file is open (the process's life at
// most), so that PruneScratch can tell one in use from one a killed run
// left. The directory is made under a name PruneScratch does not match and
// renamed once locked, so that it is never seen unlocked.
func newScratchDir(role string) (string, *os.File, error) {
	tmp, err := os.MkdirTemp("", "reconstruct-"+role+".new-")
	if err != nil {
		return "", nil, err
	}
	lock, err := os.Open(tmp)
	if err == nil {
		err = syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != nil {
			lock.Close()
		}
	}
	if err != nil {
		os.Remove(tmp)
		return "", nil, fmt.Errorf("lock scratch directory %s: %w", tmp, err)
	}
	dir := strings.Replace(tmp, "reconstruct-"+role+".new-", "reconstruct-"+role+"-", 1)
	if err := os.Rename(tmp, dir); err != nil {
		lock.Close()
		os.Remove(tmp)
		return "", nil, fmt.Errorf("scratch directory: %w", err)
	}
	return dir, lock, nil
}

// PruneScratch removes the scratch directories under tmp (the temporary
// directory when empty) that no running reconstruct holds: those left by
// runs that were killed. It returns the directories removed.
func PruneScratch(tmp string) ([]string, error) {
	if tmp == "" {
		tmp = os.TempDir()
	}
	var removed []string
	var errs []error
	for _, role := range scratchRoles {
		dirs, err := filepath.Glob(filepath.Join(tmp, "reconstruct-"+role+"-*"))
		if err != nil {
			return removed, err
		}
		for _, dir := range dirs {
			st, err := os.Lstat(dir)
			if err != nil || !st.IsDir() {
				continue
			}
			f, err := os.Open(dir)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
				f.Close() // in use by a running reconstruct
				continue
			}
			err = os.RemoveAll(dir)
			f.Close()
			if err != nil {
				errs = append(errs, fmt.Errorf("remove %s: %w", dir, err))
				continue
			}
			removed = append(removed, dir)
		}
	}
	return removed, errors.Join(errs...)
}
