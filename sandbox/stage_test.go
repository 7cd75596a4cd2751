package sandbox_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/sandbox"
)

// A staged copy holds what a hidden program may need and nothing it must
// not see: not the held-out tests under any name, not a workspace (the
// candidates), not what the run excludes (its bank, its workspace), no
// link out of the directory, no special file; and whoever the sandbox's
// user, it may read the copy.
func TestStageHoldsOnlyWhatTheProgramMayRead(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	files := map[string]string{
		"hidden.py":               "def f(x):\n    return x\n",
		"helper.py":               "X = 1\n",
		"data/table.txt":          "1 2 3\n",
		"heldout.jsonl":           `{"input": 1, "output": 1}` + "\n",
		"data/expected.txt":       `{"input": 1, "output": 1}` + "\n", // a copy of the held-out tests
		"runs/t/examples.jsonl":   "observed\n",
		"runs/t/.oc_candidates/a": "candidate\n",
		"ws/candidate.py":         "the workspace\n",
		"bank.db":                 "a bank\n",
		"run.sh":                  "#!/bin/sh\necho 1\n",
		"private.py":              "P = 1\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(filepath.Join(dir, "run.sh"), 0o755)
	os.Chmod(filepath.Join(dir, "private.py"), 0o600)
	os.WriteFile(filepath.Join(outside, "secret"), []byte("outside\n"), 0o600)
	for link, target := range map[string]string{
		"tests.jsonl": "", // a hard link to the held-out tests
		"leak.py":     filepath.Join(outside, "secret"),
		"up.py":       "../" + filepath.Base(outside) + "/secret",
		"alias.py":    "helper.py",
		"data/h.py":   "../hidden.py",
	} {
		var err error
		if target == "" {
			err = os.Link(filepath.Join(dir, "heldout.jsonl"), filepath.Join(dir, link))
		} else {
			err = os.Symlink(target, filepath.Join(dir, link))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := sandbox.NewStage(dir, sandbox.StageOptions{Secret: []string{"heldout.jsonl"}, Exclude: []string{filepath.Join(dir, "ws"), "bank.db"}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Remove()
	var got []string
	filepath.Walk(st.Dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || p == st.Dir {
			return err
		}
		rel, _ := filepath.Rel(st.Dir, p)
		entry := rel + " " + fi.Mode().String()
		if fi.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			entry += " -> " + target
		}
		got = append(got, entry)
		return nil
	})
	sort.Strings(got)
	want := []string{
		"alias.py Lrwxrwxrwx -> helper.py",
		"data drwxr-xr-x",
		"data/h.py Lrwxrwxrwx -> ../hidden.py",
		"data/table.txt -rw-r--r--",
		"helper.py -rw-r--r--",
		"hidden.py -rw-r--r--",
		"private.py -rw-r--r--",
		"run.sh -rwxr-xr-x",
		"runs drwxr-xr-x",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the copy (-want +got):\n%s\nskipped: %v", diff, st.Skipped)
	}
	fi, err := os.Stat(filepath.Dir(st.Dir))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the copy's parent: %v %v, want mode 0700", fi, err)
	}
	skipped := strings.Join(st.Skipped, "\n")
	for _, w := range []string{"leak.py: a symbolic link out of the directory", "up.py: a symbolic link out", "fifo: not a regular file",
		"tests.jsonl: the held-out tests under another name", "data/expected.txt: the held-out tests under another name", "runs/t: a workspace"} {
		if !strings.Contains(skipped, w) {
			t.Errorf("skipped does not say %q:\n%s", w, skipped)
		}
	}
	if p := st.Path(filepath.Join(dir, "data", "table.txt")); p != filepath.Join(st.Dir, "data", "table.txt") {
		t.Errorf("Path = %s", p)
	}
	if p := st.Path("/elsewhere/x.py"); p != "/elsewhere/x.py" {
		t.Errorf("Path of a path outside = %s", p)
	}
	if err := st.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(st.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the copy survives Remove: %v", err)
	}
}

// A directory too large to copy is refused naming the bound.
func TestStageBounds(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		os.WriteFile(filepath.Join(dir, n), []byte("1234"), 0o644)
	}
	for _, tt := range []struct {
		opts sandbox.StageOptions
		want string
	}{
		{sandbox.StageOptions{MaxFiles: 2}, "more than 2 files"},
		{sandbox.StageOptions{MaxBytes: 10}, "more than 10 bytes"},
	} {
		_, err := sandbox.NewStage(dir, tt.opts)
		if !errors.Is(err, sandbox.ErrStage) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want ErrStage saying %q", tt.opts, err, tt.want)
		}
	}
}

// A copy left by a process killed outright is removed by the next stage.
func TestStageRemovesCopiesOfGoneProcesses(t *testing.T) {
	parent := t.TempDir()
	gone := filepath.Join(parent, "2147483646-abc") // no such pid
	mine := filepath.Join(parent, fmt.Sprintf("%d-abc", os.Getpid()))
	for _, d := range []string{gone, mine} {
		if err := os.MkdirAll(filepath.Join(d, "task"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	st, err := sandbox.NewStage(t.TempDir(), sandbox.StageOptions{Parent: parent})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Remove()
	if _, err := os.Stat(gone); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the copy of a gone process survives: %v", err)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("a copy of this process was removed: %v", err)
	}
	if !strings.HasPrefix(st.Dir, parent+string(filepath.Separator)+fmt.Sprint(os.Getpid())+"-") {
		t.Errorf("the copy %s is not named after this process under %s", st.Dir, parent)
	}
}
