package candidates

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/internal/stamp"
	"github.com/reconstruct/reconstruct/sandbox"
)

func TestArchiveRoundTrip(t *testing.T) {
	dir := t.TempDir()
	a, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, run := range []string{"run-a", "run-b", "run-a"} {
		if _, err := a.Add(Record{RunID: run, Iteration: i + 1, Passed: i}, []byte("def solve(x):\n    return x\n"), []byte(`{"turns":1}`)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := a.Run("run-a")
	if err != nil {
		t.Fatal(err)
	}
	var iters []int
	for _, r := range got {
		iters = append(iters, r.Iteration)
	}
	if diff := cmp.Diff([]int{1, 3}, iters); diff != "" {
		t.Errorf("run-a iterations (-want +got):\n%s", diff)
	}
	src, err := a.Source(got[0])
	if err != nil || !strings.Contains(string(src), "def solve") {
		t.Errorf("Source = %q, %v", src, err)
	}
	tr, err := a.Transcript(got[0])
	if err != nil || string(tr) != `{"turns":1}` {
		t.Errorf("Transcript = %q, %v", tr, err)
	}
	// A reopened archive sees the same manifest.
	b, err := OpenExisting(dir)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := b.List()
	if len(all) != 3 {
		t.Errorf("reopened archive lists %d entries, want 3", len(all))
	}
}

func TestArchiveDetectsTampering(t *testing.T) {
	dir := t.TempDir()
	a, _ := Open(dir)
	rec, err := a.Add(Record{RunID: "r", Iteration: 1}, []byte("x = 1\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(a.Path(), rec.File), []byte("x = 2\n"), 0o644)
	if _, err := a.Source(rec); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Errorf("Source of a changed file: %v", err)
	}
}

// A manifest of a newer major format is refused with ErrNewerFormat; one
// written before format stamps (testdata/format1) reads, and gains a stamp
// when next written.
func TestManifestVersionChecked(t *testing.T) {
	dir := t.TempDir()
	a, _ := Open(dir)
	os.WriteFile(filepath.Join(a.Path(), "manifest.json"), []byte(`{"format": 99, "entries": []}`), 0o644)
	if _, err := a.List(); !errors.Is(err, stamp.ErrNewerFormat) || !strings.Contains(err.Error(), "format 99") {
		t.Errorf("List with a newer format: %v", err)
	}

	ws := t.TempDir()
	if err := os.CopyFS(ws, os.DirFS("testdata/format1")); err != nil {
		t.Fatal(err)
	}
	old, err := OpenExisting(ws)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := old.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 {
		t.Fatalf("format-1 manifest: %d entries, want 6", len(recs))
	}
	src, err := old.Source(recs[1])
	if err != nil || !strings.Contains(string(src), "def solve") {
		t.Errorf("Source of a format-1 entry: %q, %v", src, err)
	}
	if _, err := old.Add(Record{RunID: "r2", Iteration: 1}, []byte("x = 1\n"), nil); err != nil {
		t.Fatal(err)
	}
	var m Manifest
	data, _ := os.ReadFile(filepath.Join(old.Path(), "manifest.json"))
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if m.Stamp != stamp.New(FormatVersion, sandbox.HarnessSHA256()) || len(m.Entries) != 7 {
		t.Errorf("rewritten manifest: stamp %+v, %d entries", m.Stamp, len(m.Entries))
	}
}

func TestUnifiedDiff(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"one line changed", "def f(x):\n    return x\n", "def f(x):\n    return x * 2\n",
			"--- A\n+++ B\n@@ -1,2 +1,2 @@\n def f(x):\n-    return x\n+    return x * 2\n"},
		{"added at end", "a\n", "a\nb\n", "--- A\n+++ B\n@@ -1 +1,2 @@\n a\n+b\n"},
		{"from empty", "", "a\n", "--- A\n+++ B\n@@ -0,0 +1 @@\n+a\n"},
		{"distant changes make two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "0\n2\n3\n4\n5\n6\n7\n8\n9\n11\n",
			"--- A\n+++ B\n@@ -1,4 +1,4 @@\n-1\n+0\n 2\n 3\n 4\n@@ -7,4 +7,4 @@\n 7\n 8\n 9\n-10\n+11\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, UnifiedDiff("A", "B", tt.a, tt.b)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestArchiveRefusesALinkedDirectory(t *testing.T) {
	ws := t.TempDir()
	os.Symlink(t.TempDir(), filepath.Join(ws, Dir))
	if _, err := Open(ws); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Open with .oc_candidates a link: %v", err)
	}
}

func TestArchiveKeepsOneCopyOfARepeatedProgram(t *testing.T) {
	dir := t.TempDir()
	a, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	same := []byte("def solve(x):\n    return x\n")
	var recs []Record
	for i, tt := range []struct {
		run    string
		source []byte
	}{{"run-a", same}, {"run-a", same}, {"run-a", []byte("def solve(x):\n    return -x\n")}, {"run-a", same}, {"run-b", same}} {
		rec, err := a.Add(Record{RunID: tt.run, Iteration: i + 1}, tt.source, []byte(`{"session":`+strings.Repeat("1", i+1)+`}`))
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	type ref struct {
		File   string
		SameAs int
	}
	var got []ref
	for _, r := range recs {
		got = append(got, ref{r.File, r.SameAs})
	}
	want := []ref{{"iter_001-run-a.py", 0}, {"iter_001-run-a.py", 1}, {"iter_003-run-a.py", 0}, {"iter_001-run-a.py", 1}, {"iter_005-run-b.py", 0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	var programs, records, transcripts int
	entries, _ := os.ReadDir(a.Path())
	for _, e := range entries {
		switch {
		case strings.HasSuffix(e.Name(), ".transcript.json"):
			transcripts++
		case strings.HasSuffix(e.Name(), ".py"):
			programs++
		case e.Name() != "manifest.json":
			records++
		}
	}
	if programs != 3 || records != 3 || transcripts != 5 {
		t.Errorf("%d programs, %d records, %d transcripts archived; want 3, 3 and every session's 5", programs, records, transcripts)
	}
	for _, r := range recs {
		if src, err := a.Source(r); err != nil || len(src) == 0 {
			t.Errorf("Source(iteration %d) = %q, %v", r.Iteration, src, err)
		}
	}
	all, _ := a.List()
	if len(all) != 5 {
		t.Errorf("manifest lists %d entries, want one per session", len(all))
	}
}
