package benchmarks

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent/synth"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/atomicfile"
	"github.com/reconstruct/reconstruct/internal/dirlock"
	"github.com/reconstruct/reconstruct/internal/machine"
	"github.com/reconstruct/reconstruct/internal/procmem"
	"github.com/reconstruct/reconstruct/runner"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// RunFunc runs one configured task (runner.Run in production).
type RunFunc func(ctx context.Context, c *config.Config, opts runner.Options) (*workflow.Result, error)

// Progress is told about a sweep as it goes.
type Progress interface {
	// Start: total jobs, of which done were finished by an earlier sweep.
	Start(total, done, solved int)
	// Finished is called once per job run now.
	Finished(r TaskResult, done, solved int)
	Stop()
}

// Sweep runs every task of a task set and scores it on held-out tests.
type Sweep struct {
	TasksDir string
	// Base is a configuration overlay applied over every task.yaml.
	Base     string
	Out      string
	Parallel int
	Repeat   int
	Filter   *regexp.Regexp
	// Getenv reads RECONSTRUCT_* settings (nil: none); LookupEnv, when
	// set too, tells an empty variable from an unset one.
	Getenv    func(string) string
	LookupEnv func(string) (string, bool)
	Log       *zap.Logger
	Progress  Progress
	// Run defaults to runner.Run.
	Run RunFunc
	// Synth holds the synthesizer's lambda banks, shared by the sweep's
	// tasks (nil: Execute makes one for the sweep).
	Synth *synth.Shared
	// Bank is the bank given on the command line ("": each task's
	// configuration and the environment decide, see config.ResolveBank).
	Bank string
	// Force runs again the tasks an earlier sweep into Out finished with
	// other settings, instead of refusing the sweep.
	Force bool
	// Factory, when set, makes the tasks from a Python factory
	// (module:callable, see docs/binding.md) instead of TasksDir: one task
	// per entry of Args (its keyword arguments), with Base as the
	// configuration file of every task (none: the current directory's
	// defaults). Held-out tests come from the module's heldout(**args), or
	// else from HeldoutDir/<task id>.jsonl.
	Factory    string
	Args       []map[string]any
	HeldoutDir string
	// Version is the reconstruct that runs the sweep, for the summary.
	Version string

	// mem samples the process's memory while the runs go on.
	mem *procmem.Watch
}

// MemSampleEvery is how often a sweep (or a cluster worker) samples its
// process's memory.
const MemSampleEvery = 100 * time.Millisecond

// setMemory fills the session's CPU time since cpu0 and kids0 (the
// process's and its reaped children's) and its memory (the watch's peak
// and the memory now).
func (se *Session) setMemory(peak procmem.Peak, cpu0, kids0 time.Duration) {
	cpu, kids := procmem.CPU()
	now := procmem.Now()
	se.CPUSeconds, se.SandboxCPUSeconds = (cpu - cpu0).Seconds(), (kids - kids0).Seconds()
	se.PeakRSSBytes, se.PeakHeapBytes = peak.RSS, peak.Heap
	se.FinalRSSBytes, se.FinalHeapBytes = now.RSS, now.Heap
}

// ErrRefused marks a sweep refused before it started: a task's
// configuration or held-out tests are missing or wrong, or Out holds
// results of other settings. Nothing was created.
var ErrRefused = errors.New("sweep refused")

// job is one task repetition with its configuration.
type job struct {
	id, dir string
	repeat  int
	c       *config.Config
	// hash identifies the settings (TaskResult.ConfigSHA256), files the
	// task's files (TaskResult.TaskFiles).
	hash  string
	files map[string]string
	// rerun says why a task an earlier session finished runs again.
	rerun string
}

// Discover lists the task directories (those holding task.yaml) directly
// under dir, sorted by name.
func Discover(dir string, filter *regexp.Regexp) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read task set: %w", err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, e.Name(), "task.yaml")); err != nil {
			continue
		}
		if filter != nil && !filter.MatchString(e.Name()) {
			continue
		}
		out = append(out, filepath.Join(dir, e.Name()))
	}
	sort.Strings(out)
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no task directories (with task.yaml) match", dir)
	}
	return out, nil
}

