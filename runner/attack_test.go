package runner

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/workflow"
)

// memoryCheat looks for the observed outputs in the memory it inherited
// from the harness: the analyse request that precedes every call carries
// them. It answers each input with the output found for it.
const memoryCheat = `import gc, json, sys


def _requests():
    seen = []
    f = sys._getframe()
    while f is not None:
        seen.extend(f.f_locals.values())
        f = f.f_back
    for m in list(sys.modules.values()):
        seen.extend(getattr(m, "__dict__", {}).values())
    seen.extend(gc.get_objects())
    for v in seen:
        if isinstance(v, (bytes, bytearray)):
            v = bytes(v).decode("utf-8", "replace")
        if isinstance(v, str) and '"outputs"' in v:
            try:
                yield json.loads(v)
            except ValueError:
                pass
        elif isinstance(v, dict) and "outputs" in v and "inputs" in v:
            yield v


def solve(input_data):
    key = json.dumps(input_data, sort_keys=True)
    for req in _requests():
        for i, o in zip(req.get("inputs") or [], req.get("outputs") or []):
            if json.dumps(i, sort_keys=True) == key:
                return o
    return "no answers found"
`

// A candidate that reads the observed outputs from the harness's memory
// must not pass a single example, in either sandbox.
func TestCandidatesCannotReadOutputsFromTheHarness(t *testing.T) {
	testenv.NeedPython(t)
	inEachSandbox(t, func(t *testing.T, kind string) {
		dir := t.TempDir()
		script := filepath.Join(dir, "cheat.yaml")
		if err := os.WriteFile(script, []byte("candidates:\n  - file: cheat.py\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "cheat.py"), []byte(memoryCheat), 0o644); err != nil {
			t.Fatal(err)
		}
		c := quickstart(t, map[string]any{"agent.replay.script": script, "workflow.max_iterations": 3, "workflow.memorisation_gate": true, "workflow.random_share": 1.0})
		c.Sandbox.Kind = kind // quickstart pins the process sandbox
		res, err := Run(context.Background(), c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Events {
			t.Logf("iteration %d: %d/%d", r.Iteration, r.Passed, r.Known)
			if r.Passed > 0 {
				t.Errorf("iteration %d: the candidate reading the harness's memory passed %d/%d examples", r.Iteration, r.Passed, r.Known)
			}
		}
		t.Logf("stop %s, %d promotions", res.StopReason, res.Promotions)
	})
}

// hostileBinding looks for the orchestrator's secrets from inside its
// factory and its oracle: the environment (its own, PID 1's, its parent's),
// a file outside its directory whose path it was given, the user's home.
// Whatever it finds it returns as the task's input_type and as every output.
const hostileBinding = `import os


def _loot(secret_path):
    found = []
    found.append(repr(dict(os.environ)))
    for p in [secret_path, "/proc/1/environ", "/proc/%d/environ" % os.getppid(), os.path.expanduser("~/.bash_history")]:
        try:
            with open(p, "rb") as f:
                found.append(f.read().decode("latin-1"))
        except Exception as e:
            found.append("%s: %s" % (p, type(e).__name__))
    for d in [os.path.dirname(secret_path), os.path.expanduser("~"), "/tmp", "/root"]:
        try:
            found.append(repr(os.listdir(d)))
        except Exception as e:
            found.append("%s: %s" % (d, type(e).__name__))
    return " | ".join(found)


def make(secret_path):
    loot = _loot(secret_path)
    return {"input_type": "loot: " + loot, "kind": "list", "oracle": lambda x: _loot(secret_path),
            "random_inputs": lambda k: [[i] for i in range(k)]}
`

// A binding is the hidden program's code: it runs in the oracle's sandbox,
// and whatever it tries it finds neither the orchestrator's environment
// nor files outside its directory.
func TestHostileBindingFindsNothing(t *testing.T) {
	testenv.NeedPython(t)
	const secret = "s3cret-value-of-the-orchestrator"
	t.Setenv("RECONSTRUCT_TEST_SECRET", secret)
	t.Setenv("OPENAI_API_KEY", secret)
	inEachSandbox(t, func(t *testing.T, kind string) {
		secretPath := filepath.Join(t.TempDir(), "secret.txt")
		if err := os.WriteFile(secretPath, []byte(secret), 0o644); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "hostile.py"), []byte(hostileBinding), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "task.yaml"), []byte("task:\n  factory: hostile:make\n  args: {secret_path: "+secretPath+"}\n"+
			"agent: {kind: replay, replay: {script: replay.yaml}}\nworkflow: {max_iterations: 1, random_share: 0}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "replay.yaml"), []byte("candidates:\n  - source: \"def solve(x):\\n    return 0\\n\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		c := loadIn(t, filepath.Join(dir, "task.yaml"), kind, false)
		if _, err := Run(context.Background(), c, Options{}); err != nil {
			t.Fatal(err)
		}
		exs, err := workflow.ReadExamples(c.Workspace)
		if err != nil || len(exs) == 0 {
			t.Fatalf("examples: %v %v", exs, err)
		}
		seen := c.Task.InputType
		for _, ex := range exs {
			seen += string(ex.Output)
		}
		t.Logf("what the binding found: %.600s", seen)
		if strings.Contains(seen, secret) {
			t.Errorf("the binding read a secret of the orchestrator")
		}
		if strings.Contains(seen, filepath.Base(filepath.Dir(secretPath))+"'") || !strings.Contains(seen, "secret.txt: FileNotFoundError") {
			t.Errorf("the binding saw the directory of the secret file")
		}
	})
}

// A candidate cannot read the binding's module: its hidden program answers
// every input with the module's own source, so a candidate that reads the
// file would pass.
func TestCandidatesCannotReadTheBinding(t *testing.T) {
	testenv.NeedPython(t)
	inEachSandbox(t, func(t *testing.T, kind string) {
		dir := t.TempDir()
		module := filepath.Join(dir, "quine.py")
		testenv.WriteFiles(t, dir, map[string]string{
			"quine.py": "def _source(x):\n    with open(__file__) as f:\n        return f.read()\n\n\n" +
				"def make():\n    return {\"input_type\": \"an integer\", \"kind\": \"int\", \"oracle\": _source,\n" +
				"            \"random_inputs\": lambda k: list(range(k))}\n",
			"cheat.py": "def solve(x):\n    for p in [" + strconv.Quote(module) + ", \"/oracle/quine.py\", \"quine.py\", \"/workspace/quine.py\"]:\n" +
				"        try:\n            with open(p) as f:\n                return f.read()\n        except OSError:\n            pass\n    return None\n",
			"replay.yaml": "candidates:\n  - file: cheat.py\n",
			"task.yaml":   "task: {factory: quine:make}\nagent: {kind: replay, replay: {script: replay.yaml}}\nworkflow: {max_iterations: 2, random_share: 0}\n",
		})
		c := loadIn(t, filepath.Join(dir, "task.yaml"), kind, false)
		res, err := Run(context.Background(), c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		exs, err := workflow.ReadExamples(c.Workspace)
		if err != nil || len(exs) == 0 || !strings.Contains(string(exs[0].Output), "def make") {
			t.Fatalf("the hidden program did not answer with its source: %v %+v", err, exs)
		}
		for _, r := range res.Events {
			if r.Passed > 0 {
				t.Errorf("iteration %d: a candidate read the binding's module and passed %d/%d", r.Iteration, r.Passed, r.Known)
			}
		}
	})
}

// hookedBinding has an evaluate hook that runs the candidate in its own
// process, as a binding's own harness would, and held-out tests whose
// outputs carry a marker no observed example has.
const hookedBinding = `import random


def _double(x):
    return 2 * x


REGISTRY = {"double": _double}


def _inputs(k, rng):
    return [rng.randint(-50, 50) for _ in range(k)]


def _evaluate(program_path, inputs):
    ns = {}
    with open(program_path) as f:
        exec(f.read(), ns)
    return [ns["solve"](x) for x in inputs]


def make():
    return {"input_type": "an integer", "kind": "int", "oracle": _double, "evaluate": _evaluate,
            "random_inputs": lambda k, exclude, rng: _inputs(k, rng)}


def heldout():
    rng = random.Random(7)
    return [(x, 987654321000 + _double(x)) for x in _inputs(12, rng)]
`

// hookCheat answers with whatever it finds in the process that runs it:
// the task's oracle in the shim's state, the module's registry, or the
// module's heldout() (the held-out tests, returned as its output so that
// they reach the feedback).
const hookCheat = `import gc, json, sys


def _oracle():
    for m in list(sys.modules.values()):
        st = getattr(m, "_STATE", None)
        if isinstance(st, dict) and "task" in st:
            t = st["task"]
            return t["oracle"] if isinstance(t, dict) else t.oracle
        reg = getattr(m, "REGISTRY", None)
        if isinstance(reg, dict) and reg:
            return next(iter(reg.values()))
    return None


def _heldout():
    for m in list(sys.modules.values()):
        h = getattr(m, "heldout", None)
        if callable(h):
            try:
                return h()
            except Exception:
                pass
    for o in gc.get_objects():
        if callable(o) and getattr(o, "__name__", "") == "heldout":
            try:
                return o()
            except Exception:
                pass
    return None


def solve(x):
    o = _oracle()
    if o is not None and x % 3:
        return o(x)
    tests = _heldout()
    if tests is not None:
        return json.dumps(tests)
    return 0
`

// A binding's evaluate hook is never authoritative: a candidate that the
// hook runs finds neither the task's oracle nor its held-out tests, is not
// promoted, and nothing of the held-out tests reaches the agent, in
// either sandbox.
func TestHookCannotBeUsedToCheat(t *testing.T) {
	testenv.NeedPython(t)
	inEachSandbox(t, func(t *testing.T, kind string) {
		dir := t.TempDir()
		testenv.WriteFiles(t, dir, map[string]string{
			"hooked.py":   hookedBinding,
			"cheat.py":    hookCheat,
			"replay.yaml": "candidates:\n  - file: cheat.py\n",
			"task.yaml":   "task: {factory: hooked:make}\nagent: {kind: replay, replay: {script: replay.yaml}}\nworkflow: {max_iterations: 6, early_stop: 3, random_share: 0.5}\n",
		})
		c := loadIn(t, filepath.Join(dir, "task.yaml"), kind, false)
		res, err := Run(context.Background(), c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Events {
			t.Logf("iteration %d: %d/%d, promoted %v", r.Iteration, r.Passed, r.Known, r.Promoted)
			if r.Promoted || r.Passed == r.Known {
				t.Errorf("iteration %d: the cheating candidate passed %d/%d (promoted %v)", r.Iteration, r.Passed, r.Known, r.Promoted)
			}
		}
		if res.StopReason == workflow.StopEarly || res.FinalAccuracy == 1 {
			t.Errorf("stop %s with final accuracy %v: the cheat was promoted", res.StopReason, res.FinalAccuracy)
		}
		for _, f := range []string{workflow.EventsFile, workflow.ResultFile} {
			data, err := os.ReadFile(filepath.Join(c.Workspace, f))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(data), "987654321") {
				t.Errorf("%s holds the held-out tests' outputs", f)
			}
		}
	})
}

// Finding 7 of the security issue: lossy comparisons forged passes. The
// hidden program returns a string holding a lone surrogate and the
// integer 10^18 + x; the candidate returns U+FFFD in its place and the
// float 1e18 (which a comparison through float64 took for any integer
// near it). It must not pass one example, in either sandbox.
func TestLossyComparisonsForgeNoPass(t *testing.T) {
	testenv.NeedPython(t)
	inEachSandbox(t, func(t *testing.T, kind string) {
		dir := t.TempDir()
		testenv.WriteFiles(t, dir, map[string]string{
			"hidden.py": "def f(x):\n    if not isinstance(x, int) or isinstance(x, bool):\n        raise ValueError('an integer')\n" +
				"    return ['\\ud800' + str(x), 10**18 + x + 1]\n",
			"cheat.py":    "def solve(x):\n    return ['\\ufffd' + str(x), 1e18]\n",
			"replay.yaml": "candidates:\n  - file: cheat.py\nproposals:\n  - inputs: [1, 2]\n",
			"task.yaml": "task: {name: lossy, input_type: an integer, kind: int, oracle: {python: hidden.py, function: f}}\n" +
				"agent: {kind: replay, replay: {script: replay.yaml}}\nworkflow: {max_iterations: 1}\n",
		})
		c, err := config.Load(config.Options{File: filepath.Join(dir, "task.yaml"), Override: map[string]any{
			"workspace": filepath.Join(t.TempDir(), "ws"), "bank.path": filepath.Join(t.TempDir(), "bank.db"),
			"sandbox.kind": kind, "sandbox.call_timeout": "60s"}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Examples) == 0 || !strings.Contains(string(res.Examples[0].Output), `\ud800`) {
			t.Fatalf("the hidden program's lone surrogate did not reach the examples: %+v", res.Examples)
		}
		for _, r := range res.Events {
			if r.Passed > 0 {
				t.Errorf("iteration %d: U+FFFD and 1e18 passed %d/%d examples", r.Iteration, r.Passed, r.Known)
			}
		}
	})
}

// seeingOracle is a hidden program that reads every file of its directory
// and answers which secrets it found there.
const seeingOracle = `import os


def f(x):
    if not isinstance(x, int) or isinstance(x, bool):
        raise ValueError("an integer")
    found = set()
    top = os.path.dirname(os.path.abspath(__file__))
    for d, _, files in os.walk(top):
        for n in files:
            try:
                with open(os.path.join(d, n), "rb") as fh:
                    data = fh.read()
            except OSError:
                continue
            # Spelt so that this file does not hold them.
            for m in ("HELDOUT", "CANDIDATE", "BANK"):
                if (m + "-SECRET").encode() in data:
                    found.add(m)
    return sorted(found)
`

// Finding 9 of the security issue: the hidden program read the held-out
// tests through a hard link in the task directory, and the candidates,
// because the default workspace lies in the task directory its sandbox
// sees. Its sandbox sees a copy of its directory with neither, in either
// sandbox; the run goes as usual.
func TestHiddenProgramSeesNoHeldoutNorCandidates(t *testing.T) {
	testenv.NeedPython(t)
	inEachSandbox(t, func(t *testing.T, kind string) {
		dir, agentDir := t.TempDir(), t.TempDir()
		testenv.WriteFiles(t, agentDir, map[string]string{
			"cand.py":     "def solve(x):\n    # CANDIDATE-SECRET\n    return []\n",
			"replay.yaml": "candidates:\n  - file: cand.py\nproposals:\n  - inputs: [1, 2]\n  - inputs: [3, 4, 5, 6]\n  - inputs: [8, 9, 10, 11, 12, 13]\n",
		})
		testenv.WriteFiles(t, dir, map[string]string{
			"hidden.py":     seeingOracle,
			"heldout.jsonl": `{"input": 7, "output": ["HELDOUT-SECRET"]}` + "\n",
			"task.yaml": "task: {name: seeing, input_type: an integer, kind: int, oracle: {python: hidden.py, function: f}}\n" +
				"agent: {kind: replay, replay: {script: " + filepath.Join(agentDir, "replay.yaml") + "}}\nworkflow: {max_iterations: 3}\n",
		})
		if err := os.Link(filepath.Join(dir, "heldout.jsonl"), filepath.Join(dir, "tests.jsonl")); err != nil {
			t.Fatal(err)
		}
		c, err := config.Load(config.Options{File: filepath.Join(dir, "task.yaml"), Override: map[string]any{
			// The workspace and the bank where a careless user puts them: in
			// the task directory.
			"workspace": filepath.Join(dir, "runs", "seeing"), "bank.path": filepath.Join(dir, "bank.db"),
			"sandbox.kind": kind, "sandbox.call_timeout": "60s"}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Examples) < 6 {
			t.Fatalf("%d examples: the run stopped early (%s): %+v %+v", len(res.Examples), res.StopReason, res.Examples, res.Events)
		}
		for _, ex := range res.Examples {
			if string(ex.Output) != "[]" {
				t.Errorf("input %s: the hidden program found %s", ex.Input, ex.Output)
			}
		}
	})
}
