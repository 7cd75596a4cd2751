package benchmarks

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/internal/machine"
	"github.com/reconstruct/reconstruct/internal/stamp"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// SummaryFormat is the version of summary.json this package writes; it
// reads format 1 too (where every task ran once: runs are tasks), and
// refuses a newer one as every reader of a record does (stamp.Check).
const SummaryFormat = 2

// Files a sweep writes in its output directory.
const (
	SummaryJSON = "summary.json"
	SummaryCSV  = "summary.csv"
	SummaryMD   = "summary.md"
	// TasksDir holds one JSON record per finished task (the resume log).
	TasksDir = "tasks"
	// RunsDir holds one workspace per task.
	RunsDir = "runs"
)

// TaskResult is one task's outcome in a sweep.
type TaskResult struct {
	// ID is the task name, with "#r<k>" for repeats after the first.
	ID     string `json:"id"`
	Name   string `json:"name"`
	Level  string `json:"level"`
	Family string `json:"family,omitempty"`
	Kind   string `json:"kind"`
	Repeat int    `json:"repeat"`
	// Solved means held-out accuracy 1.0.
	Solved          bool       `json:"solved"`
	HeldoutAccuracy float64    `json:"heldout_accuracy"`
	HeldoutPassed   int        `json:"heldout_passed"`
	HeldoutTotal    int        `json:"heldout_total"`
	StopReason      string     `json:"stop_reason"`
	Iterations      int        `json:"iterations"`
	Promotions      int        `json:"promotions"`
	Examples        int        `json:"examples"`
	FinalScore      float64    `json:"final_score"`
	Tokens          task.Usage `json:"tokens"`
	WallSeconds     float64    `json:"wall_seconds"`
	Workspace       string     `json:"workspace"`
	RunID           string     `json:"run_id,omitempty"`
	// ConfigSHA256 identifies the settings the task ran with (its whole
	// loaded configuration but the workspace): a sweep resumed with other
	// settings is refused rather than mixing results.
	ConfigSHA256 string `json:"config_sha256,omitempty"`
	// TaskSHA256 identifies the task's files (TaskDigest of TaskFiles, a
	// digest per file): a task whose files changed since runs again.
	TaskSHA256 string            `json:"task_sha256,omitempty"`
	TaskFiles  map[string]string `json:"task_files,omitempty"`
	// Settings are the effective settings of the run, by key
	// (EffectiveSettings).
	Settings map[string]any `json:"settings,omitempty"`
	// Rerun says why the task ran again in an output directory that held
	// a result of it (RerunForced, RerunError, its files changed).
	Rerun string `json:"rerun,omitempty"`
	// RandomShare and CoverageGate are the settings whose default depends
	// on the task (a task with a generator has 0.5 and the gate), as the
	// run had them; Origins says where each came from (workflow.Result).
	RandomShare  float64           `json:"random_share"`
	CoverageGate bool              `json:"coverage_gate"`
	Origins      map[string]string `json:"origins,omitempty"`
	// VerifiedExhaustively: the run ended exhausted, its final program
	// passing every valid input of the task's finite domain
	// (workflow.Result).
	VerifiedExhaustively bool `json:"verified_exhaustively,omitempty"`
	// CPUSeconds is the CPU time the sweep's process took while the run
	// went on (the run's own at --parallel 1; the runs beside it too
	// otherwise), SandboxCPUSeconds that of the sandbox processes it
	// reaped. PeakRSSBytes and PeakHeapBytes are the most the process
	// held meanwhile, sampled: its resident set and its Go heap.
	CPUSeconds        float64 `json:"cpu_seconds,omitempty"`
	SandboxCPUSeconds float64 `json:"sandbox_cpu_seconds,omitempty"`
	PeakRSSBytes      int64   `json:"peak_rss_bytes,omitempty"`
	PeakHeapBytes     int64   `json:"peak_heap_bytes,omitempty"`
	// Error is set when the task could not run to a result (a crash, an
	// infrastructure failure); the sweep goes on.
	Error string `json:"error,omitempty"`
}