// Execute runs the sweep. Every task is checked before the first starts,
// its configuration (with Base over it) and held-out tests read and its
// files loaded as a run would (CheckTasks): a task that fails refuses the
// sweep, every such task named. The output directory is the sweep's alone
// while it runs (a lock). A task an earlier session finished there is kept,
// unless it ended in an error or its files changed since (it runs again,
// and its result says why), or Force (every selected task runs again);
// finished with other settings, it makes the sweep refuse to start unless
// Force. Cancelling ctx stops launching tasks; running ones stop at their
// next safe point and are pending, run again on resume. The summary files
// are written in every case, of every result in the output directory, with
// the wall time of every session added up.
func (s *Sweep) Execute(ctx context.Context) (Summary, error) {
	if s.Log == nil {
		s.Log = zap.NewNop()
	}
	if s.Run == nil {
		s.Run = runner.Run
	}
	if s.Synth == nil {
		s.Synth = synth.NewShared(synth.SharedOptions{})
	}
	s.Parallel = max(1, s.Parallel)
	s.Repeat = max(1, s.Repeat)
	var planned []job
	var heldout map[string][]byte
	if s.Factory != "" {
		var err error
		if planned, heldout, err = s.planFactory(ctx); err != nil {
			return Summary{}, err
		}
	} else {
		dirs, err := Discover(s.TasksDir, s.Filter)
		if err != nil {
			return Summary{}, fmt.Errorf("%w: %w", ErrRefused, err)
		}
		var problems []string
		planned, problems = s.plan(dirs)
		broken, err := s.check(ctx, planned)
		if err != nil {
			return Summary{}, err
		}
		if problems = append(problems, broken...); len(problems) > 0 {
			sort.Strings(problems)
			return Summary{}, fmt.Errorf("%w: %d of %d %s cannot run:\n%s", ErrRefused, len(problems), len(dirs), plural(len(dirs), "task", "tasks"), strings.Join(problems, "\n"))
		}
	}
	_, statErr := os.Stat(s.Out)
	created := errors.Is(statErr, os.ErrNotExist)
	if err := os.MkdirAll(s.Out, 0o755); err != nil {
		return Summary{}, fmt.Errorf("create sweep output: %w", err)
	}
	lock, err := dirlock.Acquire(s.Out, dirlock.Holder{What: "bench run"})
	if err != nil {
		if created {
			os.Remove(s.Out)
		}
		var busy *dirlock.BusyError
		if errors.As(err, &busy) {
			return Summary{}, fmt.Errorf("%w: %w: wait for it to end, or give another --out", ErrRefused, err)
		}
		return Summary{}, err
	}
	defer lock.Release()
	if lock.Stale != nil {
		s.Log.Info("took over the sweep output of a sweep that ended without releasing it", zap.String("out", s.Out), zap.Stringer("holder", *lock.Stale))
	}
	records := s.records()
	var jobs []job
	var changed []string
	for _, j := range planned {
		prev, ok := records[j.id]
		if !ok {
			jobs = append(jobs, j)
			continue
		}
		reason, other := Rerun(prev, j.hash, j.files, s.Force)
		switch {
		case other && !s.Force:
			changed = append(changed, j.id)
		case reason != "":
			j.rerun = reason
			jobs = append(jobs, j)
		}
	}
	if len(changed) > 0 {
		lock.Release()
		if created {
			os.RemoveAll(s.Out)
		}
		return Summary{}, fmt.Errorf("%w: %w", ErrRefused, ChangedSettings(s.Out, changed))
	}
	if err := os.MkdirAll(filepath.Join(s.Out, TasksDir), 0o755); err != nil {
		return Summary{}, fmt.Errorf("create sweep output: %w", err)
	}
	if err := writeHeldout(heldout); err != nil {
		return Summary{}, err
	}
	session := Session{StartedAt: time.Now().UTC(), Version: s.Version, LoadStart: machine.Load()}
	cpu0, kids0 := procmem.CPU()
	s.mem = procmem.Start(MemSampleEvery)
	mi := machine.Describe()
	session.Machine = &mi
	prevSum, prevErr := ReadSummary(s.Out)
	kept := len(planned) - len(jobs)
	solved := 0
	for _, j := range planned {
		if r, ok := records[j.id]; ok && !hasJob(jobs, j.id) && r.Solved {
			solved++
		}
	}
	if s.Progress != nil {
		if n, ok := s.Progress.(RerunNoter); ok {
			for _, j := range jobs {
				if j.rerun != "" {
					n.Rerun(j.id, j.rerun)
				}
			}
		}
		s.Progress.Start(len(planned), kept, solved)
	}
	var mu sync.Mutex
	done := kept
	finished := map[string]bool{}
	work := make(chan job)
	var wg sync.WaitGroup
	for w := 0; w < s.Parallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				r, ok := s.runJob(ctx, j)
				if !ok {
					continue // interrupted: it runs again on resume
				}
				mu.Lock()
				finished[j.id] = true
				done++
				if r.Solved {
					solved++
				}
				if s.Progress != nil {
					s.Progress.Finished(r, done, solved)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, j := range jobs {
		select {
		case <-ctx.Done():
			break feed
		case work <- j:
		}
	}
	close(work)
	wg.Wait()
	if s.Progress != nil {
		s.Progress.Stop()
	}
	// The summary is of the whole output directory: the results of this
	// session and those an earlier one left, of tasks selected now or not.
	var results []TaskResult
	for _, r := range s.records() {
		results = append(results, r)
	}
	sum := Summarize(results)
	sum.TasksDir, sum.Config, sum.Parallel, sum.Repeat = cmp.Or(s.TasksDir, s.Factory), s.Base, s.Parallel, s.Repeat
	if s.Filter != nil {
		sum.Filter = s.Filter.String()
	}
	for _, j := range jobs {
		if !finished[j.id] {
			sum.Pending = append(sum.Pending, j.id)
		}
	}
	sort.Strings(sum.Pending)
	session.FinishedAt = time.Now().UTC()
	session.WallSeconds = session.FinishedAt.Sub(session.StartedAt).Seconds()
	session.LoadEnd, session.Ran, session.Interrupted = machine.Load(), len(finished), len(sum.Pending) > 0
	session.setMemory(s.mem.Stop(), cpu0, kids0)
	if prevErr == nil {
		sum.Sessions = prevSum.Sessions
		if len(sum.Sessions) == 0 && prevSum.WallSeconds > 0 {
			// A summary of an older format kept its sessions' time only.
			sum.Sessions = []Session{{StartedAt: prevSum.StartedAt, FinishedAt: prevSum.FinishedAt, WallSeconds: prevSum.WallSeconds, Ran: prevSum.Runs}}
		}
	}
	sum.Sessions = append(sum.Sessions, session)
	sum.StartedAt, sum.FinishedAt = sum.Sessions[0].StartedAt, session.FinishedAt
	for _, se := range sum.Sessions {
		sum.WallSeconds += se.WallSeconds
	}
	sum.Version, sum.Machine, sum.Load = session.Version, session.Machine, session.LoadEnd
	if err := WriteSummary(s.Out, sum); err != nil {
		return sum, err
	}
	if err := ctx.Err(); err != nil {
		return sum, fmt.Errorf("sweep interrupted with %d of %d %s pending (run the same command again to finish them): %w",
			len(sum.Pending), len(planned), plural(len(planned), "run", "runs"), err)
	}
	return sum, nil
}

// RerunNoter is a Progress told, before the sweep starts, of each task
// that runs again and why.
type RerunNoter interface {
	Rerun(id, reason string)
}

func hasJob(jobs []job, id string) bool {
	for _, j := range jobs {
		if j.id == id {
			return true
		}
	}
	return false
}

// records reads every task record of the output directory, by task id.
func (s *Sweep) records() map[string]TaskResult {
	out := map[string]TaskResult{}
	entries, err := os.ReadDir(filepath.Join(s.Out, TasksDir))
	if err != nil {
		return out
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(s.Out, TasksDir, e.Name()))
		if err != nil {
			continue
		}
		var r TaskResult
		if json.Unmarshal(data, &r) != nil || r.ID == "" || strings.ReplaceAll(r.ID, "#", "_")+".json" != e.Name() {
			continue
		}
		out[r.ID] = r
	}
	return out
}

