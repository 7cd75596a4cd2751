package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"go.uber.org/zap/zaptest"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/sandbox"
)

// startHarness runs the embedded harness as a plain python3 child (no
// namespaces, no uid drop: the protocol and the analysis, not the
// isolation, are under test here; sandbox/process tests the isolation).
func startHarness(t *testing.T) *sandbox.Client {
	t.Helper()
	c, _ := startHarnessPID(t)
	return c
}

// startHarnessPID is startHarness, also returning the harness's pid.
func startHarnessPID(t *testing.T) (*sandbox.Client, int) {
	t.Helper()
	testenv.NeedPython(t)
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "-I", "-u", "-c", sandbox.Harness)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := sandbox.NewClient(stdout, stdin, zaptest.NewLogger(t))
	t.Cleanup(func() {
		c.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	version, err := c.Ping(ctx)
	if err != nil {
		t.Fatalf("ping: %v", err)
	}
	if version != sandbox.HarnessVersion {
		t.Fatalf("harness version %q, want %q", version, sandbox.HarnessVersion)
	}
	return c, cmd.Process.Pid
}

func raws(vs ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(vs))
	for i, v := range vs {
		out[i] = json.RawMessage(v)
	}
	return out
}

func TestHarnessVersionMatchesSource(t *testing.T) {
	m := regexp.MustCompile(`(?m)^HARNESS_VERSION = "([^"]+)"$`).FindStringSubmatch(sandbox.Harness)
	if m == nil {
		t.Fatal("harness.py has no HARNESS_VERSION line")
	}
	if got, want := m[1], sandbox.HarnessVersion; got != want {
		t.Errorf("harness.py version %q, HarnessVersion %q", got, want)
	}
	if got := sandbox.HarnessSHA256(); len(got) != 64 {
		t.Errorf("HarnessSHA256() = %q, want 64 hex digits", got)
	}
}

// Between requests the harness keeps its zygote and two spare children,
// also after two requests sent one right after the other (a candidate's
// analysis and its call), so that the second of such a pair finds a child
// forked and warmed up ahead of time.
func TestHarnessKeepsTwoSpares(t *testing.T) {
	c, pid := startHarnessPID(t)
	ctx := context.Background()
	children := func() []string {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
		if errors.Is(err, os.ErrNotExist) {
			t.Skip("this kernel does not list a process's children in /proc")
		}
		if err != nil {
			t.Fatal(err)
		}
		return strings.Fields(string(data))
	}
	// The zygote and two spares; a spare's intermediate parent or a
	// request's child may be seen on the way there.
	settled := func(when string) {
		t.Helper()
		var got []string
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if got = children(); len(got) == 3 {
				return
			}
		}
		t.Fatalf("%s: the harness has children %v, want its zygote and two spares", when, got)
	}
	settled("after the first ping")
	src := "def solve(x):\n    return x + 1\n"
	for i := range 3 {
		if _, err := c.Analyse(ctx, sandbox.AnalyseRequest{Source: src, FunctionName: "solve", Inputs: raws("1"), Outputs: raws("2")}); err != nil {
			t.Fatal(err)
		}
		out, err := c.Call(ctx, sandbox.CallRequest{Program: sandbox.Program{Source: src, Function: "solve"}, Inputs: raws("1", "2")})
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != 2 || string(out[1].Output) != "3" {
			t.Fatalf("call: %+v", out)
		}
		settled(fmt.Sprintf("after pair %d of requests", i+1))
	}
}

