package synth

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

func decode(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	v, err := task.Decode(raw)
	if err != nil {
		t.Fatalf("proposal %s is not JSON: %v", raw, err)
	}
	return v
}

// limitsObject checks {"limit": 0..9, "items": [0..9, ...]} with at most
// maxItems items and limit in [lo, hi].
func limitsObject(lo, hi int64, maxItems int) func(any) error {
	return func(v any) error {
		m, ok := v.(map[string]any)
		if !ok || len(m) != 2 {
			return fmt.Errorf("not an object with keys limit and items")
		}
		if n, ok := intValue(m["limit"]); !ok || n < lo || n > hi {
			return fmt.Errorf("limit %v outside [%d, %d]", m["limit"], lo, hi)
		}
		items, ok := m["items"].([]any)
		if !ok || len(items) > maxItems {
			return fmt.Errorf("items %v: not a list of at most %d", m["items"], maxItems)
		}
		for _, it := range items {
			if n, ok := intValue(it); !ok || n < 0 || n > 9 {
				return fmt.Errorf("item %v outside [0, 9]", it)
			}
		}
		return nil
	}
}

var limitsTask = task.Task{Name: "limits", Kind: task.KindOther, FunctionName: "solve",
	InputType:        `object {"limit": n, "items": [v, ...]}`,
	InputConstraints: "0 to 5 items; items between 0 and 9; limit between 0 and 9"}

func examples(inputs ...string) []task.Example {
	var out []task.Example
	for _, in := range inputs {
		out = append(out, task.Example{Input: json.RawMessage(in), Output: json.RawMessage(`0`), Source: task.SourceAgent})
	}
	return out
}

// TestProposeStructuredInputs checks the proposals for inputs the DSL
// cannot bind: exact count, no repeats within the batch or of observed
// inputs, valid by the description, the same for a seed.
func TestProposeStructuredInputs(t *testing.T) {
	tests := []struct {
		name  string
		tk    task.Task
		exs   []task.Example
		k     int
		valid func(any) error
	}{
		{name: "template, no evidence", tk: limitsTask, k: 6, valid: limitsObject(0, 9, 5)},
		{name: "template and mutations", tk: limitsTask, k: 12, valid: limitsObject(0, 9, 5),
			exs: examples(`{"limit": 3, "items": [1, 2]}`, `{"limit": 0, "items": []}`, `{"limit": 9, "items": [9, 9, 0, 4, 5]}`)},
		{name: "mutations only", k: 8, valid: limitsObject(1, 6, 4),
			tk:  task.Task{Name: "opaque", Kind: task.KindOther, FunctionName: "solve", InputType: "object"},
			exs: examples(`{"limit": 1, "items": [1, 2]}`, `{"limit": 6, "items": [3]}`, `{"limit": 2, "items": [0, 4, 5, 7]}`)},
		{name: "string of units", k: 5,
			tk: task.Task{Name: "units", Kind: task.KindString, FunctionName: "solve", InputType: "string",
				InputConstraints: "at most 8 characters: pairs of an uppercase letter and a digit 1 to 3"},
			valid: func(v any) error {
				s, ok := v.(string)
				if !ok || len(s) > 8 || len(s)%2 != 0 {
					return fmt.Errorf("%v: not letter-digit pairs", v)
				}
				for i := 0; i < len(s); i += 2 {
					if s[i] < 'A' || s[i] > 'Z' || s[i+1] < '1' || s[i+1] > '3' {
						return fmt.Errorf("bad pair %q", s[i:i+2])
					}
				}
				return nil
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			propose := func() []json.RawMessage {
				a := New(Options{Shared: testShared, Seed: 5})
				res, err := a.Propose(context.Background(), agent.ProposeRequest{Task: tt.tk, K: tt.k, Examples: tt.exs, Attempt: 1})
				if err != nil {
					t.Fatal(err)
				}
				return res.Inputs
			}
			got := propose()
			observed := map[string]bool{}
			for _, ex := range tt.exs {
				observed[task.MustCanonical(ex.Input)] = true
			}
			if reason := workflow.ValidateProposal(got, tt.k, observed, nil); reason != "" {
				t.Fatalf("proposal rejected: %s", reason)
			}
			for _, raw := range got {
				if err := tt.valid(decode(t, raw)); err != nil {
					t.Errorf("input %s: %v", raw, err)
				}
			}
			if diff := cmp.Diff(got, propose()); diff != "" {
				t.Errorf("proposals differ for the same seed (-first +second):\n%s", diff)
			}
		})
	}
}

