package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// scratchRoles are the sandboxes that earlier versions of reconstruct gave a
// scratch directory under the host's temporary directory,
// reconstruct-<role>-<random>. Today a scratch sandbox works in a directory
// of its own private root (process sandbox) or in a tmpfs (Docker), so
// nothing is left on the host; PruneScratch removes what older versions
// left, except a directory that some process holds locked.
var scratchRoles = []string{"evaluator", "score"}

// PruneScratch removes the scratch directories under tmp (the temporary
// directory when empty) that earlier versions left when their runs were
// killed, skipping any that a process holds locked. It returns the
// directories removed.
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
