package benchmarks

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/reconstruct/reconstruct/task"
)

// SummaryFormat is the version of summary.json this package writes and reads.
const SummaryFormat = 1

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
	// Error is set when the task could not run to a result (a crash, an
	// infrastructure failure); the sweep goes on.
	Error string `json:"error,omitempty"`
}

// LevelStats aggregates a level.
type LevelStats struct {
	Tasks  int     `json:"tasks"`
	Solved int     `json:"solved"`
	Rate   float64 `json:"rate"`
	Errors int     `json:"errors"`
}

// Summary is a sweep's summary.json.
type Summary struct {
	Format      int                   `json:"format"`
	Engine      string                `json:"engine,omitempty"` // "temporal" for a sweep on a cluster, empty for the local engine
	Sweep       string                `json:"sweep,omitempty"`  // the cluster sweep's id
	TasksDir    string                `json:"tasks_dir"`
	Config      string                `json:"config,omitempty"`
	Filter      string                `json:"filter,omitempty"`
	Parallel    int                   `json:"parallel"`
	Repeat      int                   `json:"repeat"`
	StartedAt   time.Time             `json:"started_at"`
	FinishedAt  time.Time             `json:"finished_at"`
	WallSeconds float64               `json:"wall_seconds"`
	Tasks       int                   `json:"tasks"`
	Solved      int                   `json:"solved"`
	SolveRate   float64               `json:"solve_rate"`
	Errors      int                   `json:"errors"`
	Levels      map[string]LevelStats `json:"levels"`
	Results     []TaskResult          `json:"results"`
}

// Summarize aggregates results (sorted by ID) into a Summary.
func Summarize(results []TaskResult) Summary {
	s := Summary{Format: SummaryFormat, Levels: map[string]LevelStats{}}
	s.Results = append([]TaskResult(nil), results...)
	sort.Slice(s.Results, func(i, j int) bool { return s.Results[i].ID < s.Results[j].ID })
	for _, r := range s.Results {
		ls := s.Levels[r.Level]
		ls.Tasks++
		s.Tasks++
		if r.Solved {
			ls.Solved++
			s.Solved++
		}
		if r.Error != "" {
			ls.Errors++
			s.Errors++
		}
		s.Levels[r.Level] = ls
	}
	for k, ls := range s.Levels {
		if ls.Tasks > 0 {
			ls.Rate = float64(ls.Solved) / float64(ls.Tasks)
		}
		s.Levels[k] = ls
	}
	if s.Tasks > 0 {
		s.SolveRate = float64(s.Solved) / float64(s.Tasks)
	}
	return s
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
	if s.Format != SummaryFormat {
		return Summary{}, fmt.Errorf("%s: summary format %d, this reconstruct reads format %d", path, s.Format, SummaryFormat)
	}
	return s, nil
}