// check loads every task of a sweep over task directories as a run would
// (runner.CheckTasks): broken has one entry a broken task, err is the
// sandbox's failure.
func (s *Sweep) check(ctx context.Context, jobs []job) (broken []string, err error) {
	var cs []*config.Config
	var ids []string
	for _, j := range jobs {
		if j.repeat == 1 {
			cs, ids = append(cs, j.c), append(ids, j.id)
		}
	}
	errs, err := runner.CheckTasks(ctx, cs, s.Log)
	if err != nil {
		return nil, err
	}
	for i, e := range errs {
		if e != nil {
			broken = append(broken, "task "+ids[i]+": "+indentLines(strings.TrimPrefix(e.Error(), runner.ErrConfig.Error()+": ")))
		}
	}
	return broken, nil
}

// plan loads every task's configuration, checks its held-out tests and
// its bank, and makes the jobs; any problem refuses the sweep, every task's
// problems named at once (one entry a task).
func (s *Sweep) plan(dirs []string) ([]job, []string) {
	var overlays []string
	if s.Base != "" {
		overlays = []string{s.Base}
	}
	var jobs []job
	var problems []string
	for _, d := range dirs {
		for r := 1; r <= s.Repeat; r++ {
			j := job{id: filepath.Base(d), dir: d, repeat: r}
			if r > 1 {
				j.id += "#r" + strconv.Itoa(r)
			}
			// Without Getenv no RECONSTRUCT_* variable is read; the
			// default bank still comes from the process's home directory.
			// The repeat's seed and the sweep's bank are set as the
			// configuration is loaded, before it is checked.
			c, err := config.Load(config.Options{File: filepath.Join(d, "task.yaml"), Overlays: overlays,
				Env: s.Getenv != nil, Getenv: s.Getenv, LookupEnv: s.LookupEnv, Override: map[string]any{"workspace": s.workspace(j)},
				Bank: s.Bank, Repeat: r})
			if err != nil {
				problems = append(problems, fmt.Sprintf("task %s: %s", j.id, indentLines(err.Error())))
				break
			}
			if p := heldoutProblem(c); p != "" {
				problems = append(problems, fmt.Sprintf("task %s: %s", j.id, p))
				break
			}
			if c.Bank.Enabled {
				if _, err := c.BankLocation(); err != nil {
					problems = append(problems, fmt.Sprintf("task %s: %s", j.id, err))
					break
				}
			}
			j.c, j.hash, j.files = c, SettingsHash(c), TaskFiles(c)
			jobs = append(jobs, j)
		}
	}
	return jobs, problems
}

