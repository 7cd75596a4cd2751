package candidates

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSelect(t *testing.T) {
	dir := t.TempDir()
	a, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, run := range []string{"run-a", "run-b", "run-a", "run-c", "run-b"} {
		if _, err := a.Add(Record{RunID: run, Iteration: i + 1}, []byte("x = "+string(rune('0'+i))+"\n"), nil); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		run     string
		wantRun string
		want    []int // iterations
		wantErr string
	}{
		{name: "latest run is the run of the last entry", run: "", wantRun: "run-b", want: []int{2, 5}},
		{name: "one run", run: "run-a", wantRun: "run-a", want: []int{1, 3}},
		{name: "every run", run: AllRuns, wantRun: AllRuns, want: []int{1, 2, 3, 4, 5}},
		{name: "unknown run", run: "run-z", wantErr: `no candidates from run "run-z"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, run, err := a.Select(tt.run)
			if tt.wantErr != "" {
				var nr *NoRunError
				if err == nil || err.Error() != tt.wantErr || !errors.As(err, &nr) || nr.Run != tt.run {
					t.Fatalf("Select(%q) error = %v, want a *NoRunError %q", tt.run, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var iters []int
			for _, r := range recs {
				iters = append(iters, r.Iteration)
			}
			if run != tt.wantRun {
				t.Errorf("Select(%q) run = %q, want %q", tt.run, run, tt.wantRun)
			}
			if diff := cmp.Diff(tt.want, iters); diff != "" {
				t.Errorf("Select(%q) iterations (-want +got):\n%s", tt.run, diff)
			}
		})
	}
	for run, want := range map[string]bool{"run-a": true, "run-c": true, "run-z": false, "": false} {
		if got := a.HasRun(run); got != want {
			t.Errorf("HasRun(%q) = %v, want %v", run, got, want)
		}
	}
}

func TestSelectEmptyAndUnreadable(t *testing.T) {
	empty, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := empty.Select(""); !errors.Is(err, ErrEmpty) {
		t.Errorf("Select on an empty archive: %v, want ErrEmpty", err)
	}
	dir := t.TempDir()
	broken, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, Dir, manifestName), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := broken.Select(""); err == nil || errors.Is(err, ErrEmpty) {
		t.Errorf("Select on an unreadable manifest: %v, want the read error", err)
	}
	if broken.HasRun("r") {
		t.Error("HasRun on an unreadable manifest = true")
	}
}
