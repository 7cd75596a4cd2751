package benchmarks

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"
)

// Bucket classifies a task present in both sweeps by who solved it.
type Bucket string

// Buckets, in the order a comparison lists them: differences first.
const (
	BucketOnlyA   Bucket = "a_only"
	BucketOnlyB   Bucket = "b_only"
	BucketNeither Bucket = "neither"
	BucketBoth    Bucket = "both"
)

var bucketOrder = map[Bucket]int{BucketOnlyA: 0, BucketOnlyB: 1, BucketNeither: 2, BucketBoth: 3}

// Comparison sets two sweeps side by side: per task (matched by ID) who
// solved it, and per level the solve rates and their difference, on the
// tasks both sweeps have (a rate over other tasks would compare nothing).
type Comparison struct {
	// A and B are each sweep's own headline figures, every task counted.
	A SweepTotals `json:"a"`
	B SweepTotals `json:"b"`
	// Levels covers every level of the tasks both sweeps have; Total is
	// all of them. Tasks of one sweep only are left out of both.
	Levels []LevelDelta `json:"levels"`
	Total  LevelDelta   `json:"total"`
	// Tasks are the tasks present in both sweeps, differences first.
	Tasks   []TaskPair   `json:"tasks"`
	Buckets BucketCounts `json:"buckets"`
	// OnlyInA and OnlyInB are tasks present in one sweep only.
	OnlyInA []TaskSide `json:"only_in_a"`
	OnlyInB []TaskSide `json:"only_in_b"`
}

// SweepTotals are one sweep's headline figures.
type SweepTotals struct {
	TasksDir  string  `json:"tasks_dir"`
	Tasks     int     `json:"tasks"`
	Runs      int     `json:"runs"`
	Solved    int     `json:"solved"`
	SolveRate float64 `json:"solve_rate"`
	Errors    int     `json:"errors"`
}

// LevelDelta compares one level. Delta is RateB − RateA, and null when one
// sweep has no task at that level.
type LevelDelta struct {
	Level   string   `json:"level"`
	TasksA  int      `json:"tasks_a"`
	SolvedA int      `json:"solved_a"`
	RateA   float64  `json:"rate_a"`
	TasksB  int      `json:"tasks_b"`
	SolvedB int      `json:"solved_b"`
	RateB   float64  `json:"rate_b"`
	Delta   *float64 `json:"delta"`
}

// TaskPair is a task present in both sweeps.
type TaskPair struct {
	ID        string  `json:"id"`
	Level     string  `json:"level"`
	SolvedA   bool    `json:"solved_a"`
	SolvedB   bool    `json:"solved_b"`
	AccuracyA float64 `json:"heldout_accuracy_a"`
	AccuracyB float64 `json:"heldout_accuracy_b"`
	ErrorA    string  `json:"error_a,omitempty"`
	ErrorB    string  `json:"error_b,omitempty"`
	Bucket    Bucket  `json:"bucket"`
}

// TaskSide is a task present in one sweep only.
type TaskSide struct {
	ID     string `json:"id"`
	Level  string `json:"level"`
	Solved bool   `json:"solved"`
	Error  string `json:"error,omitempty"`
}

// BucketCounts counts the tasks of each bucket; Common is their sum, the
// tasks present in both sweeps.
type BucketCounts struct {
	Common  int `json:"common"`
	OnlyA   int `json:"a_only"`
	OnlyB   int `json:"b_only"`
	Both    int `json:"both"`
	Neither int `json:"neither"`
	InAOnly int `json:"only_in_a"`
	InBOnly int `json:"only_in_b"`
}

