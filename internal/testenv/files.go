package testenv

import (
	"os"
	"path/filepath"
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
