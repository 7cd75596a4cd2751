package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/oracle"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

// The fakes run no Python: a "program" is the name of a Go function in
// programs, optionally followed by "#embed:<n>", "#complexity:<x>",
// "#hardcoding:<x>" tags that
// drive the fake analysis.
var programs = map[string]func(in []int) any{
	"double": func(in []int) any { return in[0] * 2 },
	"square": func(in []int) any { return in[0] * in[0] },
	"zero":   func(in []int) any { return 0 },
	"float":  func(in []int) any { return float64(in[0])*2 + 1e-12 },
	// almost: right on every input but 3.
	"almost": func(in []int) any {
		if in[0] == 3 {
			return 0
		}
		return in[0] * 2
	},
}

func decodeInts(raw json.RawMessage) []int {
	var v any
	_ = json.Unmarshal(raw, &v)
	switch x := v.(type) {
	case float64:
		return []int{int(x)}
	case []any:
		out := make([]int, len(x))
		for i, e := range x {
			f, _ := e.(float64)
			out[i] = int(f)
		}
		return out
	}
	return []int{0}
}

type fakeEvaluator struct{}

func progName(source string) string {
	return strings.TrimSpace(strings.Split(source, "#")[0])
}

func tag(source, name string) string {
	for _, part := range strings.Split(source, "#")[1:] {
		if v, ok := strings.CutPrefix(strings.TrimSpace(part), name+":"); ok {
			return v
		}
	}
	return ""
}

func (fakeEvaluator) Call(_ context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error) {
	fn, ok := programs[progName(req.Program.Source)]
	out := make([]sandbox.Outcome, len(req.Inputs))
	for i, in := range req.Inputs {
		if !ok {
			out[i] = sandbox.Outcome{Status: sandbox.StatusLoad, Error: "no such program"}
			continue
		}
		raw, _ := json.Marshal(fn(decodeInts(in)))
		out[i] = sandbox.Outcome{Status: sandbox.StatusOK, Output: raw}
	}
	return out, nil
}

func (fakeEvaluator) Analyse(_ context.Context, req sandbox.AnalyseRequest) (sandbox.Analysis, error) {
	an := sandbox.Analysis{Parses: true, DefinesFunc: progName(req.Source) != ""}
	if c := tag(req.Source, "complexity"); c != "" {
		fmt.Sscan(c, &an.Complexity)
	}
	if h := tag(req.Source, "hardcoding"); h != "" {
		fmt.Sscan(h, &an.Hardcoding)
	}
	if n := tag(req.Source, "embed"); n != "" {
		var k int
		fmt.Sscan(n, &k)
		for i := 0; i < k && i < len(req.Inputs); i++ {
			an.Embedded = append(an.Embedded, i)
		}
	}
	return an, nil
}

// fakeOracle doubles integers and rejects inputs above reject (when set).
type fakeOracle struct {
	mu      sync.Mutex
	queries int
	reject  int
	infra   error
	// drift, when set, adds the number of the query to every answer: a
	// hidden program that is not deterministic.
	drift bool
	// failAfter, when set, makes every query after that many fail.
	failAfter int
	// asked holds every query's inputs (canonical), in order.
	asked [][]string
	// floats, when set, answers floats (2x as 2.0·x).
	floats bool
}

func (o *fakeOracle) Query(_ context.Context, inputs []json.RawMessage) ([]oracle.Answer, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.queries++
	var q []string
	for _, in := range inputs {
		q = append(q, task.MustCanonical(in))
	}
	o.asked = append(o.asked, q)
	if o.infra != nil {
		return nil, o.infra
	}
	if o.failAfter > 0 && o.queries > o.failAfter {
		return nil, errInfra
	}
	out := make([]oracle.Answer, len(inputs))
	for i, in := range inputs {
		x := decodeInts(in)[0]
		if o.reject != 0 && x > o.reject {
			out[i] = oracle.Answer{Invalid: "ValueError: too large"}
			continue
		}
		y := x * 2
		if o.drift {
			y += o.queries
		}
		raw, _ := json.Marshal(y)
		if o.floats {
			raw = append(raw, ".0"...)
		}
		out[i] = oracle.Answer{Output: raw}
	}
	return out, nil
}

func (o *fakeOracle) Close() error { return nil }

// scriptAgent writes scripted programs and proposes fresh integers.
type scriptAgent struct {
	mu       sync.Mutex
	programs []string // one per Write; the last repeats
	writes   int
	next     int
	usage    task.Usage
	// proposeUsage is what each proposal spends.
	proposeUsage task.Usage
	proposeFn    func(req agent.ProposeRequest) []json.RawMessage
	requests     []agent.ProposeRequest
	feedbacks    []*agent.Feedback
	writeErr     error
	onWrite      func(n int)
	// proposeErr, when set, decides an error for a proposal request.
	proposeErr func(req agent.ProposeRequest) error
	// block, when set, holds Write (ignoring ctx) until it is closed.
	block  chan struct{}
	active int
	// allLeft marks a proposal of fewer than K inputs as every fresh
	// input the agent can find.
	allLeft bool
	// inMemory hands the program over in WriteResult.Program instead of
	// writing candidate.py.
	inMemory bool
}