// heldoutProblem says what is wrong with a task's held-out tests: none,
// a file that cannot be read, or a line that is not a test ("" when they
// are fine).
func heldoutProblem(c *config.Config) string {
	if c.Task.Heldout == "" {
		return fmt.Sprintf("no held-out tests: %s has no task.heldout and there is no heldout.jsonl beside it", c.File)
	}
	if st, err := os.Stat(c.Task.Heldout); err != nil || !st.Mode().IsRegular() {
		return fmt.Sprintf("held-out tests %s: not a readable file", c.Task.Heldout)
	}
	if _, err := ReadTests(c.Task.Heldout); err != nil {
		return "held-out tests: " + err.Error()
	}
	return ""
}

// indentLines indents the lines after the first of a message of several
// (every problem of a configuration).
func indentLines(s string) string {
	return strings.ReplaceAll(s, "\n", "\n    ")
}

// SettingsHash identifies what a task ran with
// (TaskResult.ConfigSHA256): its whole configuration but where the files
// and the records go. A factory task's description counts, as a task
// file's fields do; the digests of its module files do not, as the
// contents of a task directory's hidden program do not.
func SettingsHash(c *config.Config) string {
	cc := *c
	cc.Workspace, cc.Bank = "", config.Bank{}
	if b := cc.Task.Bound; b != nil {
		cc.Task.Bound = &config.Bound{Description: b.Description}
	}
	data, _ := json.Marshal(cc)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// ChangedSettings is the error of a sweep into out whose tasks ids were
// finished there with other settings, for a sweep run without --force.
func ChangedSettings(out string, ids []string) error {
	return fmt.Errorf("%s holds the results of %d tasks run with other settings (%s): give another --out, or --force to run them again with these settings",
		out, len(ids), strings.Join(firstOf(ids, 3), ", "))
}

func firstOf(xs []string, n int) []string {
	if len(xs) > n {
		return append(xs[:n:n], "…")
	}
	return xs
}

func (s *Sweep) workspace(j job) string {
	return filepath.Join(s.Out, RunsDir, strings.ReplaceAll(j.id, "#", "_"))
}

func (s *Sweep) recordPath(j job) string {
	return filepath.Join(s.Out, TasksDir, strings.ReplaceAll(j.id, "#", "_")+".json")
}

// runJob runs and scores one task; ok is false when the sweep was
// interrupted before the task finished.
func (s *Sweep) runJob(ctx context.Context, j job) (r TaskResult, ok bool) {
	start := time.Now()
	cpu0, kids0 := procmem.CPU()
	span := s.mem.Begin()
	c := j.c
	r = TaskResult{ID: j.id, Name: c.Task.Name, Level: c.Task.Level, Family: c.Task.Family, Kind: c.Task.Kind, Repeat: j.repeat,
		Workspace: c.Workspace, ConfigSHA256: j.hash, TaskSHA256: TaskDigest(j.files), TaskFiles: j.files,
		Settings: EffectiveSettings(c), Rerun: j.rerun}
	defer func() {
		if p := recover(); p != nil {
			r.Error = fmt.Sprintf("panic: %v\n%s", p, debug.Stack())
			ok = ctx.Err() == nil
		}
		r.WallSeconds = time.Since(start).Seconds()
		cpu, kids := procmem.CPU()
		r.CPUSeconds, r.SandboxCPUSeconds = (cpu - cpu0).Seconds(), (kids - kids0).Seconds()
		peak := span.End()
		r.PeakRSSBytes, r.PeakHeapBytes = peak.RSS, peak.Heap
		if ok {
			if err := writeJSON(s.recordPath(j), r); err != nil {
				s.Log.Error("write task record", zap.String("task", j.id), zap.Error(err))
			}
		}
	}()
	if err := os.RemoveAll(r.Workspace); err != nil {
		r.Error = err.Error()
		return r, true
	}
	scoring := newScoringBox(func() (sandbox.Sandbox, error) { return runner.OpenScoringSandbox(ctx, c.Sandbox, s.Log) })
	defer scoring.close()
	res, err := s.Run(ctx, c, runner.Options{Log: s.Log, Recorders: []workflow.Recorder{scoring}, Synth: s.Synth})
	if ctx.Err() != nil {
		return r, false
	}
	if res != nil {
		r.FromRun(res)
	}
	if err != nil {
		r.Error = err.Error()
		return r, true
	}
	tests, err := ReadTests(c.Task.Heldout)
	if err != nil {
		r.Error = err.Error()
		return r, true
	}
	r.HeldoutTotal = len(tests)
	if res.FinalProgram == "" {
		return r, true
	}
	box, err := scoring.wait()
	if err != nil {
		r.Error = err.Error()
		return r, ctx.Err() == nil
	}
	sc, err := ScoreProgram(ctx, box, res.FinalProgram, c.Task.FunctionName, tests, c.Sandbox.Limits(), c.Workflow.Atol)
	if err != nil {
		r.Error = err.Error()
		return r, ctx.Err() == nil
	}
	r.HeldoutAccuracy, r.HeldoutPassed = sc.Accuracy, sc.Passed
	r.Solved = sc.Passed == sc.Total
	return r, true
}

// scoringBox is the sandbox that scores a task's final program on its
// held-out tests. It starts when the run records its first event, once the
// run's own sandboxes are up: a start is a second or more of waiting (the
// Docker engine, the harness's interpreter) that would otherwise follow
// the run, and it would slow the run's own starts if it came with them.
// Nothing runs in it before the run is over; a run that ends without a
// program leaves it unused.
type scoringBox struct {
	open func() (sandbox.Sandbox, error)
	done chan struct{} // closed when the start is over
	box  sandbox.Sandbox
	err  error

	mu      sync.Mutex
	started bool
	closed  bool
}

func newScoringBox(open func() (sandbox.Sandbox, error)) *scoringBox {
	return &scoringBox{open: open, done: make(chan struct{})}
}

var _ workflow.Recorder = (*scoringBox)(nil)

// start starts the sandbox in the background, unless it was started or
// closed already; it reports whether the sandbox was started.
func (b *scoringBox) start() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.started && !b.closed {
		b.started = true
		go func() {
			defer close(b.done)
			b.box, b.err = b.open()
		}()
	}
	return b.started
}

