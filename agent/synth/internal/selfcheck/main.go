// Command selfcheck measures the synthesizer on a task set: it runs each
// task through the workflow (runner.Run, which drives workflow.Run) with
// the built-in synthesizer, every setting the task's own or the default
// unless a flag below changes it, no bank, and a temporary workspace, and
// scores the final candidate on the task's heldout.jsonl. Candidates and
// hidden programs are Python: they run in the embedded process sandbox,
// never in this process. The tasks share one synth.Shared, as a sweep's
// do. With -trace it prints every session's program, the examples it
// passed and its time, and with -dump it writes the examples of every
// session. It is a development tool; "reconstruct bench run" is the
// sweep users run.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/agent/synth"
	"github.com/reconstruct/reconstruct/benchmarks"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/runner"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// options are the command's flags.
type options struct {
	tasks, filter, dump string
	verbose, trace      bool
	// override holds the settings the flags set, by configuration key.
	override map[string]any
}

// outcome is one task's line of the report.
type outcome struct {
	name, level string
	solved      bool
	acc         float64
	iters       int
	examples    int
	secs        float64
	note        string
}

func main() {
	var o options
	flag.StringVar(&o.tasks, "tasks", "benchmarks/tasks/io2code-style", "task set directory")
	flag.StringVar(&o.filter, "run", "", "regexp selecting task names")
	limit := flag.Duration("time", synth.DefaultTimeLimit, "synthesizer time limit per session (agent.synth.time_limit)")
	runLimit := flag.Duration("run-time", 0, "synthesizer time limit of all a task's sessions (agent.synth.run_time_limit; unset: the task's)")
	proposeLimit := flag.Duration("propose-time", synth.DefaultProposeTimeLimit, "search time of a proposal's rival programs (agent.synth.propose_time_limit)")
	maxPrograms := flag.Int("max-programs", 0, "bound each session's search by programs instead of time (agent.synth.max_programs)")
	stall := flag.Int("stall", workflow.DefaultStallLimit, "sessions in a row that change nothing that end a task (workflow.stall_limit)")
	flag.BoolVar(&o.verbose, "v", false, "print each task's final program")
	flag.BoolVar(&o.trace, "trace", false, "print every session's program, the examples it passed and its time")
	flag.StringVar(&o.dump, "dump", "", "write the examples of every session to DIR/TASK-SESSION.json (to replay a session's search)")
	flag.Parse()
	o.override = map[string]any{"sandbox.kind": "process", "bank.enabled": false, "agent.kind": "synth"}
	flag.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "time":
			o.override["agent.synth.time_limit"] = limit.String()
		case "run-time":
			o.override["agent.synth.run_time_limit"] = runLimit.String()
		case "propose-time":
			o.override["agent.synth.propose_time_limit"] = proposeLimit.String()
		case "max-programs":
			o.override["agent.synth.max_programs"] = *maxPrograms
		case "stall":
			o.override["workflow.stall_limit"] = *stall
		}
	})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := selfcheck(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "selfcheck:", err)
		os.Exit(2)
	}
}

// selfcheck runs every task of the set that the filter selects and
// prints a line per task and the table of the levels.
func selfcheck(ctx context.Context, o options) error {
	re, err := regexp.Compile(o.filter)
	if err != nil {
		return fmt.Errorf("-run: %w", err)
	}
	dirs, err := benchmarks.Discover(o.tasks, re)
	if err != nil {
		return err
	}
	shared := synth.NewShared(synth.SharedOptions{})
	var results []outcome
	for _, dir := range dirs {
		if ctx.Err() != nil {
			break
		}
		r := checkTask(ctx, dir, o, shared)
		results = append(results, r)
		fmt.Printf("%-40s %-9s solved=%-5v acc=%.2f iters=%-2d examples=%-3d %5.1fs %s\n", r.name, r.level, r.solved, r.acc, r.iters, r.examples, r.secs, r.note)
	}
	printLevels(results)
	return nil
}

