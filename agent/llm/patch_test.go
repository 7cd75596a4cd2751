package llm

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
)

func TestFilePatchApply(t *testing.T) {
	const base = "a\nb\nc\nd\ne\nf\ng\n"
	tests := []struct {
		name    string
		content string
		exists  bool
		patch   string
		want    string
		deleted bool
		wantErr string
	}{
		{
			name: "replace a line", content: base, exists: true,
			patch: "--- a/f\n+++ b/f\n@@ -2,3 +2,3 @@\n b\n-c\n+C\n d\n",
			want:  "a\nb\nC\nd\ne\nf\ng\n",
		},
		{
			name: "two hunks, the second shifted by the first", content: base, exists: true,
			patch: "--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n a\n+a2\n b\n@@ -6,2 +7,2 @@\n f\n-g\n+G\n",
			want:  "a\na2\nb\nc\nd\ne\nf\nG\n",
		},
		{
			name: "wrong line numbers are only a hint", content: base, exists: true,
			patch: "--- a/f\n+++ b/f\n@@ -40,2 +40,2 @@\n e\n-f\n+F\n",
			want:  "a\nb\nc\nd\ne\nF\ng\n",
		},
		{
			name: "header without numbers", content: base, exists: true,
			patch: "--- f\n+++ f\n@@\n-a\n+A\n",
			want:  "A\nb\nc\nd\ne\nf\ng\n",
		},
		{
			name: "nearest of two matches to the hint", content: "x\ny\nx\ny\n", exists: true,
			patch: "--- a/f\n+++ b/f\n@@ -3,2 +3,2 @@\n x\n-y\n+Y\n",
			want:  "x\ny\nx\nY\n",
		},
		{
			name: "blank context line without its space", content: "def f():\n\n    return 1\n", exists: true,
			patch: "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n def f():\n\n-    return 1\n+    return 2\n",
			want:  "def f():\n\n    return 2\n",
		},
		{
			name: "trailing whitespace tolerated", content: "a  \nb\n", exists: true,
			patch: "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n",
			want:  "a  \nB\n",
		},
		{
			name: "create", exists: false,
			patch: "--- /dev/null\n+++ b/f\n@@ -0,0 +1,2 @@\n+x = 1\n+y = 2\n",
			want:  "x = 1\ny = 2\n",
		},
		{
			name: "no newline at end", content: "a\nb\n", exists: true,
			patch: "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n\\ No newline at end of file\n",
			want:  "a\nB",
		},
		{
			name: "pure insertion after a line", content: "a\nb\n", exists: true,
			patch: "--- a/f\n+++ b/f\n@@ -1,0 +2,1 @@\n+between\n",
			want:  "a\nbetween\nb\n",
		},
		{
			name: "delete", content: "a\nb\n", exists: true,
			patch:   "--- a/f\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n",
			deleted: true,
		},
		{
			name: "context not found", content: base, exists: true,
			patch:   "--- a/f\n+++ b/f\n@@ -2,2 +2,2 @@\n b\n-x\n+y\n",
			wantErr: "hunk 1 (@@ -2,2 +2,2 @@) does not apply to f",
		},
		{
			name: "hunks out of order do not apply backwards", content: base, exists: true,
			patch:   "--- a/f\n+++ b/f\n@@ -6,1 +6,1 @@\n-f\n+F\n@@ -1,1 +1,1 @@\n-a\n+A\n",
			wantErr: "hunk 2",
		},
		{
			name: "create over an existing file", content: "x\n", exists: true,
			patch:   "--- /dev/null\n+++ b/f\n@@ -0,0 +1 @@\n+y\n",
			wantErr: "already exists",
		},
		{
			name: "patch a missing file", exists: false,
			patch:   "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n",
			wantErr: "does not exist",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := parsePatch(tt.patch)
			if err != nil {
				t.Fatalf("parsePatch: %v", err)
			}
			if len(files) != 1 {
				t.Fatalf("files = %d, want 1", len(files))
			}
			got, deleted, err := files[0].apply(tt.content, tt.exists)
			if testenv.WantErr(t, err, tt.wantErr) {
				return
			}
			if got != tt.want || deleted != tt.deleted {
				t.Errorf("apply = %q, deleted %v, want %q, deleted %v", got, deleted, tt.want, tt.deleted)
			}
		})
	}
}

func TestParsePatchErrors(t *testing.T) {
	tests := []struct{ name, patch, want string }{
		{"not a diff", "just replace line 3", "no file header"},
		{"hunk before header", "@@ -1 +1 @@\n-a\n+b\n", "before any file header"},
		{"garbage line", "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n*b\n", "does not start with"},
		{"no hunks", "--- a/f\n+++ b/f\n", "has no hunks"},
	}
	for _, tt := range tests {
		if _, err := parsePatch(tt.patch); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want it to contain %q", tt.name, err, tt.want)
		}
	}
}

func TestApplyPatchToolIsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	ws, err := openWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	for name, content := range map[string]string{"one.py": "a\n", "two.py": "b\n", "old.py": "gone\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tool := newApplyPatchTool(ws)
	run := func(patch string) (string, error) {
		args, _ := json.Marshal(applyPatchParams{Patch: patch})
		return tool.Run(context.Background(), args)
	}
	// The second file does not apply: the first must stay untouched.
	if _, err := run("--- a/one.py\n+++ b/one.py\n@@ -1 +1 @@\n-a\n+A\n--- a/two.py\n+++ b/two.py\n@@ -1 +1 @@\n-zzz\n+B\n"); err == nil {
		t.Fatal("a patch with a failing hunk applied")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "one.py")); string(b) != "a\n" {
		t.Errorf("one.py = %q after a failed patch", b)
	}
	out, err := run("diff --git a/one.py b/one.py\n--- a/one.py\n+++ b/one.py\n@@ -1 +1 @@\n-a\n+A\n--- /dev/null\n+++ b/pkg/new.py\n@@ -0,0 +1 @@\n+n\n--- a/old.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n")
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	if want := "patched one.py\npatched pkg/new.py\ndeleted old.py"; out != want {
		t.Errorf("result = %q, want %q", out, want)
	}
	for name, want := range map[string]string{"one.py": "A\n", "pkg/new.py": "n\n"} {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != want {
			t.Errorf("%s = %q, want %q", name, b, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "old.py")); !os.IsNotExist(err) {
		t.Errorf("old.py not deleted")
	}
}