// RecordEvent starts the sandbox on the run's first event.
func (b *scoringBox) RecordEvent(context.Context, workflow.Event) error {
	b.start()
	return nil
}

// RecordExamples records nothing.
func (b *scoringBox) RecordExamples(context.Context, string, []task.Example) error { return nil }

// errScoringClosed is wait's error after close.
var errScoringClosed = errors.New("the scoring sandbox was closed before it was started")

// wait returns the sandbox once it started (starting it if the run did not).
func (b *scoringBox) wait() (sandbox.Sandbox, error) {
	if !b.start() {
		return nil, errScoringClosed
	}
	<-b.done
	return b.box, b.err
}

// close closes the sandbox (once its start is over) if it was started; it
// is safe to call more than once.
func (b *scoringBox) close() {
	b.mu.Lock()
	started, closed := b.started, b.closed
	b.closed = true
	b.mu.Unlock()
	if !started || closed {
		return
	}
	<-b.done
	if b.box != nil {
		b.box.Close()
	}
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'), 0o644)
}

// WriteSummary writes summary.json, summary.csv and summary.md.
func WriteSummary(dir string, s Summary) error {
	if err := writeJSON(filepath.Join(dir, SummaryJSON), s); err != nil {
		return err
	}
	var csvBuf strings.Builder
	if err := writeCSV(&csvBuf, s); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, SummaryCSV), []byte(csvBuf.String()), 0o644); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, SummaryMD), []byte(Markdown(s)), 0o644)
}

