package cluster

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/sqlite"
)

// testBank is a SQLite bank in the test's directory.
func testBank(t *testing.T) *bank.Bank {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "bank.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return bank.New(st, bank.Options{})
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func TestTreeRoundTrip(t *testing.T) {
	ctx := context.Background()
	b := testBank(t)
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "task.yaml"), "task: {}\n", 0o644)
	writeFile(t, filepath.Join(src, "oracle.sh"), "#!/bin/sh\n", 0o755)
	writeFile(t, filepath.Join(src, "events.jsonl"), "{}\n", 0o600)
	writeFile(t, filepath.Join(src, "sub", "deep", "x.py"), "x = 1\n", 0o644)
	writeFile(t, filepath.Join(src, "heldout.jsonl"), "secret\n", 0o644)
	writeFile(t, filepath.Join(src, "runs", "old", "examples.jsonl"), "old\n", 0o644)
	outside := filepath.Join(t.TempDir(), "outside.txt")
	writeFile(t, outside, "outside", 0o644)
	// A link is neither followed out of the tree nor stored.
	if err := os.Symlink(outside, filepath.Join(src, "sub", "escape.txt")); err != nil {
		t.Fatal(err)
	}
	w := newTreeWriter(b)
	h, tree, err := w.put(ctx, src, []string{"."}, taskSkip(src, filepath.Join(src, "heldout.jsonl")))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range tree.Files {
		paths = append(paths, f.Path)
	}
	if diff := cmp.Diff([]string{"events.jsonl", "oracle.sh", "sub/deep/x.py", "task.yaml"}, paths); diff != "" {
		t.Errorf("stored files (-want +got):\n%s", diff)
	}
	dst := filepath.Join(t.TempDir(), "copy")
	if err := restoreTree(ctx, b, h, dst); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path, content string
		mode          os.FileMode
	}{
		{"task.yaml", "task: {}\n", 0o644},
		{"oracle.sh", "#!/bin/sh\n", 0o755},
		{"events.jsonl", "{}\n", 0o600},
		{"sub/deep/x.py", "x = 1\n", 0o644},
	} {
		p := filepath.Join(dst, tt.path)
		data, err := os.ReadFile(p)
		st, serr := os.Stat(p)
		if err != nil || serr != nil || string(data) != tt.content || st.Mode().Perm() != tt.mode {
			t.Errorf("%s: %q %v, mode %v; want %q mode %v", tt.path, data, err, st.Mode().Perm(), tt.content, tt.mode)
		}
	}
	for _, p := range []string{"heldout.jsonl", "runs", "sub/escape.txt"} {
		if _, err := os.Lstat(filepath.Join(dst, p)); !os.IsNotExist(err) {
			t.Errorf("%s was restored (%v)", p, err)
		}
	}
	// The same tree again is the same hash, and restoring over an
	// existing directory is refused.
	if h2, _, err := newTreeWriter(b).put(ctx, src, []string{"."}, taskSkip(src, filepath.Join(src, "heldout.jsonl"))); err != nil || h2 != h {
		t.Errorf("second put: %s, %v; want %s", h2, err, h)
	}
	if err := restoreTree(ctx, b, h, dst); err == nil {
		t.Error("restored over an existing directory")
	}
}

func TestTreeNamedEntries(t *testing.T) {
	ctx := context.Background()
	b := testBank(t)
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, ".oc_candidates", "iter_001.py"), "one", 0o644)
	writeFile(t, filepath.Join(ws, "notes.txt"), "not asked for", 0o644)
	w := newTreeWriter(b)
	_, tree, err := w.put(ctx, ws, []string{".oc_candidates", "candidate.py"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.Files) != 1 || tree.Files[0].Path != ".oc_candidates/iter_001.py" {
		t.Errorf("files %+v, want only the archive's candidate (a missing entry is skipped)", tree.Files)
	}
	if len(w.known) != 2 {
		t.Errorf("%d blobs stored, want 2 (the file and the listing)", len(w.known))
	}
}

func TestRestoreTreeRefusesBadTrees(t *testing.T) {
	ctx := context.Background()
	b := testBank(t)
	content, err := b.PutBlob(ctx, []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		tree Tree
		want string
	}{
		{"escape", Tree{Format: TreeFormat, Files: []TreeFile{{Path: "../x", Blob: content, Size: 1, Mode: 0o644}}}, "not a relative path"},
		{"absolute", Tree{Format: TreeFormat, Files: []TreeFile{{Path: "/etc/x", Blob: content, Size: 1, Mode: 0o644}}}, "not a relative path"},
		{"unclean", Tree{Format: TreeFormat, Files: []TreeFile{{Path: "a/./x", Blob: content, Size: 1, Mode: 0o644}}}, "not a relative path"},
		{"format", Tree{Format: 99}, "written in a newer format: format 99"},
		{"size", Tree{Format: TreeFormat, Files: []TreeFile{{Path: "x", Blob: content, Size: 2, Mode: 0o644}}}, "does not match"},
		{"huge", Tree{Format: TreeFormat, Files: []TreeFile{{Path: "x", Blob: content, Size: MaxTreeBytes + 1, Mode: 0o644}}}, "more than"},
		{"missing blob", Tree{Format: TreeFormat, Files: []TreeFile{{Path: "x", Blob: "sha256:00", Size: 1}}}, "not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, _ := json.Marshal(tt.tree)
			h, err := b.PutBlob(ctx, data)
			if err != nil {
				t.Fatal(err)
			}
			dst := filepath.Join(t.TempDir(), "dst")
			err = restoreTree(ctx, b, h, dst)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			if _, err := os.Stat(dst); !os.IsNotExist(err) {
				t.Errorf("a refused tree left %s behind", dst)
			}
		})
	}
}
