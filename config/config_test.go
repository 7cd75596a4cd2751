package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"

	"github.com/reconstruct/reconstruct/internal/testenv"
)

const validTask = `task:
  name: running_max
  level: base
  input_type: "list of integers"
  input_constraints: "0 to 12 integers"
  function_name: solve
  kind: list
  domain: {lo: -50, hi: 50}
  oracle:
    python: hidden.py
    function: running_max
  random_inputs:
    python: generator.py
    function: generate
`

// taskDir writes a task directory with the given task.yaml and returns the
// path of the yaml.
func taskDir(t *testing.T, yaml string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"hidden.py", "generator.py"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("# test\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "task.yaml")
	if err := os.WriteFile(p, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadDefaults(t *testing.T) {
	p := taskDir(t, validTask)
	env := map[string]string{"HOME": "/home/u"}
	c, err := Load(Options{File: p, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(p)
	got := []any{c.Workflow.InitialBatch, c.Workflow.BatchStep, c.Workflow.EarlyStop, c.Workflow.MaxIterations,
		c.Workflow.ProposeAttempts, c.Workflow.RandomShare, c.Workflow.Atol, c.Workflow.ProposalFallback, c.Workflow.StallLimit,
		c.Agent.Kind, c.Sandbox.Kind, c.Sandbox.CallTimeout, c.Task.Oracle.Python, c.Task.RandomInputs.Python, c.Workspace, c.Bank.Path}
	want := []any{2, 2, 5, 50, 3, 0.5, 1e-9, "random", 5, "synth", "auto", 2 * time.Second,
		filepath.Join(dir, "hidden.py"), filepath.Join(dir, "generator.py"), filepath.Join(dir, "runs", "running_max"),
		"/home/u/.local/share/reconstruct/bank.db"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
}

func TestPrecedence(t *testing.T) {
	p := taskDir(t, validTask+"workflow:\n  early_stop: 7\n  max_iterations: 9\n  seed: 4\n")
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.Int("early-stop", 0, "")
	fs.Int("seed", 0, "")
	if err := fs.Parse([]string{"--early-stop", "11"}); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"RECONSTRUCT_WORKFLOW_EARLY_STOP":     "8",
		"RECONSTRUCT_WORKFLOW_MAX_ITERATIONS": "10",
		"RECONSTRUCT_SANDBOX_KIND":            "process",
	}
	c, err := Load(Options{File: p, Env: true, Getenv: func(k string) string { return env[k] },
		Flags: map[string]*pflag.Flag{"workflow.early_stop": fs.Lookup("early-stop"), "workflow.seed": fs.Lookup("seed")}})
	if err != nil {
		t.Fatal(err)
	}
	// flag > env > file > default; an unset flag does not override.
	got := []any{c.Workflow.EarlyStop, c.Workflow.MaxIterations, c.Workflow.Seed, c.Sandbox.Kind}
	want := []any{11, 10, int64(4), "process"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestOverlay(t *testing.T) {
	p := taskDir(t, validTask+"workflow: {early_stop: 3}\n")
	base := filepath.Join(t.TempDir(), "base.yaml")
	os.WriteFile(base, []byte("workflow: {coverage_gate: true}\nworkspace: out\n"), 0o644)
	c, err := Load(Options{File: p, Overlays: []string{base}})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Workflow.CoverageGate || c.Workflow.EarlyStop != 3 || c.Workspace != filepath.Join(filepath.Dir(base), "out") {
		t.Errorf("overlay: coverage %v early %d workspace %s", c.Workflow.CoverageGate, c.Workflow.EarlyStop, c.Workspace)
	}
}

func TestTaskFamily(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want string
	}{
		{"absent", validTask, ""},
		{"set", strings.Replace(validTask, "  level: base\n", "  level: base\n  family: window\n", 1), "window"},
		{"quoted free text", strings.Replace(validTask, "  level: base\n", "  level: base\n  family: \"two streams\"\n", 1), "two streams"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(Options{File: taskDir(t, tt.yaml)})
			if err != nil {
				t.Fatal(err)
			}
			if c.Task.Family != tt.want {
				t.Errorf("Family = %q, want %q", c.Task.Family, tt.want)
			}
			// The family groups results; it is no hint for the agent.
			seen, err := json.Marshal(c.Task.Describe())
			if err != nil {
				t.Fatal(err)
			}
			if tt.want != "" && strings.Contains(string(seen), tt.want) {
				t.Errorf("the agent's view of the task shows the family: %s", seen)
			}
		})
	}
}

func TestBadConfigs(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		// want are substrings of the error; the file name is always checked.
		want []string
	}{
		{"unknown top-level key", validTask + "wokflow: {}\n", []string{"wokflow"}},
		{"unknown nested key", validTask + "workflow: {early_stopp: 3}\n", []string{"early_stopp"}},
		{"wrong type", validTask + "workflow: {early_stop: five}\n", []string{"workflow.early_stop"}},
		{"wrong type bool", validTask + "workflow: {coverage_gate: maybe}\n", []string{"workflow.coverage_gate"}},
		{"missing name", strings.Replace(validTask, "  name: running_max\n", "", 1), []string{"task.name", "required"}},
		{"missing kind", strings.Replace(validTask, "  kind: list\n", "", 1), []string{"task.kind"}},
		{"unknown kind", strings.Replace(validTask, "kind: list", "kind: tree", 1), []string{"task.kind", "tree"}},
		{"family not text", strings.Replace(validTask, "  level: base\n", "  level: base\n  family: [window, stack]\n", 1), []string{"task.family"}},
		{"missing oracle", strings.Replace(validTask, "  oracle:\n    python: hidden.py\n    function: running_max\n", "", 1), []string{"task.oracle"}},
		{"two oracles", strings.Replace(validTask, "    function: running_max\n", "    function: running_max\n    http: http://127.0.0.1:9/\n", 1), []string{"task.oracle", "exactly one"}},
		{"oracle file missing", strings.Replace(validTask, "python: hidden.py", "python: nothere.py", 1), []string{"task.oracle.python", "nothere.py"}},
		{"function missing", strings.Replace(validTask, "    function: running_max\n", "", 1), []string{"task.oracle.function"}},
		{"bad function name", strings.Replace(validTask, "function_name: solve", "function_name: 2solve", 1), []string{"task.function_name"}},
		{"domain inverted", strings.Replace(validTask, "{lo: -50, hi: 50}", "{lo: 50, hi: -50}", 1), []string{"task.domain"}},
		{"random share out of range", validTask + "workflow: {random_share: 1.5}\n", []string{"workflow.random_share"}},
		{"random share without generator", strings.Replace(validTask, "  random_inputs:\n    python: generator.py\n    function: generate\n", "", 1) + "workflow: {random_share: 0.5}\n", []string{"workflow.random_share", "random_inputs"}},
		{"early stop zero", validTask + "workflow: {early_stop: 0}\n", []string{"workflow.early_stop"}},
		{"unknown agent", validTask + "agent: {kind: gpt}\n", []string{"agent.kind", "gpt"}},
		{"replay without script", validTask + "agent: {kind: replay}\n", []string{"agent.replay.script"}},
		{"llm without model", validTask + "agent: {kind: llm}\n", []string{"agent.llm.model"}},
		{"synth time limit zero", validTask + "agent: {synth: {time_limit: 0s}}\n", []string{"agent.synth.time_limit"}},
		{"synth run time limit negative", validTask + "agent: {synth: {run_time_limit: -1s}}\n", []string{"agent.synth.run_time_limit", "negative"}},
		{"synth max programs negative", validTask + "agent: {synth: {max_programs: -5}}\n", []string{"agent.synth.max_programs", "must not be negative"}},
		{"synth propose time limit zero", validTask + "agent: {synth: {propose_time_limit: 0s}}\n", []string{"agent.synth.propose_time_limit", "must be positive"}},
		{"unknown sandbox", validTask + "sandbox: {kind: vm}\n", []string{"sandbox.kind", "vm"}},
		{"bad duration", validTask + "sandbox: {call_timeout: soon}\n", []string{"sandbox.call_timeout"}},
		{"stall limit negative", validTask + "workflow: {stall_limit: -1}\n", []string{"workflow.stall_limit", "negative"}},
		{"unknown proposal fallback", validTask + "workflow: {proposal_fallback: retry}\n", []string{"workflow.proposal_fallback", "random or stop", "retry"}},
		{"not yaml", "task: [unclosed\n", []string{"invalid YAML"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := taskDir(t, tt.yaml)
			before, _ := os.ReadDir(filepath.Dir(p))
			_, err := Load(Options{File: p})
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			for _, w := range append([]string{p}, tt.want...) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			after, _ := os.ReadDir(filepath.Dir(p))
			if len(after) != len(before) {
				t.Errorf("loading a bad config created files")
			}
		})
	}
}

func TestMissingFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "nope.yaml")
	_, err := Load(Options{File: p})
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("err = %v", err)
	}
}

func TestEnvName(t *testing.T) {
	if got := EnvName("agent.llm.model"); got != "RECONSTRUCT_AGENT_LLM_MODEL" {
		t.Errorf("EnvName = %s", got)
	}
}

func TestBankURLIsNotAPath(t *testing.T) {
	const url = "postgres://bank@db.example:5432/reconstruct?sslmode=require"
	tests := []struct {
		name string
		yaml string
		env  map[string]string
	}{
		{"in the file", validTask + "bank:\n  path: " + url + "\n", nil},
		{"from RECONSTRUCT_BANK_PATH", validTask, map[string]string{"RECONSTRUCT_BANK_PATH": url}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(Options{File: taskDir(t, tt.yaml), Env: true, Getenv: func(k string) string { return tt.env[k] }})
			if err != nil {
				t.Fatal(err)
			}
			if c.Bank.Path != url {
				t.Errorf("bank.path = %s, want the URL unchanged", c.Bank.Path)
			}
		})
	}
}

