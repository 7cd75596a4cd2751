package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
)

// bankSession drives the protocol example of docs/bank.md through the
// Python client, and a stale receipt and a malformed action after it.
const bankSession = `import json, sys
from reconstruct_bank import Bank, BankError

exe, bank_path, testdata = sys.argv[1], sys.argv[2], sys.argv[3]
load = lambda name: json.load(open(testdata + "/" + name))
out = {}
with Bank(bank_path, executable=exe) as bank:
    bank.register("keep_large", function=load("keep_large.json"))
    out["created"] = bank.create("objects", load("objects.json"))["revision"]
    seen = bank.observe("objects")
    req = load("propose.json")
    del req["action"], req["workspace"]
    proposal = bank.propose("objects", **req)
    out["accepted"] = proposal["accepted"]
    out["committed"] = bank.commit(proposal)["revision"]["revision"]
    for name, call in [("stale", lambda: bank.commit(proposal["receipt"])),
                       ("malformed", lambda: bank.act("observe", workspace="objects", nonsense=1)),
                       ("missing", lambda: bank.observe("nowhere"))]:
        try:
            call()
            out[name] = "accepted"
        except BankError as e:
            out[name] = [e.code, e.exit_status]
print(json.dumps(out))
`

func TestPythonBankClient(t *testing.T) {
	testenv.NeedPython(t)
	dir := t.TempDir()
	if r := cli(t, dir, nil, "binding", "modules", "py"); r.code != 0 || !strings.Contains(r.stdout, "reconstruct_bank.py") {
		t.Fatalf("binding modules: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "py", "session.py"), []byte(bankSession), 0o644); err != nil {
		t.Fatal(err)
	}
	testdata, _ := filepath.Abs(filepath.Join("..", "..", "bank", "testdata"))
	cmd := exec.Command("python3", filepath.Join(dir, "py", "session.py"), os.Args[0], filepath.Join(dir, "bank.db"), testdata)
	cmd.Env = append(os.Environ(), asCLI+"=1", "RECONSTRUCT_SANDBOX_KIND=process")
	out, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		t.Fatalf("session: %v\n%s", err, exit.Stderr)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("session printed %q: %v", out, err)
	}
	want := map[string]any{"created": "r000001", "accepted": true, "committed": "r000002",
		"stale": []any{"stale_revision", 1.0}, "malformed": []any{"malformed_request", 2.0}, "missing": []any{"not_found", 1.0}}
	for k, v := range want {
		if g, _ := json.Marshal(got[k]); string(g) != mustJSON(v) {
			t.Errorf("%s = %s, want %s", k, g, mustJSON(v))
		}
	}
	t.Logf("session: %s", out)
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// run --task: a binding that cannot give a task exits 2 naming the factory
// and creates nothing.
func TestRunTaskMistakes(t *testing.T) {
	testenv.NeedPython(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tasks.py"), []byte("def make(name):\n    return {\"kind\": \"list\", \"oracle\": abs}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--task", "nope:make"}, "task.factory nope:make: module nope not found (searched: "},
		{[]string{"--task", "tasks:make", "--task-args", `{"name": "a"}`}, "the returned dict has no field input_type"},
		{[]string{"--task", "tasks:make", "--task-args", `[1]`}, "--task-args: want a JSON object"},
		{[]string{"--task", "tasks.make"}, "is not module:callable"},
		{[]string{"--task-args", `{}`, "--config", "x.yaml"}, "--task-args goes with --task"},
	} {
		r := cli(t, dir, nil, append([]string{"run", "--sandbox", "process"}, tc.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("run %v: exit %d, stderr %q; want 2 and %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the refused runs left %v", entries)
	}
}

// argsModule is a task with a generator, bound in the original workflow's
// form.
const argsModule = `def make_task(name):
    return {"name": name, "input_type": "an integer", "kind": "int", "oracle": lambda x: 2 * x,
            "random_inputs": lambda k, exclude: [len(exclude) * 10 + i for i in range(k)]}
`

// run --args takes the original workflow's arguments: mistakes exit 2
// naming the key (with the nearest known one), and the original's defaults
// hold — random_share 0 and no coverage gate, although the task has a
// generator — unless the arguments set them.
func TestRunOriginalArgs(t *testing.T) {
	testenv.NeedPython(t)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"bench.py":    argsModule,
		"solve.py":    "def solve(x):\n    return 2 * x\n",
		"replay.yaml": "candidates:\n  - file: solve.py\n",
	})
	for _, tc := range []struct {
		args string
		want string
	}{
		{`{"task": "bench:make_task", "task_args": {"name": "a"}, "early_stp": 3}`, "--args (early_stp): unknown key; did you mean early_stop?"},
		{`{"task": "bench:make_task", "token_budget": 3}`, "--args (token_budget): unknown key; did you mean budget?"},
		{`{"task": "bench:make_task", "budget": "lots", "random_share": true}`, "--args (budget): want a whole number, got \"lots\"\n--args (random_share): want a number, got true"},
		{`{"task": "bench:make_task", "early_stop": 2.5}`, "--args (early_stop): want a whole number, got 2.5"},
		{`["bench:make_task"]`, "--args: want a JSON object of the original workflow's arguments"},
		{`{"task_args": {"name": "a"}}`, "--args: task: required without --config"},
		{`{"task": "bench:make_task", "task_args": {"name": "a"}, "early_stop": 0}`, "--args (workflow.early_stop): must be at least 1, got 0"},
	} {
		r := cli(t, dir, nil, "run", "--sandbox", "process", "--args", tc.args)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("run --args %s: exit %d, stderr %q; want 2 and %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
	if r := cli(t, dir, nil, "run", "--args", `{"task": "bench:make_task"}`, "--task", "bench:make_task"); r.code != 2 || !strings.Contains(r.stderr, "give neither --task nor --resume") {
		t.Errorf("--args with --task: exit %d, %q", r.code, r.stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("the refused runs left %v", entries)
	}

	env := []string{"RECONSTRUCT_AGENT_KIND=replay", "RECONSTRUCT_AGENT_REPLAY_SCRIPT=" + filepath.Join(dir, "replay.yaml"), "RECONSTRUCT_SANDBOX_KIND=process"}
	for _, tc := range []struct {
		args  string
		share float64
		gate  bool
	}{
		{`{"task": "bench:make_task", "task_args": {"name": "a"}, "max_iterations": 2, "early_stop": 2}`, 0, false},
		{`{"task": "bench:make_task", "task_args": {"name": "b"}, "max_iterations": 2, "early_stop": 2, "random_share": 0.5, "coverage_gate": true, "budget": 100000}`, 0.5, true},
	} {
		r := cli(t, dir, env, "run", "--json", "--args", tc.args)
		if r.code != 0 && r.code != 1 {
			t.Fatalf("run --args %s: exit %d\n%s", tc.args, r.code, r.stderr)
		}
		var res struct {
			StopReason string `json:"stop_reason"`
			Random     int    `json:"random_inputs"`
			Settings   struct {
				RandomShare  float64 `json:"random_share"`
				CoverageGate bool    `json:"coverage_gate"`
				TokenBudget  int     `json:"token_budget"`
				EarlyStop    int     `json:"early_stop"`
			} `json:"settings"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatalf("result: %v\n%s", err, r.stdout)
		}
		s := res.Settings
		if s.RandomShare != tc.share || s.CoverageGate != tc.gate || s.EarlyStop != 2 || (tc.share > 0 && res.Random == 0) {
			t.Errorf("run --args %s: settings %+v with %d random inputs; want random_share %g, coverage_gate %v", tc.args, s, res.Random, tc.share, tc.gate)
		}
		if !strings.Contains(r.stderr, "--args") {
			t.Errorf("the run does not say its settings came from --args:\n%s", r.stderr)
		}
	}
}