// FromRun fills what the run's result says: its id, stop, counts, tokens
// and the settings that depend on the task.
func (r *TaskResult) FromRun(res *workflow.Result) {
	r.RunID, r.StopReason, r.Iterations, r.Promotions = res.RunID, res.StopReason, res.Iterations, res.Promotions
	r.Examples, r.FinalScore, r.Tokens = res.KnownExamples, res.FinalScore, res.Tokens
	r.RandomShare, r.CoverageGate, r.Origins = res.Settings.RandomShare, res.Settings.CoverageGate, res.Origins
	r.VerifiedExhaustively = res.VerifiedExhaustively
}

// WrongEarlyStop reports a run that stopped with early_stop, claiming
// success, on a program that fails some held-out test: the worst answer a
// sweep can give, counted apart from the unsolved.
func (r TaskResult) WrongEarlyStop() bool {
	return r.Error == "" && r.StopReason == workflow.StopEarly && r.HeldoutTotal > 0 && !r.Solved
}

// WrongExhaustive reports a run verified exhaustively whose program fails
// some held-out test: the held-out tests hold an input outside the domain
// the run listed (or the task's description misstates it), which a sweep
// must show rather than count as a proof.
func (r TaskResult) WrongExhaustive() bool {
	return r.Error == "" && r.VerifiedExhaustively && r.HeldoutTotal > 0 && !r.Solved
}

// NoFamily groups, in Summary.Families, the tasks that name no family.
const NoFamily = "—"

// AllFamilies names the row that adds up every task that names a family.
const AllFamilies = "all families"

// familyOf is a task's family as summaries show it.
func familyOf(r TaskResult) string {
	if r.Family == "" {
		return NoFamily
	}
	return r.Family
}

// LevelStats aggregates a level (or a family): its tasks, their runs
// (more than the tasks with --repeat), and the runs solved and ended in an
// error; Rate is Solved / Runs.
type LevelStats struct {
	Tasks  int     `json:"tasks"`
	Runs   int     `json:"runs"`
	Solved int     `json:"solved"`
	Rate   float64 `json:"rate"`
	Errors int     `json:"errors"`
}

// Summary is a sweep's summary.json.
type Summary struct {
	// Stamp is the envelope of every record: format (SummaryFormat),
	// producer and harness digest.
	stamp.Stamp
	Engine     string    `json:"engine,omitempty"` // "temporal" for a sweep on a cluster, empty for the local engine
	Sweep      string    `json:"sweep,omitempty"`  // the cluster sweep's id
	TasksDir   string    `json:"tasks_dir"`
	Config     string    `json:"config,omitempty"`
	Filter     string    `json:"filter,omitempty"`
	Parallel   int       `json:"parallel"`
	Repeat     int       `json:"repeat"`
	StartedAt  time.Time `json:"started_at"`
	FinishedAt time.Time `json:"finished_at"`
	// WallSeconds is the time the sweep ran, every session of it (an
	// interrupted sweep resumed) added up.
	WallSeconds float64 `json:"wall_seconds"`
	// Tasks counts the tasks, Runs their runs (Repeat of each); Solved and
	// Errors count runs, and SolveRate is Solved / Runs.
	Tasks     int     `json:"tasks"`
	Runs      int     `json:"runs"`
	Solved    int     `json:"solved"`
	SolveRate float64 `json:"solve_rate"`
	Errors    int     `json:"errors"`
	// Pending are the runs the last session was to make and did not
	// finish (it was interrupted): run the same command again.
	Pending []string `json:"pending,omitempty"`
	// WrongEarlyStops counts the runs that stopped with early_stop on a
	// program that fails some held-out test (TaskResult.WrongEarlyStop).
	WrongEarlyStops int `json:"wrong_early_stops"`
	// VerifiedExhaustively counts the runs that ended exhausted on a
	// program passing every valid input of the task's finite domain;
	// WrongExhaustive those of them failing a held-out test
	// (TaskResult.WrongExhaustive).
	VerifiedExhaustively int `json:"verified_exhaustively"`
	WrongExhaustive      int `json:"wrong_exhaustive,omitempty"`
	// Settings are the combinations of the settings whose default depends
	// on the task that the sweep's runs had, with how many runs had each.
	Settings []SettingsGroup       `json:"settings,omitempty"`
	Levels   map[string]LevelStats `json:"levels"`
	// Families aggregates by task family (NoFamily for tasks without one);
	// it is empty when no task names a family.
	Families map[string]LevelStats `json:"families,omitempty"`
	// SharedSettings are the effective settings every run shared, by
	// key; SettingsVary names the keys whose value differs between runs
	// (each run's own are in its result).
	SharedSettings map[string]any `json:"shared_settings,omitempty"`
	SettingsVary   []string       `json:"settings_vary,omitempty"`
	// Version, Machine and Load are the last session's: the reconstruct
	// that ran it, where, and the machine's load averages (1, 5 and 15
	// minutes) when it ended; Sessions has every session's.
	Version  string        `json:"version,omitempty"`
	Machine  *machine.Info `json:"machine,omitempty"`
	Load     []float64     `json:"load,omitempty"`
	Sessions []Session     `json:"sessions,omitempty"`
	Results  []TaskResult  `json:"results"`
}