// A task's files must resolve inside the task directory, symbolic links
// followed, unless task.allow_outside_paths is set; a command run in the
// oracle's sandbox must be there in any case.
func TestTaskPathsStayInTheTaskDirectory(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside.py")
	if err := os.WriteFile(outside, []byte("# elsewhere\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	realOutside, err := filepath.EvalSymlinks(outside)
	if err != nil {
		t.Fatal(err)
	}
	oracle := func(body string) string {
		return strings.Replace(validTask, "  oracle:\n    python: hidden.py\n    function: running_max\n", body, 1)
	}
	tests := []struct {
		name string
		yaml string
		// link, when set, is made a symbolic link to outside.
		link    string
		wantKey string
		wantMsg string
	}{
		{name: "inside", yaml: validTask},
		{name: "dot-dot escape", yaml: oracle("  oracle:\n    python: ../../../../../../../../etc/passwd\n    function: f\n"),
			wantKey: "task.oracle.python", wantMsg: "/etc/passwd is outside the task directory"},
		{name: "absolute path", yaml: oracle("  oracle:\n    python: " + outside + "\n    function: f\n"),
			wantKey: "task.oracle.python", wantMsg: realOutside},
		{name: "symbolic link out", yaml: oracle("  oracle:\n    python: link.py\n    function: f\n"), link: "link.py",
			wantKey: "task.oracle.python", wantMsg: "link.py resolves to " + realOutside},
		{name: "generator outside", yaml: strings.Replace(validTask, "python: generator.py", "python: "+outside, 1),
			wantKey: "task.random_inputs.python", wantMsg: "outside the task directory"},
		{name: "held-out tests outside", yaml: validTask + "  heldout: " + outside + "\n",
			wantKey: "task.heldout", wantMsg: "set task.allow_outside_paths: true"},
		{name: "allowed outside", yaml: oracle("  allow_outside_paths: true\n  oracle:\n    python: " + outside + "\n    function: f\n")},
		{name: "sandboxed command outside", yaml: oracle("  allow_outside_paths: true\n  oracle:\n    command: [" + outside + "]\n"),
			wantKey: "task.oracle.command", wantMsg: "the oracle's sandbox sees only that directory"},
		{name: "sandboxed command inside", yaml: oracle("  oracle:\n    command: [./hidden.py, --flag]\n")},
		{name: "host command outside, allowed", yaml: oracle("  allow_outside_paths: true\n  oracle:\n    command: [" + outside + "]\n    on_host: true\n")},
		{name: "host command outside, not allowed", yaml: oracle("  oracle:\n    command: [" + outside + "]\n    on_host: true\n"),
			wantKey: "task.oracle.command", wantMsg: "set task.allow_outside_paths"},
		{name: "on_host without a command", yaml: oracle("  oracle:\n    python: hidden.py\n    function: f\n    on_host: true\n"),
			wantKey: "task.oracle.on_host", wantMsg: "applies only to task.oracle.command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := taskDir(t, tt.yaml)
			if tt.link != "" {
				if err := os.Symlink(outside, filepath.Join(filepath.Dir(p), tt.link)); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Load(Options{File: p})
			if tt.wantKey == "" {
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				return
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("Load: %v, want a configuration error", err)
			}
			if ce.Key != tt.wantKey || ce.File != p || !strings.Contains(ce.Msg, tt.wantMsg) {
				t.Errorf("error %q (file %s, key %s), want key %s, file %s and %q", err, ce.File, ce.Key, tt.wantKey, p, tt.wantMsg)
			}
		})
	}
}

func TestResolveBank(t *testing.T) {
	p := taskDir(t, validTask+"bank: {path: data/bank.db}\n")
	withPath, err := Load(Options{File: p})
	if err != nil {
		t.Fatal(err)
	}
	fileBank := filepath.Join(filepath.Dir(p), "data", "bank.db")
	plain, err := Load(Options{File: taskDir(t, validTask), Getenv: func(k string) string { return map[string]string{"HOME": "/home/u"}[k] }})
	if err != nil {
		t.Fatal(err)
	}
	cwd, _ := os.Getwd()
	tests := []struct {
		name        string
		flag        string
		env         map[string]string
		c           *Config
		want        string
		wantSource  string
		wantWarning bool
		wantErr     string
	}{
		{name: "flag first", flag: "f.db", env: map[string]string{BankPathEnv: "/e.db", "HOME": "/home/u"}, c: withPath, want: filepath.Join(cwd, "f.db"), wantSource: "--bank"},
		{name: "then RECONSTRUCT_BANK_PATH", env: map[string]string{BankPathEnv: "/e.db", LegacyBankEnv: "/l.db"}, c: withPath, want: "/e.db", wantSource: BankPathEnv},
		{name: "then RECONSTRUCT_BANK, with a warning", env: map[string]string{LegacyBankEnv: "/l.db"}, c: withPath, want: "/l.db", wantSource: LegacyBankEnv, wantWarning: true},
		{name: "then the configuration's bank.path", env: map[string]string{"HOME": "/home/u"}, c: withPath, want: fileBank, wantSource: p + ": bank.path"},
		{name: "a configuration without bank.path: the default", env: map[string]string{"HOME": "/home/u"}, c: plain, want: "/home/u/.local/share/reconstruct/bank.db", wantSource: "default"},
		{name: "default under XDG_DATA_HOME", env: map[string]string{"XDG_DATA_HOME": "/xdg", "HOME": "/home/u"}, want: "/xdg/reconstruct/bank.db", wantSource: "default"},
		{name: "a relative XDG_DATA_HOME is ignored", env: map[string]string{"XDG_DATA_HOME": "rel", "HOME": "/home/u"}, want: "/home/u/.local/share/reconstruct/bank.db", wantSource: "default"},
		{name: "no home, no default", env: map[string]string{}, wantErr: "neither XDG_DATA_HOME nor HOME"},
		{name: "a URL is kept as it is", flag: "postgres://u@db:5432/bank", want: "postgres://u@db:5432/bank", wantSource: "--bank"},
		{name: "a URL from the environment too", env: map[string]string{BankPathEnv: "postgresql://u@db/bank"}, want: "postgresql://u@db/bank", wantSource: BankPathEnv},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ResolveBank(tt.flag, func(k string) string { return tt.env[k] }, tt.c)
			if testenv.WantErr(t, err, tt.wantErr) {
				return
			}
			if got.Location != tt.want || got.Source != tt.wantSource || (got.Warning != "") != tt.wantWarning {
				t.Errorf("ResolveBank = %+v, want %s from %s (warning %v)", got, tt.want, tt.wantSource, tt.wantWarning)
			}
		})
	}
}