// Compare matches the tasks of two sweeps by ID and compares them.
func Compare(a, b Summary) Comparison {
	c := Comparison{A: totals(a), B: totals(b)}
	inB := map[string]TaskResult{}
	for _, r := range b.Results {
		inB[r.ID] = r
	}
	inA := map[string]bool{}
	for _, ra := range a.Results {
		inA[ra.ID] = true
		rb, ok := inB[ra.ID]
		if !ok {
			c.OnlyInA = append(c.OnlyInA, TaskSide{ID: ra.ID, Level: ra.Level, Solved: ra.Solved, Error: ra.Error})
			continue
		}
		p := TaskPair{ID: ra.ID, Level: ra.Level, SolvedA: ra.Solved, SolvedB: rb.Solved,
			AccuracyA: ra.HeldoutAccuracy, AccuracyB: rb.HeldoutAccuracy, ErrorA: ra.Error, ErrorB: rb.Error}
		switch {
		case p.SolvedA && p.SolvedB:
			p.Bucket, c.Buckets.Both = BucketBoth, c.Buckets.Both+1
		case p.SolvedA:
			p.Bucket, c.Buckets.OnlyA = BucketOnlyA, c.Buckets.OnlyA+1
		case p.SolvedB:
			p.Bucket, c.Buckets.OnlyB = BucketOnlyB, c.Buckets.OnlyB+1
		default:
			p.Bucket, c.Buckets.Neither = BucketNeither, c.Buckets.Neither+1
		}
		c.Tasks = append(c.Tasks, p)
	}
	for _, rb := range b.Results {
		if !inA[rb.ID] {
			c.OnlyInB = append(c.OnlyInB, TaskSide{ID: rb.ID, Level: rb.Level, Solved: rb.Solved, Error: rb.Error})
		}
	}
	c.Buckets.Common = len(c.Tasks)
	c.Buckets.InAOnly, c.Buckets.InBOnly = len(c.OnlyInA), len(c.OnlyInB)
	sort.SliceStable(c.Tasks, func(i, j int) bool {
		if oi, oj := bucketOrder[c.Tasks[i].Bucket], bucketOrder[c.Tasks[j].Bucket]; oi != oj {
			return oi < oj
		}
		return c.Tasks[i].ID < c.Tasks[j].ID
	})
	byID := func(s []TaskSide) { sort.Slice(s, func(i, j int) bool { return s[i].ID < s[j].ID }) }
	byID(c.OnlyInA)
	byID(c.OnlyInB)

	// The rates are of the common tasks: their results in A, and in B.
	var ra, rb []TaskResult
	byB := map[string]TaskResult{}
	for _, r := range b.Results {
		byB[r.ID] = r
	}
	for _, r := range a.Results {
		if other, ok := byB[r.ID]; ok {
			ra, rb = append(ra, r), append(rb, other)
		}
	}
	ca, cb := Summarize(ra), Summarize(rb)
	for _, l := range ca.LevelNames() {
		c.Levels = append(c.Levels, levelDelta(l, ca.Levels[l], cb.Levels[l]))
	}
	c.Total = levelDelta("all levels",
		LevelStats{Tasks: ca.Tasks, Runs: ca.Runs, Solved: ca.Solved, Rate: ca.SolveRate},
		LevelStats{Tasks: cb.Tasks, Runs: cb.Runs, Solved: cb.Solved, Rate: cb.SolveRate})
	return c
}

func totals(s Summary) SweepTotals {
	return SweepTotals{TasksDir: s.TasksDir, Tasks: s.Tasks, Runs: s.Runs, Solved: s.Solved, SolveRate: s.SolveRate, Errors: s.Errors}
}

func levelDelta(level string, a, b LevelStats) LevelDelta {
	d := LevelDelta{Level: level, TasksA: a.Runs, SolvedA: a.Solved, RateA: a.Rate, TasksB: b.Runs, SolvedB: b.Solved, RateB: b.Rate}
	if a.Runs > 0 && b.Runs > 0 {
		delta := b.Rate - a.Rate
		d.Delta = &delta
	}
	return d
}

