package benchmarks

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/runner"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/workflow"
)

// baseConfig keeps the sweep quick, in the process sandbox, with a bank of
// its own.
func baseConfig(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "base.yaml")
	yaml := "sandbox: {kind: process, call_timeout: 60s}\nagent: {synth: {time_limit: 5s}}\nworkflow: {max_iterations: 8}\nbank: {path: bank.db}\n"
	if err := os.WriteFile(p, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSweepSynthesizerOverSmallTaskSet(t *testing.T) {
	testenv.NeedPython(t)
	out := t.TempDir()
	sw := &Sweep{TasksDir: filepath.Join("testdata", "tasks"), Base: baseConfig(t), Out: out, Parallel: 2}
	sum, err := sw.Execute(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]TaskResult{}
	for _, r := range sum.Results {
		byID[r.ID] = r
	}
	got := map[string]bool{}
	for id, r := range byID {
		got[id] = r.Solved
	}
	want := map[string]bool{"crashing_oracle": false, "reverse": true, "negate": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("solved (-want +got):\n%s", diff)
	}
	if e := byID["crashing_oracle"].Error; !strings.Contains(e, "hidden program") && !strings.Contains(e, "oracle") {
		t.Errorf("crashing oracle error = %q, want the oracle named", e)
	}
	if r := byID["reverse"]; r.HeldoutTotal != 15 || r.HeldoutAccuracy != 1 || r.StopReason != workflow.StopEarly || r.Level != "base" || r.Family != "reorder" || r.Kind != "list" {
		t.Errorf("reverse record %+v", r)
	}
	if sum.Tasks != 3 || sum.Solved != 2 || sum.Errors != 1 || sum.Levels["base"].Solved != 1 || sum.Levels["hard"].Tasks != 1 {
		t.Errorf("summary tasks %d solved %d errors %d levels %+v", sum.Tasks, sum.Solved, sum.Errors, sum.Levels)
	}
	if diff := cmp.Diff(map[string]LevelStats{"reorder": {Tasks: 1, Runs: 1, Solved: 1, Rate: 1}, NoFamily: {Tasks: 2, Runs: 2, Solved: 1, Rate: 0.5, Errors: 1}}, sum.Families); diff != "" {
		t.Errorf("families (-want +got):\n%s", diff)
	}
	// Every task has a generator: the three runs (one ended by its
	// crashing oracle) had the defaults of such a task, and the summary
	// says so.
	wantSettings := []SettingsGroup{{RandomShare: 0.5, CoverageGate: true, Runs: 3, Origins: map[string]string{
		"workflow.random_share": config.OriginGenerator, "workflow.coverage_gate": config.OriginGenerator}}}
	if diff := cmp.Diff(wantSettings, sum.Settings); diff != "" {
		t.Errorf("settings (-want +got):\n%s", diff)
	}
	for _, f := range []string{SummaryJSON, SummaryCSV, SummaryMD} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	if md := mustReadFile(t, filepath.Join(out, SummaryMD)); !strings.Contains(md, "- random_share 0.5 (default for a task with a generator), coverage_gate true (default for a task with a generator): 3 runs") {
		t.Errorf("summary.md does not say the settings:\n%s", md)
	}
	back, err := ReadSummary(out)
	if err != nil || back.Solved != 2 {
		t.Errorf("ReadSummary: %v, solved %d", err, back.Solved)
	}
	// Every run and the session say what the process took: CPU time and
	// memory at its peak, the session's within its high-water mark.
	for id, r := range byID {
		if r.CPUSeconds <= 0 || r.PeakRSSBytes <= 0 || r.PeakHeapBytes <= 0 {
			t.Errorf("%s: CPU %.2f s, peak RSS %d, peak heap %d: want all measured", id, r.CPUSeconds, r.PeakRSSBytes, r.PeakHeapBytes)
		}
	}
	if len(back.Sessions) != 1 {
		t.Fatalf("%d sessions in the summary, want 1", len(back.Sessions))
	}
	se := back.Sessions[0]
	for id, r := range byID {
		if r.PeakRSSBytes > se.PeakRSSBytes || r.PeakHeapBytes > se.PeakHeapBytes {
			t.Errorf("%s peaked at %d resident, %d heap, over the session's %d, %d", id, r.PeakRSSBytes, r.PeakHeapBytes, se.PeakRSSBytes, se.PeakHeapBytes)
		}
	}
	if se.CPUSeconds <= 0 || se.FinalRSSBytes <= 0 || se.FinalRSSBytes > se.PeakRSSBytes || se.FinalHeapBytes <= 0 {
		t.Errorf("session CPU %.2f s, final RSS %d of peak %d, final heap %d: want all measured", se.CPUSeconds, se.FinalRSSBytes, se.PeakRSSBytes, se.FinalHeapBytes)
	}
	if md := mustReadFile(t, filepath.Join(out, SummaryMD)); !regexp.MustCompile(`The sweep's process: CPU [0-9.]+ s .*peak memory [1-9][0-9]* MiB resident`).MatchString(md) ||
		!strings.Contains(md, "| CPU s | peak MiB |") {
		t.Errorf("summary.md does not give the process's CPU time and memory:\n%s", md)
	}
	f, _ := os.Open(filepath.Join(out, SummaryCSV))
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) != 4 {
		t.Errorf("summary.csv: %d rows, %v", len(rows), err)
	} else if col := slices.Index(rows[0], "peak_rss_bytes"); col < 0 || rows[1][col] == "0" {
		t.Errorf("summary.csv has no peak_rss_bytes column, or a zero in it: %q", rows[:2])
	}
	// Held-out tests never reach a workspace.
	filepath.Walk(filepath.Join(out, RunsDir), func(p string, _ os.FileInfo, _ error) error {
		if filepath.Base(p) == "heldout.jsonl" {
			t.Errorf("held-out tests copied into %s", p)
		}
		return nil
	})
}