// Session is one session of a sweep into an output directory (a sweep
// interrupted and run again has several).
type Session struct {
	StartedAt   time.Time     `json:"started_at"`
	FinishedAt  time.Time     `json:"finished_at"`
	WallSeconds float64       `json:"wall_seconds"`
	Version     string        `json:"version,omitempty"`
	Machine     *machine.Info `json:"machine,omitempty"`
	// LoadStart and LoadEnd are the load averages when it started and
	// ended.
	LoadStart []float64 `json:"load_start,omitempty"`
	LoadEnd   []float64 `json:"load_end,omitempty"`
	// Ran counts the runs it finished; Interrupted is set when it was
	// stopped before its last.
	Ran         int  `json:"ran"`
	Interrupted bool `json:"interrupted,omitempty"`
	// CPUSeconds is the CPU time of the sweep's process, SandboxCPUSeconds
	// that of the sandbox processes it reaped. PeakRSSBytes is the
	// process's resident set at its peak (the kernel's high-water mark,
	// the checks before the first run included), PeakHeapBytes the Go
	// heap's, sampled; FinalRSSBytes and FinalHeapBytes are both when the
	// last run had ended (what the finished runs left).
	CPUSeconds        float64 `json:"cpu_seconds,omitempty"`
	SandboxCPUSeconds float64 `json:"sandbox_cpu_seconds,omitempty"`
	PeakRSSBytes      int64   `json:"peak_rss_bytes,omitempty"`
	PeakHeapBytes     int64   `json:"peak_heap_bytes,omitempty"`
	FinalRSSBytes     int64   `json:"final_rss_bytes,omitempty"`
	FinalHeapBytes    int64   `json:"final_heap_bytes,omitempty"`
}

// taskOf is the task of a result: its ID without the repeat's "#r<k>".
func taskOf(r TaskResult) string {
	id, _, _ := strings.Cut(r.ID, "#r")
	return id
}

// SettingsGroup is one combination of random_share and coverage_gate, with
// where each came from, and the number of runs that had it.
type SettingsGroup struct {
	RandomShare  float64           `json:"random_share"`
	CoverageGate bool              `json:"coverage_gate"`
	Origins      map[string]string `json:"origins,omitempty"`
	Runs         int               `json:"runs"`
}

// String is the group as summaries write it: "random_share 0.5 (default
// for a task with a generator), coverage_gate true (…): 12 runs".
func (g SettingsGroup) String() string {
	origin := func(key string) string {
		if o := g.Origins[key]; o != "" {
			return " (" + o + ")"
		}
		return ""
	}
	return fmt.Sprintf("random_share %g%s, coverage_gate %v%s: %d %s", g.RandomShare, origin("workflow.random_share"),
		g.CoverageGate, origin("workflow.coverage_gate"), g.Runs, plural(g.Runs, "run", "runs"))
}

