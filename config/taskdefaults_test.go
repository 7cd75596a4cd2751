package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"
)

// A task with an input generator runs with random_share 0.5 and the
// coverage gate on unless something sets them; a task without one with 0
// and off; whatever sets a value (file, variable, flag, an override that
// names its source) wins, and Origins says where each value came from.
func TestTaskDefaults(t *testing.T) {
	noGenerator := strings.Replace(validTask, "  random_inputs:\n    python: generator.py\n    function: generate\n", "", 1)
	tests := []struct {
		name     string
		yaml     string
		env      map[string]string
		flags    []string // --random-share, --coverage-gate
		override map[string]any
		from     string // Options.OverrideFrom
		share    float64
		gate     bool
		origins  map[string]string // "FILE" stands for the task file
	}{
		{name: "generator", yaml: validTask, share: 0.5, gate: true,
			origins: map[string]string{share: OriginGenerator, gate: OriginGenerator}},
		{name: "no generator", yaml: noGenerator, share: 0, gate: false,
			origins: map[string]string{share: OriginDefault, gate: OriginDefault}},
		{name: "file wins", yaml: validTask + "workflow: {random_share: 0.25, coverage_gate: false}\n", share: 0.25, gate: false,
			origins: map[string]string{share: "FILE", gate: "FILE"}},
		{name: "file sets one", yaml: validTask + "workflow: {random_share: 0}\n", share: 0, gate: true,
			origins: map[string]string{share: "FILE", gate: OriginGenerator}},
		{name: "no generator, file turns the gate on", yaml: noGenerator + "workflow: {coverage_gate: true}\n", share: 0, gate: true,
			origins: map[string]string{share: OriginDefault, gate: "FILE"}},
		{name: "variable wins", yaml: validTask, env: map[string]string{"RECONSTRUCT_WORKFLOW_RANDOM_SHARE": "0", "RECONSTRUCT_WORKFLOW_COVERAGE_GATE": "false"},
			share: 0, gate: false, origins: map[string]string{share: "RECONSTRUCT_WORKFLOW_RANDOM_SHARE", gate: "RECONSTRUCT_WORKFLOW_COVERAGE_GATE"}},
		{name: "flag wins over file", yaml: validTask + "workflow: {random_share: 0.25}\n", flags: []string{"--random-share", "1", "--coverage-gate=false"},
			share: 1, gate: false, origins: map[string]string{share: "--random-share", gate: "--coverage-gate"}},
		{name: "override wins", yaml: validTask, override: map[string]any{share: 0.0},
			share: 0, gate: true, origins: map[string]string{share: OriginOverride, gate: OriginGenerator}},
		{name: "named override wins", yaml: validTask, override: map[string]any{share: 0.0, gate: false}, from: "--args",
			share: 0, gate: false, origins: map[string]string{share: "--args", gate: "--args"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := taskDir(t, tt.yaml)
			fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
			fs.Float64("random-share", 0, "")
			fs.Bool("coverage-gate", false, "")
			if err := fs.Parse(tt.flags); err != nil {
				t.Fatal(err)
			}
			c, err := Load(Options{File: p, Env: true, Getenv: func(k string) string { return tt.env[k] },
				Flags:    map[string]*pflag.Flag{share: fs.Lookup("random-share"), gate: fs.Lookup("coverage-gate")},
				Override: tt.override, OverrideFrom: tt.from})
			if err != nil {
				t.Fatal(err)
			}
			if c.Workflow.RandomShare != tt.share || c.Workflow.CoverageGate != tt.gate {
				t.Errorf("random_share %g, coverage_gate %v; want %g, %v", c.Workflow.RandomShare, c.Workflow.CoverageGate, tt.share, tt.gate)
			}
			want := map[string]string{}
			for k, v := range tt.origins {
				if v == "FILE" {
					v = p
				}
				want[k] = v
			}
			if diff := cmp.Diff(want, c.Origins); diff != "" {
				t.Errorf("origins (-want +got):\n%s", diff)
			}
			// A run records its configuration; read back (resume), the
			// values and their origins are the run's, not defaulted again.
			data, err := json.Marshal(c.Stamped())
			if err != nil {
				t.Fatal(err)
			}
			back, err := Recorded(data, "recorded", func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			if back.Workflow.RandomShare != tt.share || back.Workflow.CoverageGate != tt.gate {
				t.Errorf("recorded: random_share %g, coverage_gate %v; want %g, %v", back.Workflow.RandomShare, back.Workflow.CoverageGate, tt.share, tt.gate)
			}
			if diff := cmp.Diff(want, back.Origins); diff != "" {
				t.Errorf("recorded origins (-want +got):\n%s", diff)
			}
		})
	}
}

// A factory task's generator is known once the factory was called: the
// defaults for a task with a generator are applied then, to what nothing
// set.
func TestTaskDefaultsOfAFactory(t *testing.T) {
	for _, tt := range []struct {
		name      string
		yaml      string
		generator bool
		share     float64
		gate      bool
		origin    string
	}{
		{"generator", "task: {factory: \"bench.b:make\"}\n", true, 0.5, true, OriginGenerator},
		{"no generator", "task: {factory: \"bench.b:make\"}\n", false, 0, false, OriginDefault},
		{"set in the file", "task: {factory: \"bench.b:make\"}\nworkflow: {random_share: 0.2, coverage_gate: false}\n", true, 0.2, false, "FILE"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "run.yaml")
			if err := os.WriteFile(p, []byte(tt.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := Load(Options{File: p})
			if err != nil {
				t.Fatal(err)
			}
			c, err = c.Bind(BoundTask{Name: "Abs", InputType: "an integer", Kind: "int", RandomInputs: tt.generator})
			if err != nil {
				t.Fatal(err)
			}
			origin := tt.origin
			if origin == "FILE" {
				origin = p
			}
			if c.Workflow.RandomShare != tt.share || c.Workflow.CoverageGate != tt.gate || c.Origins[share] != origin || c.Origins[gate] != origin {
				t.Errorf("random_share %g, coverage_gate %v, origins %v; want %g, %v from %s", c.Workflow.RandomShare, c.Workflow.CoverageGate, c.Origins, tt.share, tt.gate, origin)
			}
		})
	}
}

const share, gate = "workflow.random_share", "workflow.coverage_gate"

func TestSettingsLine(t *testing.T) {
	c := &Config{Origins: map[string]string{share: OriginGenerator, gate: "--coverage-gate"}}
	c.Workflow.RandomShare = 0.5
	got := SettingsLine(c.TaskDefaults())
	want := "random_share 0.5 (default for a task with a generator), coverage_gate false (--coverage-gate)"
	if got != want {
		t.Errorf("SettingsLine = %q, want %q", got, want)
	}
	if got := SettingsLine((&Config{}).TaskDefaults()); got != "" {
		t.Errorf("without origins: %q, want nothing", got)
	}
}