func TestSweepInterruptedThenResumed(t *testing.T) {
	testenv.NeedPython(t)
	out := t.TempDir()
	base := baseConfig(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := &Sweep{TasksDir: filepath.Join("testdata", "tasks"), Base: base, Out: out, Parallel: 1,
		Filter:   regexp.MustCompile("^(reverse|negate)$"),
		Progress: &cancelAfterFirst{cancel: cancel}}
	sum, err := first.Execute(ctx)
	if err == nil || !strings.Contains(err.Error(), "1 of 2 runs pending (run the same command again") {
		t.Fatalf("interrupted sweep: err = %v", err)
	}
	if sum.Tasks != 1 || len(sum.Pending) != 1 || !strings.Contains(sum.Headline(), "1 task pending") {
		t.Fatalf("interrupted sweep recorded %d tasks, pending %v (%s), want 1 and 1", sum.Tasks, sum.Pending, sum.Headline())
	}
	var ran []string
	second := &Sweep{TasksDir: filepath.Join("testdata", "tasks"), Base: base, Out: out, Parallel: 1,
		Filter: regexp.MustCompile("^(reverse|negate)$"),
		Run: func(ctx context.Context, c *config.Config, o runner.Options) (*workflow.Result, error) {
			ran = append(ran, c.Task.Name)
			return runner.Run(ctx, c, o)
		}}
	sum, err = second.Execute(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"reverse"}, ran); diff != "" { // negate was finished
		t.Errorf("resumed sweep ran (-want +got):\n%s", diff)
	}
	if sum.Tasks != 2 || sum.Results[0].ID != "negate" || sum.Results[0].StopReason == "" {
		t.Errorf("resumed summary: %+v", sum.Results)
	}
}

// cancelAfterFirst interrupts a sweep once its first task is recorded.
type cancelAfterFirst struct {
	cancel   context.CancelFunc
	finished atomic.Int32
}

func (p *cancelAfterFirst) Start(total, done, solved int) {}
func (p *cancelAfterFirst) Finished(r TaskResult, done, solved int) {
	if p.finished.Add(1) == 1 {
		p.cancel()
	}
}
func (p *cancelAfterFirst) Stop() {}

func TestSweepRepeatAndPanics(t *testing.T) {
	// The sweep checks every task in a sandbox before it starts.
	testenv.NeedPython(t)
	out := t.TempDir()
	var seeds []int64
	sw := &Sweep{TasksDir: filepath.Join("testdata", "tasks"), Out: out, Repeat: 2,
		Filter: regexp.MustCompile("^negate$"),
		Run: func(ctx context.Context, c *config.Config, o runner.Options) (*workflow.Result, error) {
			seeds = append(seeds, c.Workflow.Seed)
			panic("agent bug")
		}}
	sum, err := sw.Execute(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int64{1, 2}, seeds); diff != "" {
		t.Errorf("seeds (-want +got):\n%s", diff)
	}
	var ids []string
	for _, r := range sum.Results {
		ids = append(ids, r.ID)
		if !strings.Contains(r.Error, "panic: agent bug") {
			t.Errorf("%s error = %q, want the panic recorded", r.ID, r.Error)
		}
	}
	if diff := cmp.Diff([]string{"negate", "negate#r2"}, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
}

func TestDiscoverErrors(t *testing.T) {
	if _, err := Discover(t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "no task directories") {
		t.Errorf("empty dir: %v", err)
	}
	if _, err := Discover(filepath.Join(t.TempDir(), "nope"), nil); err == nil {
		t.Error("missing dir: no error")
	}
}

// fakeRun ends every task at once, without a program, and counts the runs.
func fakeRun(ran *[]string) RunFunc {
	return func(ctx context.Context, c *config.Config, o runner.Options) (*workflow.Result, error) {
		*ran = append(*ran, c.Task.Name)
		return &workflow.Result{RunID: "r", StopReason: workflow.StopMaxIterations}, nil
	}
}

// copyTask copies a test task directory, leaving out the named files.
func copyTask(t *testing.T, name, to string, without ...string) {
	t.Helper()
	src := filepath.Join("testdata", "tasks", name)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(to, name), 0o755)
next:
	for _, e := range entries {
		for _, w := range without {
			if e.Name() == w {
				continue next
			}
		}
		data, _ := os.ReadFile(filepath.Join(src, e.Name()))
		os.WriteFile(filepath.Join(to, name, e.Name()), data, 0o644)
	}
}

