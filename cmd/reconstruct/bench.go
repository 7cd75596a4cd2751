package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/reconstruct/reconstruct/benchmarks"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/stamp"
)

type benchRunOptions struct {
	app                            *app
	tasks, base, out, filter, bank string
	// A sweep over a Python factory (docs/binding.md).
	factory, argsList, names, heldoutDir string
	parallel, repeat                     int
	jsonOut, force                       bool
	cluster                              engineOptions
}

func newBenchCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "bench",
		Short: "Sweep task sets, report and compare sweeps",
	}
}

func newBenchRunCmd(a *app) *cobra.Command {
	opts := &benchRunOptions{app: a}
	cmd := &cobra.Command{
		Use:   "run --tasks DIR --out DIR",
		Short: "Run every task of a task set and score it on held-out tests",
		Long: `Run every task directory under --tasks (each in its own workspace under OUT/runs),
with --config base.yaml applied over each task's own task.yaml, score the final program
on the task's held-out tests, and write summary.json, summary.csv and summary.md in OUT:
of every result OUT holds, with the settings, the version, the machine and its load.
Every task is loaded as a run would load it before the first starts (its configuration,
held-out tests, hidden program and generator): broken tasks refuse the sweep, each named.
Run again with the same --out, a sweep finishes the tasks an interrupted one left
pending, runs again those that ended in an error and those whose files changed since
(saying why), and keeps the others; --force runs again every task selected, and is
needed when OUT holds results of other settings. One sweep at a time writes into OUT.
A task that fails is recorded with its error and the sweep goes on.
With --factory module:callable instead of --tasks, the tasks come from a Python factory,
one per --names entry or --args-list line (see docs/binding.md).

With --engine temporal the sweep is submitted to a Temporal server (--temporal HOST:PORT,
--namespace, --task-queue) as one workflow, and its tasks run on the workers started
with "reconstruct worker" on any number of machines, all recording into one shared bank
(--bank, a PostgreSQL URL when the workers are on other machines). The task directories
travel in the bank; the held-out tests go to the scoring step only. A task whose worker
is lost is continued by another worker from its last checkpoint; a task that fails for
an infrastructure reason is retried up to --max-attempts times, one that fails for a
task reason is not. The progress and OUT are the local engine's, plus sweep.json and
cluster.json (which worker ran each task, in how many attempts, where the time went).
--detach prints the sweep's id and returns; "bench status", "bench collect" and
"bench cancel" follow it from any machine. Settings also come from RECONSTRUCT_CLUSTER_*
and the cluster: section of --config.

Exit status: 0 when every task ran to a result, 1 when any ended in an error (the last
line says how many), the sweep was interrupted or cancelled, or (temporal) following it
stopped; 2 for bad input (nothing is created or submitted); 3 for an infrastructure
failure (OUT cannot be written; with temporal, the server or the bank cannot be reached).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.factory == "" {
				if err := requireFlag(cmd, "tasks"); err != nil {
					return err
				}
			}
			if err := requireFlag(cmd, "out"); err != nil {
				return err
			}
			return runBenchRun(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.tasks, "tasks", "", "task set directory (one task directory per task)")
	f.StringVarP(&opts.base, "config", "c", "", "settings applied over every task's task.yaml")
	f.StringVar(&opts.out, "out", "", "output directory (workspaces, per-task records, summaries)")
	f.StringVar(&opts.filter, "filter", "", "only tasks whose directory name matches this regular expression")
	f.IntVar(&opts.parallel, "parallel", 1, "tasks run at once (local engine; with --engine temporal each worker's --parallel decides)")
	f.IntVar(&opts.repeat, "repeat", 1, "runs per task (repeat k uses seed + k - 1)")
	f.BoolVar(&opts.jsonOut, "json", false, "print summary.json on stdout")
	f.BoolVar(&opts.force, "force", false, "run again every task selected (--filter), even those OUT holds results of, with other settings or not")
	f.StringVar(&opts.factory, "factory", "", "sweep the tasks of a Python factory, module:callable (instead of --tasks; see docs/binding.md)")
	f.StringVar(&opts.argsList, "args-list", "", "with --factory: a file of task arguments, one JSON object per line")
	f.StringVar(&opts.names, "names", "", "with --factory: task names, comma-separated (each passed as name=...)")
	f.StringVar(&opts.heldoutDir, "heldout-dir", "", "with --factory: held-out tests as DIR/<task>.jsonl, for a module without heldout(**args)")
	f.StringVar(&opts.bank, "bank", "", bankUsage("bank every task is recorded in (with --engine temporal, the one every machine shares)", true))
	addEngineFlags(f, &opts.cluster)
	_ = cmd.RegisterFlagCompletionFunc("engine", cobra.FixedCompletions([]string{engineLocal, engineTemporal}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func runBenchRun(ctx context.Context, opts *benchRunOptions) error {
	a := opts.app
	if opts.parallel < 1 || opts.repeat < 1 {
		return withCode(exitUsage, errors.New("--parallel and --repeat must be at least 1"))
	}
	var filter *regexp.Regexp
	if opts.filter != "" {
		re, err := regexp.Compile(opts.filter)
		if err != nil {
			return withCode(exitUsage, fmt.Errorf("--filter: %w", err))
		}
		filter = re
	}
	if opts.bank == "" && a.getenv(config.LegacyBankEnv) != "" && a.getenv(config.BankPathEnv) == "" {
		a.logger().Warn(config.LegacyBankEnv + " is deprecated: set " + config.BankPathEnv + " instead")
	}
	args, err := factoryArgs(opts)
	if err != nil {
		return withCode(exitUsage, err)
	}
	switch opts.cluster.engine {
	case engineLocal:
	case engineTemporal:
		return runBenchCluster(ctx, opts, filter, args)
	default:
		return withCode(exitUsage, fmt.Errorf("--engine %q: want local or temporal", opts.cluster.engine))
	}
	sw := &benchmarks.Sweep{
		TasksDir: opts.tasks, Base: opts.base, Out: opts.out, Parallel: opts.parallel, Repeat: opts.repeat,
		Filter: filter, Getenv: a.getenv, LookupEnv: a.lookupEnv, Log: a.logger(), Progress: newSweepProgress(a.progress()),
		Bank: opts.bank, Force: opts.force, Factory: opts.factory, HeldoutDir: opts.heldoutDir, Args: args,
		Version: stamp.This().Text,
	}
	sum, err := sw.Execute(ctx)
	if errors.Is(err, benchmarks.ErrRefused) {
		return withCode(exitUsage, err)
	}
	if err != nil && sum.Format == 0 {
		return withCode(exitInfra, err)
	}
	if perr := printSweepSummary(a, sum, opts.out, opts.jsonOut); perr != nil {
		return perr
	}
	switch {
	case err != nil:
		return withCode(exitRejected, err)
	case sum.Errors > 0:
		one, many := sum.Unit()
		return withCode(exitRejected, fmt.Errorf("%d of %s ended in an error (see %s)", sum.Errors, benchmarks.Count(sum.Runs, one, many), filepath.Join(opts.out, benchmarks.SummaryMD)))
	}
	return nil
}

// printSweepSummary prints summary.json (--json) or the solve rates.
func printSweepSummary(a *app, sum benchmarks.Summary, out string, jsonOut bool) error {
	if jsonOut {
		return a.printJSON(sum)
	}
	for _, l := range sum.LevelNames() {
		ls := sum.Levels[l]
		fmt.Fprintf(a.stdout, "  %-10s %3d/%-3d %5.1f%%  %s\n", l, ls.Solved, ls.Runs, 100*ls.Rate, benchmarks.Count(ls.Errors, "error", "errors"))
	}
	fmt.Fprintf(a.stdout, "%s; %.1f s; summary in %s\n", sum.Headline(), sum.WallSeconds, out)
	return nil
}

// sweepProgress is a progress bar on a terminal, plain lines otherwise.
type sweepProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

func newSweepProgress(w io.Writer) *sweepProgress { return &sweepProgress{w: w} }

func (p *sweepProgress) Start(total, done, solved int) {
	if isTerminal(p.w) {
		p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(p.w), progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true), progressbar.OptionSetWidth(30),
			progressbar.OptionSetDescription(fmt.Sprintf("solved %d", solved)))
		_ = p.bar.Set(done)
		return
	}
	fmt.Fprintf(p.w, "sweep: %d planned, %d already finished (%d solved)\n", total, done, solved)
}

// Rerun says, before the sweep starts, that a task finished earlier runs
// again and why.
func (p *sweepProgress) Rerun(id, reason string) {
	fmt.Fprintf(p.w, "sweep: %s runs again: %s\n", id, reason)
}

func (p *sweepProgress) Finished(r benchmarks.TaskResult, done, solved int) {
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("solved %d", solved))
		_ = p.bar.Add(1)
		return
	}
	status := "unsolved"
	switch {
	case r.Error != "":
		status = "error: " + firstLineOf(r.Error)
	case r.Solved:
		status = "solved"
	}
	fmt.Fprintf(p.w, "[%d] %s: %s (held-out %d/%d, %s, %d iterations, %.1fs); solved so far %d\n",
		done, r.ID, status, r.HeldoutPassed, r.HeldoutTotal, r.StopReason, r.Iterations, r.WallSeconds, solved)
}

func (p *sweepProgress) Stop() {
	if p.bar != nil {
		_ = p.bar.Finish()
		fmt.Fprintln(p.w)
	}
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// factoryArgs are the task arguments of a factory sweep, from --names or
// --args-list (none without --factory); it checks that the factory flags
// go together.
func factoryArgs(opts *benchRunOptions) ([]map[string]any, error) {
	switch {
	case opts.factory == "" && (opts.argsList != "" || opts.names != "" || opts.heldoutDir != ""):
		return nil, errors.New("--args-list, --names and --heldout-dir go with --factory")
	case opts.factory == "":
		return nil, nil
	case opts.tasks != "":
		return nil, errors.New("give --tasks or --factory, not both")
	case (opts.argsList == "") == (opts.names == ""):
		return nil, errors.New("--factory needs the tasks' arguments: --args-list FILE or --names a,b,c")
	}
	var out []map[string]any
	if opts.names != "" {
		for _, n := range strings.Split(opts.names, ",") {
			if n = strings.TrimSpace(n); n != "" {
				out = append(out, map[string]any{"name": n})
			}
		}
		return out, nil
	}
	data, err := os.ReadFile(opts.argsList)
	if err != nil {
		return nil, fmt.Errorf("--args-list: %w", err)
	}
	for n, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var args map[string]any
		if err := json.Unmarshal([]byte(line), &args); err != nil || args == nil {
			return nil, fmt.Errorf("%s:%d: want a JSON object of keyword arguments", opts.argsList, n+1)
		}
		out = append(out, args)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no task arguments", opts.argsList)
	}
	return out, nil
}
