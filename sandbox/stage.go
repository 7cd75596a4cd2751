package sandbox

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// A hidden program's sandbox sees a copy of its directory, never the
// directory itself: the copy holds what the program may need (its source,
// its neighbours, its data files) and nothing it must not see — the
// held-out tests under any name (a hard link, a copy), the workspace and
// other runs' workspaces (the candidates), the bank. It is made by this
// process, reading each file where it is without following a symbolic
// link out of the directory, and is readable by the sandbox's user, so
// that the harness reads a task's files as that user, never as root.

// Defaults of StageOptions.
const (
	DefaultStageFiles = 10000
	DefaultStageBytes = 256 << 20
)

// ErrStage marks a directory that cannot be staged as it is (too large):
// a mistake of the task, named with the bound.
var ErrStage = errors.New("the task directory cannot be copied for its sandbox")

// StageOptions say what a staged copy leaves out.
type StageOptions struct {
	// Exclude lists paths (absolute, or relative to the directory) left
	// out with everything under them: the workspace, the bank's files.
	Exclude []string
	// Secret lists files whose content must not be in the copy under any
	// name: a file that is the same file (a hard link) or holds the same
	// bytes is left out too. Names relative to the directory.
	Secret []string
	// MaxFiles and MaxBytes bound the copy (DefaultStageFiles,
	// DefaultStageBytes when zero).
	MaxFiles int
	MaxBytes int64
	// Parent is where copies are made (DefaultStageParent when empty).
	Parent string
}

// DefaultStageParent is where copies are made: a directory of the
// per-user cache (the system's temporary directory when there is none),
// so that a process killed outright leaves nothing in the temporary
// directory; the next NewStage removes the copies of processes that are
// gone.
func DefaultStageParent() string {
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "reconstruct", "stages")
	}
	return filepath.Join(os.TempDir(), "reconstruct-stages")
}

// pruneStages removes the copies under parent whose process is gone
// (named <pid>-<random>).
func pruneStages(parent string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		pidText, _, ok := strings.Cut(e.Name(), "-")
		var pid int
		if _, err := fmt.Sscan(pidText, &pid); !ok || err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			os.RemoveAll(filepath.Join(parent, e.Name()))
		}
	}
}

// Stage is a copy of a directory made for a sandbox.
type Stage struct {
	// Src is the directory copied (absolute, links resolved), Dir the copy.
	Src, Dir string
	// Skipped lists what was left out and why, for the log: links leading
	// out of the directory, special files, unreadable files, secrets.
	Skipped []string
	parent  string
}

// workspaceMarker is the directory every workspace holds: a directory that
// holds one is a workspace (this run's or another's), never copied.
const workspaceMarker = ".oc_candidates"

// NewStage copies src into a new directory of its own under opts.Parent
// (mode 0700, its content readable by others so that any sandbox user
// reads it), leaving out what opts says and every symbolic link that
// leads out of src.
func NewStage(src string, opts StageOptions) (*Stage, error) {
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil, err
	}
	if abs, err = filepath.EvalSymlinks(abs); err != nil {
		return nil, err
	}
	if opts.MaxFiles <= 0 {
		opts.MaxFiles = DefaultStageFiles
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultStageBytes
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	base := opts.Parent
	if base == "" {
		base = DefaultStageParent()
	}
	if err := os.MkdirAll(base, 0o700); err != nil {
		return nil, err
	}
	pruneStages(base)
	parent, err := os.MkdirTemp(base, fmt.Sprintf("%d-", os.Getpid()))
	if err != nil {
		return nil, err
	}
	st := &Stage{Src: abs, Dir: filepath.Join(parent, filepath.Base(abs)), parent: parent}
	if st.Dir == parent || filepath.Base(abs) == string(filepath.Separator) {
		st.Dir = filepath.Join(parent, "dir")
	}
	c := &copier{st: st, root: root, opts: opts, excluded: map[string]bool{}}
	for _, e := range opts.Exclude {
		if rel, ok := within(abs, e); ok {
			c.excluded[rel] = true
		}
	}
	if err := c.secrets(); err != nil {
		st.Remove()
		return nil, err
	}
	if err := os.Mkdir(st.Dir, 0o755); err != nil {
		st.Remove()
		return nil, err
	}
	if err := c.copyDir("."); err != nil {
		st.Remove()
		return nil, err
	}
	return st, nil
}

// within returns p relative to dir (slash-separated, "." for dir) when p
// is dir or under it.
func within(dir, p string) (string, bool) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// Path maps a path under Src to the same path under the copy; any other
// path is returned as it is.
func (s *Stage) Path(host string) string {
	if host == "" {
		return host
	}
	abs, err := filepath.Abs(host)
	if err != nil {
		return host
	}
	rel, ok := within(s.Src, abs)
	if !ok {
		return host
	}
	return filepath.Join(s.Dir, filepath.FromSlash(rel))
}

// Remove removes the copy.
func (s *Stage) Remove() error { return os.RemoveAll(s.parent) }

// secret identifies a file by device and inode, and by size and digest.
type secret struct {
	dev, ino uint64
	size     int64
	sum      [32]byte
}

type copier struct {
	st       *Stage
	root     *os.Root
	opts     StageOptions
	excluded map[string]bool
	known    []secret
	files    int
	bytes    int64
}