// WriteText renders the comparison as aligned text; nameA and nameB label
// the sweeps (their directories).
func (c Comparison) WriteText(w io.Writer, nameA, nameB string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, side := range []struct {
		name, dir string
		t         SweepTotals
	}{{"A", nameA, c.A}, {"B", nameB, c.B}} {
		runs := ""
		if side.t.Runs != side.t.Tasks && side.t.Runs > 0 {
			runs = fmt.Sprintf(" (%s)", Count(side.t.Runs, "run", "runs"))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s%s, %d solved (%s), %s\n", side.name, side.dir, Count(side.t.Tasks, "task", "tasks"), runs,
			side.t.Solved, ratePct(side.t.SolveRate), Count(side.t.Errors, "error", "errors"))
	}
	fmt.Fprintln(tw)
	k := c.Buckets
	if k.InAOnly+k.InBOnly > 0 {
		n := k.InAOnly + k.InBOnly
		fmt.Fprintf(tw, "the rates below are of the %s both sweeps have; %s in one sweep only (%d in A, %d in B) %s left out\n",
			Count(k.Common, "task", "tasks"), Count(n, "task", "tasks"), k.InAOnly, k.InBOnly, plural(n, "is", "are"))
	}
	fmt.Fprintln(tw, "LEVEL\tA\t\tB\t\tDELTA")
	for _, l := range append(append([]LevelDelta(nil), c.Levels...), c.Total) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", l.Level,
			fraction(l.SolvedA, l.TasksA), levelRate(l.RateA, l.TasksA),
			fraction(l.SolvedB, l.TasksB), levelRate(l.RateB, l.TasksB), fmtDelta(l.Delta))
	}
	fmt.Fprintln(tw)
	fmt.Fprintf(tw, "%s in both sweeps, %d solved differently: solved in A only %d, in B only %d, in both %d, in neither %d\n",
		Count(k.Common, "task", "tasks"), k.OnlyA+k.OnlyB, k.OnlyA, k.OnlyB, k.Both, k.Neither)
	if k.Common > 0 {
		fmt.Fprintf(tw, "on these tasks A solved %d, B solved %d\n", k.OnlyA+k.Both, k.OnlyB+k.Both)
	}
	fmt.Fprintf(tw, "tasks in one sweep only: %d in A, %d in B\n", k.InAOnly, k.InBOnly)
	if len(c.Tasks) > 0 {
		fmt.Fprintln(tw)
		fmt.Fprintln(tw, "TASK\tLEVEL\tA\tB\tSOLVED IN")
		for _, p := range c.Tasks {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.ID, p.Level, pairStatus(p.SolvedA, p.ErrorA), pairStatus(p.SolvedB, p.ErrorB), bucketLabel(p.Bucket))
		}
	}
	for _, side := range []struct {
		name  string
		tasks []TaskSide
	}{{"A", c.OnlyInA}, {"B", c.OnlyInB}} {
		if len(side.tasks) == 0 {
			continue
		}
		fmt.Fprintln(tw)
		fmt.Fprintf(tw, "ONLY IN %s\tLEVEL\tRESULT\n", side.name)
		for _, t := range side.tasks {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", t.ID, t.Level, pairStatus(t.Solved, t.Error))
		}
	}
	return tw.Flush()
}

func ratePct(r float64) string { return fmt.Sprintf("%.1f%%", 100*r) }

func fraction(solved, tasks int) string {
	if tasks == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d", solved, tasks)
}

func levelRate(rate float64, tasks int) string {
	if tasks == 0 {
		return ""
	}
	return ratePct(rate)
}

func fmtDelta(d *float64) string {
	if d == nil {
		return "-"
	}
	pp := 100 * *d
	if pp > -0.05 && pp < 0.05 {
		pp = 0 // no "-0.0"
	}
	return fmt.Sprintf("%+.1f pp", pp)
}

func pairStatus(solved bool, errMsg string) string {
	switch {
	case errMsg != "":
		return statusError
	case solved:
		return statusSolved
	}
	return statusUnsolved
}

func bucketLabel(b Bucket) string {
	switch b {
	case BucketOnlyA:
		return "A only"
	case BucketOnlyB:
		return "B only"
	case BucketBoth:
		return "both"
	}
	return "neither"
}
