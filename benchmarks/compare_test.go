package benchmarks

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sweepB is testResults changed so that every bucket is non-empty: base_max
// is now solved (B only), hard_rev not (A only), algorithm_crash ran and
// failed (neither), hard_sort is gone and geometry_area is new.
func sweepB() []TaskResult {
	var out []TaskResult
	for _, r := range testResults() {
		switch r.ID {
		case "base_max":
			r.Solved, r.HeldoutAccuracy = true, 1
		case "hard_rev":
			r.Solved, r.HeldoutAccuracy = false, 0.9
		case "algorithm_crash":
			r.Error, r.HeldoutAccuracy = "", 0.4
		case "hard_sort":
			continue
		}
		out = append(out, r)
	}
	return append(out, TaskResult{ID: "geometry_area", Level: "geometry", Solved: true, HeldoutAccuracy: 1})
}

func ptr(v float64) *float64 { return &v }

func TestCompare(t *testing.T) {
	a, b := Summarize(testResults()), Summarize(sweepB())
	c := Compare(a, b)

	if diff := cmp.Diff(BucketCounts{Common: 6, OnlyA: 1, OnlyB: 1, Both: 3, Neither: 1, InAOnly: 1, InBOnly: 1}, c.Buckets); diff != "" {
		t.Errorf("buckets (-want +got):\n%s", diff)
	}
	var got []string
	for _, p := range c.Tasks {
		got = append(got, p.ID+":"+string(p.Bucket))
	}
	want := []string{"hard_rev:a_only", "base_max:b_only", "algorithm_crash:neither", "algorithm_gcd:both", "base_abs:both", "base_add:both"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tasks, differences first (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]TaskSide{{ID: "hard_sort", Level: "hard"}}, c.OnlyInA); diff != "" {
		t.Errorf("only in A (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]TaskSide{{ID: "geometry_area", Level: "geometry", Solved: true}}, c.OnlyInB); diff != "" {
		t.Errorf("only in B (-want +got):\n%s", diff)
	}
	crash := c.Tasks[2]
	if crash.ErrorA == "" || crash.ErrorB != "" || crash.AccuracyB != 0.4 {
		t.Errorf("algorithm_crash pair = %+v, want A's error and B's accuracy kept", crash)
	}

	approx := cmp.Comparer(func(x, y float64) bool { d := x - y; return d < 1e-9 && d > -1e-9 })
	// The rates are of the 6 tasks both sweeps have: hard_sort (A only)
	// and geometry_area (B only) are left out.
	wantLevels := []LevelDelta{
		{Level: "base", TasksA: 3, SolvedA: 2, RateA: 2.0 / 3, TasksB: 3, SolvedB: 3, RateB: 1, Delta: ptr(1.0 / 3)},
		{Level: "algorithm", TasksA: 2, SolvedA: 1, RateA: 0.5, TasksB: 2, SolvedB: 1, RateB: 0.5, Delta: ptr(0)},
		{Level: "hard", TasksA: 1, SolvedA: 1, RateA: 1, TasksB: 1, RateB: 0, Delta: ptr(-1)},
	}
	if diff := cmp.Diff(wantLevels, c.Levels, approx); diff != "" {
		t.Errorf("levels (-want +got):\n%s", diff)
	}
	wantTotal := LevelDelta{Level: "all levels", TasksA: 6, SolvedA: 4, RateA: 4.0 / 6, TasksB: 6, SolvedB: 4, RateB: 4.0 / 6, Delta: ptr(0)}
	if diff := cmp.Diff(wantTotal, c.Total, approx); diff != "" {
		t.Errorf("total (-want +got):\n%s", diff)
	}
}

func TestCompareSelf(t *testing.T) {
	s := Summarize(testResults())
	c := Compare(s, s)
	if diff := cmp.Diff(BucketCounts{Common: 7, Both: 4, Neither: 3}, c.Buckets); diff != "" {
		t.Errorf("buckets (-want +got):\n%s", diff)
	}
	for _, l := range append(c.Levels, c.Total) {
		if l.Delta == nil || *l.Delta != 0 {
			t.Errorf("level %s: delta %v, want 0", l.Level, l.Delta)
		}
	}
}

func TestComparisonText(t *testing.T) {
	c := Compare(Summarize(testResults()), Summarize(sweepB()))
	var buf bytes.Buffer
	if err := c.WriteText(&buf, "runs/a", "runs/b"); err != nil {
		t.Fatal(err)
	}
	// Compare lines with runs of spaces collapsed: the column widths are
	// tabwriter's business.
	var lines []string
	for _, l := range strings.Split(buf.String(), "\n") {
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	for _, want := range []string{
		"A runs/a 7 tasks, 4 solved (57.1%), 1 error",
		"B runs/b 7 tasks, 5 solved (71.4%), 0 errors",
		"the rates below are of the 6 tasks both sweeps have; 2 tasks in one sweep only (1 in A, 1 in B) are left out",
		"LEVEL A B DELTA",
		"base 2/3 66.7% 3/3 100.0% +33.3 pp",
		"algorithm 1/2 50.0% 1/2 50.0% +0.0 pp",
		"hard 1/1 100.0% 0/1 0.0% -100.0 pp",
		"all levels 4/6 66.7% 4/6 66.7% +0.0 pp",
		"6 tasks in both sweeps, 2 solved differently: solved in A only 1, in B only 1, in both 3, in neither 1",
		"on these tasks A solved 4, B solved 4",
		"tasks in one sweep only: 1 in A, 1 in B",
		"hard_rev hard solved unsolved A only",
		"base_max base unsolved solved B only",
		"algorithm_crash algorithm error unsolved neither",
		"base_abs base solved solved both",
		"ONLY IN A LEVEL RESULT",
		"hard_sort hard unsolved",
		"ONLY IN B LEVEL RESULT",
		"geometry_area geometry solved",
	} {
		if !contains(lines, want) {
			t.Errorf("comparison lacks line %q; got:\n%s", want, buf.String())
		}
	}
}