// Every task is checked before the first one starts: a bad one refuses the
// whole sweep and nothing is created.
func TestSweepRefusesBadInputBeforeStarting(t *testing.T) {
	// The sweep checks every task in a sandbox before it starts.
	testenv.NeedPython(t)
	noHeldout := t.TempDir()
	copyTask(t, "negate", noHeldout)
	copyTask(t, "reverse", noHeldout, "heldout.jsonl")
	badBase := filepath.Join(t.TempDir(), "base.yaml")
	os.WriteFile(badBase, []byte("workflow: {erly_stop: 3}\n"), 0o644)
	badTask := t.TempDir()
	copyTask(t, "negate", badTask)
	os.WriteFile(filepath.Join(badTask, "negate", "task.yaml"), []byte("task: {name: negate}\n"), 0o644)
	tests := []struct {
		name, tasks, base, want string
	}{
		{"a task without held-out tests", noHeldout, "", "task reverse: no held-out tests"},
		{"an invalid --config", filepath.Join("testdata", "tasks"), badBase, "erly_stop"},
		{"an invalid task.yaml", badTask, "", "task negate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			var ran []string
			sw := &Sweep{TasksDir: tt.tasks, Base: tt.base, Out: out, Run: fakeRun(&ran)}
			_, err := sw.Execute(context.Background())
			if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want ErrRefused naming %q", err, tt.want)
			}
			if len(ran) != 0 {
				t.Errorf("tasks ran before the check: %v", ran)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a refused sweep created %s", out)
			}
		})
	}
}

// Resuming into an output directory whose tasks ran with other settings is
// refused unless Force, which runs those tasks again; the summary's wall
// time adds up the sessions.
func TestSweepOutputOfOtherSettings(t *testing.T) {
	// The sweep checks every task in a sandbox before it starts.
	testenv.NeedPython(t)
	out := t.TempDir()
	base := func(yaml string) string {
		p := filepath.Join(t.TempDir(), "base.yaml")
		os.WriteFile(p, []byte(yaml+"bank: {enabled: false}\n"), 0o644)
		return p
	}
	sweep := func(b string, force bool, ran *[]string) (Summary, error) {
		sw := &Sweep{TasksDir: filepath.Join("testdata", "tasks"), Base: b, Out: out, Filter: regexp.MustCompile("^(negate|reverse)$"),
			Run: fakeRun(ran), Force: force}
		return sw.Execute(context.Background())
	}
	var ran []string
	first, err := sweep(base("workflow: {early_stop: 3}\n"), false, &ran)
	if err != nil || len(ran) != 2 {
		t.Fatalf("first sweep: %v, ran %v", err, ran)
	}
	// The same settings from another file: nothing to do.
	ran = nil
	again, err := sweep(base("workflow: {early_stop: 3}\n"), false, &ran)
	if err != nil || len(ran) != 0 {
		t.Fatalf("same settings: %v, ran %v", err, ran)
	}
	if !again.StartedAt.Equal(first.StartedAt) || again.WallSeconds < first.WallSeconds {
		t.Errorf("wall time %.3f s from %v after %.3f s from %v: the first session's time was lost", again.WallSeconds, again.StartedAt, first.WallSeconds, first.StartedAt)
	}
	// Other settings: refused, nothing run.
	ran = nil
	if _, err := sweep(base("workflow: {early_stop: 4}\n"), false, &ran); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "--force") || len(ran) != 0 {
		t.Fatalf("other settings: err %v, ran %v", err, ran)
	}
	// Forced: the tasks run again with the new settings.
	ran = nil
	sum, err := sweep(base("workflow: {early_stop: 4}\n"), true, &ran)
	if err != nil || len(ran) != 2 || sum.Tasks != 2 {
		t.Fatalf("forced: %v, ran %v, %d tasks", err, ran, sum.Tasks)
	}
}