// settingsGroups groups the results of runs that ended with a result (a
// stop reason) by their settings, the most common first.
func settingsGroups(results []TaskResult) []SettingsGroup {
	var groups []SettingsGroup
	for _, r := range results {
		if r.StopReason == "" {
			continue
		}
		found := false
		for i := range groups {
			g := &groups[i]
			if g.RandomShare == r.RandomShare && g.CoverageGate == r.CoverageGate && maps.Equal(g.Origins, r.Origins) {
				g.Runs++
				found = true
				break
			}
		}
		if !found {
			groups = append(groups, SettingsGroup{RandomShare: r.RandomShare, CoverageGate: r.CoverageGate, Origins: r.Origins, Runs: 1})
		}
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].Runs > groups[j].Runs })
	return groups
}

// Summarize aggregates results (sorted by ID) into a Summary.
func Summarize(results []TaskResult) Summary {
	s := Summary{Stamp: stamp.New(SummaryFormat, sandbox.HarnessSHA256()), Levels: map[string]LevelStats{}}
	s.Results = append([]TaskResult(nil), results...)
	sort.Slice(s.Results, func(i, j int) bool { return s.Results[i].ID < s.Results[j].ID })
	families := map[string]LevelStats{}
	anyFamily := false
	tasks := map[string]bool{}
	levelTasks, familyTasks := map[string]map[string]bool{}, map[string]map[string]bool{}
	for _, r := range s.Results {
		s.Runs++
		tasks[taskOf(r)] = true
		if r.Solved {
			s.Solved++
		}
		if r.Error != "" {
			s.Errors++
		}
		if r.WrongEarlyStop() {
			s.WrongEarlyStops++
		}
		if r.VerifiedExhaustively {
			s.VerifiedExhaustively++
		}
		if r.WrongExhaustive() {
			s.WrongExhaustive++
		}
		s.Levels[r.Level] = s.Levels[r.Level].add(r, levelTasks, r.Level)
		anyFamily = anyFamily || r.Family != ""
		families[familyOf(r)] = families[familyOf(r)].add(r, familyTasks, familyOf(r))
	}
	s.Tasks = len(tasks)
	fillRates(s.Levels)
	if anyFamily {
		fillRates(families)
		s.Families = families
	}
	if s.Runs > 0 {
		s.SolveRate = float64(s.Solved) / float64(s.Runs)
	}
	s.Settings = settingsGroups(s.Results)
	s.SharedSettings, s.SettingsVary = sharedSettings(s.Results)
	return s
}

// add counts one run; seen[group] holds the group's tasks so far.
func (ls LevelStats) add(r TaskResult, seen map[string]map[string]bool, group string) LevelStats {
	if seen[group] == nil {
		seen[group] = map[string]bool{}
	}
	if !seen[group][taskOf(r)] {
		seen[group][taskOf(r)] = true
		ls.Tasks++
	}
	ls.Runs++
	if r.Solved {
		ls.Solved++
	}
	if r.Error != "" {
		ls.Errors++
	}
	return ls
}

func fillRates(m map[string]LevelStats) {
	for k, ls := range m {
		if ls.Runs > 0 {
			ls.Rate = float64(ls.Solved) / float64(ls.Runs)
		}
		m[k] = ls
	}
}

// sharedSettings are the settings every result has with one value, and
// the keys whose value differs (or that some result lacks).
func sharedSettings(results []TaskResult) (map[string]any, []string) {
	var shared map[string]any
	vary := map[string]bool{}
	for _, r := range results {
		if r.Settings == nil {
			continue
		}
		if shared == nil {
			shared = map[string]any{}
			for k, v := range r.Settings {
				shared[k] = v
			}
			continue
		}
		for k, v := range shared {
			if w, ok := r.Settings[k]; !ok || fmt.Sprint(w) != fmt.Sprint(v) {
				vary[k] = true
				delete(shared, k)
			}
		}
		for k := range r.Settings {
			if _, ok := shared[k]; !ok {
				vary[k] = true
			}
		}
	}
	var names []string
	for k := range vary {
		names = append(names, k)
	}
	sort.Strings(names)
	return shared, names
}