func writeCSV(w io.Writer, s Summary) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"id", "name", "level", "family", "kind", "repeat", "solved", "heldout_accuracy", "heldout_passed", "heldout_total",
		"stop_reason", "iterations", "promotions", "examples", "final_score", "prompt_tokens", "completion_tokens", "wall_seconds", "error",
		"random_share", "coverage_gate", "wrong_early_stop", "verified_exhaustively",
		"cpu_seconds", "sandbox_cpu_seconds", "peak_rss_bytes", "peak_heap_bytes"})
	for _, r := range s.Results {
		cw.Write([]string{r.ID, r.Name, r.Level, r.Family, r.Kind, strconv.Itoa(r.Repeat), strconv.FormatBool(r.Solved),
			strconv.FormatFloat(r.HeldoutAccuracy, 'f', 4, 64), strconv.Itoa(r.HeldoutPassed), strconv.Itoa(r.HeldoutTotal),
			r.StopReason, strconv.Itoa(r.Iterations), strconv.Itoa(r.Promotions), strconv.Itoa(r.Examples),
			strconv.FormatFloat(r.FinalScore, 'f', 4, 64), strconv.Itoa(r.Tokens.PromptTokens), strconv.Itoa(r.Tokens.CompletionTokens),
			strconv.FormatFloat(r.WallSeconds, 'f', 2, 64), firstLine(r.Error),
			strconv.FormatFloat(r.RandomShare, 'g', -1, 64), strconv.FormatBool(r.CoverageGate), strconv.FormatBool(r.WrongEarlyStop()),
			strconv.FormatBool(r.VerifiedExhaustively),
			strconv.FormatFloat(r.CPUSeconds, 'f', 2, 64), strconv.FormatFloat(r.SandboxCPUSeconds, 'f', 2, 64),
			strconv.FormatInt(r.PeakRSSBytes, 10), strconv.FormatInt(r.PeakHeapBytes, 10)})
	}
	cw.Flush()
	return cw.Error()
}

// timedRuns counts the runs whose session recorded its time: every run
// when the summary has no sessions (a summary of an older format).
func timedRuns(s Summary) int {
	if len(s.Sessions) == 0 {
		return s.Runs
	}
	n := 0
	for _, se := range s.Sessions {
		n += se.Ran
	}
	return n
}