// writing reports whether a Write is in progress.
func (a *scriptAgent) writing() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.active > 0
}

func (a *scriptAgent) Write(ctx context.Context, req agent.WriteRequest) (agent.WriteResult, error) {
	a.mu.Lock()
	i := min(a.writes, len(a.programs)-1)
	a.writes++
	n := a.writes
	a.feedbacks = append(a.feedbacks, req.Feedback)
	a.active++
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.active--
		a.mu.Unlock()
	}()
	if a.onWrite != nil {
		a.onWrite(n)
	}
	if a.block != nil {
		<-a.block
	} else if err := ctx.Err(); err != nil {
		return agent.WriteResult{}, err
	}
	if a.writeErr != nil {
		return agent.WriteResult{}, a.writeErr
	}
	if a.inMemory {
		return agent.WriteResult{Usage: a.usage, Notes: "scripted", Program: []byte(a.programs[i])}, nil
	}
	if a.programs[i] != "" {
		if err := os.WriteFile(filepath.Join(req.Workspace, agent.CandidateFile), []byte(a.programs[i]), 0o644); err != nil {
			return agent.WriteResult{}, err
		}
	}
	return agent.WriteResult{Usage: a.usage, Notes: "scripted"}, nil
}

func (a *scriptAgent) Propose(_ context.Context, req agent.ProposeRequest) (agent.ProposeResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.requests = append(a.requests, req)
	if a.proposeErr != nil {
		if err := a.proposeErr(req); err != nil {
			return agent.ProposeResult{}, err
		}
	}
	if a.proposeFn != nil {
		ins := a.proposeFn(req)
		return agent.ProposeResult{Inputs: ins, Usage: a.proposeUsage, AllLeft: a.allLeft && len(ins) < req.K}, nil
	}
	out := make([]json.RawMessage, req.K)
	for i := range out {
		a.next++
		out[i] = json.RawMessage(fmt.Sprint(a.next))
	}
	return agent.ProposeResult{Inputs: out, Usage: a.proposeUsage}, nil
}

type fakeRandom struct{ next int }

func (r *fakeRandom) Name() string { return "fake generator" }

func (r *fakeRandom) Generate(_ context.Context, k int, _ []json.RawMessage, _ int64) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, k)
	for i := range out {
		r.next++
		out[i] = json.RawMessage(fmt.Sprint(1000 + r.next))
	}
	return out, nil
}

// memRecorder keeps everything recorded.
type memRecorder struct {
	mu       sync.Mutex
	events   []Event
	examples []task.Example
	fail     error
	// killedAt, when set, is an event type at which the process "dies":
	// that event and every later one are lost.
	killedAt string
	killed   bool
}

func (m *memRecorder) RecordEvent(_ context.Context, ev Event) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.killed || ev.Type == m.killedAt {
		m.killed = true
		return errInfra
	}
	m.events = append(m.events, ev)
	return m.fail
}

func (m *memRecorder) RecordExamples(_ context.Context, _ string, exs []task.Example) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.examples = append(m.examples, exs...)
	return m.fail
}

func (m *memRecorder) types() []string {
	var out []string
	for _, e := range m.events {
		out = append(out, e.Type)
	}
	return out
}

// harness bundles a run's fakes.
type harness struct {
	t       *testing.T
	agent   *scriptAgent
	oracle  *fakeOracle
	rec     *memRecorder
	random  *fakeRandom
	dir     string
	archive *candidates.Archive
	// eval replaces fakeEvaluator when set; progress receives the
	// progress lines when set.
	eval     Evaluator
	progress *strings.Builder
	// domain, when set, is the task's finite domain.
	domain Domain
}

func newHarness(t *testing.T, programs ...string) *harness {
	t.Helper()
	dir := t.TempDir()
	arch, err := candidates.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, agent: &scriptAgent{programs: programs}, oracle: &fakeOracle{}, rec: &memRecorder{}, random: &fakeRandom{}, dir: dir, archive: arch}
}

func (h *harness) run(ctx context.Context, s Settings, kind task.Kind) (*Result, error) {
	h.t.Helper()
	return Run(ctx, h.spec(s, kind), h.deps())
}

func (h *harness) spec(s Settings, kind task.Kind) Spec {
	dom := &task.Domain{Lo: -1000, Hi: 100000}
	spec := Spec{
		Task:      task.Task{Name: "double", FunctionName: "solve", Kind: kind, InputType: "integer", Domain: dom},
		Settings:  s,
		Workspace: h.dir,
		RunID:     "run-test-0001",
	}
	if h.progress != nil {
		spec.Progress = h.progress
	}
	return spec
}

func (h *harness) deps() Deps {
	d := Deps{Agent: h.agent, Oracle: h.oracle, Evaluator: h.eval, Random: h.random, Domain: h.domain, Archive: h.archive, Recorders: []Recorder{h.rec}}
	if h.eval == nil {
		d.Evaluator = fakeEvaluator{}
	}
	if h.random == nil {
		d.Random = nil // no generator: an untyped nil, not a nil *fakeRandom
	}
	return d
}

var errInfra = errors.New("endpoint down")

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// Resume makes the scripted agent continue where an interrupted run was.
func (a *scriptAgent) Resume(writes, proposes int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.writes = writes
}