// compact re-encodes JSON so that outputs compare independently of spacing.
func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	if raw == nil {
		return ""
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("output %q is not JSON: %v", raw, err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func TestHarnessCall(t *testing.T) {
	c := startHarness(t)
	ctx := context.Background()
	const src = `
import math, os, sys, time
def f(x):
    if x == "raise":
        raise ValueError("bad input")
    if x == "loop":
        while True:
            pass
    if x == "set":
        return {1, 2}
    if x == "nan":
        return math.nan
    if x == "inf":
        return [1.0, math.inf]
    if x == "deep":
        v = []
        for _ in range(10**6):
            v = [v]
        return v
    if x == "object":
        return object()
    if x == "print":
        print("the answer is", 42)
        return None
    if x == "big":
        return "x" * 5000
    if x == "chatty":
        print("y" * 5000)
        return 1
    if x == "exit":
        sys.exit(3)
    if x == "_exit":
        os._exit(4)
    if x == "recurse":
        def r(n):
            return r(n + 1)
        return r(0)
    if x == "signal parent":
        import signal
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1, signal.SIGALRM):
            os.kill(os.getppid(), sig)
        time.sleep(0.1)
        return "still here"
    if x == "tuple":
        return (1, "a", [2.5, None, True])
    if x == "dictkeys":
        return {"a": 1, "b": [1, 2]}
    return x
`
	cases := []struct {
		input      string
		status     sandbox.Status
		output     string
		errPattern string
	}{
		{`7`, sandbox.StatusOK, `7`, ``},
		{`"raise"`, sandbox.StatusError, ``, `^ValueError: bad input$`},
		{`"set"`, sandbox.StatusBadOutput, ``, `set is not JSON serializable`},
		{`"nan"`, sandbox.StatusBadOutput, ``, `Out of range float`},
		{`"inf"`, sandbox.StatusBadOutput, ``, `Out of range float`},
		{`"deep"`, sandbox.StatusBadOutput, ``, `nested too deeply`},
		{`"object"`, sandbox.StatusBadOutput, ``, `object is not JSON serializable`},
		{`"print"`, sandbox.StatusOK, `null`, ``},
		{`"big"`, sandbox.StatusOutputLimit, ``, `over the limit of 4096`},
		{`"chatty"`, sandbox.StatusOutputLimit, ``, `printed more than 4096 bytes`},
		{`"exit"`, sandbox.StatusError, ``, `^SystemExit: 3`},
		{`"_exit"`, sandbox.StatusCrashed, ``, `exited with status 4`},
		{`"recurse"`, sandbox.StatusError, ``, `^RecursionError: maximum recursion depth`},
		{`"signal parent"`, sandbox.StatusOK, `"still here"`, ``},
		{`"tuple"`, sandbox.StatusOK, `[1,"a",[2.5,null,true]]`, ``},
		{`"dictkeys"`, sandbox.StatusOK, `{"a":1,"b":[1,2]}`, ``},
		{`[1, [2, {"k": "v"}]]`, sandbox.StatusOK, `[1,[2,{"k":"v"}]]`, ``},
	}
	inputs := make([]json.RawMessage, len(cases))
	for i, tc := range cases {
		inputs[i] = json.RawMessage(tc.input)
	}
	// One batch: each input's failure must stay its own.
	got, err := c.Call(ctx, sandbox.CallRequest{
		Program: sandbox.Program{Source: src, Function: "f"},
		Inputs:  inputs,
		Limits:  sandbox.Limits{Timeout: 5 * time.Second, OutputBytes: 4096},
	})
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	// The timeout, with a short limit, between two inputs that work.
	loop, err := c.Call(ctx, sandbox.CallRequest{
		Program: sandbox.Program{Source: src, Function: "f"},
		Inputs:  raws(`1`, `"loop"`, `2`),
		Limits:  sandbox.Limits{Timeout: 500 * time.Millisecond},
	})
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	if loop[0].Status != sandbox.StatusOK || loop[1].Status != sandbox.StatusTimeout || loop[2].Status != sandbox.StatusOK {
		t.Errorf("loop batch: %+v, want ok, timeout, ok", loop)
	}
	if !strings.Contains(loop[1].Error, "longer than 0.5s") {
		t.Errorf("timeout error %q", loop[1].Error)
	}
	for i, tc := range cases {
		o := got[i]
		if o.Status != tc.status {
			t.Errorf("input %s: status %q (%s), want %q", tc.input, o.Status, o.Error, tc.status)
			continue
		}
		if out := compact(t, o.Output); out != tc.output {
			t.Errorf("input %s: output %s, want %s", tc.input, out, tc.output)
		}
		if tc.errPattern == "" && o.Error != "" {
			t.Errorf("input %s: unexpected error %q", tc.input, o.Error)
		}
		if tc.errPattern != "" && !regexp.MustCompile(tc.errPattern).MatchString(o.Error) {
			t.Errorf("input %s: error %q, want match for %q", tc.input, o.Error, tc.errPattern)
		}
		if o.Seconds < 0 || math.IsNaN(o.Seconds) {
			t.Errorf("input %s: seconds %v", tc.input, o.Seconds)
		}
	}
}

func TestHarnessLoadErrors(t *testing.T) {
	c := startHarness(t)
	ctx := context.Background()
	cases := []struct {
		name       string
		program    sandbox.Program
		status     sandbox.Status
		errPattern string
	}{
		{"syntax", sandbox.Program{Source: "def f(x) return x", Function: "f"}, sandbox.StatusLoad, `^SyntaxError: .*line 1`},
		{"missing function", sandbox.Program{Source: "def g(x):\n    return x\n", Function: "f"}, sandbox.StatusLoad, `does not define a function named 'f'`},
		{"import error", sandbox.Program{Source: "import no_such_module_here\ndef f(x):\n    return x\n", Function: "f"}, sandbox.StatusLoad, `ModuleNotFoundError`},
		{"missing file", sandbox.Program{Path: "/nonexistent/hidden.py", Function: "f"}, sandbox.StatusLoad, `FileNotFoundError`},
		{"load loops", sandbox.Program{Source: "while True:\n    pass\n", Function: "f"}, sandbox.StatusTimeout, `loading the program took longer`},
		{"load exits", sandbox.Program{Source: "import os\nos._exit(9)\n", Function: "f"}, sandbox.StatusCrashed, `status 9`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.Call(ctx, sandbox.CallRequest{Program: tc.program, Inputs: raws(`1`, `2`), Limits: sandbox.Limits{Timeout: 500 * time.Millisecond}})
			if err != nil {
				t.Fatalf("Call: %v", err)
			}
			for i, o := range got {
				if o.Status != tc.status || !regexp.MustCompile(tc.errPattern).MatchString(o.Error) {
					t.Errorf("input %d: %q %q, want %q matching %q", i, o.Status, o.Error, tc.status, tc.errPattern)
				}
			}
		})
	}
}

func TestHarnessMalformedRequest(t *testing.T) {
	testenv.NeedPython(t)
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "-I", "-u", "-c", sandbox.Harness)
	cmd.Stdin = strings.NewReader("this is not json\n[1,2]\n{\"id\": 5, \"op\": \"frobnicate\"}\n{\"id\": 6, \"op\": \"call\"}\n{\"id\": 7, \"op\": \"ping\"}\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("harness: %v", err)
	}
	var got []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("response line %q: %v", line, err)
		}
		got = append(got, m)
	}
	want := []map[string]any{
		{"id": nil, "ok": false},
		{"id": nil, "ok": false},
		{"id": 5.0, "ok": false},
		{"id": 6.0, "ok": false},
		{"id": 7.0, "ok": true, "version": sandbox.HarnessVersion, "uid": nil, "readonly": false, "private_root": false, "pid_namespace": false},
	}
	ignoreError := cmpopts.IgnoreMapEntries(func(k string, _ any) bool { return k == "error" })
	if diff := cmp.Diff(want, got, ignoreError); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
	for i := 0; i < 4 && i < len(got); i++ {
		if s, _ := got[i]["error"].(string); s == "" {
			t.Errorf("response %d has no error message", i)
		}
	}
}

