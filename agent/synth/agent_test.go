package synth

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

func TestSessionLimit(t *testing.T) {
	tests := []struct {
		name     string
		session  time.Duration
		run      time.Duration
		searched time.Duration
		want     time.Duration
	}{
		{"no run bound", 20 * time.Second, 0, time.Hour, 20 * time.Second},
		{"plenty left", 20 * time.Second, 45 * time.Second, 10 * time.Second, 20 * time.Second},
		{"cut to what is left", 20 * time.Second, 45 * time.Second, 40 * time.Second, 5 * time.Second},
		{"spent: the least a session gets", 20 * time.Second, 45 * time.Second, 50 * time.Second, minSessionTime},
		{"run bound below a session", 20 * time.Second, 3 * time.Second, 0, 3 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := New(Options{Shared: testShared, TimeLimit: tc.session, RunTimeLimit: tc.run})
			a.searched = tc.searched
			if got := a.sessionLimit(); got != tc.want {
				t.Errorf("sessionLimit() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestProposeLimit(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want time.Duration
	}{
		{"defaults", Options{}, DefaultProposeTimeLimit},
		{"a fifth of a short session", Options{TimeLimit: time.Second, ProposeTimeLimit: 5 * time.Second}, 200 * time.Millisecond},
		{"the proposal bound", Options{TimeLimit: 20 * time.Second, ProposeTimeLimit: 1500 * time.Millisecond}, 1500 * time.Millisecond},
		{"negative: the default", Options{ProposeTimeLimit: -time.Second}, DefaultProposeTimeLimit},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := New(tc.opts).proposeLimit(); got != tc.want {
				t.Errorf("proposeLimit() = %v, want %v", got, tc.want)
			}
		})
	}
}

// A program that passes the new examples too is kept without a search;
// one that fails them is searched again.
func TestWriteKeepsConsistentProgram(t *testing.T) {
	tk := task.Task{Name: "double", Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"}
	ex := func(in, out string) task.Example {
		return task.Example{Input: json.RawMessage(in), Output: json.RawMessage(out)}
	}
	first := []task.Example{ex("[1, 2]", "[2, 4]"), ex("[3]", "[6]"), ex("[0, -5, 7]", "[0, -10, 14]")}
	tests := []struct {
		name     string
		more     []task.Example
		wantKept bool
	}{
		{"confirmed", []task.Example{ex("[9, 9]", "[18, 18]"), ex("[]", "[]")}, true},
		{"contradicted", []task.Example{ex("[4]", "[5]")}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := New(Options{Shared: testShared, Seed: 1, MaxPrograms: testPrograms})
			dir := t.TempDir()
			if _, err := a.Write(context.Background(), agent.WriteRequest{Task: tk, Examples: first, Workspace: dir}); err != nil {
				t.Fatal(err)
			}
			res, err := a.Write(context.Background(), agent.WriteRequest{Task: tk, Examples: append(append([]task.Example{}, first...), tc.more...), Workspace: dir})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(res.Notes, "kept without a new search"); got != tc.wantKept {
				t.Errorf("kept = %v, want %v; notes:\n%s", got, tc.wantKept, res.Notes)
			}
		})
	}
}

// TestDeterminism writes a candidate and proposes inputs twice with one
// seed. The proposals tell apart the programs consistent with examples of
// sorting: their search ends one size past sorted(xs), before any stage
// that a time budget cuts, so that a loaded machine cannot change them.
func TestDeterminism(t *testing.T) {
	c := familyCases[3]
	tk := taskFor(c)
	exs := examplesFor(t, c, c.inputs)
	sorting := familyCase{name: "sorted", kind: task.KindList, typ: "list of integers", f: func(v any) any {
		xs := ints(v)
		slices.Sort(xs)
		return append([]int64{}, xs...)
	}}
	sortExs := examplesFor(t, sorting, []string{"[3,1,2]", "[5,-4]", "[0]"})
	run := func() (string, []string) {
		a := New(Options{Shared: testShared, Seed: 42, MaxPrograms: testPrograms})
		dir := t.TempDir()
		res, err := a.Write(context.Background(), agent.WriteRequest{Task: tk, Examples: exs, Workspace: dir})
		if err != nil {
			t.Fatal(err)
		}
		src := handedOver(t, res, dir)
		pr, err := a.Propose(context.Background(), agent.ProposeRequest{Task: taskFor(sorting), K: 6, Examples: sortExs, Attempt: 1})
		if err != nil {
			t.Fatal(err)
		}
		var ins []string
		for _, in := range pr.Inputs {
			ins = append(ins, string(in))
		}
		return string(src), ins
	}
	src1, in1 := run()
	src2, in2 := run()
	if src1 != src2 {
		t.Errorf("same seed, different candidates:\n%s\n---\n%s", src1, src2)
	}
	if diff := cmp.Diff(in1, in2); diff != "" {
		t.Errorf("same seed, different proposals (-first +second):\n%s", diff)
	}
}

func TestWriteNotesAndFallback(t *testing.T) {
	tk := task.Task{Name: "t", InputType: "object", FunctionName: "solve", Kind: task.KindOther}
	// An object holding an object: no binding reads it (a record of
	// scalars and lists would bind).
	exs := []task.Example{{Input: json.RawMessage(`{"a": {"b": 1}}`), Output: json.RawMessage(`1`)}}
	dir := t.TempDir()
	res, err := New(Options{Shared: testShared}).Write(context.Background(), agent.WriteRequest{Task: tk, Examples: exs, Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Notes, "cannot express") {
		t.Errorf("notes %q do not explain the fallback", res.Notes)
	}
	if src := handedOver(t, res, dir); !strings.Contains(string(src), "def solve(input_data):") {
		t.Errorf("fallback candidate %q does not define solve", src)
	}
	if res.Usage.Total() != 0 {
		t.Errorf("usage %v, want zero tokens", res.Usage)
	}
}

// Two examples naming two categories: nothing computes the strings, so the
// session falls back to naming a computed value, and the candidate passes
// both examples (the workflow grants more examples only then).
func TestWriteNamesCategoriesAsLastResort(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: cannot run the emitted program")
	}
	tk := task.Task{Name: "heading", Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"}
	exs := []task.Example{
		{Input: json.RawMessage("[3, -1, 4]"), Output: json.RawMessage(`"north"`)},
		{Input: json.RawMessage("[-2, -7]"), Output: json.RawMessage(`"south"`)},
	}
	a := New(Options{Shared: testShared, Seed: 1, MaxPrograms: testPrograms})
	dir := t.TempDir()
	res, err := a.Write(context.Background(), agent.WriteRequest{Task: tk, Examples: exs, Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Notes, "names of categories") {
		t.Errorf("notes do not mention the categories:\n%s", res.Notes)
	}
	src := handedOver(t, res, dir)
	got := runCandidate(t, py, string(src), []string{"[3, -1, 4]", "[-2, -7]"})
	for i, ex := range exs {
		if !task.Equal(got[i], ex.Output, 1e-9) {
			t.Errorf("solve(%s) = %s, want %s\n%s", ex.Input, got[i], ex.Output, src)
		}
	}
}

// TestFallbackConstant checks the constant program written when the DSL
// cannot bind the inputs: Python reads back the most frequent output.
func TestFallbackConstant(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH")
	}
	tests := []struct {
		outputs []string
		want    string
	}{
		{outputs: []string{`{"order": [2, 1], "ok": true, "note": null}`, `3`, `{"ok": true, "order": [2, 1], "note": null}`},
			want: `{"note": null, "ok": true, "order": [2, 1]}`},
		{outputs: []string{`"a\"b\\n\u00e9"`, `false`, `false`}, want: `false`},
		{outputs: []string{`1.5`, `[-2, "x"]`}, want: `1.5`},
	}
	for _, tt := range tests {
		var exs []task.Example
		for _, o := range tt.outputs {
			exs = append(exs, task.Example{Input: json.RawMessage(`{"k": 1}`), Output: json.RawMessage(o)})
		}
		src := fallbackProgram("solve", exs, dsl.ErrUnsupported)
		out, err := exec.Command("python3", "-c", src+"\nimport json\nprint(json.dumps(solve(None), sort_keys=True))").CombinedOutput()
		if err != nil {
			t.Fatalf("fallback program does not run: %v\n%s\n%s", err, src, out)
		}
		if got := strings.TrimSpace(string(out)); got != tt.want {
			t.Errorf("fallback returns %s, want %s\n%s", got, tt.want, src)
		}
	}
}

// stuckTask is an integer task whose outputs no small program fits (a
// table of arbitrary numbers); its text names a constant, so that its
// lambda banks are built for the session.
func stuckTask(t *testing.T, constant string) (task.Task, []task.Example) {
	t.Helper()
	tk := task.Task{Name: "stuck", Kind: task.KindInt, InputType: "integer", InputConstraints: "an integer between 0 and " + constant, FunctionName: "solve"}
	outs := []string{"517", "93", "8812", "4", "70331", "612", "29", "1450"}
	var exs []task.Example
	for i, o := range outs {
		exs = append(exs, task.Example{Input: json.RawMessage(strconv.Itoa(i * 3)), Output: json.RawMessage(o)})
	}
	return tk, exs
}

// A cancelled Write returns the context's error soon, writes no
// candidate.py and records no session: the next Write searches afresh.
func TestWriteCancelled(t *testing.T) {
	tests := []struct {
		name     string
		constant string
		after    time.Duration
	}{
		{"before the call", "7001", -1},
		{"while the lambda banks are built", "7002", 5 * time.Millisecond},
		{"during the search", "7001", 1500 * time.Millisecond},
	}
	warm := New(Options{Shared: testShared, MaxPrograms: 1})
	tk, exs := stuckTask(t, "7001")
	// The banks of 7001 exist before the search is cancelled.
	if _, err := warm.Write(context.Background(), agent.WriteRequest{Task: tk, Examples: exs, Workspace: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tk, exs := stuckTask(t, tc.constant)
			a := New(Options{Shared: testShared, TimeLimit: time.Minute})
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var cancelled time.Time
			if tc.after < 0 {
				cancel()
				cancelled = time.Now()
			} else {
				go func() {
					time.Sleep(tc.after)
					cancelled = time.Now()
					cancel()
				}()
			}
			_, err := a.Write(ctx, agent.WriteRequest{Task: tk, Examples: exs, Workspace: dir})
			returned := time.Now()
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Write returned %v, want the context's cancellation", err)
			}
			t.Logf("returned %v after the cancellation", returned.Sub(cancelled))
			if _, err := os.Stat(filepath.Join(dir, agent.CandidateFile)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("candidate.py after a cancelled Write: %v", err)
			}
			a.opts.MaxPrograms = 1 << 12
			res, err := a.Write(context.Background(), agent.WriteRequest{Task: tk, Examples: exs, Workspace: dir})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(res.Notes, "reusing") || strings.Contains(res.Notes, "went on") {
				t.Errorf("the Write after a cancelled one did not search afresh:\n%s", res.Notes)
			}
		})
	}
}

