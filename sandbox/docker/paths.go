package docker

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Container paths of the two mounts a run uses. A host path under a mount's
// Source is seen by the harness at the same relative path under its Target:
// <workspace>/candidate.py is /workspace/candidate.py in the agent's
// container, <task dir>/hidden.py is /oracle/hidden.py in the oracle's.
const (
	WorkspaceDir = "/workspace"
	ProgramDir   = "/oracle"
)

// Mount binds a host directory into the container.
type Mount struct {
	// Source is the host directory.
	Source string
	// Target is the absolute path in the container.
	Target   string
	ReadOnly bool
	// Hide lists files under Source (relative paths) that the container
	// must not read: each is covered by an empty read-only file.
	Hide []string
	// Scratch, when positive, makes the mount an empty tmpfs of that many
	// bytes instead of a host directory (Source is then empty): nothing of
	// the host is in it and what the container writes there cannot fill
	// the host's disk.
	Scratch int64
}

// WorkspaceMount binds the agent's workspace read-write at /workspace.
func WorkspaceMount(dir string) Mount {
	return Mount{Source: dir, Target: WorkspaceDir}
}

// ScratchMount is an empty tmpfs of size bytes (DefaultTmpBytes when 0) at
// /workspace: the working directory of the evaluator's container, which
// runs candidates on inline sources and needs no host directory.
func ScratchMount(size int64) Mount {
	if size <= 0 {
		size = DefaultTmpBytes
	}
	return Mount{Target: WorkspaceDir, Scratch: size}
}

// HeldoutFile is the task directory's held-out tests (docs/workflow.md, task
// directory format); ProgramMount hides it.
const HeldoutFile = "heldout.jsonl"

// ProgramMount binds a hidden program's directory read-only at /oracle,
// with the held-out tests hidden: neither container may see them.
func ProgramMount(dir string) Mount {
	return Mount{Source: dir, Target: ProgramDir, ReadOnly: true, Hide: []string{HeldoutFile}}
}

// resolved is a Mount with absolute, symlink-free host paths.
type resolved struct {
	Mount
	hide []string // absolute container paths of existing hidden files
}

// resolveMounts checks the mounts and makes their sources absolute.
func resolveMounts(ms []Mount) ([]resolved, error) {
	out := make([]resolved, 0, len(ms))
	seen := map[string]bool{}
	for _, m := range ms {
		if m.Scratch > 0 && m.Source == "" && path.IsAbs(m.Target) && path.Clean(m.Target) != "/" {
			m.Target = path.Clean(m.Target)
			if seen[m.Target] {
				return nil, fmt.Errorf("scratch mount: two mounts at %s", m.Target)
			}
			seen[m.Target] = true
			out = append(out, resolved{Mount: m})
			continue
		}
		if m.Source == "" || !path.IsAbs(m.Target) || path.Clean(m.Target) == "/" {
			return nil, fmt.Errorf("mount %q -> %q: need a host directory and an absolute container path other than /", m.Source, m.Target)
		}
		src, err := filepath.Abs(m.Source)
		if err != nil {
			return nil, fmt.Errorf("mount %s: %w", m.Source, err)
		}
		if src, err = filepath.EvalSymlinks(src); err != nil {
			return nil, fmt.Errorf("mount %s: %w", m.Source, err)
		}
		if fi, err := os.Stat(src); err != nil {
			return nil, fmt.Errorf("mount %s: %w", m.Source, err)
		} else if !fi.IsDir() {
			return nil, fmt.Errorf("mount %s: not a directory", m.Source)
		}
		m.Source, m.Target = src, path.Clean(m.Target)
		if seen[m.Target] {
			return nil, fmt.Errorf("mount %s: two mounts at %s", m.Source, m.Target)
		}
		seen[m.Target] = true
		r := resolved{Mount: m}
		for _, h := range m.Hide {
			rel := filepath.Clean(h)
			if filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") {
				return nil, fmt.Errorf("mount %s: hidden file %q is not under it", m.Source, h)
			}
			if _, err := os.Lstat(filepath.Join(src, rel)); errors.Is(err, os.ErrNotExist) {
				continue // nothing to hide
			} else if err != nil {
				return nil, fmt.Errorf("mount %s: %w", m.Source, err)
			}
			r.hide = append(r.hide, path.Join(m.Target, filepath.ToSlash(rel)))
		}
		out = append(out, r)
	}
	return out, nil
}

// containerPath maps a host path under one of the mounts to the path the
// container sees. Paths already under a mount's Target are kept as they
// are, so callers may pass either.
func containerPath(mounts []resolved, host string) (string, error) {
	for _, m := range mounts {
		if host == m.Target || strings.HasPrefix(host, m.Target+"/") {
			return host, nil
		}
	}
	abs, err := filepath.Abs(host)
	if err != nil {
		return "", fmt.Errorf("program %s: %w", host, err)
	}
	// Resolve symlinks in the directory part so that a workspace reached
	// through a symlink still maps; the file itself may not exist yet.
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(dir, filepath.Base(abs))
	}
	for _, m := range mounts {
		if m.Scratch > 0 {
			continue
		}
		rel, err := filepath.Rel(m.Source, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			continue
		}
		return path.Join(m.Target, filepath.ToSlash(rel)), nil
	}
	return "", fmt.Errorf("program %s is outside the sandbox's mounts", host)
}
