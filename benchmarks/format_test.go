package benchmarks

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/internal/stamp"
)

// summary.json of every earlier format (testdata/formats) is read with the
// counts of the current one; a newer one is refused as every record of a
// newer format is (stamp.ErrNewerFormat, the same message); one written now
// carries the whole stamp.
func TestReadSummaryFormats(t *testing.T) {
	newer := filepath.Join(t.TempDir(), SummaryJSON)
	if err := os.WriteFile(newer, []byte(`{"format": 3, "producer": "v9.0.0", "tasks": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, path, wantErr string
	}{
		{"format 1", filepath.Join("testdata", "formats", "summary-1.json"), ""},
		{"format 2", filepath.Join("testdata", "formats", "summary-2.json"), ""},
		{"newer", newer, newer + ": written in a newer format: format 3, written by reconstruct v9.0.0; this reconstruct"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ReadSummary(tt.path)
			if tt.wantErr != "" {
				if !errors.Is(err, stamp.ErrNewerFormat) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("ReadSummary: %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Tasks != 7 || s.Runs != 7 || s.Solved != 4 || s.Errors != 1 || s.Levels["base"].Runs != 3 {
				t.Errorf("tasks %d, runs %d, solved %d, errors %d, levels %+v", s.Tasks, s.Runs, s.Solved, s.Errors, s.Levels)
			}
		})
	}
	t.Run("written now", func(t *testing.T) {
		s, err := ReadSummary(filepath.Join("testdata", "formats", "summary-2.json"))
		if err != nil {
			t.Fatal(err)
		}
		now := Summarize(s.Results)
		if now.Format != SummaryFormat || now.Producer != stamp.Producer() || len(now.Harness) != 64 {
			t.Errorf("stamp of a summary written now: %+v", now.Stamp)
		}
	})
}
