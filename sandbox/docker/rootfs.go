package docker

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"go.uber.org/zap"
)

// rootfsFormat changes whenever the way the root filesystem is built or
// stripped changes, so that cached tarballs of the old recipe are not used.
const rootfsFormat = "rootfs-v1"

// rootfsSpec says which Debian root filesystem to build.
type rootfsSpec struct {
	Mirror   string
	Suite    string
	Keyring  string
	Packages []string
}

// key names the cached tarball: everything that changes its content.
func (r rootfsSpec) key() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n%s\n%s\n", rootfsFormat, r.Mirror, r.Suite, strings.Join(r.Packages, ","), runtime.GOARCH)
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// stripPaths are removed from the root filesystem after debootstrap: package
// lists and caches, documentation, manual pages, translations and logs. The
// runner needs python3 and a shell, nothing else.
var stripPaths = []string{
	"var/cache/apt", "var/lib/apt/lists", "var/cache/debconf", "var/log",
	"usr/share/man", "usr/share/info", "usr/share/locale", "usr/share/lintian",
	"usr/share/doc", // copyright files are kept, see stripRootfs
}

// ensureRootfs returns the path of the cached tarball for spec, building it
// with debootstrap when it is absent. cached reports whether it was reused.
func ensureRootfs(ctx context.Context, spec rootfsSpec, cacheDir string, log *zap.Logger) (path string, cached bool, err error) {
	path = filepath.Join(cacheDir, fmt.Sprintf("rootfs-%s-%s.tar", spec.Suite, spec.key()))
	if _, err := os.Stat(path); err == nil {
		return path, true, nil
	}
	if os.Geteuid() != 0 {
		return "", false, errors.New("building the runner's root filesystem runs debootstrap, which needs root: run `reconstruct sandbox build-image` as root (or with sudo)")
	}
	if err := ensureDebootstrap(ctx, log); err != nil {
		return "", false, err
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", false, fmt.Errorf("create cache directory: %w", err)
	}
	work, err := os.MkdirTemp(cacheDir, "rootfs-build-")
	if err != nil {
		return "", false, fmt.Errorf("create build directory: %w", err)
	}
	defer func() {
		if rerr := removeBuildDir(work); rerr != nil && err == nil {
			err = rerr
		}
	}()
	dir := filepath.Join(work, "rootfs")
	logPath := filepath.Join(cacheDir, "debootstrap.log")
	args := []string{"--variant=minbase", "--include=" + strings.Join(spec.Packages, ",")}
	if spec.Keyring != "" {
		args = append(args, "--keyring="+spec.Keyring)
	}
	args = append(args, spec.Suite, dir, spec.Mirror)
	log.Info("debootstrap: building the root filesystem", zap.String("suite", spec.Suite), zap.Strings("packages", spec.Packages), zap.String("log", logPath))
	if err := runLogged(ctx, logPath, "debootstrap", args...); err != nil {
		return "", false, fmt.Errorf("debootstrap %s (log in %s): %w", spec.Suite, logPath, err)
	}
	if err := stripRootfs(dir); err != nil {
		return "", false, err
	}
	tmp := filepath.Join(work, "rootfs.tar")
	if err := runLogged(ctx, logPath, "tar", "--numeric-owner", "-C", dir, "-cf", tmp, "."); err != nil {
		return "", false, fmt.Errorf("archive the root filesystem (log in %s): %w", logPath, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", false, fmt.Errorf("store the root filesystem in the cache: %w", err)
	}
	return path, false, nil
}

// ensureDebootstrap installs debootstrap with apt-get when it is missing.
func ensureDebootstrap(ctx context.Context, log *zap.Logger) error {
	if _, err := exec.LookPath("debootstrap"); err == nil {
		return nil
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		return errors.New("debootstrap is not installed and apt-get is not available: install the debootstrap package")
	}
	log.Info("installing debootstrap with apt-get")
	cmd := exec.CommandContext(ctx, "apt-get", "install", "-y", "-q", "debootstrap")
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("install debootstrap (apt-get install -y debootstrap): %w: %s", err, lastLines(out, 5))
	}
	return nil
}

// runLogged runs a command with its output appended to logPath.
func runLogged(ctx context.Context, logPath, name string, args ...string) error {
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open log: %w", err)
	}
	defer f.Close()
	fmt.Fprintf(f, "+ %s %s\n", name, strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, name, args...)
	var tail bytes.Buffer
	cmd.Stdout = f
	cmd.Stderr = &tail
	err = cmd.Run()
	f.Write(tail.Bytes())
	if err != nil {
		return fmt.Errorf("%s: %w: %s", name, err, lastLines(tail.Bytes(), 5))
	}
	return nil
}

// stripRootfs removes what the runner does not need and clears set-uid and
// set-gid bits, so no program in the image can gain privileges even if
// no-new-privileges were not set.
func stripRootfs(dir string) error {
	for _, p := range stripPaths {
		full := filepath.Join(dir, p)
		if p == "usr/share/doc" {
			if err := stripDocs(full); err != nil {
				return err
			}
			continue
		}
		if err := os.RemoveAll(full); err != nil {
			return fmt.Errorf("strip %s: %w", p, err)
		}
		// Keep the directory itself: tools expect it to exist.
		if err := os.MkdirAll(full, 0o755); err != nil {
			return fmt.Errorf("strip %s: %w", p, err)
		}
	}
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if mode := info.Mode(); mode&(fs.ModeSetuid|fs.ModeSetgid) != 0 {
			if err := os.Chmod(path, mode.Perm()); err != nil {
				return fmt.Errorf("clear set-uid bit of %s: %w", path, err)
			}
		}
		return nil
	})
}

// stripDocs removes everything under usr/share/doc except the copyright
// files, which Debian's licences ask to keep with the binaries.
func stripDocs(doc string) error {
	return filepath.WalkDir(doc, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() || d.Name() == "copyright" {
			return nil
		}
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("strip %s: %w", path, err)
		}
		return nil
	})
}

// removeBuildDir deletes a debootstrap build directory. debootstrap mounts
// proc and sys (and may bind the host's /dev) inside the target; a failed
// run can leave them mounted, and deleting through such a mount would
// delete the host's files. So: detach every mount under dir, check that none
// is left, and only then remove.
func removeBuildDir(dir string) error {
	mounts, err := mountsUnder(dir)
	if err != nil {
		return err
	}
	// Deepest first.
	for i := len(mounts) - 1; i >= 0; i-- {
		if err := syscall.Unmount(mounts[i], syscall.MNT_DETACH); err != nil && !errors.Is(err, syscall.EINVAL) {
			return fmt.Errorf("unmount %s: %w", mounts[i], err)
		}
	}
	if left, err := mountsUnder(dir); err != nil {
		return err
	} else if len(left) > 0 {
		return fmt.Errorf("not removing %s: %s is still mounted", dir, left[0])
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("remove build directory: %w", err)
	}
	return nil
}

// mountsUnder lists the mount points at or below dir, in mount order.
func mountsUnder(dir string) ([]string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("list mounts: %w", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 {
			continue
		}
		mp := unescapeMountinfo(fields[4])
		if mp == dir || strings.HasPrefix(mp, dir+"/") {
			out = append(out, mp)
		}
	}
	return out, sc.Err()
}

// unescapeMountinfo decodes the octal escapes (\040 for a space) of
// /proc/self/mountinfo.
func unescapeMountinfo(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			var v int
			if _, err := fmt.Sscanf(s[i+1:i+4], "%03o", &v); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// lastLines returns the last n lines of out, trimmed, for error messages.
func lastLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
