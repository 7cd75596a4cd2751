package candidates

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestPackUnpack(t *testing.T) {
	ws := t.TempDir()
	write(t, filepath.Join(ws, "candidate.py"), "def solve(x):\n    return x\n")
	write(t, filepath.Join(ws, ".oc_candidates", "iter_001.py"), "one")
	write(t, filepath.Join(ws, ".oc_candidates", "sub", "deep.txt"), "deep")
	write(t, filepath.Join(ws, "events.jsonl"), "{}\n")
	write(t, filepath.Join(ws, "secret.txt"), "not asked for")
	outside := filepath.Join(t.TempDir(), "outside.txt")
	write(t, outside, "outside the workspace")
	// Links are never followed out of the workspace, nor packed as links.
	if err := os.Symlink(outside, filepath.Join(ws, ".oc_candidates", "escape.txt")); err != nil {
		t.Fatal(err)
	}
	data, files, err := Pack(ws, []string{"candidate.py", ".oc_candidates", "events.jsonl", "missing.json"}, DefaultBundleLimit)
	if err != nil {
		t.Fatal(err)
	}
	if files != 4 {
		t.Errorf("%d files packed, want 4", files)
	}
	dst := filepath.Join(t.TempDir(), "copy")
	if err := Unpack(data, dst, DefaultBundleLimit); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"candidate.py": "def solve(x):\n    return x\n", ".oc_candidates/iter_001.py": "one",
		".oc_candidates/sub/deep.txt": "deep", "events.jsonl": "{}\n"} {
		got, err := os.ReadFile(filepath.Join(dst, name))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
	for _, name := range []string{"secret.txt", ".oc_candidates/escape.txt"} {
		if _, err := os.Lstat(filepath.Join(dst, name)); !os.IsNotExist(err) {
			t.Errorf("%s was unpacked (%v)", name, err)
		}
	}
	if err := Unpack(data, dst, DefaultBundleLimit); err == nil {
		t.Error("unpacking over an existing directory succeeded")
	}
	if _, _, err := Pack(ws, []string{".oc_candidates"}, 5); err == nil || !strings.Contains(err.Error(), "more than 5 bytes") {
		t.Errorf("pack over the limit: %v", err)
	}
	if err := Unpack(data, filepath.Join(t.TempDir(), "small"), 5); err == nil || !strings.Contains(err.Error(), "more than 5 bytes") {
		t.Errorf("unpack over the limit: %v", err)
	}
}

func TestUnpackRefusesHostileBundles(t *testing.T) {
	tests := []struct {
		name string
		hdr  tar.Header
		want string
	}{
		{"parent path", tar.Header{Typeflag: tar.TypeReg, Name: "../evil.py", Size: 1}, "not a relative path"},
		{"absolute path", tar.Header{Typeflag: tar.TypeReg, Name: "/etc/evil", Size: 1}, "not a relative path"},
		{"unclean path", tar.Header{Typeflag: tar.TypeReg, Name: "a/./b", Size: 1}, "not a relative path"},
		{"symlink", tar.Header{Typeflag: tar.TypeSymlink, Name: "link", Linkname: "/etc/passwd"}, "neither a file nor a directory"},
		{"hard link", tar.Header{Typeflag: tar.TypeLink, Name: "link", Linkname: "candidate.py"}, "neither a file nor a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			tw := tar.NewWriter(zw)
			if err := tw.WriteHeader(&tt.hdr); err != nil {
				t.Fatal(err)
			}
			if tt.hdr.Size > 0 {
				tw.Write([]byte("x"))
			}
			tw.Close()
			zw.Close()
			parent := t.TempDir()
			dst := filepath.Join(parent, "copy")
			err := Unpack(buf.Bytes(), dst, DefaultBundleLimit)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			if entries, _ := os.ReadDir(parent); len(entries) != 0 {
				t.Errorf("a refused bundle left %v", entries)
			}
		})
	}
	if err := Unpack([]byte("not a gzip stream"), filepath.Join(t.TempDir(), "x"), DefaultBundleLimit); err == nil {
		t.Error("garbage unpacked")
	}
}
