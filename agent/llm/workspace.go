package llm

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// workspace gives the file tools access to one directory and nothing
// outside it. Paths are checked lexically first (absolute paths and ".."
// give a clear message), then every access goes through os.Root, which
// refuses symlinks that lead outside.
type workspace struct {
	dir  string
	root *os.Root
}

func openWorkspace(dir string) (*workspace, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create workspace %s: %w", dir, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	return &workspace{dir: dir, root: root}, nil
}

func (w *workspace) Close() error { return w.root.Close() }

// clean validates a model-supplied path and returns it relative to the
// workspace, with forward slashes.
func (w *workspace) clean(p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", errors.New("path is empty")
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("path %q contains a NUL byte", p)
	}
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) {
		return "", fmt.Errorf("path %q is absolute; use a path relative to the workspace (e.g. %s)", p, "candidate.py")
	}
	c := path.Clean(filepath.ToSlash(p))
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("path %q leaves the workspace; only files inside the workspace can be used", p)
	}
	return c, nil
}

// explain rewrites an os.Root failure for the model.
func (w *workspace) explain(p string, err error) error {
	if err == nil {
		return nil
	}
	if strings.Contains(err.Error(), "escapes") || strings.Contains(err.Error(), "outside") {
		return fmt.Errorf("path %q resolves outside the workspace through a symbolic link; refused", p)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return notExistError{path: p}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %s %v", p, pe.Op, pe.Err)
	}
	return err
}

// ReadFile reads a workspace file.
func (w *workspace) ReadFile(p string) ([]byte, error) {
	c, err := w.clean(p)
	if err != nil {
		return nil, err
	}
	b, err := w.root.ReadFile(c)
	return b, w.explain(p, err)
}

// WriteFile replaces a workspace file atomically (temporary file, sync,
// rename), creating its parent directories.
func (w *workspace) WriteFile(p string, data []byte) error {
	c, err := w.clean(p)
	if err != nil {
		return err
	}
	if c == "." {
		return fmt.Errorf("path %q is the workspace itself, not a file", p)
	}
	if dir := path.Dir(c); dir != "." {
		if err := w.root.MkdirAll(dir, 0o755); err != nil {
			return w.explain(p, err)
		}
	}
	if fi, err := w.root.Stat(c); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory", p)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return w.explain(p, err)
	}
	// Writing through a symlink would replace the link, not its target;
	// refuse links outright so a link can never redirect a write.
	if fi, err := w.root.Lstat(c); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link; write to the file it names instead", p)
	}
	tmp := path.Join(path.Dir(c), "."+path.Base(c)+".tmp")
	f, err := w.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return w.explain(p, err)
	}
	_, werr := f.Write(data)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		_ = w.root.Remove(tmp)
		return w.explain(p, err)
	}
	if err := w.root.Rename(tmp, c); err != nil {
		_ = w.root.Remove(tmp)
		return w.explain(p, err)
	}
	return nil
}

// Remove deletes a workspace file.
func (w *workspace) Remove(p string) error {
	c, err := w.clean(p)
	if err != nil {
		return err
	}
	return w.explain(p, w.root.Remove(c))
}

// Exists reports whether a workspace file exists (inside the workspace).
func (w *workspace) Exists(p string) bool {
	c, err := w.clean(p)
	if err != nil {
		return false
	}
	fi, err := w.root.Stat(c)
	return err == nil && !fi.IsDir()
}

// notExistError says a workspace file is missing; it matches
// fs.ErrNotExist.
type notExistError struct{ path string }

func (e notExistError) Error() string        { return e.path + " does not exist" }
func (e notExistError) Is(target error) bool { return target == fs.ErrNotExist }
