package benchmarks

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/dirlock"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/runner"
	"github.com/reconstruct/reconstruct/workflow"
)

// failing runs each task, failing those named in fail.
func failing(ran *[]string, fail map[string]bool) RunFunc {
	return func(ctx context.Context, c *config.Config, o runner.Options) (*workflow.Result, error) {
		*ran = append(*ran, c.Task.Name)
		if fail[c.Task.Name] {
			return nil, errors.New("boom")
		}
		return &workflow.Result{RunID: "r", StopReason: workflow.StopMaxIterations}, nil
	}
}

func appendTo(t *testing.T, p, text string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// A sweep run again into its output directory runs again what ended in
// an error and what changed since (the task's hidden program, its held-out
// tests), saying why, and keeps the rest; --force runs again what it
// selects. The summary is always of the whole directory.
func TestSweepRerunsErrorsAndChangedTasks(t *testing.T) {
	testenv.NeedPython(t)
	tasks, out := t.TempDir(), filepath.Join(t.TempDir(), "out")
	copyTask(t, "negate", tasks)
	copyTask(t, "reverse", tasks)
	base := filepath.Join(t.TempDir(), "base.yaml")
	os.WriteFile(base, []byte("bank: {enabled: false}\nsandbox: {kind: process}\n"), 0o644)
	sweep := func(fail map[string]bool, filter string, force bool) (Summary, []string) {
		t.Helper()
		var ran []string
		sw := &Sweep{TasksDir: tasks, Base: base, Out: out, Run: failing(&ran, fail), Force: force, Version: "test"}
		if filter != "" {
			sw.Filter = regexp.MustCompile(filter)
		}
		sum, err := sw.Execute(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(ran)
		return sum, ran
	}
	reruns := func(sum Summary) map[string]string {
		out := map[string]string{}
		for _, r := range sum.Results {
			out[r.ID] = r.Rerun
		}
		return out
	}
	steps := []struct {
		name   string
		change func()
		fail   map[string]bool
		filter string
		force  bool
		ran    []string
		reruns map[string]string
		errors int
		inMD   string
	}{
		{name: "first", fail: map[string]bool{"reverse": true}, ran: []string{"negate", "reverse"},
			reruns: map[string]string{"negate": "", "reverse": ""}, errors: 1},
		{name: "the task that ended in an error runs again", ran: []string{"reverse"},
			reruns: map[string]string{"negate": "", "reverse": RerunError}, inMD: "reverse (it had ended in an error)"},
		{name: "nothing changed: nothing runs", ran: nil, reruns: map[string]string{"negate": "", "reverse": RerunError}},
		{name: "a hidden program edited", change: func() { appendTo(t, filepath.Join(tasks, "negate", "hidden.py"), "\n# edited\n") },
			ran: []string{"negate"}, reruns: map[string]string{"negate": "its files changed since: hidden.py", "reverse": RerunError}},
		{name: "held-out tests edited", change: func() {
			appendTo(t, filepath.Join(tasks, "reverse", "heldout.jsonl"), `{"input": [7, 8], "output": [8, 7]}`+"\n")
		}, ran: []string{"reverse"}, reruns: map[string]string{"negate": "its files changed since: hidden.py", "reverse": "its files changed since: heldout.jsonl"}},
		{name: "a generator edited", change: func() { appendTo(t, filepath.Join(tasks, "reverse", "generator.py"), "\n# edited\n") },
			ran: []string{"reverse"}, reruns: map[string]string{"negate": "its files changed since: hidden.py", "reverse": "its files changed since: generator.py"}},
		{name: "forced, one task selected: it alone runs, the summary has both", filter: "^negate$", force: true,
			ran: []string{"negate"}, reruns: map[string]string{"negate": RerunForced, "reverse": "its files changed since: generator.py"}},
	}
	sessions := 0
	for _, st := range steps {
		if st.change != nil {
			st.change()
		}
		sum, ran := sweep(st.fail, st.filter, st.force)
		sessions++
		if diff := cmp.Diff(st.ran, ran); diff != "" {
			t.Errorf("%s: ran (-want +got):\n%s", st.name, diff)
		}
		if diff := cmp.Diff(st.reruns, reruns(sum)); diff != "" {
			t.Errorf("%s: reruns (-want +got):\n%s", st.name, diff)
		}
		if sum.Tasks != 2 || sum.Runs != 2 || sum.Errors != st.errors {
			t.Errorf("%s: summary of %d tasks, %d runs, %d errors; want 2, 2, %d", st.name, sum.Tasks, sum.Runs, sum.Errors, st.errors)
		}
		if len(sum.Sessions) != sessions {
			t.Errorf("%s: %d sessions, want %d", st.name, len(sum.Sessions), sessions)
		}
		total := 0.0
		for _, se := range sum.Sessions {
			total += se.WallSeconds
		}
		if sum.WallSeconds != total {
			t.Errorf("%s: wall time %.3f s, the sessions add up to %.3f s", st.name, sum.WallSeconds, total)
		}
		if md := readText(t, filepath.Join(out, SummaryMD)); st.inMD != "" && !strings.Contains(md, st.inMD) {
			t.Errorf("%s: summary.md does not say %q:\n%s", st.name, st.inMD, md)
		}
	}
}

func readText(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Every task is loaded as a run would load it before the first starts: a
// held-out line that does not parse, a hidden program that does not parse,
// a generator that returns no list; the sweep is refused naming each, and
// nothing is created.
func TestSweepCheckNamesEveryBrokenTask(t *testing.T) {
	testenv.NeedPython(t)
	tasks := t.TempDir()
	for _, n := range []string{"negate", "reverse"} {
		copyTask(t, n, tasks)
	}
	for _, n := range []string{"a", "b", "c"} {
		copyTask(t, "negate", filepath.Join(tasks, "tmp"))
		os.Rename(filepath.Join(tasks, "tmp", "negate"), filepath.Join(tasks, n))
		p := filepath.Join(tasks, n, "task.yaml")
		os.WriteFile(p, []byte(strings.Replace(readText(t, p), "name: negate", "name: "+n, 1)), 0o644)
	}
	os.RemoveAll(filepath.Join(tasks, "tmp"))
	appendTo(t, filepath.Join(tasks, "a", "heldout.jsonl"), `{"input": [1`+"\n")
	appendTo(t, filepath.Join(tasks, "b", "hidden.py"), "\ndef broken(:\n")
	os.WriteFile(filepath.Join(tasks, "c", "generator.py"), []byte("def generate(k, exclude, rng):\n    return 42\n"), 0o644)
	base := filepath.Join(t.TempDir(), "base.yaml")
	os.WriteFile(base, []byte("bank: {enabled: false}\nsandbox: {kind: process}\n"), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	var ran []string
	_, err := (&Sweep{TasksDir: tasks, Base: base, Out: out, Run: fakeRun(&ran)}).Execute(context.Background())
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("err = %v, want the sweep refused", err)
	}
	for _, want := range []string{
		"3 of 5 tasks cannot run",
		"task a: held-out tests: " + filepath.Join(tasks, "a", "heldout.jsonl") + ":16: unexpected end of JSON input",
		"task b: " + filepath.Join(tasks, "b", "hidden.py") + " (task.oracle.python) does not parse: SyntaxError",
		"task c: " + filepath.Join(tasks, "c", "generator.py") + " (task.random_inputs.python) failed when asked for 2 inputs: the generator returned int, not a list",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "task negate") || strings.Contains(err.Error(), "task reverse") {
		t.Errorf("a sound task is named:\n%v", err)
	}
	if len(ran) != 0 {
		t.Errorf("tasks ran: %v", ran)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused sweep created %s", out)
	}
}

// An output directory is one sweep's at a time.
func TestSweepOutputLocked(t *testing.T) {
	testenv.NeedPython(t)
	out := t.TempDir()
	l, err := dirlock.Acquire(out, dirlock.Holder{What: "bench run", PID: 4242})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	var ran []string
	_, err = (&Sweep{TasksDir: filepath.Join("testdata", "tasks"), Filter: regexp.MustCompile("^negate$"), Out: out, Run: fakeRun(&ran)}).Execute(context.Background())
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), out+" is in use by bench run (pid 4242") || !strings.Contains(err.Error(), "give another --out") {
		t.Fatalf("err = %v, want the sweep refused naming the holder", err)
	}
	if len(ran) != 0 {
		t.Errorf("tasks ran: %v", ran)
	}
	if _, err := os.Stat(filepath.Join(out, TasksDir)); err == nil {
		t.Errorf("the refused sweep wrote into %s", out)
	}
}

// A task run --repeat k times counts once among the tasks, k times among
// the runs; the summary records the settings, the reconstruct and the
// machine it ran with.
func TestSweepSummaryCountsTasksAndRuns(t *testing.T) {
	testenv.NeedPython(t)
	out := t.TempDir()
	var ran []string
	sum, err := (&Sweep{TasksDir: filepath.Join("testdata", "tasks"), Filter: regexp.MustCompile("^negate$"), Out: out, Repeat: 3,
		Run: fakeRun(&ran), Version: "v1.2.3 (test)"}).Execute(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if sum.Tasks != 1 || sum.Runs != 3 || sum.Levels["algorithm"].Tasks != 1 || sum.Levels["algorithm"].Runs != 3 {
		t.Errorf("%d tasks, %d runs, level %+v; want 1 task, 3 runs", sum.Tasks, sum.Runs, sum.Levels["algorithm"])
	}
	if got, want := sum.Headline(), "solved 0 of 3 runs (0.0%) of 1 task"; got != want {
		t.Errorf("headline %q, want %q", got, want)
	}
	if sum.SharedSettings["workflow.early_stop"] != float64(workflow.DefaultEarlyStop) || sum.SharedSettings["agent.kind"] != "synth" || len(sum.SettingsVary) != 1 || sum.SettingsVary[0] != "workflow.seed" {
		t.Errorf("settings %v, varying %v; want the defaults, the seed varying between repeats", sum.SharedSettings, sum.SettingsVary)
	}
	if sum.Version != "v1.2.3 (test)" || sum.Machine == nil || sum.Machine.CPUs < 1 || len(sum.Sessions) != 1 || sum.Sessions[0].Ran != 3 {
		t.Errorf("version %q, machine %v, sessions %+v", sum.Version, sum.Machine, sum.Sessions)
	}
	md := readText(t, filepath.Join(out, SummaryMD))
	for _, want := range []string{"Solved 0 of 3 runs (0.0%) of 1 task on held-out tests", "| algorithm | 1 | 3 | 0 | 0.0% | 0 |", "`workflow.early_stop`: 5", "v1.2.3 (test)"} {
		if !strings.Contains(md, want) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}
}