// Markdown renders a summary as a Markdown report.
func Markdown(s Summary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Sweep of %s\n\n", s.TasksDir)
	h := s.Headline()
	fmt.Fprintf(&b, "%s%s on held-out tests; wall time %.1f s with %d in parallel", strings.ToUpper(h[:1]), h[1:], s.WallSeconds, s.Parallel)
	if n := len(s.Sessions); n > 1 {
		fmt.Fprintf(&b, ", in %d sessions", n)
	}
	if timed := timedRuns(s); timed < s.Runs {
		// A session killed before its end recorded no time: the wall time
		// is that of the others only.
		fmt.Fprintf(&b, " (the time of %d of the %d runs: the others finished in a session stopped before it could record its time)", timed, s.Runs)
	}
	b.WriteString(".\n\n")
	if m := s.Process(); m != "" {
		b.WriteString(m + "\n\n")
	}
	if len(s.Pending) > 0 {
		fmt.Fprintf(&b, "Pending: %s.\n\n", strings.Join(s.Pending, ", "))
	}
	var reruns []string
	for _, r := range s.Results {
		if r.Rerun != "" {
			reruns = append(reruns, fmt.Sprintf("%s (%s)", r.ID, r.Rerun))
		}
	}
	if len(reruns) > 0 {
		fmt.Fprintf(&b, "Ran again in this directory: %s.\n\n", strings.Join(reruns, "; "))
	}
	fmt.Fprintf(&b, "Wrong early stops (early_stop on a program that fails a held-out test): **%d**%s.\n\n", s.WrongEarlyStops, runList(s, TaskResult.WrongEarlyStop))
	if s.VerifiedExhaustively > 0 {
		fmt.Fprintf(&b, "Verified exhaustively (stop exhausted: every valid input observed, and passed by the final program): **%d**", s.VerifiedExhaustively)
		if s.WrongExhaustive > 0 {
			fmt.Fprintf(&b, "; of them failing a held-out test, an input outside the domain listed: **%d**%s", s.WrongExhaustive, runList(s, TaskResult.WrongExhaustive))
		}
		b.WriteString(".\n\n")
	}
	for _, g := range s.Settings {
		fmt.Fprintf(&b, "- %s\n", g)
	}
	if len(s.Settings) > 0 {
		b.WriteString("\n")
	}
	statsTable(&b, "level", s.LevelNames(), s.Levels)
	// The family column and table appear only when some task names a family.
	famHead, famRule := "", ""
	if len(s.Families) > 0 {
		b.WriteString("\n")
		names, stats := s.familyRows()
		statsTable(&b, "family", names, stats)
		famHead, famRule = " family |", "---|"
	}
	writeProvenance(&b, s)
	fmt.Fprintf(&b, "\n| task | level |%s solved | held-out | stop | iterations | examples | tokens | seconds | CPU s | peak MiB | error |\n"+
		"|---|---|%s---|---:|---|---:|---:|---:|---:|---:|---:|---|\n", famHead, famRule)
	for _, r := range s.Results {
		mark := "no"
		if r.Solved {
			mark = "yes"
		}
		famCell := ""
		if famHead != "" {
			famCell = " " + familyOf(r) + " |"
		}
		cpu, peak := "—", "—"
		if r.CPUSeconds > 0 || r.PeakRSSBytes > 0 {
			// Results of a sweep before these were measured have neither.
			cpu, peak = fmt.Sprintf("%.1f", r.CPUSeconds), fmt.Sprintf("%.0f", procmem.MB(r.PeakRSSBytes))
		}
		fmt.Fprintf(&b, "| %s | %s |%s %s | %d/%d | %s | %d | %d | %d | %.1f | %s | %s | %s |\n", r.ID, r.Level, famCell, mark,
			r.HeldoutPassed, r.HeldoutTotal, r.StopReason, r.Iterations, r.Examples, r.Tokens.Total(), r.WallSeconds, cpu, peak,
			strings.ReplaceAll(firstLine(r.Error), "|", "\\|"))
	}
	return b.String()
}

