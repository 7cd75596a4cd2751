package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/internal/stamp"
	"github.com/reconstruct/reconstruct/sandbox"
)

// recordedFixture is testdata/recorded-format1.json (a configuration
// recorded by the reconstruct of before format stamps) with its paths
// pointing at this checkout's quickstart example and work at work.
func recordedFixture(t *testing.T, work string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/recorded-format1.json")
	if err != nil {
		t.Fatal(err)
	}
	examples, err := filepath.Abs(filepath.Join("..", "configs", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(data), "{examples}", examples)
	return []byte(strings.ReplaceAll(s, "{work}", work))
}

func TestRecordedFormat1ReadsBack(t *testing.T) {
	work := t.TempDir()
	c, err := Recorded(recordedFixture(t, work), "run r1's recorded configuration", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if c.Task.Name != "running_max" || c.Workflow.EarlyStop != 5 || c.Sandbox.CallTimeout.Seconds() != 60 ||
		c.Agent.Kind != "replay" || c.Workspace != filepath.Join(work, "ws") || !strings.HasSuffix(c.File, "quickstart.yaml") {
		t.Errorf("read back: %+v", c)
	}
	// What Stamped records reads back the same.
	again, err := json.Marshal(c.Stamped())
	if err != nil {
		t.Fatal(err)
	}
	c2, err := Recorded(again, "again", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c2.Stamp != stamp.New(Format, sandbox.HarnessSHA256()) || c2.Workflow != c.Workflow || c2.Task.Oracle.Python != c.Task.Oracle.Python {
		t.Errorf("a stamped configuration read back as %+v", c2)
	}
}

// A recorded configuration goes through the file's validation: a bad value,
// an unknown key, a missing task file, a newer format are refused, naming it.
func TestRecordedIsValidated(t *testing.T) {
	const what = "run r1's recorded configuration"
	tests := []struct {
		name string
		edit func(m map[string]any)
		want []string
	}{
		{"a value out of range", func(m map[string]any) { m["workflow"].(map[string]any)["early_stop"] = 0 },
			[]string{what + ": workflow.early_stop: must be at least 1, got 0"}},
		{"an unknown key", func(m map[string]any) { m["workflow"].(map[string]any)["earlystop"] = 2 },
			[]string{what + ": workflow.earlystop: unknown key; did you mean workflow.early_stop?"}},
		{"a task file gone", func(m map[string]any) {
			m["task"].(map[string]any)["oracle"].(map[string]any)["python"] = "/nonexistent/hidden.py"
		}, []string{what + ": task.oracle.python: file /nonexistent/hidden.py does not exist"}},
		{"a newer format", func(m map[string]any) { m["stamp"] = map[string]any{"format": 2, "producer": "v9.0.0"} },
			[]string{what, "format 2", "v9.0.0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal(recordedFixture(t, t.TempDir()), &m); err != nil {
				t.Fatal(err)
			}
			tt.edit(m)
			data, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Recorded(data, what, nil)
			if err == nil {
				t.Fatal("Recorded succeeded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if tt.name == "a newer format" && !errors.Is(err, stamp.ErrNewerFormat) {
				t.Errorf("error %v is not ErrNewerFormat", err)
			}
		})
	}
}
