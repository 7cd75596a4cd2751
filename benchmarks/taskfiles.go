package benchmarks

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/dirlock"
)

// maxDigested bounds the files of a task directory digested beside the
// files its configuration names (a directory of data would otherwise be
// read whole at every sweep).
const maxDigested = 64

// TaskFiles digests the files a task is made of (TaskResult.TaskFiles),
// each named relative to the task directory (the configuration file's):
// its configuration, hidden program, generator, held-out tests, the program
// of a command oracle, a replay script, every other file at the top of the
// task directory (a module the hidden program imports, say), and a factory
// task's module files. A file that cannot be read is "missing". A sweep
// runs a task again when its files changed since its result.
func TaskFiles(c *config.Config) map[string]string {
	dir := filepath.Dir(c.File)
	files := map[string]string{}
	add := func(p string) {
		if p == "" {
			return
		}
		name := p
		if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
			name = rel
		}
		if _, ok := files[name]; !ok {
			files[name] = digestFile(p)
		}
	}
	t := c.Task
	if t.Factory == "" {
		add(c.File)
		if entries, err := os.ReadDir(dir); err == nil {
			n := 0
			for _, e := range entries {
				if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") || e.Name() == dirlock.File {
					continue
				}
				if n++; n > maxDigested {
					break
				}
				add(filepath.Join(dir, e.Name()))
			}
		}
	}
	add(t.Oracle.Python)
	if g := t.RandomInputs; g != nil {
		add(g.Python)
	}
	if len(t.Oracle.Command) > 0 && strings.Contains(t.Oracle.Command[0], "/") {
		add(t.Oracle.Command[0])
	}
	add(t.Heldout)
	if c.Agent.Kind == "replay" {
		add(c.Agent.Replay.Script)
	}
	if b := t.Bound; b != nil {
		for name, sum := range b.Files {
			files["binding:"+name] = sum
		}
	}
	return files
}

func digestFile(p string) string {
	f, err := os.Open(p)
	if err != nil {
		return "missing"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "missing"
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TaskDigest is the digest of a task's files (TaskResult.TaskSHA256).
func TaskDigest(files map[string]string) string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s\x00%s\n", n, files[n])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// changedFiles names the files that differ between two digests of a task.
func changedFiles(before, after map[string]string) []string {
	var out []string
	for n, d := range after {
		if before[n] != d {
			out = append(out, n)
		}
	}
	for n := range before {
		if _, ok := after[n]; !ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Reasons a task finished in an earlier session of a sweep runs again
// (TaskResult.Rerun).
const (
	RerunForced  = "--force"
	RerunError   = "it had ended in an error"
	rerunChanged = "its files changed since: "
)

// Rerun decides whether a task an earlier session finished (prev) runs
// again in this one, whose job has the settings hash and the task files
// given: reason is why ("" to keep prev); otherSettings reports a result of
// other settings, which refuses the sweep unless force.
func Rerun(prev TaskResult, hash string, files map[string]string, force bool) (reason string, otherSettings bool) {
	otherSettings = prev.ConfigSHA256 != "" && prev.ConfigSHA256 != hash
	switch {
	case force:
		return RerunForced, otherSettings
	case otherSettings:
		return "", true
	case prev.Error != "":
		return RerunError, false
	case prev.TaskSHA256 != "" && prev.TaskSHA256 != TaskDigest(files):
		return rerunChanged + strings.Join(firstOf(changedFiles(prev.TaskFiles, files), 5), ", "), false
	}
	return "", false
}