// TestProposeAdaptsToRejection plays an oracle stricter than the
// description: the retry must obey the range the rejection states.
func TestProposeAdaptsToRejection(t *testing.T) {
	strict := limitsObject(2, 4, 5)
	a := New(Options{Shared: testShared, Seed: 11})
	req := agent.ProposeRequest{Task: limitsTask, K: 10, Attempt: 1}
	attempt := proposeUntilAccepted(t, a, req, strict, func(raw json.RawMessage) string {
		return "limit must be between 2 and 4, got " + string(raw)
	})
	if attempt == 1 {
		t.Fatal("the first proposal already obeyed the hidden range; the test proves nothing")
	}
	if attempt != 2 {
		t.Errorf("accepted at attempt %d, want 2 (the rejection states the range)", attempt)
	}
	// A later batch keeps the lesson.
	res, err := a.Propose(context.Background(), agent.ProposeRequest{Task: limitsTask, K: 10, Attempt: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range res.Inputs {
		if err := strict(decode(t, raw)); err != nil {
			t.Errorf("later batch forgot the rejection: %s: %v", raw, err)
		}
	}
}

// TestProposeKindInputsKeepExclusions checks the kind generators (a pair,
// a list) against what the description excludes and what a rejection
// teaches.
func TestProposeKindInputsKeepExclusions(t *testing.T) {
	pairTask := task.Task{Name: "divide", Kind: task.KindPair, FunctionName: "solve", InputType: "pair of integers [a, b]",
		InputConstraints: "two integers between -100 and 100; b is not 0", Domain: &task.Domain{Lo: -100, Hi: 100}}
	a := New(Options{Shared: testShared, Seed: 3, TimeLimit: time.Second})
	for _, exs := range [][]task.Example{nil, examples(`[7, 2]`, `[-9, 4]`, `[0, 5]`)} {
		res, err := a.Propose(context.Background(), agent.ProposeRequest{Task: pairTask, K: 20, Examples: exs, Attempt: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range res.Inputs {
			if p, ok := decode(t, raw).([]any); !ok || len(p) != 2 || p[1] == json.Number("0") {
				t.Errorf("input %s: want a pair whose b is not 0", raw)
			}
		}
	}

	listTask := task.Task{Name: "digits", Kind: task.KindList, FunctionName: "solve", InputType: "list of integers",
		InputConstraints: "0 to 6 integers", Domain: &task.Domain{Lo: -50, Hi: 50}}
	strict := func(v any) error {
		for _, x := range v.([]any) {
			if n, ok := intValue(x); !ok || n < 0 || n > 9 {
				return fmt.Errorf("%v outside [0, 9]", x)
			}
		}
		return nil
	}
	req := agent.ProposeRequest{Task: listTask, K: 8, Attempt: 1, Examples: examples(`[1, 2]`, `[9, 0, 3]`)}
	attempt := proposeUntilAccepted(t, a, req, strict, func(json.RawMessage) string { return "values must be between 0 and 9" })
	if attempt != 2 {
		t.Errorf("list proposal accepted at attempt %d, want 2 (the rejection states the range)", attempt)
	}
}

// proposeUntilAccepted plays an oracle that rejects the first input strict
// refuses, with a ValueError saying why(input), for up to three attempts;
// it returns the attempt whose proposal was accepted (4: none was).
func proposeUntilAccepted(t *testing.T, a *Agent, req agent.ProposeRequest, strict func(any) error, why func(json.RawMessage) string) int {
	t.Helper()
	for ; req.Attempt <= 3; req.Attempt++ {
		res, err := a.Propose(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		req.Rejection = ""
		for i, raw := range res.Inputs {
			if strict(decode(t, raw)) != nil {
				req.Rejection = fmt.Sprintf("oracle-rejected: the hidden program rejected input %d (%s): error: ValueError: %s",
					i+1, task.MustCanonical(raw), why(raw))
				break
			}
		}
		if req.Rejection == "" {
			break
		}
	}
	return req.Attempt
}

// pythonOracle answers batches of inputs, one JSON list per line on
// stdin, with one JSON list per line on stdout: the output of one function
// of a Python file on each input, or, when it raises, the rejection the
// workflow's oracle reports ("error: ValueError: ...").
const pythonOracle = `
import json, sys, importlib.util
spec = importlib.util.spec_from_file_location("hidden", sys.argv[1])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
f = getattr(mod, sys.argv[2])
for line in sys.stdin:
    out = []
    for x in json.loads(line):
        try:
            out.append({"output": f(x)})
        except Exception as e:
            msg = str(e)
            out.append({"invalid": "error: %s: %s" % (type(e).__name__, msg) if msg else "error: " + type(e).__name__})
    print(json.dumps(out), flush=True)
`

// oracleAnswer is a hidden program's answer to one input.
type oracleAnswer struct {
	Output  json.RawMessage `json:"output"`
	Invalid string          `json:"invalid"`
}

// hiddenProgram is one benchmark task's hidden program, running in a
// Python process for the whole subtest.
type hiddenProgram struct {
	file string
	in   io.WriteCloser
	out  *bufio.Scanner
	cmd  *exec.Cmd
	errs bytes.Buffer
}

func startHidden(t *testing.T, file, function string) *hiddenProgram {
	t.Helper()
	h := &hiddenProgram{file: file, cmd: exec.Command("python3", "-c", pythonOracle, file, function)}
	h.cmd.Stderr = &h.errs
	var err error
	if h.in, err = h.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := h.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	h.out = bufio.NewScanner(stdout)
	h.out.Buffer(make([]byte, 1<<20), 64<<20)
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = h.in.Close()
		_ = h.cmd.Wait()
	})
	return h
}

// query asks the hidden program for a batch.
func (h *hiddenProgram) query(t *testing.T, inputs []json.RawMessage) []oracleAnswer {
	t.Helper()
	line, err := json.Marshal(inputs)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.in.Write(append(line, '\n')); err != nil {
		t.Fatalf("hidden program %s: %v: %s", h.file, err, h.errs.String())
	}
	if !h.out.Scan() {
		t.Fatalf("hidden program %s ended: %v: %s", h.file, h.out.Err(), h.errs.String())
	}
	var answers []oracleAnswer
	if err := json.Unmarshal(h.out.Bytes(), &answers); err != nil || len(answers) != len(inputs) {
		t.Fatalf("hidden program %s answered %s (%v)", h.file, h.out.Bytes(), err)
	}
	return answers
}

// TestProposalsAcceptedByBenchmarkOracles plays the proposal protocol of
// the workflow (initial batch, then growing batches, three attempts each)
// against the hidden program of every benchmark task: every batch must be
// accepted within its attempts. It logs the share of tasks whose very
// first proposal was accepted. The synthesizer's search is bounded by
// size, not by the clock, so that a loaded machine proposes the same.
func TestProposalsAcceptedByBenchmarkOracles(t *testing.T) {
	testenv.NeedPython(t)
	if testing.Short() {
		t.Skip("queries the benchmark's hidden programs")
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "benchmarks", "tasks", "io2code-style", "*", "task.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no benchmark tasks: %v", err)
	}
	var ran, firstAccepted atomic.Int64
	var firstRejected sync.Map
	t.Run("tasks", func(t *testing.T) {
		for _, f := range files {
			tk, python, function := testenv.BenchmarkTask(t, f)
			if python == "" {
				continue
			}
			t.Run(tk.Name, func(t *testing.T) {
				t.Parallel()
				ran.Add(1)
				h := startHidden(t, python, function)
				a := New(Options{Shared: testShared, Seed: 1, TimeLimit: time.Minute, MaxSize: 3})
				var exs []task.Example
				for batch, k := 1, 2; batch <= 3; batch, k = batch+1, k+2 {
					observed := map[string]bool{}
					for _, ex := range exs {
						observed[task.MustCanonical(ex.Input)] = true
					}
					rejection, accepted := "", false
					for attempt := 1; attempt <= 3 && !accepted; attempt++ {
						res, err := a.Propose(context.Background(), agent.ProposeRequest{Task: tk, K: k, Examples: exs, Attempt: attempt, Rejection: rejection})
						if err != nil {
							t.Fatalf("batch %d attempt %d: %v", batch, attempt, err)
						}
						if rejection = workflow.ValidateProposal(res.Inputs, k, observed, nil); rejection != "" {
							continue
						}
						var got []task.Example
						for i, ans := range h.query(t, res.Inputs) {
							if ans.Invalid != "" {
								rejection = fmt.Sprintf("oracle-rejected: the hidden program rejected input %d (%s): %s", i+1, task.MustCanonical(res.Inputs[i]), ans.Invalid)
								break
							}
							got = append(got, task.Example{Input: res.Inputs[i], Output: ans.Output, Source: task.SourceAgent})
						}
						if rejection == "" {
							exs, accepted = append(exs, got...), true
							if batch == 1 && attempt == 1 {
								firstAccepted.Add(1)
							}
						} else if batch == 1 && attempt == 1 {
							firstRejected.Store(tk.Name, rejection)
						}
					}
					if !accepted {
						t.Fatalf("batch %d of %d inputs failed every attempt; last rejection: %s", batch, k, rejection)
					}
				}
			})
		}
	})
	if ran.Load() == 0 {
		t.Fatal("no benchmark task with a Python hidden program found")
	}
	t.Logf("first proposal accepted for %d of %d tasks (%.1f%%)", firstAccepted.Load(), ran.Load(), 100*float64(firstAccepted.Load())/float64(ran.Load()))
	firstRejected.Range(func(k, v any) bool {
		t.Logf("first proposal rejected: %s: %s", k, v)
		return true
	})
}

func TestPropose(t *testing.T) {
	dom := &task.Domain{Lo: -5, Hi: 5}
	tk := task.Task{Name: "t", InputType: "list of integers", InputConstraints: "0 to 9 integers", FunctionName: "solve", Kind: task.KindList, Domain: dom}
	sorted := familyCase{f: func(v any) any {
		xs := ints(v)
		out := []int64{}
		for _, x := range xs {
			if x > 0 {
				out = append(out, x)
			}
		}
		return out
	}}
	tests := []struct {
		name     string
		k        int
		examples []string
		missing  []string
	}{
		{name: "initial", k: 2},
		{name: "after two", k: 4, examples: []string{"[1,2,3]", "[4,-5]"}, missing: []string{"empty", "has_zero", "all_equal"}},
		{name: "many", k: 12, examples: []string{"[1,2,3]", "[4,-5]", "[]", "[0]"}, missing: []string{"descending", "long"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			exs := examplesFor(t, sorted, tc.examples)
			a := New(Options{Shared: testShared, Seed: 7, TimeLimit: 5 * time.Second, MaxPrograms: testPrograms})
			res, err := a.Propose(context.Background(), agent.ProposeRequest{Task: tk, K: tc.k, Examples: exs, Missing: tc.missing, Domain: dom, Attempt: 1})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := len(res.Inputs), tc.k; got != want {
				t.Fatalf("got %d inputs, want %d", got, want)
			}
			seen := map[string]bool{}
			for _, ex := range exs {
				seen[task.MustCanonical(ex.Input)] = true
			}
			covered := map[string]bool{}
			for _, in := range res.Inputs {
				c := task.MustCanonical(in)
				if seen[c] {
					t.Errorf("input %s repeats an observed or proposed input", in)
				}
				seen[c] = true
				v, err := task.Decode(in)
				if err != nil {
					t.Fatalf("proposal %s is not JSON: %v", in, err)
				}
				for _, f := range task.Numbers(v) {
					if !dom.Contains(f) {
						t.Errorf("input %s leaves the domain %v", in, dom)
					}
				}
				if n := len(v.([]any)); n > 9 {
					t.Errorf("input %s is longer than the constraints allow", in)
				}
				for _, cat := range task.CategoriesOf(tk.Kind, dom, in) {
					covered[cat] = true
				}
			}
			if tc.k >= len(tc.missing) {
				for _, m := range tc.missing {
					if !covered[m] {
						t.Errorf("missing category %q not covered by %s", m, res.Inputs)
					}
				}
			}
		})
	}
}

// TestProposeDistinguishes checks that proposals refute a wrong hypothesis:
// with examples that both "sorted" and "sorted set" explain, some proposed
// input must tell them apart.
func TestProposeDistinguishes(t *testing.T) {
	tk := task.Task{Name: "t", InputType: "list of integers", FunctionName: "solve", Kind: task.KindList, Domain: &task.Domain{Lo: -9, Hi: 9}}
	c := familyCase{f: func(v any) any {
		xs := ints(v)
		out := append([]int64{}, xs...)
		for i := range out {
			for j := i + 1; j < len(out); j++ {
				if out[j] < out[i] {
					out[i], out[j] = out[j], out[i]
				}
			}
		}
		return out
	}}
	exs := examplesFor(t, c, []string{"[3,1,2]", "[5,-4]"})
	a := New(Options{Shared: testShared, Seed: 3, TimeLimit: 10 * time.Second})
	res, err := a.Propose(context.Background(), agent.ProposeRequest{Task: tk, K: 4, Examples: exs, Attempt: 1})
	if err != nil {
		t.Fatal(err)
	}
	repeated := false
	for _, in := range res.Inputs {
		for _, cat := range task.CategoriesOf(tk.Kind, tk.Domain, in) {
			repeated = repeated || cat == "repeated_value"
		}
	}
	if !repeated {
		t.Errorf("no proposal separates sorted from sorted-set: %s", res.Inputs)
	}
}

// The near misses' sources are the latest input of each output in turn:
// the few palindromes among many random strings are among them.
func TestNearMissSources(t *testing.T) {
	var exs []task.Example
	for i, in := range []string{`"abba"`, `"xy"`, `"pq"`, `"racecar"`, `"mn"`, `"kl"`, `"gh"`, `"ef"`} {
		out := "false"
		if i == 0 || i == 3 {
			out = "true"
		}
		exs = append(exs, task.Example{Input: json.RawMessage(in), Output: json.RawMessage(out)})
	}
	got := nearMissSources(exs)
	want := []any{"ef", "racecar", "gh", "abba", "kl", "mn"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
}

// With fewer fresh inputs left than asked, the proposal is every one of
// them, marked AllLeft; with none left, it is an error. With enough left,
// it is exactly the K asked for.
func TestProposeTakesWhatIsLeft(t *testing.T) {
	tk := task.Task{Name: "small", Kind: task.KindInt, FunctionName: "solve", InputType: "an integer",
		InputConstraints: "one integer between 0 and 9", Domain: &task.Domain{Lo: 0, Hi: 9}}
	examples := func(xs ...int) []task.Example {
		var out []task.Example
		for _, x := range xs {
			out = append(out, task.Example{Input: json.RawMessage(fmt.Sprint(x)), Output: json.RawMessage(fmt.Sprint(x * x)), Source: task.SourceAgent})
		}
		return out
	}
	tests := []struct {
		name     string
		observed []task.Example
		k        int
		want     []string // sorted; nil: any k fresh inputs
		allLeft  bool
		err      bool
	}{
		{name: "enough left", observed: examples(0, 1), k: 4},
		{name: "four left of six asked", observed: examples(0, 1, 2, 3, 5, 8), k: 6, want: []string{"4", "6", "7", "9"}, allLeft: true},
		{name: "exactly as many left", observed: examples(0, 1, 2, 3, 5, 8), k: 4, want: []string{"4", "6", "7", "9"}},
		{name: "none left", observed: examples(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), k: 2, err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := New(Options{Shared: testShared, Seed: 5, MaxPrograms: testPrograms})
			res, err := a.Propose(context.Background(), agent.ProposeRequest{Task: tk, K: tt.k, Examples: tt.observed, Attempt: 1})
			if tt.err {
				if err == nil {
					t.Fatalf("Propose = %s, want an error", res.Inputs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			n := tt.k
			if tt.want != nil {
				n = len(tt.want)
			}
			observed := map[string]bool{}
			for _, ex := range tt.observed {
				observed[task.MustCanonical(ex.Input)] = true
			}
			if reason := workflow.ValidateProposal(res.Inputs, n, observed, tk.Domain); reason != "" {
				t.Fatalf("proposal %s: %s", res.Inputs, reason)
			}
			if res.AllLeft != tt.allLeft {
				t.Errorf("AllLeft %v, want %v", res.AllLeft, tt.allLeft)
			}
			if tt.want != nil {
				var got []string
				for _, in := range res.Inputs {
					got = append(got, task.MustCanonical(in))
				}
				sort.Strings(got)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("inputs (-want +got):\n%s", diff)
				}
			}
		})
	}
}
