package oracle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap/zaptest"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/sandbox/docker"
	"github.com/reconstruct/reconstruct/sandbox/process"
)

func raws(ss ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(ss))
	for i, s := range ss {
		out[i] = json.RawMessage(s)
	}
	return out
}

// commandModes are the places a command oracle runs: on the host (only when
// a task asks for it) and in each sandbox, in the task directory dir.
func commandModes(t *testing.T, dir string) map[string]func(argv []string, timeout time.Duration) *Command {
	modes := map[string]func([]string, time.Duration) *Command{
		"host": func(argv []string, timeout time.Duration) *Command { return NewHostCommand(argv, dir, timeout) },
	}
	if _, err := exec.LookPath("python3"); err == nil {
		box, err := process.New(context.Background(), process.Options{Dir: dir, Log: zaptest.NewLogger(t)})
		if err != nil {
			t.Fatalf("process sandbox: %v", err)
		}
		t.Cleanup(func() { box.Close() })
		modes["process sandbox"] = func(argv []string, timeout time.Duration) *Command {
			return NewCommand(box, argv, timeout, sandbox.Limits{})
		}
	} else {
		testenv.Skip(t, "python3 is not on PATH: the process sandbox needs it")
	}
	if ok, reason := docker.Available(context.Background(), docker.DefaultImage()); ok {
		box, err := docker.New(context.Background(), docker.Options{Image: docker.DefaultImage(), RunID: "test-oracle-command", Role: docker.RoleOracle,
			Mounts: []docker.Mount{docker.ProgramMount(dir)}, Log: zaptest.NewLogger(t)})
		if err != nil {
			t.Fatalf("docker sandbox: %v", err)
		}
		t.Cleanup(func() { box.Close() })
		modes["docker sandbox"] = func(argv []string, timeout time.Duration) *Command {
			return NewCommand(box, argv, timeout, sandbox.Limits{})
		}
	} else {
		testenv.Skip(t, reason)
	}
	return modes
}

