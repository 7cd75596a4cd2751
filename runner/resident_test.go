package runner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap/zaptest"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

// residentModule records, at import, the process and a token of the import
// (every hook returns them) and keeps a secret in its memory, that the
// candidate of the test hunts for.
const residentModule = `import os, random

IMPORT = [os.getpid(), random.SystemRandom().getrandbits(62)]
SECRET = ("resident" + "-secret-%d" % IMPORT[1]).encode()


def make_task():
    return {"input_type": "an integer", "kind": "list", "oracle": lambda x: IMPORT,
            "random_inputs": lambda k, rng: [IMPORT + [rng.random()] for _ in range(k)], "on_example": lambda i, o, s: IMPORT}
`

// huntSecret is a candidate that reads the memory of every process it can
// see, looking for the binding's secret.
const huntSecret = `import os, re


def solve(x):
    needle = b"resident" + b"-secret-"
    me = os.getpid()
    seen = []
    for p in os.listdir("/proc"):
        if not p.isdigit() or int(p) == me:
            continue
        try:
            with open("/proc/%s/maps" % p) as f:
                maps = f.read()
            mem = open("/proc/%s/mem" % p, "rb", 0)
        except OSError:
            continue
        seen.append(p)
        with mem:
            for m in re.finditer(r"^([0-9a-f]+)-([0-9a-f]+) r", maps, re.M):
                lo, hi = int(m.group(1), 16), int(m.group(2), 16)
                try:
                    mem.seek(lo)
                    if needle in mem.read(min(hi - lo, 64 << 20)):
                        return "found in process " + p
                except (OSError, ValueError, OverflowError):
                    pass
    return "not found; read " + ",".join(seen)
`

// A factory task's binding is imported once, in the oracle's sandbox: one
// process answers the oracle's queries, gives the random inputs and runs
// on_example; a candidate, in the evaluator's sandbox, cannot reach that
// process's memory.
func TestFactoryBindingIsResident(t *testing.T) {
	testenv.NeedPython(t)
	inEachSandbox(t, func(t *testing.T, kind string) {
		ctx := context.Background()
		dir := t.TempDir()
		testenv.WriteFiles(t, dir, map[string]string{
			"bench/__init__.py": "",
			"bench/resident.py": residentModule,
			"replay.yaml":       "candidates: []\n",
			"task.yaml": "task:\n  factory: bench.resident:make_task\n" +
				"agent:\n  kind: replay\n  replay: {script: replay.yaml}\n" +
				"sandbox: {kind: " + kind + ", call_timeout: 30s}\n",
		})
		log := zaptest.NewLogger(t)
		c, err := Bind(ctx, loadFactoryTask(t, filepath.Join(dir, "task.yaml"), nil), log)
		if err != nil {
			t.Fatalf("Bind: %v", err)
		}
		boxes, err := OpenSandboxes(ctx, c, NewRunID(), log)
		if err != nil {
			t.Fatalf("OpenSandboxes: %v", err)
		}
		defer boxes.Close()
		o, err := NewOracle(c, boxes.Oracle)
		if err != nil {
			t.Fatal(err)
		}
		ws := t.TempDir()
		parts, err := factoryTask(c, boxes, ws, log)
		if err != nil {
			t.Fatal(err)
		}

		var served []string
		for i := 0; i < 5; i++ {
			answers, err := o.Query(ctx, []json.RawMessage{json.RawMessage("1"), json.RawMessage("2")})
			if err != nil {
				t.Fatalf("Query: %v", err)
			}
			for _, a := range answers {
				served = append(served, "oracle "+string(a.Output)+a.Invalid)
			}
			ins, err := parts.random.Generate(ctx, 2, nil, int64(i))
			if err != nil {
				t.Fatalf("random inputs: %v", err)
			}
			for _, in := range ins {
				// [pid, token, a random number]: the inputs are distinct.
				var v []json.RawMessage
				if err := json.Unmarshal(in, &v); err != nil || len(v) != 3 {
					t.Fatalf("random input %s", in)
				}
				served = append(served, "random_inputs ["+string(v[0])+","+string(v[1])+"]")
			}
			if err := parts.recorder.RecordExamples(ctx, "run", []task.Example{{Input: json.RawMessage("1"), Output: json.RawMessage("2"), Source: "query"}}); err != nil {
				t.Fatal(err)
			}
		}
		hooked, err := os.ReadFile(filepath.Join(ws, BindingLog))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Fields(string(hooked)) {
			served = append(served, "on_example "+line)
		}
		if len(served) != 5*(2+2+1) {
			t.Fatalf("%d answers, want %d: %q", len(served), 5*(2+2+1), served)
		}
		_, first, _ := strings.Cut(served[0], " ")
		for _, s := range served {
			if _, imp, _ := strings.Cut(s, " "); imp != first {
				t.Errorf("%s: served by another import than %s", s, first)
			}
		}

		outs, err := boxes.Eval.Call(ctx, sandbox.CallRequest{Program: sandbox.Program{Source: huntSecret, Function: "solve"},
			Inputs: []json.RawMessage{json.RawMessage("1")}, Limits: c.Sandbox.Limits()})
		if err != nil {
			t.Fatal(err)
		}
		if !outs[0].OK() || !strings.HasPrefix(string(outs[0].Output), `"not found`) {
			t.Errorf("the candidate hunting the binding's memory: %s %s %s", outs[0].Status, outs[0].Output, outs[0].Error)
		}
	})
}