// LevelNames returns the levels of a summary in a stable order: the
// IO2CodeBench levels first, then any others alphabetically.
func (s Summary) LevelNames() []string {
	order := map[string]int{"base": 0, "algorithm": 1, "geometry": 2, "hard": 3}
	var names []string
	for k := range s.Levels {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		oi, iok := order[names[i]]
		oj, jok := order[names[j]]
		switch {
		case iok && jok:
			return oi < oj
		case iok != jok:
			return iok
		}
		return names[i] < names[j]
	})
	return names
}

// familyNames returns the families of a summary alphabetically, with
// NoFamily last; none when no task names a family.
func (s Summary) familyNames() []string {
	var names []string
	for k := range s.Families {
		if k != NoFamily {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	if _, ok := s.Families[NoFamily]; ok {
		names = append(names, NoFamily)
	}
	return names
}

// familyRows are the rows of a per-family table: every family, then
// AllFamilies adding them up, then NoFamily when some task has none.
func (s Summary) familyRows() ([]string, map[string]LevelStats) {
	rows := map[string]LevelStats{}
	var names []string
	var total LevelStats
	for _, f := range s.familyNames() {
		rows[f] = s.Families[f]
		if f == NoFamily {
			continue
		}
		names = append(names, f)
		total.Tasks += s.Families[f].Tasks
		total.Runs += s.Families[f].Runs
		total.Solved += s.Families[f].Solved
		total.Errors += s.Families[f].Errors
	}
	if total.Runs > 0 {
		total.Rate = float64(total.Solved) / float64(total.Runs)
		rows[AllFamilies] = total
		names = append(names, AllFamilies)
	}
	if _, ok := s.Families[NoFamily]; ok {
		names = append(names, NoFamily)
	}
	return names, rows
}

// ReadSummary reads DIR/summary.json (or a summary.json path), rejecting
// unknown formats.
func ReadSummary(path string) (Summary, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, SummaryJSON)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Summary{}, fmt.Errorf("read sweep summary: %w", err)
	}
	var s Summary
	if err := json.Unmarshal(data, &s); err != nil {
		return Summary{}, fmt.Errorf("%s: %w", path, err)
	}
	if err := s.Check(path, SummaryFormat); err != nil {
		return Summary{}, err
	}
	if s.Major() == 1 {
		// Format 1 counted runs as tasks: the counts are made again.
		re := Summarize(s.Results)
		s.Tasks, s.Runs, s.Solved, s.SolveRate, s.Errors = re.Tasks, re.Runs, re.Solved, re.SolveRate, re.Errors
		s.Levels, s.Families = re.Levels, re.Families
	}
	return s, nil
}

// Count is n with its noun: "1 task", "2 tasks".
func Count(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, plural(n, one, many))
}

// Unit is what the summary counts: "task"/"tasks" when every task ran
// once, else "run"/"runs".
func (s Summary) Unit() (one, many string) {
	if s.Runs != s.Tasks {
		return "run", "runs"
	}
	return "task", "tasks"
}

// Headline is the sweep's result in one line: the runs solved of the
// runs finished (tasks, when each ran once), the errors, and the runs
// pending when the sweep was interrupted.
func (s Summary) Headline() string {
	one, many := s.Unit()
	of := ""
	if one == "run" {
		of = " of " + Count(s.Tasks, "task", "tasks")
	}
	h := fmt.Sprintf("solved %d of %s (%.1f%%)%s", s.Solved, Count(s.Runs, one, many), 100*s.SolveRate, of)
	if s.Errors > 0 {
		h += fmt.Sprintf("; %s ended in an error", Count(s.Errors, one, many))
	}
	if n := len(s.Pending); n > 0 {
		h += fmt.Sprintf("; %s pending (the sweep was interrupted: run the same command again to finish)", Count(n, one, many))
	}
	return h
}