// checkTask runs one task through the workflow and scores its final
// candidate on the held-out tests.
func checkTask(ctx context.Context, dir string, o options, shared *synth.Shared) (r outcome) {
	start := time.Now()
	r.name = filepath.Base(dir)
	defer func() { r.secs = time.Since(start).Seconds() }()
	ws, err := os.MkdirTemp("", "selfcheck-")
	if err != nil {
		r.note = err.Error()
		return r
	}
	defer os.RemoveAll(ws)
	override := map[string]any{"workspace": ws}
	for k, v := range o.override {
		override[k] = v
	}
	c, err := config.Load(config.Options{File: filepath.Join(dir, "task.yaml"), Override: override})
	if err != nil {
		r.note = err.Error()
		return r
	}
	r.level = c.Task.Level
	tests, err := benchmarks.ReadTests(filepath.Join(dir, "heldout.jsonl"))
	if err != nil {
		r.note = err.Error()
		return r
	}
	tr := &tracer{name: r.name, workspace: ws, print: o.trace, dump: o.dump}
	res, err := runner.Run(ctx, c, runner.Options{Recorders: []workflow.Recorder{tr}, Synth: shared})
	if res != nil {
		r.iters, r.examples, r.note = res.Iterations, len(res.Examples), res.StopReason
	}
	if err != nil {
		r.note = "run: " + err.Error()
		return r
	}
	src, err := os.ReadFile(filepath.Join(ws, agent.CandidateFile))
	if err != nil {
		r.note = err.Error()
		return r
	}
	box, err := runner.OpenScoringSandbox(ctx, c.Sandbox, zap.NewNop())
	if err != nil {
		r.note = err.Error()
		return r
	}
	defer box.Close()
	score, err := benchmarks.ScoreProgram(ctx, box, string(src), c.Task.FunctionName, tests, c.Sandbox.Limits(), c.Workflow.Atol)
	if err != nil {
		r.note = "score: " + err.Error()
		return r
	}
	r.acc, r.solved = score.Accuracy, score.Total > 0 && score.Passed == score.Total
	if o.verbose {
		r.note += " " + headline(string(src))
		if !r.solved {
			r.note += "\n    " + strings.ReplaceAll(strings.TrimSpace(tr.lastNotes()), "\n", "\n    ")
			r.note += "\n    examples: " + shortExamples(res.Examples)
		}
	}
	return r
}

// tracer is a workflow.Recorder that follows a task's run: it prints each
// session's program (print), writes the examples each session saw (dump),
// and keeps the last session's notes.
type tracer struct {
	name, workspace string
	print           bool
	dump            string

	mu       sync.Mutex
	examples []task.Example
	began    time.Time
	notes    string
}

var _ workflow.Recorder = (*tracer)(nil)

// RecordExamples keeps the examples observed so far.
func (t *tracer) RecordExamples(_ context.Context, _ string, exs []task.Example) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.examples = append(t.examples, exs...)
	return nil
}

// RecordEvent starts a session's clock and dumps its examples when it
// starts, and prints its program when its candidate is archived.
func (t *tracer) RecordEvent(_ context.Context, ev workflow.Event) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch ev.Type {
	case workflow.EventIterationStarted:
		t.began = time.Now()
		if t.dump == "" {
			return nil
		}
		b, err := json.Marshal(t.examples)
		if err == nil {
			err = os.WriteFile(filepath.Join(t.dump, fmt.Sprintf("%s-%d.json", t.name, ev.Iteration)), b, 0o644)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "dump %s session %d: %v\n", t.name, ev.Iteration, err)
		}
	case workflow.EventCandidateArchived:
		var a workflow.CandidateArchived
		if err := json.Unmarshal(ev.Data, &a); err != nil {
			return fmt.Errorf("trace %s: %w", t.name, err)
		}
		t.notes = a.Notes
		if t.print {
			src, _ := os.ReadFile(filepath.Join(t.workspace, agent.CandidateFile))
			fmt.Printf("  %s session %d: %d of %d examples in %.1fs: %s\n", t.name, ev.Iteration, a.Passed, a.Known,
				time.Since(t.began).Seconds(), headline(string(src)))
		}
	}
	return nil
}

func (t *tracer) lastNotes() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.notes
}

// printLevels prints the solved share of every level and of the whole set.
func printLevels(results []outcome) {
	byLevel := map[string][2]int{}
	for _, o := range results {
		c := byLevel[o.level]
		c[1]++
		if o.solved {
			c[0]++
		}
		byLevel[o.level] = c
	}
	levels := make([]string, 0, len(byLevel))
	for l := range byLevel {
		levels = append(levels, l)
	}
	sort.Strings(levels)
	total := [2]int{}
	fmt.Println("\n| level | solved | tasks | share |\n|---|---|---|---|")
	for _, l := range levels {
		c := byLevel[l]
		total[0] += c[0]
		total[1] += c[1]
		fmt.Printf("| %s | %d | %d | %.0f%% |\n", l, c[0], c[1], 100*float64(c[0])/float64(c[1]))
	}
	if total[1] > 0 {
		fmt.Printf("| all | %d | %d | %.0f%% |\n", total[0], total[1], 100*float64(total[0])/float64(total[1]))
	}
}

// headline is the first comment line of a candidate: the program it
// writes, or why it is a partial one.
func headline(src string) string {
	for _, line := range strings.Split(src, "\n") {
		if strings.HasPrefix(line, "# ") {
			return strings.TrimPrefix(line, "# ")
		}
	}
	return ""
}

func shortExamples(exs []task.Example) string {
	var sb strings.Builder
	for i, e := range exs {
		if i == 3 {
			break
		}
		fmt.Fprintf(&sb, "%s -> %s; ", e.Input, e.Output)
	}
	return sb.String()
}