func TestHarnessAnalyse(t *testing.T) {
	c := startHarness(t)
	ctx := context.Background()
	long := "def f(x):\n    return x\n#" + strings.Repeat("a", 1176) // 1200 characters
	cases := []struct {
		name    string
		req     sandbox.AnalyseRequest
		want    sandbox.Analysis
		errLike string
	}{
		{
			// If (0.03) + For (0.04); L = {10, 'big', 3, 7}; E holds 'big'.
			name: "branches and loops",
			req: sandbox.AnalyseRequest{
				Source:       "def f(x):\n    if x > 10:\n        return 'big'\n    for i in range(3):\n        x += 7\n    return x\n",
				FunctionName: "f",
				Inputs:       raws(`5`, `12`),
				Outputs:      raws(`26`, `"big"`),
			},
			want: sandbox.Analysis{
				Parses: true, DefinesFunc: true, Size: 0, Structure: 0.07, Complexity: 0.07,
				Hardcoding: 0.25, Literals: []string{"'big'", "10", "3", "7"}, Embedded: []int{},
			},
		},
		{
			// L = {3,4,5,9,7,8,24,'abc'} (1, 2, 0 excluded; -5 is the
			// constant 5); E lacks only 5 (it holds -5): 7/8. Embedded:
			// (1, 2), (4, -5), [7, 8, 9], 'abc'; the repeated [7, 8, 9] and
			// [1, 2, 3] are not, and [] never counts.
			name: "memorised",
			req: sandbox.AnalyseRequest{
				Source:       "def solve(x):\n    table = {(1, 2): 3, (4, -5): 9}\n    if x == [7, 8, 9]:\n        return 24\n    if x == 'abc':\n        return -1\n    return table.get(tuple(x), 0)\n",
				FunctionName: "solve",
				Inputs:       raws(`[1,2]`, `[4,-5]`, `[7,8,9]`, `"abc"`, `[7,8,9]`, `[1,2,3]`, `[]`),
				Outputs:      raws(`3`, `9`, `24`, `-1`, `24`, `0`, `0`),
			},
			want: sandbox.Analysis{
				Parses: true, DefinesFunc: true, Structure: 0.06, Complexity: 0.06, Hardcoding: 0.875,
				Literals: []string{"'abc'", "24", "3", "4", "5", "7", "8", "9"}, Embedded: []int{0, 1, 2, 3},
			},
		},
		{
			name: "does not parse",
			req:  sandbox.AnalyseRequest{Source: "def f(x) return 1", FunctionName: "f"},
			want: sandbox.Analysis{Parses: false, Complexity: 1, Literals: []string{}, Embedded: []int{}},
		},
		{
			// size = (1200 - 400) / 1600.
			name: "size",
			req:  sandbox.AnalyseRequest{Source: long, FunctionName: "f"},
			want: sandbox.Analysis{Parses: true, DefinesFunc: true, Size: 0.5, Complexity: 0.5, Literals: []string{}, Embedded: []int{}},
		},
		{
			// 3 FunctionDef (0.04), While (0.04), IfExp (0.03); lambdas do
			// not count. bools, None, |v| <= 2, a 121-character string and
			// the docstring-free body leave L = {'yes'}; E holds it: 1/4.
			name: "functions and exclusions",
			req: sandbox.AnalyseRequest{
				Source:       "def g(a):\n    return a\n\ndef h(a):\n    return -a\n\ndef f(x):\n    k = lambda y: y\n    while x and None is None and True:\n        x = x - 1\n    s = '" + strings.Repeat("z", 119) + "'\n    return 'yes' if x == 2.0 else g(h(x))\n",
				FunctionName: "f",
				Inputs:       raws(`"yes"`),
				Outputs:      raws(`true`),
			},
			want: sandbox.Analysis{
				Parses: true, DefinesFunc: true, Structure: 0.11, Complexity: 0.11, Hardcoding: 0.25,
				Literals: []string{"'yes'"}, Embedded: []int{0},
			},
		},
		{
			name: "structure is capped",
			req:  sandbox.AnalyseRequest{Source: "def f(x):\n" + strings.Repeat("    if x: x = 1\n", 40) + "    return x\n", FunctionName: "g"},
			// size = (663 - 400) / 1600.
			want: sandbox.Analysis{Parses: true, DefinesFunc: false, Size: 0.164375, Structure: 1, Complexity: 1, Literals: []string{}, Embedded: []int{}},
		},
		{
			// All 6 literals appear in the data: min(1, 6/6).
			name: "fully hard-coded",
			req: sandbox.AnalyseRequest{
				Source:       "f = lambda x: {3: 'three', 4: 'four', 5: 'five'}[x]\n",
				FunctionName: "f",
				Inputs:       raws(`3`, `4`, `5`),
				Outputs:      raws(`"three"`, `"four"`, `"five"`),
			},
			want: sandbox.Analysis{
				Parses: true, DefinesFunc: true, Hardcoding: 1,
				Literals: []string{"'five'", "'four'", "'three'", "3", "4", "5"}, Embedded: []int{0, 1, 2},
			},
		},
	}
	approx := cmpopts.EquateApprox(0, 1e-9)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.Analyse(ctx, tc.req)
			if err != nil {
				t.Fatalf("Analyse: %v", err)
			}
			if !tc.want.Parses && got.ParseError == "" {
				t.Errorf("no parse error for unparsable source")
			}
			got.ParseError = ""
			if diff := cmp.Diff(tc.want, got, approx); diff != "" {
				t.Errorf("analysis (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHarnessGenerate(t *testing.T) {
	c := startHarness(t)
	ctx := context.Background()
	const gen = `
def generate(k, exclude, rng):
    seen = set(exclude)
    out = []
    while len(out) < k:
        v = rng.randint(0, 10**9)
        if v not in seen:
            seen.add(v)
            out.append(v)
    return out

def shifted(k, exclude, rng):
    return [e + 1 for e in exclude][:k]

def wrong_count(k, exclude, rng):
    return [1] * (k + 1)

def raises(k, exclude, rng):
    raise RuntimeError("no inputs today")

def not_list(k, exclude, rng):
    return 42

def bad_item(k, exclude, rng):
    return [{1, 2}] * k

def slow(k, exclude, rng):
    while True:
        pass
`
	prog := func(fn string) sandbox.Program { return sandbox.Program{Source: gen, Function: fn} }
	limits := sandbox.Limits{Timeout: 500 * time.Millisecond}

	a, err := c.Generate(ctx, sandbox.GenerateRequest{Program: prog("generate"), K: 5, Seed: 7, Limits: limits})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	b, err := c.Generate(ctx, sandbox.GenerateRequest{Program: prog("generate"), K: 5, Seed: 7, Limits: limits})
	if err != nil {
		t.Fatalf("Generate again: %v", err)
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("same seed, different inputs (-first +second):\n%s", diff)
	}
	d, err := c.Generate(ctx, sandbox.GenerateRequest{Program: prog("generate"), K: 5, Seed: 8, Limits: limits})
	if err != nil {
		t.Fatalf("Generate seed 8: %v", err)
	}
	if cmp.Equal(a, d) {
		t.Errorf("seeds 7 and 8 gave the same inputs %s", a)
	}

	got, err := c.Generate(ctx, sandbox.GenerateRequest{Program: prog("shifted"), K: 2, Exclude: raws(`10`, `20`), Limits: limits})
	if err != nil {
		t.Fatalf("Generate shifted: %v", err)
	}
	if diff := cmp.Diff([]string{"11", "21"}, []string{string(got[0]), string(got[1])}); diff != "" {
		t.Errorf("exclude not passed through (-want +got):\n%s", diff)
	}
	// A generator with fewer inputs left than asked gives those: that is
	// no error, but how it says it has no more.
	got, err = c.Generate(ctx, sandbox.GenerateRequest{Program: prog("shifted"), K: 3, Exclude: raws(`10`, `20`), Limits: limits})
	if err != nil || len(got) != 2 {
		t.Errorf("Generate of 3 from a generator with 2 left: %s, %v; want its 2 inputs", got, err)
	}

	failures := []struct {
		fn      string
		errLike string
	}{
		{"wrong_count", "returned 4 inputs when asked for 3"},
		{"raises", "RuntimeError: no inputs today"},
		{"not_list", "returned int, not a list"},
		{"bad_item", "input 0: the return value cannot be JSON"},
		{"slow", "took longer than 0.5s"},
		{"missing", "does not define a function named 'missing'"},
	}
	for _, tc := range failures {
		t.Run(tc.fn, func(t *testing.T) {
			_, err := c.Generate(ctx, sandbox.GenerateRequest{Program: prog(tc.fn), K: 3, Limits: limits})
			var re *sandbox.RemoteError
			if !errors.As(err, &re) {
				t.Fatalf("error %v, want a RemoteError", err)
			}
			if !strings.Contains(err.Error(), tc.errLike) {
				t.Errorf("error %q, want it to contain %q", err, tc.errLike)
			}
		})
	}
}
