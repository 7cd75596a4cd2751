package testenv

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WriteFiles writes files (a path relative to dir, and the file's content)
// into dir, making the directories they need; the files are 0644.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// WantErr checks the error of a call that should fail with a message
// containing want, or succeed when want is "" (the wantErr column of a
// table test). It reports whether the call failed as wanted, so that the
// test returns before it checks the results of a failed call; a missing,
// unexpected or different error fails the test.
func WantErr(t testing.TB, err error, want string) bool {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatal(err)
	case want == "":
		return false
	case err == nil || !strings.Contains(err.Error(), want):
		t.Fatalf("err = %v, want it to contain %q", err, want)
	}
	return true
}

// PrivateCopy copies the directory src into a new directory, as a user's
// private project is: the directories mode 0700, the files 0600; runs/ and
// __pycache__ are left out. It returns the copy.
func PrivateCopy(t testing.TB, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "private")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "runs" || d.Name() == "__pycache__") {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			if err := os.MkdirAll(to, 0o700); err != nil {
				return err
			}
			return os.Chmod(to, 0o700)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(to, data, 0o600); err != nil {
			return err
		}
		return os.Chmod(to, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
