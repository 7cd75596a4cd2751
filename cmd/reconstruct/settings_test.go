package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
)

// Settings from a file, the environment and flags: a typo in a variable is
// warned about as one in a file is refused, an empty variable sets its key,
// every problem comes at once, and each names where its value came from.
func TestSettingsProblems(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"bad.yaml": `task:
  name: t
  input_type: "an integer"
  kind: int
  oracle: {python: hidden.py, function: f}
workflow:
  earli_stop: 3
  max_iterations: abc
agent:
  kind: synthh
`, "hidden.py": "def f(x):\n    return x\n"})
	qs := quickstartPath(t)
	tests := []struct {
		name     string
		env      []string
		args     []string
		wantCode int
		want     []string // in stderr
		dont     []string // not in stderr
	}{
		{
			name:     "a variable that is no setting is warned about with the nearest",
			env:      []string{"RECONSTRUCT_WORKFLOW_EARLYSTOP=3", "RECONSTRUCT_EARLY_STOP=3"},
			args:     []string{"run", "--config", qs, "--workspace", "/"},
			wantCode: exitUsage,
			want: []string{
				"warning: RECONSTRUCT_WORKFLOW_EARLYSTOP is not a variable reconstruct reads, and is ignored; did you mean RECONSTRUCT_WORKFLOW_EARLY_STOP?",
				"warning: RECONSTRUCT_EARLY_STOP is not a variable reconstruct reads, and is ignored; did you mean RECONSTRUCT_WORKFLOW_EARLY_STOP?",
			},
		},
		{
			name:     "the variables reconstruct reads are not warned about",
			env:      []string{"RECONSTRUCT_LOG_LEVEL=warn", "RECONSTRUCT_WORKFLOW_EARLY_STOP=3", "RECONSTRUCT_BANK_RETRY=1s"},
			args:     []string{"run", "--config", qs, "--workspace", "/"},
			wantCode: exitUsage,
			dont:     []string{"warning"},
		},
		{
			name:     "an empty variable sets its key",
			env:      []string{"RECONSTRUCT_AGENT_KIND="},
			args:     []string{"run", "--config", qs},
			wantCode: exitUsage,
			want:     []string{"RECONSTRUCT_AGENT_KIND (agent.kind): required field is missing (one of synth, llm or replay)"},
		},
		{
			name:     "every problem of a file at once",
			args:     []string{"run", "--config", filepath.Join(dir, "bad.yaml")},
			wantCode: exitUsage,
			want: []string{
				"bad.yaml: workflow.earli_stop: unknown key; did you mean workflow.early_stop?",
				`bad.yaml: workflow.max_iterations: want a whole number (such as 50), got "abc"`,
				`bad.yaml: agent.kind: unknown value "synthh" (want synth, llm or replay); did you mean synth?`,
			},
		},
		{
			name:     "problems of the environment and of a flag with those of the file",
			env:      []string{"RECONSTRUCT_SANDBOX_KIND=dokcer"},
			args:     []string{"run", "--config", filepath.Join(dir, "bad.yaml"), "--early-stop", "0"},
			wantCode: exitUsage,
			want: []string{
				"bad.yaml: workflow.earli_stop: unknown key",
				`RECONSTRUCT_SANDBOX_KIND (sandbox.kind): unknown value "dokcer"`,
				"--early-stop (workflow.early_stop): must be at least 1, got 0",
				`bad.yaml: agent.kind: unknown value "synthh"`,
			},
		},
		{
			name:     "a workspace given by flag is blamed on the flag",
			args:     []string{"run", "--config", qs, "--workspace", "/"},
			wantCode: exitUsage,
			want:     []string{"--workspace (workspace): / is the root directory"},
			dont:     []string{"quickstart.yaml"},
		},
		{
			name:     "a workspace given by a variable is blamed on the variable",
			env:      []string{"RECONSTRUCT_WORKSPACE=/"},
			args:     []string{"run", "--config", qs},
			wantCode: exitUsage,
			want:     []string{"RECONSTRUCT_WORKSPACE (workspace): / is the root directory"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := cli(t, t.TempDir(), tt.env, tt.args...)
			if r.code != tt.wantCode {
				t.Errorf("exit %d, want %d\n%s", r.code, tt.wantCode, r.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			for _, d := range tt.dont {
				if strings.Contains(r.stderr, d) {
					t.Errorf("stderr has %q:\n%s", d, r.stderr)
				}
			}
		})
	}
}

// A bank command given a file that cannot be read answers as for any
// malformed request: one JSON line on stdout naming the flag and the
// file, exit 2 (docs/bank.md).
func TestBankMissingFileAnswers(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"bank", "act", "nope.json"}, `{"ok":false,"error":{"code":"malformed_request","message":"the action file: open nope.json: no such file or directory"}}`},
		{[]string{"bank", "act", "--commit", "nope.json"}, `{"ok":false,"action":"commit","error":{"code":"malformed_request","message":"--commit: open nope.json: no such file or directory"}}`},
		{[]string{"bank", "create", "--workspace", "w", "--spec", "nope.json"}, `{"ok":false,"action":"create","error":{"code":"malformed_request","message":"--spec: open nope.json: no such file or directory"}}`},
		{[]string{"bank", "register", "--name", "f", "--function", "nope.json"}, `{"ok":false,"action":"register","error":{"code":"malformed_request","message":"--function: open nope.json: no such file or directory"}}`},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			r := cli(t, dir, nil, tt.args...)
			if r.code != exitUsage || strings.TrimSpace(r.stdout) != tt.want {
				t.Errorf("exit %d, stdout %q, want 2 and %s\n%s", r.code, r.stdout, tt.want, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, ".data")); err == nil {
				t.Errorf("a bank was created")
			}
		})
	}
}
