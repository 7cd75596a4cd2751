package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/internal/stamp"
)

// TreeFormat is the version of the tree listing this package writes; it
// reads older ones and refuses a newer one as every reader of a record
// does (stamp.Check). A tree is content-addressed, so it carries its
// format alone, not the rest of the stamp: the same files give the same
// hash whatever reconstruct stored them.
const TreeFormat = 1

// Bounds of a tree (a task directory or a workspace).
const (
	MaxTreeBytes = 256 << 20
	MaxTreeFiles = 20000
)

// Blobs is the part of the bank a tree needs: content-addressed blobs.
type Blobs interface {
	PutBlob(ctx context.Context, data []byte) (string, error)
	Blob(ctx context.Context, hash string) ([]byte, error)
}

var _ Blobs = (*bank.Bank)(nil)

// Tree is a directory as the bank keeps it: every file is a blob, and the
// listing itself is a blob, so that a tree is named by one hash and equal
// files are stored once (a task set submitted twice, the candidates a
// workspace keeps from one snapshot to the next).
type Tree struct {
	Format int        `json:"format"`
	Files  []TreeFile `json:"files"`
}

// TreeFile is one regular file of a tree.
type TreeFile struct {
	// Path is slash-separated and relative to the tree's root.
	Path string `json:"path"`
	Blob string `json:"blob"`
	Size int64  `json:"size"`
	// Mode holds the permission bits (0o755 for an executable, 0o600 for
	// a journal that only its owner may read).
	Mode fs.FileMode `json:"mode"`
}

// treeWriter stores trees, remembering the blobs it stored already so that
// a workspace snapshotted after every candidate sends only what is new.
type treeWriter struct {
	blobs Blobs
	known map[string]bool
}

func newTreeWriter(b Blobs) *treeWriter { return &treeWriter{blobs: b, known: map[string]bool{}} }

// put stores the named entries of dir (files, and directories with
// everything under them; missing entries are skipped) and returns the
// tree's hash. skip, when not nil, leaves out the slash-separated paths it
// reports. Links and special files are never followed nor stored: an agent
// with a shell in a workspace must not make the worker read files outside
// it.
func (w *treeWriter) put(ctx context.Context, dir string, names []string, skip func(string) bool) (string, Tree, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", Tree{}, fmt.Errorf("store %s in the bank: %w", dir, err)
	}
	defer root.Close()
	t := Tree{Format: TreeFormat, Files: []TreeFile{}}
	var total int64
	for _, name := range names {
		err := fs.WalkDir(root.FS(), name, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && p == name {
					return nil
				}
				return err
			}
			if skip != nil && skip(p) {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			if len(t.Files) == MaxTreeFiles {
				return fmt.Errorf("more than %d files", MaxTreeFiles)
			}
			data, mode, err := readRegular(root, p)
			if err != nil {
				return err
			}
			if total += int64(len(data)); total > MaxTreeBytes {
				return fmt.Errorf("more than %d bytes", MaxTreeBytes)
			}
			h, err := w.putBlob(ctx, data)
			if err != nil {
				return err
			}
			t.Files = append(t.Files, TreeFile{Path: p, Blob: h, Size: int64(len(data)), Mode: mode})
			return nil
		})
		if err != nil {
			return "", Tree{}, fmt.Errorf("store %s in the bank: %w", filepath.Join(dir, name), err)
		}
	}
	slices.SortFunc(t.Files, func(a, b TreeFile) int {
		if a.Path < b.Path {
			return -1
		}
		if a.Path > b.Path {
			return 1
		}
		return 0
	})
	listing, err := json.Marshal(t)
	if err != nil {
		return "", Tree{}, err
	}
	h, err := w.putBlob(ctx, listing)
	if err != nil {
		return "", Tree{}, fmt.Errorf("store %s in the bank: %w", dir, err)
	}
	return h, t, nil
}

func (w *treeWriter) putBlob(ctx context.Context, data []byte) (string, error) {
	if h := bank.HashBytes(data); w.known[h] {
		return h, nil
	}
	h, err := w.blobs.PutBlob(ctx, data)
	if err != nil {
		return "", err
	}
	w.known[h] = true
	return h, nil
}

// readRegular reads a regular file inside root without following a link
// that replaced it since it was listed.
func readRegular(root *os.Root, p string) ([]byte, fs.FileMode, error) {
	f, err := root.Open(p)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("%s is no longer a regular file", p)
	}
	if st.Size() > MaxTreeBytes {
		return nil, 0, fmt.Errorf("%s: more than %d bytes", p, MaxTreeBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxTreeBytes+1))
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", p, err)
	}
	return data, st.Mode().Perm(), nil
}

// readTree fetches and decodes a tree listing, checking every path.
func readTree(ctx context.Context, b Blobs, hash string) (Tree, error) {
	data, err := b.Blob(ctx, hash)
	if err != nil {
		return Tree{}, fmt.Errorf("tree %s: %w", hash, err)
	}
	var t Tree
	if err := json.Unmarshal(data, &t); err != nil {
		return Tree{}, fmt.Errorf("tree %s: %w", hash, err)
	}
	if err := (stamp.Stamp{Format: t.Format}).Check("tree "+hash, TreeFormat); err != nil {
		return Tree{}, err
	}
	var total int64
	for _, f := range t.Files {
		if !fs.ValidPath(f.Path) || f.Path == "." || path.Clean(f.Path) != f.Path {
			return Tree{}, fmt.Errorf("tree %s: %q is not a relative path inside the tree", hash, f.Path)
		}
		if total += f.Size; f.Size < 0 || total > MaxTreeBytes {
			return Tree{}, fmt.Errorf("tree %s: more than %d bytes", hash, MaxTreeBytes)
		}
	}
	return t, nil
}

// restoreTree writes the tree named hash into dir, which must not exist:
// it is created with every file in it, or not at all.
func restoreTree(ctx context.Context, b Blobs, hash, dir string) error {
	t, err := readTree(ctx, b, hash)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".restore-")
	if err != nil {
		return fmt.Errorf("restore %s: %w", dir, err)
	}
	defer os.RemoveAll(tmp)
	if err := writeTree(ctx, b, t, tmp); err != nil {
		return fmt.Errorf("restore %s: %w", dir, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("restore %s: %w", dir, err)
	}
	return nil
}

func writeTree(ctx context.Context, b Blobs, t Tree, dir string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, f := range t.Files {
		data, err := b.Blob(ctx, f.Blob)
		if err != nil {
			return fmt.Errorf("%s: %w", f.Path, err)
		}
		if int64(len(data)) != f.Size || bank.HashBytes(data) != f.Blob {
			return fmt.Errorf("%s: the bank's blob %s does not match the tree", f.Path, f.Blob)
		}
		if d := path.Dir(f.Path); d != "." {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return err
			}
		}
		fh, err := root.OpenFile(f.Path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, f.Mode.Perm()|0o600)
		if err != nil {
			return err
		}
		_, err = fh.Write(data)
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("%s: %w", f.Path, err)
		}
		if err := root.Chmod(f.Path, f.Mode.Perm()|0o600); err != nil {
			return err
		}
	}
	return nil
}