// A task directory reached through a symbolic link holds its own files.
func TestTaskDirectoryThroughASymlink(t *testing.T) {
	p := taskDir(t, validTask)
	link := filepath.Join(t.TempDir(), "task")
	if err := os.Symlink(filepath.Dir(p), link); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(Options{File: filepath.Join(link, "task.yaml")}); err != nil {
		t.Fatalf("Load: %v", err)
	}
}

// A configuration's problems come all at once, one line each, naming the
// file and key, or the environment variable, with advice.
func TestProblemsAllAtOnce(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		env  map[string]string
		want []string // one line each, in order
	}{
		{name: "unknown keys and wrong types together",
			yaml: validTask + "workflow: {early_stop: abc, earlystop: 1}\nsandbox: {memory_mb: [1], kidn: docker}\nagnt: {}\n",
			want: []string{
				"{file}: agnt: unknown key; did you mean agent?",
				"{file}: sandbox.kidn: unknown key; did you mean sandbox.kind?",
				"{file}: workflow.earlystop: unknown key; did you mean workflow.early_stop?",
				"{file}: sandbox.memory_mb: want a whole number (such as 512), got [1]",
				`{file}: workflow.early_stop: want a whole number (such as 5), got "abc"`,
			}},
		{name: "a key in the wrong section",
			yaml: validTask + "early_stop: 3\n",
			want: []string{"{file}: early_stop: unknown key; did you mean workflow.early_stop?"}},
		{name: "bad values from the file and the environment",
			yaml: validTask + "workflow: {early_stop: 0, proposal_fallback: rand}\nsandbox: {kind: dokcer}\n",
			env:  map[string]string{"RECONSTRUCT_WORKFLOW_MAX_ITERATIONS": "0"},
			want: []string{
				"{file}: workflow.early_stop: must be at least 1, got 0",
				"RECONSTRUCT_WORKFLOW_MAX_ITERATIONS (workflow.max_iterations): must be at least 1, got 0",
				`{file}: workflow.proposal_fallback: unknown value "rand" (want random or stop); did you mean random?`,
				`{file}: sandbox.kind: unknown value "dokcer" (want auto, process or docker); did you mean docker?`,
			}},
		{name: "a value the environment cannot give",
			yaml: validTask,
			env:  map[string]string{"RECONSTRUCT_SANDBOX_CALL_TIMEOUT": "3x"},
			want: []string{`RECONSTRUCT_SANDBOX_CALL_TIMEOUT (sandbox.call_timeout): want a duration (such as 2s), got "3x"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := taskDir(t, tt.yaml)
			_, err := Load(Options{File: p, Env: true, Getenv: func(k string) string { return tt.env[k] }})
			if err == nil {
				t.Fatal("Load succeeded")
			}
			want := strings.ReplaceAll(strings.Join(tt.want, "\n"), "{file}", p)
			if diff := cmp.Diff(want, err.Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			var probs Problems
			if !errors.As(err, &probs) || len(probs) != len(tt.want) {
				t.Errorf("errors.As(Problems) = %v, want %d problems", probs, len(tt.want))
			}
		})
	}
}