// taskDir makes a task directory readable by the sandboxes' users holding
// executable scripts.
func taskDir(t *testing.T, scripts map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCommandOracle(t *testing.T) {
	dir := taskDir(t, map[string]string{
		// Doubles a number read on stdin; rejects negatives with exit 1.
		"double.sh": `read x
if [ "$x" -lt 0 ]; then echo "negative input" >&2; exit 1; fi
echo $((x * 2))
`,
		"sleep.sh":   "sleep 10\n",
		"notjson.sh": "echo not json\n",
		"killed.sh":  "kill -9 $$\n",
		// Sleeps past the timeout the first time only (a marker beside the
		// task directory: the sandboxes see that directory read-only).
		"slow_once.sh": "read x\nif [ ! -e \"$0.once\" ]; then touch \"$0.once\"; sleep 10; fi\necho $x\n",
	})
	tests := []struct {
		name    string
		argv    []string
		timeout time.Duration
		inputs  []json.RawMessage
		want    []Answer
		wantErr string
		// hostOnly: the case needs to write beside the command.
		hostOnly bool
	}{
		{name: "answers", argv: []string{"./double.sh"}, inputs: raws("2", "5"), want: []Answer{{Output: json.RawMessage("4")}, {Output: json.RawMessage("10")}}},
		{name: "non-zero exit rejects the input", argv: []string{"./double.sh"}, inputs: raws("3", "-1"), want: []Answer{{Output: json.RawMessage("6")}, {Invalid: "negative input"}}},
		{name: "killed by a signal twice fails the task", argv: []string{"./killed.sh"}, inputs: raws("1", "2"), wantErr: `crashed on input 1 \(1\)`},
		{name: "timeout twice fails the task", argv: []string{"./sleep.sh"}, timeout: 300 * time.Millisecond, inputs: raws("1"),
			wantErr: `did not answer in time on input 1 \(1\), limit 300ms per input \(task.oracle.timeout\)`},
		{name: "slow once, then an answer", argv: []string{"./slow_once.sh"}, timeout: time.Second, inputs: raws("7"), want: []Answer{{Output: json.RawMessage("7")}}, hostOnly: true},
		{name: "missing executable is an infrastructure error", argv: []string{"./nope"}, inputs: raws("1"), wantErr: "(?i)no such file"},
		{name: "output that is not JSON is an infrastructure error", argv: []string{"./notjson.sh"}, inputs: raws("1"), wantErr: "not one JSON value"},
	}
	for mode, newCommand := range commandModes(t, dir) {
		for _, tt := range tests {
			if tt.hostOnly && mode != "host" {
				continue
			}
			t.Run(mode+"/"+tt.name, func(t *testing.T) {
				timeout := tt.timeout
				if timeout == 0 {
					timeout = 5 * time.Second
				}
				got, err := newCommand(tt.argv, timeout).Query(context.Background(), tt.inputs)
				if tt.wantErr != "" {
					if err == nil || !regexp.MustCompile(tt.wantErr).MatchString(err.Error()) {
						t.Fatalf("err = %v, want %q", err, tt.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(got) != fmt.Sprint(tt.want) {
					t.Errorf("answers = %s, want %s", got, tt.want)
				}
			})
		}
	}
}

// A command oracle sees none of the caller's secrets: not its environment
// (API keys), and, in a sandbox, not the host's files outside the task
// directory; it cannot write the task directory and does not run as root.
func TestCommandOracleIsolation(t *testing.T) {
	t.Setenv("RECONSTRUCT_TEST_API_KEY", "QZ-environment-secret")
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("QZ-file-secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(outside), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := taskDir(t, map[string]string{"probe.sh": `read x
s=$(cat ` + outside + ` 2>/dev/null || echo none)
if touch ./written 2>/dev/null; then w=yes; else w=no; fi
printf '{"uid": %s, "env": "%s", "file": "%s", "wrote": "%s"}\n' "$(id -u)" "$(env | tr '\n' ' ')" "$s" "$w"
`})
	for mode, newCommand := range commandModes(t, dir) {
		t.Run(mode, func(t *testing.T) {
			got, err := newCommand([]string{"./probe.sh"}, 5*time.Second).Query(context.Background(), raws("1"))
			if err != nil {
				t.Fatal(err)
			}
			var r struct {
				UID   int    `json:"uid"`
				Env   string `json:"env"`
				File  string `json:"file"`
				Wrote string `json:"wrote"`
			}
			if err := json.Unmarshal(got[0].Output, &r); err != nil {
				t.Fatalf("%s: %v", got[0], err)
			}
			t.Logf("%+v", r)
			if strings.Contains(r.Env, "QZ-environment-secret") {
				t.Errorf("the command saw the caller's API key: %s", r.Env)
			}
			if mode == "host" {
				return
			}
			if r.File != "none" {
				t.Errorf("the command read %s outside the task directory: %q", outside, r.File)
			}
			if r.Wrote != "no" {
				t.Errorf("the command wrote the task directory")
			}
			if os.Geteuid() == 0 && r.UID == 0 {
				t.Errorf("the command ran as root")
			}
		})
	}
}

func TestHostEnv(t *testing.T) {
	got := HostEnv([]string{"PATH=/bin", "OPENAI_API_KEY=sk", "HOME=/h", "LC_ALL=C", "AWS_SECRET_ACCESS_KEY=x", "RECONSTRUCT_BANK=/b", "TZ=UTC"})
	want := []string{"PATH=/bin", "HOME=/h", "LC_ALL=C", "TZ=UTC"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("HostEnv = %v, want %v", got, want)
	}
}

func TestHTTPOracle(t *testing.T) {
	tests := []struct {
		name     string
		handler  func(n int32, w http.ResponseWriter, r *http.Request)
		retries  int
		want     Answer
		wantErr  string
		wantHits int32
	}{
		{name: "answers", retries: 2, wantHits: 1, want: Answer{Output: json.RawMessage(`{"y":1}`)},
			handler: func(_ int32, w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, `{"y":1}`) }},
		{name: "4xx rejects the input", retries: 2, wantHits: 1, want: Answer{Invalid: "bad input"},
			handler: func(_ int32, w http.ResponseWriter, _ *http.Request) {
				http.Error(w, "bad input", http.StatusBadRequest)
			}},
		{name: "5xx is retried", retries: 2, wantHits: 3, want: Answer{Output: json.RawMessage(`7`)},
			handler: func(n int32, w http.ResponseWriter, _ *http.Request) {
				if n < 3 {
					http.Error(w, "busy", http.StatusServiceUnavailable)
					return
				}
				fmt.Fprint(w, `7`)
			}},
		{name: "429 is retried, not a rejection", retries: 1, wantHits: 2, want: Answer{Output: json.RawMessage(`8`)},
			handler: func(n int32, w http.ResponseWriter, _ *http.Request) {
				if n == 1 {
					http.Error(w, "slow down", http.StatusTooManyRequests)
					return
				}
				fmt.Fprint(w, `8`)
			}},
		{name: "5xx until the retries run out", retries: 2, wantHits: 3, wantErr: "gave up after 3 attempts",
			handler: func(_ int32, w http.ResponseWriter, _ *http.Request) {
				http.Error(w, "down", http.StatusInternalServerError)
			}},
		{name: "timeouts are retried", retries: 1, wantHits: 2, want: Answer{Output: json.RawMessage(`9`)},
			handler: func(n int32, w http.ResponseWriter, r *http.Request) {
				if n == 1 {
					select {
					case <-time.After(2 * time.Second):
					case <-r.Context().Done():
					}
					return
				}
				fmt.Fprint(w, `9`)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var hits atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
					t.Errorf("request %s %s", r.Method, r.Header.Get("Content-Type"))
				}
				tt.handler(hits.Add(1), w, r)
			}))
			defer srv.Close()
			o := NewHTTP(srv.URL, 300*time.Millisecond, tt.retries)
			o.BaseDelay = time.Millisecond
			got, err := o.Query(context.Background(), raws(`{"x":1}`))
			if hits.Load() != tt.wantHits {
				t.Errorf("server hit %d times, want %d", hits.Load(), tt.wantHits)
			}
			if testenv.WantErr(t, err, tt.wantErr) {
				return
			}
			if fmt.Sprint(got[0]) != fmt.Sprint(tt.want) {
				t.Errorf("answer = %s, want %s", got[0], tt.want)
			}
		})
	}
}

// fakeRunner returns scripted outcomes: calls[i] for the i-th call, the
// last one again after that.
type fakeRunner struct {
	calls [][]sandbox.Outcome
	n     *int
	err   error
}

func (f fakeRunner) Call(_ context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error) {
	if f.err != nil {
		return nil, f.err
	}
	i := min(*f.n, len(f.calls)-1)
	*f.n++
	return f.calls[i][:len(req.Inputs)], nil
}

func (f fakeRunner) Generate(context.Context, sandbox.GenerateRequest) ([]json.RawMessage, error) {
	return nil, f.err
}

func TestPythonOracleOutcomes(t *testing.T) {
	ok := sandbox.Outcome{Status: sandbox.StatusOK, Output: json.RawMessage("1")}
	timeout := sandbox.Outcome{Status: sandbox.StatusTimeout, Error: "the call took longer than 2s and was killed"}
	tests := []struct {
		name      string
		calls     [][]sandbox.Outcome
		want      Answer
		wantCalls int
		wantFail  string // FailureError.Kind
		wantTask  string // in a TaskError's message
		wantErr   bool
	}{
		{name: "ok", calls: [][]sandbox.Outcome{{ok}}, want: Answer{Output: json.RawMessage("1")}, wantCalls: 1},
		{name: "raised: invalid input", calls: [][]sandbox.Outcome{{{Status: sandbox.StatusError, Error: "ValueError: no"}}},
			want: Answer{Invalid: "error: ValueError: no"}, wantCalls: 1},
		{name: "timeout once, then an answer", calls: [][]sandbox.Outcome{{timeout}, {ok}}, want: Answer{Output: json.RawMessage("1")}, wantCalls: 2},
		{name: "timeout twice: the task fails", calls: [][]sandbox.Outcome{{timeout}}, wantFail: FailTimeout, wantCalls: 2},
		{name: "out of memory twice: the task fails", calls: [][]sandbox.Outcome{{{Status: sandbox.StatusMemory}}}, wantFail: FailMemory, wantCalls: 2},
		{name: "crashed twice: the task fails", calls: [][]sandbox.Outcome{{{Status: sandbox.StatusCrashed, Error: "exit status 3"}}}, wantFail: FailCrash, wantCalls: 2},
		{name: "cannot load: the task's error", calls: [][]sandbox.Outcome{{{Status: sandbox.StatusLoad, Error: "SyntaxError"}}}, wantTask: "cannot be loaded: SyntaxError", wantCalls: 1},
		{name: "a set returned: the task's error", calls: [][]sandbox.Outcome{{{Status: sandbox.StatusBadOutput, Error: "the return value cannot be JSON: set"}}},
			wantTask: "returned a value JSON cannot hold", wantCalls: 1},
		{name: "an exception rejecting no input: the task's error", calls: [][]sandbox.Outcome{{{Status: sandbox.StatusUnexpected, Error: "Traceback…\nRuntimeError: x"}}},
			wantTask: "raised an exception that rejects no input on input 1 ([1, 2]):\n    Traceback…\n    RuntimeError: x", wantCalls: 1},
		{name: "a crash of the sandbox: infrastructure", calls: [][]sandbox.Outcome{{{Status: sandbox.StatusOutputLimit, Error: "too much"}}}, wantErr: true, wantCalls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := 0
			o := NewPython(fakeRunner{calls: tt.calls, n: &n}, "hidden.py", "f", sandbox.Limits{})
			got, err := o.Query(context.Background(), raws("[1, 2]"))
			if n != tt.wantCalls {
				t.Errorf("%d calls, want %d", n, tt.wantCalls)
			}
			var fail *FailureError
			switch {
			case tt.wantFail != "":
				if !errors.As(err, &fail) || fail.Kind != tt.wantFail || fail.Index != 1 || string(fail.Input) != "[1, 2]" {
					t.Fatalf("err = %v, want a %s failure of input 1", err, tt.wantFail)
				}
				if msg := err.Error(); !strings.Contains(msg, "input 1 ([1, 2])") || (tt.wantFail == FailTimeout && !strings.Contains(msg, "2s per input (task.oracle.timeout)")) {
					t.Errorf("message %q does not name the input and the limit", msg)
				}
			case tt.wantTask != "":
				var te *TaskError
				if !errors.As(err, &te) || !errors.Is(err, ErrTask) || !strings.Contains(err.Error(), tt.wantTask) {
					t.Fatalf("err = %v, want an error of the task saying %q", err, tt.wantTask)
				}
			case tt.wantErr:
				if err == nil || errors.As(err, &fail) || errors.Is(err, ErrTask) {
					t.Fatalf("err = %v, want an infrastructure error", err)
				}
			case err != nil:
				t.Fatal(err)
			case fmt.Sprint(got[0]) != fmt.Sprint(tt.want):
				t.Errorf("answer = %s, want %s", got[0], tt.want)
			}
		})
	}
	sandboxDown := errors.New("sandbox down")
	if _, err := NewPython(fakeRunner{err: sandboxDown}, "hidden.py", "f", sandbox.Limits{}).Query(context.Background(), raws("1")); !errors.Is(err, sandboxDown) {
		t.Errorf("sandbox failure: %v", err)
	}
}

// The exceptions that reject an input are told from the others in the
// sandbox: the usual ones and their subclasses, and those the task
// declares, by name or with their module; any other is an error of the
// task, with its traceback.
func TestPythonOracleRejections(t *testing.T) {
	testenv.NeedPython(t)
	dir := taskDir(t, nil)
	src := `import json


class Bad(Exception):
    pass


class Worse(Bad):
    pass


def f(x):
    if x == "value":
        raise ValueError("no")
    if x == "json":
        json.loads("{")
    if x == "key":
        return {}["k"]
    if x == "assert":
        assert False, "no"
    if x == "bad":
        raise Bad("declared")
    if x == "worse":
        raise Worse("a subclass of the declared")
    if x == "runtime":
        raise RuntimeError("not a rejection")
    if x == "zero":
        return 1 // 0
    if x == "exit":
        raise SystemExit(1)
    return x
`
	if err := os.WriteFile(filepath.Join(dir, "hidden.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	box, err := process.New(context.Background(), process.Options{Dir: dir, Log: zaptest.NewLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer box.Close()
	tests := []struct {
		input   string
		declare []string
		invalid string // Answer.Invalid
		task    string // in the TaskError
	}{
		{input: `"ok"`},
		{input: `"value"`, invalid: "ValueError: no"},
		{input: `"json"`, invalid: "JSONDecodeError"},
		{input: `"key"`, invalid: "KeyError"},
		{input: `"assert"`, invalid: "AssertionError: no"},
		{input: `"bad"`, task: "Bad: declared"},
		{input: `"bad"`, declare: []string{"Bad"}, invalid: "Bad: declared"},
		{input: `"worse"`, declare: []string{"hidden.Bad"}, invalid: "Worse: a subclass"},
		{input: `"runtime"`, declare: []string{"Bad"}, task: "RuntimeError: not a rejection"},
		{input: `"zero"`, task: "ZeroDivisionError"},
		{input: `"exit"`, task: "SystemExit"},
	}
	for _, tt := range tests {
		t.Run(tt.input+strings.Join(tt.declare, ","), func(t *testing.T) {
			o := NewPython(box, filepath.Join(dir, "hidden.py"), "f", sandbox.Limits{Timeout: 30 * time.Second}).Rejecting(tt.declare, "task.oracle.reject_exceptions")
			got, err := o.Query(context.Background(), raws(tt.input))
			if tt.task != "" {
				if !errors.Is(err, ErrTask) || !strings.Contains(err.Error(), tt.task) || !strings.Contains(err.Error(), "Traceback") {
					t.Fatalf("err = %v, want an error of the task with its traceback, saying %q", err, tt.task)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got[0].Invalid, tt.invalid) || (tt.invalid == "") != (got[0].Invalid == "") {
				t.Errorf("answer %+v, want invalid %q", got[0], tt.invalid)
			}
		})
	}
}