// Process says what the sweep's process took, over its sessions: CPU
// time, and the memory at its peak and when the last run had ended (""
// for a sweep that did not measure them).
func (s Summary) Process() string {
	var cpu, kids float64
	var rss, heap int64
	measured := false
	for _, se := range s.Sessions {
		cpu, kids = cpu+se.CPUSeconds, kids+se.SandboxCPUSeconds
		rss, heap = max(rss, se.PeakRSSBytes), max(heap, se.PeakHeapBytes)
		measured = measured || se.PeakRSSBytes > 0
	}
	if !measured {
		return ""
	}
	last := s.Sessions[len(s.Sessions)-1]
	return fmt.Sprintf("The sweep's process: CPU %.1f s (sandbox processes %.1f s); peak memory %.0f MiB resident, %.0f MiB Go heap; %.0f MiB resident and %.0f MiB Go heap once the last run had ended. "+
		"A task's peak MiB below is the process's resident set while it ran, the runs beside it included.",
		cpu, kids, procmem.MB(rss), procmem.MB(heap), procmem.MB(last.FinalRSSBytes), procmem.MB(last.FinalHeapBytes))
}

// runList names the runs of which is holds (": a, b"), or nothing.
func runList(s Summary, is func(TaskResult) bool) string {
	var ids []string
	for _, r := range s.Results {
		if is(r) {
			ids = append(ids, r.ID)
		}
	}
	if len(ids) == 0 {
		return ""
	}
	return ": " + strings.Join(ids, ", ")
}

// statsTable writes a Markdown table of per-group statistics (a level or
// a family per row); with repeated runs, a column of runs, which solved
// and errors count.
func statsTable(b *strings.Builder, group string, names []string, stats map[string]LevelStats) {
	runs := false
	for _, n := range names {
		runs = runs || stats[n].Runs != stats[n].Tasks
	}
	if runs {
		fmt.Fprintf(b, "| %s | tasks | runs | solved | rate | errors |\n|---|---:|---:|---:|---:|---:|\n", group)
	} else {
		fmt.Fprintf(b, "| %s | tasks | solved | rate | errors |\n|---|---:|---:|---:|---:|\n", group)
	}
	for _, n := range names {
		ls := stats[n]
		if runs {
			fmt.Fprintf(b, "| %s | %d | %d | %d | %.1f%% | %d |\n", n, ls.Tasks, ls.Runs, ls.Solved, 100*ls.Rate, ls.Errors)
		} else {
			fmt.Fprintf(b, "| %s | %d | %d | %.1f%% | %d |\n", n, ls.Tasks, ls.Solved, 100*ls.Rate, ls.Errors)
		}
	}
}

// writeProvenance writes what the results depend on besides the tasks:
// the settings, the reconstruct and the machine of each session, and its
// load.
func writeProvenance(b *strings.Builder, s Summary) {
	if len(s.SharedSettings) > 0 || len(s.SettingsVary) > 0 {
		b.WriteString("\n## Settings\n\n")
		for _, k := range settingKeys(s.SharedSettings) {
			fmt.Fprintf(b, "- `%s`: %v\n", k, s.SharedSettings[k])
		}
		if len(s.SettingsVary) > 0 {
			fmt.Fprintf(b, "- differing between runs (see each run's record): %s\n", strings.Join(s.SettingsVary, ", "))
		}
	}
	if len(s.Sessions) > 0 {
		b.WriteString("\n## Sessions\n\n| started | seconds | runs | reconstruct | machine | load (1, 5, 15 min) at start, end |\n|---|---:|---:|---|---|---|\n")
		for _, se := range s.Sessions {
			fmt.Fprintf(b, "| %s | %.1f | %d%s | %s | %s | %s, %s |\n", se.StartedAt.Format("2006-01-02 15:04:05 UTC"), se.WallSeconds, se.Ran,
				map[bool]string{true: " (interrupted)"}[se.Interrupted], orDash(se.Version), se.Machine.String(), loadText(se.LoadStart), loadText(se.LoadEnd))
		}
	}
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func loadText(l []float64) string {
	if len(l) != 3 {
		return "—"
	}
	return fmt.Sprintf("%.2f %.2f %.2f", l[0], l[1], l[2])
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
