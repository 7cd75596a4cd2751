package candidates

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// DefaultBundleLimit bounds a workspace bundle, packed or unpacked.
const DefaultBundleLimit = 256 << 20

// Pack bundles the named entries of a workspace (files, and directories
// with everything under them) as a gzipped tar, so that another machine
// can inspect a run: Unpack restores them. Only regular files and
// directories are packed; links and special files are skipped, never
// followed. Missing entries are skipped. It fails when the files add up
// to more than limit bytes.
func Pack(workspace string, names []string, limit int64) ([]byte, int, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	files := 0
	var total int64
	root, err := os.OpenRoot(workspace)
	if err != nil {
		return nil, 0, fmt.Errorf("bundle %s: %w", workspace, err)
	}
	defer root.Close()
	for _, name := range names {
		err := fs.WalkDir(root.FS(), name, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && p == name {
					return fs.SkipDir
				}
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			switch {
			case d.IsDir():
				return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: p + "/", Mode: 0o755, ModTime: info.ModTime()})
			case !d.Type().IsRegular():
				return nil
			}
			if total += info.Size(); total > limit {
				return fmt.Errorf("more than %d bytes", limit)
			}
			f, err := root.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: p, Mode: 0o644, Size: info.Size(), ModTime: info.ModTime()}); err != nil {
				return err
			}
			if _, err := io.CopyN(tw, f, info.Size()); err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			files++
			return nil
		})
		if err != nil {
			return nil, 0, fmt.Errorf("bundle %s: %w", filepath.Join(workspace, name), err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, 0, err
	}
	if err := zw.Close(); err != nil {
		return nil, 0, err
	}
	return buf.Bytes(), files, nil
}

// Unpack restores a bundle made by Pack into dir, which must not exist
// yet: it is created with everything in it, or not at all. Entries that
// would land outside dir, links and special files are refused, and so is
// a bundle that unpacks to more than limit bytes.
func Unpack(data []byte, dir string, limit int64) error {
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".unpack-")
	if err != nil {
		return fmt.Errorf("unpack into %s: %w", dir, err)
	}
	defer os.RemoveAll(tmp)
	if err := unpack(data, tmp, limit); err != nil {
		return fmt.Errorf("unpack into %s: %w", dir, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("unpack into %s: %w", dir, err)
	}
	return nil
}

func unpack(data []byte, dir string, limit int64) error {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	tr := tar.NewReader(zr)
	var total int64
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(h.Name, "/")
		if name == "" || !fs.ValidPath(name) || path.Clean(name) != name {
			return fmt.Errorf("entry %q: not a relative path inside the bundle", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := root.MkdirAll(name, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if total += h.Size; h.Size < 0 || total > limit {
				return fmt.Errorf("entry %s: the bundle unpacks to more than %d bytes", name, limit)
			}
			if d := path.Dir(name); d != "." {
				if err := root.MkdirAll(d, 0o755); err != nil {
					return err
				}
			}
			f, err := root.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
			if err != nil {
				return err
			}
			_, err = io.CopyN(f, tr, h.Size)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return fmt.Errorf("entry %s: %w", name, err)
			}
		default:
			return fmt.Errorf("entry %s: type %q is neither a file nor a directory", name, h.Typeflag)
		}
	}
}