// closeCounter is a sandbox that counts its closes.
type closeCounter struct {
	sandbox.Sandbox
	closes atomic.Int32
}

func (c *closeCounter) Close() error {
	c.closes.Add(1)
	return nil
}

// The scoring sandbox starts on the run's first event (once), or when it is
// needed if the run recorded none; it is closed only if it was started.
func TestScoringBox(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name       string
		events     int  // events the run records
		score      bool // the final program is scored
		openErr    error
		wantOpens  int32
		wantCloses int32
	}{
		{name: "started by the run, used", events: 3, score: true, wantOpens: 1, wantCloses: 1},
		{name: "started by the run, unused", events: 2, wantOpens: 1, wantCloses: 1},
		{name: "no event, used", score: true, wantOpens: 1, wantCloses: 1},
		{name: "no event, unused", wantOpens: 0, wantCloses: 0},
		{name: "a start that fails", events: 1, score: true, openErr: boom, wantOpens: 1, wantCloses: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opens atomic.Int32
			box := &closeCounter{}
			b := newScoringBox(func() (sandbox.Sandbox, error) {
				opens.Add(1)
				if tt.openErr != nil {
					return nil, tt.openErr
				}
				return box, nil
			})
			for range tt.events {
				if err := b.RecordEvent(context.Background(), workflow.Event{}); err != nil {
					t.Fatal(err)
				}
			}
			if tt.score {
				got, err := b.wait()
				if !errors.Is(err, tt.openErr) {
					t.Fatalf("wait: error %v, want %v", err, tt.openErr)
				}
				if err == nil && got != box {
					t.Fatalf("wait returned %v, not the sandbox started", got)
				}
			}
			b.close()
			b.close()
			if got := opens.Load(); got != tt.wantOpens {
				t.Errorf("%d starts, want %d", got, tt.wantOpens)
			}
			if got := box.closes.Load(); got != tt.wantCloses {
				t.Errorf("%d closes, want %d", got, tt.wantCloses)
			}
		})
	}
}

// TestSweepLeavesItsConfigurationsAlone: the configuration a sweep's run
// gets is the one loading made for it (a repeat's seed and the bank set
// before the check), and neither the run nor the rest of the sweep
// changes it.
func TestSweepLeavesItsConfigurationsAlone(t *testing.T) {
	testenv.NeedPython(t)
	out := t.TempDir()
	base := baseConfig(t)
	bankPath := filepath.Join(t.TempDir(), "sweep.db")
	type given struct {
		c    *config.Config
		json string
	}
	var runs []given
	sw := &Sweep{TasksDir: filepath.Join("testdata", "tasks"), Base: base, Out: out, Repeat: 2, Bank: bankPath,
		Filter: regexp.MustCompile("^negate$"),
		Run: func(ctx context.Context, c *config.Config, o runner.Options) (*workflow.Result, error) {
			before, _ := json.Marshal(c)
			runs = append(runs, given{c, string(before)})
			res, err := runner.Run(ctx, c, o)
			if after, _ := json.Marshal(c); string(after) != string(before) {
				t.Errorf("the run changed its configuration:\nbefore %s\nafter  %s", before, after)
			}
			return res, err
		}}
	if _, err := sw.Execute(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 {
		t.Fatalf("%d runs, want 2", len(runs))
	}
	for i, r := range runs {
		repeat := i + 1
		want, err := config.Load(config.Options{File: filepath.Join("testdata", "tasks", "negate", "task.yaml"), Overlays: []string{base},
			Override: map[string]any{"workspace": r.c.Workspace}, Bank: bankPath, Repeat: repeat})
		if err != nil {
			t.Fatal(err)
		}
		if wantJSON, _ := json.Marshal(want); r.json != string(wantJSON) {
			t.Errorf("repeat %d ran with\n%s\nwant what loading makes\n%s", repeat, r.json, wantJSON)
		}
		if after, _ := json.Marshal(r.c); string(after) != r.json {
			t.Errorf("repeat %d's configuration changed after its run:\nbefore %s\nafter  %s", repeat, r.json, after)
		}
		if r.c.Workflow.Seed != int64(repeat) || r.c.Bank.Path != bankPath {
			t.Errorf("repeat %d: seed %d, bank %s; want seed %d, bank %s", repeat, r.c.Workflow.Seed, r.c.Bank.Path, repeat, bankPath)
		}
	}
}
