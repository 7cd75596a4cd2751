package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/reconstruct/reconstruct/internal/testenv"
)

// TestLoadAppliesDerivedValues: what a caller derives for a run (a sweep's
// bank, a repeat's seed, a factory sweep's held-out file) is set as the
// configuration is loaded, before it is checked, so that nobody writes
// into a checked configuration.
func TestLoadAppliesDerivedValues(t *testing.T) {
	p := taskDir(t, validTask+"workflow: {seed: 7}\nbank: {path: data/bank.db}\n")
	fileBank := filepath.Join(filepath.Dir(p), "data", "bank.db")
	outside := filepath.Join(t.TempDir(), "heldout", "t.jsonl")
	cwd, _ := os.Getwd()
	bankFlag := pflag.NewFlagSet("t", pflag.ContinueOnError)
	bankFlag.String("bank", "", "")
	if err := bankFlag.Parse([]string{"--bank", "flag.db"}); err != nil {
		t.Fatal(err)
	}
	home := map[string]string{"HOME": "/home/u"}
	tests := []struct {
		name        string
		opts        Options
		env         map[string]string
		wantSeed    int64
		wantBank    string
		wantSource  string
		wantWarning bool
		wantHeldout string
		wantErr     string
	}{
		{name: "nothing derived", wantSeed: 7, wantBank: fileBank, wantSource: p + ": bank.path"},
		{name: "repeat 1 keeps the seed", opts: Options{Repeat: 1}, wantSeed: 7, wantBank: fileBank, wantSource: p + ": bank.path"},
		{name: "repeat 3 adds two to the seed", opts: Options{Repeat: 3}, wantSeed: 9, wantBank: fileBank, wantSource: p + ": bank.path"},
		{name: "a sweep's bank comes before bank.path and the environment", opts: Options{Bank: "sweep.db", Env: true}, env: map[string]string{BankPathEnv: "/e.db"},
			wantSeed: 7, wantBank: filepath.Join(cwd, "sweep.db"), wantSource: "--bank"},
		{name: "--bank among the flags", opts: Options{Flags: map[string]*pflag.Flag{"bank.path": bankFlag.Lookup("bank")}, Env: true}, env: map[string]string{LegacyBankEnv: "/l.db"},
			wantSeed: 7, wantBank: filepath.Join(cwd, "flag.db"), wantSource: "--bank"},
		{name: "the deprecated variable, with a warning", opts: Options{Env: true}, env: map[string]string{LegacyBankEnv: "/l.db"},
			wantSeed: 7, wantBank: "/l.db", wantSource: LegacyBankEnv, wantWarning: true},
		{name: "variables are not read without Env", opts: Options{}, env: map[string]string{LegacyBankEnv: "/l.db", BankPathEnv: "/e.db"},
			wantSeed: 7, wantBank: fileBank, wantSource: p + ": bank.path"},
		{name: "a held-out file the caller chose, outside the task directory", opts: Options{Heldout: outside},
			wantSeed: 7, wantBank: fileBank, wantSource: p + ": bank.path", wantHeldout: outside},
		{name: "a held-out file set by an override is still held to the task directory", opts: Options{Override: map[string]any{"task.heldout": outside}},
			wantErr: "task.heldout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{}
			for k, v := range home {
				env[k] = v
			}
			for k, v := range tt.env {
				env[k] = v
			}
			opts := tt.opts
			opts.File = p
			opts.Getenv = func(k string) string { return env[k] }
			c, err := Load(opts)
			if testenv.WantErr(t, err, tt.wantErr) {
				return
			}
			loc, err := c.BankLocation()
			if err != nil {
				t.Fatal(err)
			}
			if c.Workflow.Seed != tt.wantSeed || c.Bank.Path != tt.wantBank || loc.Location != tt.wantBank || loc.Source != tt.wantSource || (loc.Warning != "") != tt.wantWarning {
				t.Errorf("seed %d, bank.path %s, BankLocation %+v; want seed %d, bank %s from %s (warning %v)",
					c.Workflow.Seed, c.Bank.Path, loc, tt.wantSeed, tt.wantBank, tt.wantSource, tt.wantWarning)
			}
			if c.Task.Heldout != tt.wantHeldout {
				t.Errorf("task.heldout = %q, want %q", c.Task.Heldout, tt.wantHeldout)
			}
		})
	}
}

func TestBankLocationWithoutHome(t *testing.T) {
	c, err := Load(Options{File: taskDir(t, validTask), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatalf("a configuration without a home directory loads (its bank is needed only by some commands): %v", err)
	}
	if _, err := c.BankLocation(); err == nil || !strings.Contains(err.Error(), "neither XDG_DATA_HOME nor HOME") {
		t.Errorf("BankLocation = %v, want no default bank", err)
	}
}

// TestMovedLeavesTheConfigurationAlone: a resumed run's workspace and
// sandbox kind make a copy; the checked configuration is not changed.
func TestMovedLeavesTheConfigurationAlone(t *testing.T) {
	c, err := Load(Options{File: taskDir(t, validTask)})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := json.Marshal(c)
	m, err := c.Moved("/elsewhere", "process")
	if err != nil {
		t.Fatal(err)
	}
	if m.Workspace != "/elsewhere" || m.Sandbox.Kind != "process" {
		t.Errorf("moved: workspace %s, sandbox %s", m.Workspace, m.Sandbox.Kind)
	}
	if after, _ := json.Marshal(c); string(after) != string(before) {
		t.Errorf("Moved changed the configuration:\nbefore %s\nafter  %s", before, after)
	}
	if same, err := c.Moved("", ""); err != nil || same.Workspace != c.Workspace || same.Sandbox.Kind != c.Sandbox.Kind {
		t.Errorf("Moved with nothing given: %+v, %v", same, err)
	}
	if _, err := c.Moved("", "dockr"); err == nil || !strings.Contains(err.Error(), "sandbox.kind") {
		t.Errorf("Moved to an unknown sandbox kind: %v, want sandbox.kind named", err)
	}
}
