package main

import (
	"bufio"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
)

// With --log-format json, every line reconstruct writes on stderr is a
// JSON object: the log entries, the iteration lines and the final error.
func TestLogFormatJSON(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	dir := t.TempDir()
	for _, tt := range []struct {
		name     string
		args     []string
		wantCode int
		want     []string // messages among the entries
	}{
		{"a run", []string{"run", "--config", quickstartPath(t), "--workspace", filepath.Join(dir, "ws"), "--sandbox", "process"},
			exitOK, []string{"iter   2  known    2  passed    2/2"}},
		{"a run that fails", []string{"run", "--config", quickstartPath(t), "--workspace", "/"},
			exitUsage, []string{"--workspace (workspace): / is the root directory"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := cli(t, dir, nil, append(tt.args, "--log-format", "json")...)
			if r.code != tt.wantCode {
				t.Fatalf("exit %d, want %d\n%s", r.code, tt.wantCode, r.stderr)
			}
			var msgs []string
			sc := bufio.NewScanner(strings.NewReader(r.stderr))
			for sc.Scan() {
				var entry struct {
					Level string `json:"level"`
					Msg   string `json:"msg"`
					Exit  *int   `json:"exit"`
				}
				if err := json.Unmarshal(sc.Bytes(), &entry); err != nil || entry.Level == "" {
					t.Errorf("a line of stderr is not a JSON entry: %q", sc.Text())
					continue
				}
				if entry.Exit != nil && (*entry.Exit != tt.wantCode || entry.Level != "error") {
					t.Errorf("final error entry %s", sc.Text())
				}
				msgs = append(msgs, entry.Msg)
			}
			for _, w := range tt.want {
				found := false
				for _, m := range msgs {
					found = found || strings.Contains(m, w)
				}
				if !found {
					t.Errorf("no entry says %q:\n%s", w, r.stderr)
				}
			}
		})
	}
}

// version --json describes the build for machines.
func TestVersionJSON(t *testing.T) {
	t.Parallel()
	r := cli(t, t.TempDir(), nil, "version", "--json")
	var m map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &m); r.code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s", r.code, err, r.stdout)
	}
	if v, _ := m["version"].(string); v == "" {
		t.Errorf("no version: %s", r.stdout)
	}
	text := strings.TrimSpace(strings.TrimPrefix(cli(t, t.TempDir(), nil, "version").stdout, "reconstruct "))
	if m["text"] != text {
		t.Errorf("text %q, version prints %q", m["text"], text)
	}
}

// Completion offers the values of the flags that take one of a few, and
// the run ids of the bank.
func TestCompletionValues(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	dir := t.TempDir()
	bank := quickstartInBank(t, dir, "done-1")
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", "--sandbox", ""}, []string{"auto", "process", "docker"}},
		{[]string{"run", "--agent", ""}, []string{"synth", "llm", "replay"}},
		{[]string{"bench", "run", "--engine", ""}, []string{"local", "temporal"}},
		{[]string{"run", "--log-format", ""}, []string{"text", "json"}},
		{[]string{"run", "--bank", bank, "--resume", ""}, []string{"done-1\trunning_max, finished"}},
		{[]string{"runs", "show", "--bank", bank, ""}, []string{"done-1\trunning_max, finished"}},
		{[]string{"runs", "list", "--status", ""}, []string{"finished", "stopped", "interrupted"}},
	} {
		r := cli(t, dir, nil, append([]string{"__complete"}, tt.args...)...)
		got := strings.Split(strings.TrimSpace(r.stdout), "\n")
		if len(got) > 0 {
			got = got[:len(got)-1] // the directive
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("completion of %v: %q, want %q", tt.args, got, tt.want)
		}
	}
}

// runs list keeps the runs of the tasks and the status asked for.
func TestRunsListFilter(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	dir := t.TempDir()
	bank := quickstartInBank(t, dir, "qs-1")
	for _, tt := range []struct {
		args     []string
		wantCode int
		want     string
	}{
		{[]string{"--task", "^running"}, exitOK, "qs-1"},
		{[]string{"--status", "finished"}, exitOK, "qs-1"},
		{[]string{"--status", "stopped"}, exitOK, "none of the 1 run in the bank"},
		{[]string{"--task", "other"}, exitOK, "none of the 1 run in the bank"},
		{[]string{"--status", "done"}, exitUsage, ""},
		{[]string{"--task", "("}, exitUsage, ""},
	} {
		r := cli(t, dir, nil, append([]string{"runs", "list", "--bank", bank}, tt.args...)...)
		if r.code != tt.wantCode || !strings.Contains(r.stdout, tt.want) {
			t.Errorf("runs list %v: exit %d, %q%s", tt.args, r.code, r.stdout, r.stderr)
		}
	}
}

// quickstartInBank runs the quickstart as run id in dir, recorded in
// dir/bank.db, and returns the bank's path.
func quickstartInBank(t *testing.T, dir, id string) string {
	t.Helper()
	bank := filepath.Join(dir, "bank.db")
	if r := cli(t, dir, []string{"RECONSTRUCT_SANDBOX_KIND=process"}, "run", "--config", quickstartPath(t), "--workspace", filepath.Join(dir, "ws"),
		"--bank", bank, "--run-id", id); r.code != 0 {
		t.Fatalf("run: exit %d\n%s", r.code, r.stderr)
	}
	return bank
}
