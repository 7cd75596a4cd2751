package sqlite

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"syscall"

	"github.com/reconstruct/reconstruct/bank"
)

// The bank's files are opened as they are, never through a symbolic link
// that could lead anywhere: a bank path can come from a task file, and a
// task directory can ship a "bank.db-wal" link to any file root can reach
// (SQLite would write its log through it, and making the bank owner-only
// would change the target's mode). Before anything is opened, created or
// changed, the path must be a bank or absent, and each side file a regular
// file or absent; anything else is refused with bank.ErrForeign, naming
// the file.

// sideSuffixes are the files SQLite keeps beside a database.
var sideSuffixes = []string{"-wal", "-shm", "-journal"}

// sqliteMagic starts every SQLite database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// checkSides refuses side files of the database at real (its path with
// links resolved, where SQLite puts them) and the key file that are not
// regular files.
func checkSides(real, keyFile string) error {
	paths := []string{keyFile}
	for _, s := range sideSuffixes {
		paths = append(paths, real+s)
	}
	for _, p := range paths {
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, os.ErrNotExist):
			continue
		case err != nil:
			return err
		case fi.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			return fmt.Errorf("%w: %s is a symbolic link (to %s): the bank's files are never opened through one; remove it", bank.ErrForeign, p, target)
		case !fi.Mode().IsRegular():
			return fmt.Errorf("%w: %s is not a regular file (%s); remove it", bank.ErrForeign, p, fi.Mode().Type())
		}
	}
	return nil
}

// checkBank refuses an existing file at path that is not a bank: not a
// regular file, not a SQLite database, or a SQLite database without the
// bank's tables (another program's). It reads the file and changes
// nothing; a file whose tables are still in its write-ahead log only
// (never checkpointed) is refused too.
func checkBank(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%w: %s is not a regular file (%s)", bank.ErrForeign, path, fi.Mode().Type())
	}
	if fi.Size() == 0 {
		return fmt.Errorf("%w: %w: %s is empty (0 bytes); remove it to start a new bank there, or give another bank", ErrNotABank, bank.ErrForeign, path)
	}
	head := make([]byte, len(sqliteMagic))
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, sqliteMagic) {
		return fmt.Errorf("%w: %w: %s is not a SQLite database, so no bank; give a bank file, or a path where none exists yet", ErrNotABank, bank.ErrForeign, path)
	}
	// Read-only and immutable: SQLite neither writes nor creates a file.
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro&immutable=1")
	if err != nil {
		return err
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('schema_version', 'meta', 'blobs')`).Scan(&n); err != nil {
		return fmt.Errorf("%w: %w: %s: %w", ErrNotABank, bank.ErrForeign, path, err)
	}
	if n != 3 {
		return fmt.Errorf("%w: %w: %s is a SQLite database that holds no bank (another program's?); give a bank file, or a path where none exists yet", ErrNotABank, bank.ErrForeign, path)
	}
	return nil
}

// resolve returns path with symbolic links resolved when it exists
// (SQLite keeps the side files beside the file itself), else path.
func resolve(path string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if errors.Is(err, os.ErrNotExist) {
		if _, lerr := os.Lstat(path); lerr == nil {
			return "", fmt.Errorf("%w: %s is a symbolic link to nothing", bank.ErrForeign, path)
		}
		return path, nil
	}
	return real, err
}

// openOwn opens the regular file at path, never through a link, and
// makes it owner-only (mode 0600); nil when there is none.
func openOwn(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%w: %s is a symbolic link: the bank's files are never opened through one; remove it", bank.ErrForeign, path)
	}
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
	case !fi.Mode().IsRegular():
		err = fmt.Errorf("%w: %s is not a regular file", bank.ErrForeign, path)
	case fi.Mode().Perm()&0o077 != 0:
		err = f.Chmod(0o600)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ownerOnly makes the regular file at path mode 0600, never through a
// link (absent: nothing to do).
func ownerOnly(path string) error {
	f, err := openOwn(path)
	if f != nil {
		f.Close()
	}
	return err
}

// maxKeyFile bounds what is read of a key file.
const maxKeyFile = 4 << 10

// readKey reads a key file (nil when there is none), never through a
// link, making it owner-only.
func readKey(file string) ([]byte, error) {
	f, err := openOwn(file)
	if err != nil {
		return nil, fmt.Errorf("receipt key: %w", err)
	}
	if f == nil {
		return nil, nil
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, maxKeyFile))
	if err != nil {
		return nil, fmt.Errorf("receipt key: %w", err)
	}
	key, err := bank.ParseKey(string(raw))
	if err != nil {
		return nil, fmt.Errorf("receipt key file %s: %w", file, err)
	}
	return key, nil
}

// makeDirs creates dir and its missing parents, mode 0700, and returns
// the ones it created, deepest first (what a failed creation removes).
func makeDirs(dir string) ([]string, error) {
	var made []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || !errors.Is(err, os.ErrNotExist) {
			break
		}
		made = append(made, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return made, nil
}

// removeDirs removes the directories makeDirs made, if they are empty.
func removeDirs(made []string) {
	for _, d := range made {
		os.Remove(d)
	}
}