// secrets reads the secret files (those that exist) once.
func (c *copier) secrets() error {
	for _, name := range c.opts.Secret {
		rel, ok := within(c.st.Src, name)
		if !ok {
			continue
		}
		fi, err := c.root.Stat(rel)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		data, err := c.root.ReadFile(rel)
		if err != nil {
			return err
		}
		s := secret{size: fi.Size(), sum: sha256.Sum256(data)}
		if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
			s.dev, s.ino = uint64(sys.Dev), sys.Ino
		}
		c.known = append(c.known, s)
		c.excluded[rel] = true
	}
	return nil
}

// isSecret reports whether fi (of the file rel) is a secret: the same
// file, or the same bytes.
func (c *copier) isSecret(rel string, fi fs.FileInfo, data func() ([]byte, error)) bool {
	sys, _ := fi.Sys().(*syscall.Stat_t)
	var sum *[32]byte
	for _, s := range c.known {
		if sys != nil && uint64(sys.Dev) == s.dev && sys.Ino == s.ino {
			return true
		}
		if fi.Size() != s.size {
			continue
		}
		if sum == nil {
			b, err := data()
			if err != nil {
				return true // unreadable: left out anyway
			}
			h := sha256.Sum256(b)
			sum = &h
		}
		if *sum == s.sum {
			return true
		}
	}
	return false
}

func (c *copier) skip(rel, why string) { c.st.Skipped = append(c.st.Skipped, rel+": "+why) }

// copyDir copies the directory rel (relative to Src) and what it holds.
func (c *copier) copyDir(rel string) error {
	d, err := c.root.Open(rel)
	if err != nil {
		return err
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() == workspaceMarker && rel != "." {
			// A workspace (this run's or another's): none of it is the
			// program's.
			c.skip(rel, "a workspace")
			return os.RemoveAll(filepath.Join(c.st.Dir, filepath.FromSlash(rel)))
		}
	}
	for _, e := range entries {
		name := path.Join(rel, e.Name())
		if rel == "." {
			name = e.Name()
		}
		if c.excluded[name] || e.Name() == workspaceMarker {
			continue
		}
		if err := c.copyEntry(name); err != nil {
			return err
		}
	}
	return nil
}

func (c *copier) copyEntry(rel string) error {
	fi, err := c.root.Lstat(rel)
	if err != nil {
		c.skip(rel, err.Error())
		return nil
	}
	dst := filepath.Join(c.st.Dir, filepath.FromSlash(rel))
	switch {
	case fi.IsDir():
		if err := os.Mkdir(dst, 0o755); err != nil {
			return err
		}
		return c.copyDir(rel)
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := c.root.Readlink(rel)
		if err != nil {
			c.skip(rel, err.Error())
			return nil
		}
		// Kept only when it leads to a place inside the directory, as
		// written (the copy has the same layout).
		joined := path.Join(path.Dir(rel), filepath.ToSlash(target))
		if filepath.IsAbs(target) || joined == ".." || strings.HasPrefix(joined, "../") {
			c.skip(rel, "a symbolic link out of the directory (to "+target+"): not followed")
			return nil
		}
		return os.Symlink(target, dst)
	case !fi.Mode().IsRegular():
		c.skip(rel, "not a regular file ("+fi.Mode().Type().String()+")")
		return nil
	}
	c.files++
	c.bytes += fi.Size()
	if c.files > c.opts.MaxFiles {
		return fmt.Errorf("%w: %s holds more than %d files (a hidden program's sandbox gets a copy of its directory): move what the program does not need elsewhere", ErrStage, c.st.Src, c.opts.MaxFiles)
	}
	if c.bytes > c.opts.MaxBytes {
		return fmt.Errorf("%w: %s holds more than %d bytes (a hidden program's sandbox gets a copy of its directory): move what the program does not need elsewhere", ErrStage, c.st.Src, c.opts.MaxBytes)
	}
	f, err := c.root.OpenFile(rel, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		c.skip(rel, err.Error())
		return nil
	}
	defer f.Close()
	var data []byte
	read := func() ([]byte, error) {
		if data == nil {
			b, err := io.ReadAll(io.LimitReader(f, fi.Size()+1))
			if err != nil {
				return nil, err
			}
			data = b
		}
		return data, nil
	}
	if c.isSecret(rel, fi, read) {
		c.skip(rel, "the held-out tests under another name")
		return nil
	}
	if _, err := read(); err != nil {
		c.skip(rel, err.Error())
		return nil
	}
	mode := os.FileMode(0o644)
	if fi.Mode().Perm()&0o111 != 0 {
		mode = 0o755
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, bytes.NewReader(data)); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	// The umask may have taken bits away.
	return os.Chmod(dst, mode)
}

// Staged runs box's programs from the stage: a program path under the
// staged directory is run from its copy. Close closes box and removes the
// copy.
func Staged(box Sandbox, st *Stage) Sandbox { return &staged{box: box, st: st} }

type staged struct {
	box Sandbox
	st  *Stage
}

func (s *staged) Call(ctx context.Context, req CallRequest) ([]Outcome, error) {
	req.Program.Path = s.st.Path(req.Program.Path)
	return s.box.Call(ctx, req)
}

func (s *staged) Analyse(ctx context.Context, req AnalyseRequest) (Analysis, error) {
	return s.box.Analyse(ctx, req)
}

func (s *staged) Generate(ctx context.Context, req GenerateRequest) ([]json.RawMessage, error) {
	req.Program.Path = s.st.Path(req.Program.Path)
	return s.box.Generate(ctx, req)
}

func (s *staged) Close() error {
	err := s.box.Close()
	return errors.Join(err, s.st.Remove())
}

// Unwrap is the sandbox the stage's programs run in.
func (s *staged) Unwrap() Sandbox { return s.box }
