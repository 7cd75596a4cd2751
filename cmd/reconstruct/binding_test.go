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
