package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/reconstruct/reconstruct/agent/llm/llmtest"
	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/sandbox/docker"
	"github.com/reconstruct/reconstruct/workflow"
)

const runningMax = `def solve(input_data):
    result = []
    best = None
    for x in input_data:
        best = x if best is None else max(best, x)
        result.append(best)
    return result
`

// freshInputs proposes k lists for the n-th proposal request, distinct
// across requests and within the hidden program's domain ([-50, 50]).
func freshInputs(k, n int) []any {
	out := make([]any, k)
	for i := range out {
		c := n*1000 + i
		out[i] = []int{c%101 - 50, (c/101)%101 - 50, (c/10201)%101 - 50}
	}
	return out
}

// writeLLMConfig writes llm.yaml in dir, the quickstart's running_max task
// run by the llm agent with the settings llm (a YAML flow mapping) and the
// rest of the configuration, and returns its path.
func writeLLMConfig(t *testing.T, dir, llm, rest string) string {
	t.Helper()
	cfg := filepath.Join(dir, "llm.yaml")
	yaml := fmt.Sprintf(`task:
  name: running_max
  input_type: "list of integers"
  input_constraints: "0 to 12 integers"
  kind: list
  oracle: {python: %s, function: running_max}
  allow_outside_paths: true
agent:
  kind: llm
  llm: %s
`, repoPath(t, "configs", "examples", "quickstart", "hidden.py"), llm)
	if err := os.WriteFile(cfg, []byte(yaml+rest), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestLLMAgentEndToEndInDocker(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	testenv.NeedDocker(t)
	if ok, reason := docker.Available(t.Context(), docker.DefaultImage()); !ok {
		testenv.Skip(t, "the sandbox image is missing: "+reason)
	}
	for _, mode := range []string{"tools", "text"} {
		t.Run(mode, func(t *testing.T) {
			solver := &llmtest.Solver{Program: runningMax, Inputs: freshInputs, PromptTokens: 120, CompletionTokens: 30}
			srv := llmtest.NewServerFunc(t, solver.Handle)
			dir := t.TempDir()
			cfg := writeLLMConfig(t, dir, fmt.Sprintf(`{base_url: %q, model: %s, api_key_env: "", tool_mode: %s, retries: 1}`, srv.URL, llmtest.DefaultModel, mode),
				"sandbox: {kind: docker}\nworkspace: ws\n")
			r := cli(t, dir, nil, "run", "--config", cfg, "--json")
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			var res workflow.Result
			if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
				t.Fatal(err)
			}
			if res.StopReason != workflow.StopEarly || res.Tokens.Total() == 0 {
				t.Errorf("stop %s, tokens %+v", res.StopReason, res.Tokens)
			}
			if !strings.Contains(res.FinalProgram, "best = x if best is None") {
				t.Errorf("final program %q", res.FinalProgram)
			}
			arch, err := candidates.OpenExisting(filepath.Join(dir, "ws"))
			if err != nil {
				t.Fatal(err)
			}
			recs, _ := arch.List()
			tr, err := arch.Transcript(recs[0])
			if err != nil || len(tr) == 0 {
				t.Errorf("no transcript archived beside the first candidate: %v", err)
			}
			// The container's user had the workspace during the run; it is
			// given back, with what the agent made in it.
			filepath.Walk(filepath.Join(dir, "ws"), func(p string, info os.FileInfo, err error) error {
				if err == nil && int(info.Sys().(*syscall.Stat_t).Uid) != os.Geteuid() {
					t.Errorf("%s is owned by uid %d after the run", p, info.Sys().(*syscall.Stat_t).Uid)
				}
				return nil
			})
			noContainersLeft(t, res.RunID)
		})
	}
}

func TestLLMEndpointDownExits3(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeLLMConfig(t, dir, `{base_url: "http://127.0.0.1:1/v1", model: m, api_key_env: "", retries: 0, request_timeout: 2s}`,
		"sandbox: {kind: process}\n")
	r := cli(t, dir, nil, "run", "--config", cfg)
	if r.code != 3 || !strings.Contains(r.stderr, "agent.llm.base_url") {
		t.Errorf("unreachable endpoint: exit %d, stderr %s", r.code, r.stderr)
	}
	// A run that failed to start leaves no workspace behind.
	if _, err := os.Stat(filepath.Join(dir, "runs")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a run that failed to start left %s: %v", filepath.Join(dir, "runs"), err)
	}
	// A missing key is the configuration's fault: exit 2, nothing created.
	os.WriteFile(cfg, []byte(strings.Replace(mustRead(t, cfg), `api_key_env: ""`, `api_key_env: "RECONSTRUCT_TEST_NO_SUCH_KEY"`, 1)), 0o644)
	r = cli(t, dir, nil, "run", "--config", cfg)
	if r.code != 2 || !strings.Contains(r.stderr, "RECONSTRUCT_TEST_NO_SUCH_KEY") {
		t.Errorf("missing key: exit %d, stderr %s", r.code, r.stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 { // llm.yaml and the bank's data directory
		t.Errorf("a run refused for its configuration left %v", entries)
	}
}