// BenchmarkWriteCancel measures how long a Write takes to return once its
// context is cancelled in the middle of a search (issue: Ctrl-C stops a
// run within a second).
func BenchmarkWriteCancel(b *testing.B) {
	tk := task.Task{Name: "stuck", Kind: task.KindInt, InputType: "integer", FunctionName: "solve"}
	outs := []string{"517", "93", "8812", "4", "70331", "612", "29", "1450"}
	var exs []task.Example
	for i, o := range outs {
		exs = append(exs, task.Example{Input: json.RawMessage(strconv.Itoa(i * 3)), Output: json.RawMessage(o)})
	}
	defaultLambdas()
	var latency time.Duration
	for i := 0; i < b.N; i++ {
		a := New(Options{Shared: testShared, TimeLimit: time.Minute})
		ctx, cancel := context.WithCancel(context.Background())
		var at time.Time
		go func() {
			// Into the search's levels and sweeps.
			time.Sleep(time.Duration(200+i%7*150) * time.Millisecond)
			at = time.Now()
			cancel()
		}()
		if _, err := a.Write(ctx, agent.WriteRequest{Task: tk, Examples: exs, Workspace: b.TempDir()}); !errors.Is(err, context.Canceled) {
			b.Fatalf("Write returned %v", err)
		}
		latency += time.Since(at)
		cancel()
	}
	b.ReportMetric(float64(latency.Milliseconds())/float64(b.N), "ms-to-stop/op")
}

// A run stuck on examples that nothing fits spends its next sessions on
// the same examples going on with the search (larger sizes), instead of
// returning the same partial program; once the run's search time is spent,
// a session reuses the result.
func TestWriteGoesOnWhenStuck(t *testing.T) {
	tk, exs := stuckTask(t, "7001")
	a := New(Options{Shared: testShared, MaxPrograms: 1 << 16})
	dir := t.TempDir()
	key := examplesKey(exs)
	fb := &agent.Feedback{Passed: 0, Total: len(exs)}
	var evaluated []int64
	for i := 0; i < 3; i++ {
		res, err := a.Write(context.Background(), agent.WriteRequest{Task: tk, Examples: exs, Workspace: dir, Feedback: fb})
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && !strings.Contains(res.Notes, "went on with the search") {
			t.Errorf("session %d did not go on with the search:\n%s", i+1, res.Notes)
		}
		evaluated = append(evaluated, a.sessions[key].result.evaluated)
	}
	if !(evaluated[0] < evaluated[1] && evaluated[1] < evaluated[2]) {
		t.Errorf("programs evaluated after each session: %v, want growing", evaluated)
	}
	// The run's time spent: the same result again.
	b := New(Options{Shared: testShared, TimeLimit: time.Second, RunTimeLimit: time.Second})
	if _, err := b.Write(context.Background(), agent.WriteRequest{Task: tk, Examples: exs, Workspace: dir}); err != nil {
		t.Fatal(err)
	}
	b.searched = time.Hour
	res, err := b.Write(context.Background(), agent.WriteRequest{Task: tk, Examples: exs, Workspace: dir, Feedback: fb})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Notes, "reusing its search") {
		t.Errorf("with the run's time spent, the session did not reuse the search:\n%s", res.Notes)
	}
}

// A search cut short by the session's budget finds the program in the
// next sessions on the same examples.
func TestWriteStuckFindsLater(t *testing.T) {
	c := familyCases[1] // scalar: a * 2 - b
	tk := taskFor(c)
	exs := examplesFor(t, c, c.inputs)
	a := New(Options{Shared: testShared, MaxPrograms: 1 << 13})
	fb := &agent.Feedback{Passed: 0, Total: len(exs)}
	for i := 0; i < 20; i++ {
		res, err := a.Write(context.Background(), agent.WriteRequest{Task: tk, Examples: exs, Workspace: t.TempDir(), Feedback: fb})
		if err != nil {
			t.Fatal(err)
		}
		r := a.sessions[examplesKey(exs)].result
		if !r.solved {
			continue
		}
		if i == 0 {
			t.Fatalf("solved in the first session (%d programs): the budget does not cut the search", r.evaluated)
		}
		t.Logf("solved in session %d: %s (%d programs)\n%s", i+1, r.best, r.evaluated, res.Notes)
		return
	}
	t.Errorf("not solved in 20 sessions of 8192 programs")
}
