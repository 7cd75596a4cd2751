package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.temporal.io/sdk/client"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/benchmarks"
	"github.com/reconstruct/reconstruct/benchmarks/cluster"
)

// Engines of bench run.
const (
	engineLocal    = "local"
	engineTemporal = "temporal"
)

// engineOptions are bench run's flags for the Temporal engine.
type engineOptions struct {
	engine string
	detach bool
	flags  map[string]*pflag.Flag
}

// sweepRunFlags are the retry settings a submitted sweep carries.
var sweepRunFlags = []configFlag{
	keyFlag("cluster.max_attempts", "max-attempts", "attempts of a task that fails for an infrastructure reason", "temporal engine"),
	keyFlag("cluster.heartbeat_timeout", "heartbeat-timeout", "silence after which a task's worker is taken for lost", "temporal engine"),
	keyFlag("cluster.task_timeout", "task-timeout", "bound of one attempt of one task", "temporal engine"),
}

// addEngineFlags adds the engine's flags; bench run's --bank, defined
// before, names the shared bank too.
func addEngineFlags(f *pflag.FlagSet, o *engineOptions) {
	f.StringVar(&o.engine, "engine", engineLocal, "where the tasks run: local (this machine) or temporal (the workers of a Temporal server)")
	f.BoolVar(&o.detach, "detach", false, "temporal engine: print the sweep id and return; follow it with bench status and bench collect")
	o.flags = addFlags(f, append(append([]configFlag(nil), clusterFlags...), sweepRunFlags...))
	if bank := f.Lookup("bank"); bank != nil {
		o.flags["bank.path"] = bank
	}
}

// runBenchCluster submits the sweep to the Temporal server and, unless
// detached, follows it and writes its summary like the local engine.
func runBenchCluster(ctx context.Context, opts *benchRunOptions, filter *regexp.Regexp, args []map[string]any) error {
	a := opts.app
	if opts.parallel != 1 {
		return withCode(exitUsage, errors.New("--parallel is the local engine's: with --engine temporal, each worker's --parallel decides"))
	}
	cc, err := connectCluster(ctx, a, opts.base, opts.cluster.flags, true)
	if err != nil {
		return err
	}
	defer cc.Close()
	cl, c, b := cc.settings, cc.temporal, cc.bank
	if err := checkOutFree(ctx, c, opts.out); err != nil {
		return err
	}
	spec, err := cluster.Prepare(ctx, b, cluster.Plan{TasksDir: opts.tasks, Base: opts.base, Filter: filter, Repeat: opts.repeat,
		Out: opts.out, Force: opts.force, Getenv: a.getenv, Retry: cluster.Retry{MaxAttempts: cl.MaxAttempts, HeartbeatTimeout: cl.HeartbeatTimeout, TaskTimeout: cl.TaskTimeout},
		Factory: opts.factory, Args: args, HeldoutDir: opts.heldoutDir, Log: a.logger()})
	switch {
	case errors.Is(err, cluster.ErrInput):
		return withCode(exitUsage, err)
	case err != nil:
		return withCode(exitInfra, err)
	}
	if err := cluster.Submit(ctx, c, cl.TaskQueue, spec); err != nil {
		return withCode(exitInfra, err)
	}
	if err := os.MkdirAll(opts.out, 0o755); err != nil {
		return withCode(exitInfra, err)
	}
	ref := cluster.Ref{Sweep: spec.ID, Temporal: cl.Temporal, Namespace: cl.Namespace, TaskQueue: cl.TaskQueue}
	if err := cluster.WriteRef(opts.out, ref); err != nil {
		return withCode(exitInfra, err)
	}
	fmt.Fprintf(a.progress(), "sweep %s: %d tasks submitted to %s (task queue %s), %d already finished\n",
		spec.ID, len(spec.Jobs), cl.Temporal, cl.TaskQueue, len(spec.Previous))
	if opts.cluster.detach {
		if opts.jsonOut {
			return a.printJSON(ref)
		}
		fmt.Fprintln(a.stdout, spec.ID)
		return nil
	}
	return collectSweep(ctx, a, c, b, spec.ID, opts.out, opts.jsonOut)
}

// checkOutFree refuses an output directory a running sweep writes into.
func checkOutFree(ctx context.Context, c client.Client, out string) error {
	ref, ok := cluster.ReadRef(out)
	if !ok {
		return nil
	}
	st, err := cluster.GetStatus(ctx, c, ref.Sweep)
	if err == nil && (st.State == "running" || st.State == "cancelling") {
		return withCode(exitUsage, fmt.Errorf("%s: sweep %s still writes there: follow it with `reconstruct bench collect %s --out %s`, or stop it with `reconstruct bench cancel %s`",
			out, ref.Sweep, ref.Sweep, out, ref.Sweep))
	}
	return nil
}

// collectSweep follows a sweep to its end and writes its output directory.
func collectSweep(ctx context.Context, a *app, c client.Client, b *bank.Bank, id, out string, jsonOut bool) error {
	rep, err := cluster.Follow(ctx, c, id, newSweepProgress(a.progress()))
	switch {
	case err != nil && ctx.Err() != nil:
		return withCode(exitRejected, fmt.Errorf("stopped following sweep %s, which goes on: `reconstruct bench collect %s --out %s` follows it again, `reconstruct bench cancel %s` stops it",
			id, id, out, id))
	case err != nil && rep.Spec.ID == "":
		return sweepExit(err)
	case err != nil:
		// Closed without completing (terminated, say): what had
		// finished is written all the same.
		if _, werr := cluster.Write(ctx, b, rep, out); werr != nil {
			err = errors.Join(err, werr)
		}
		return withCode(exitInfra, err)
	}
	sum, werr := cluster.Write(ctx, b, rep, out)
	if sum.Format == 0 {
		return withCode(exitInfra, werr)
	}
	if err := printSweepSummary(a, sum, out, jsonOut); err != nil {
		return err
	}
	if werr != nil {
		return withCode(exitInfra, werr)
	}
	switch {
	case rep.Cancelled:
		// Tasks when each runs once, runs when --repeat made several of one.
		one, many := "task", "tasks"
		if rep.Spec.Repeat > 1 {
			one, many = "run", "runs"
		}
		return withCode(exitRejected, fmt.Errorf("sweep %s was cancelled with %d of %s finished (run the same bench run again to run the others)",
			id, sum.Runs, benchmarks.Count(len(rep.Spec.Jobs)+len(rep.Spec.Previous), one, many)))
	case sum.Errors > 0:
		one, many := sum.Unit()
		return withCode(exitRejected, fmt.Errorf("%d of %s ended in an error (see %s)", sum.Errors, benchmarks.Count(sum.Runs, one, many), filepath.Join(out, benchmarks.SummaryMD)))
	}
	return nil
}

// sweepCmdOptions are the flags of status, collect and cancel.
type sweepCmdOptions struct {
	app         *app
	sweep       string // the sweep's id
	config, out string
	jsonOut     bool
	flags       map[string]*pflag.Flag
}

func newSweepCmd(a *app, use, short, long string, run func(context.Context, *sweepCmdOptions) error) (*cobra.Command, *sweepCmdOptions) {
	opts := &sweepCmdOptions{app: a}
	cmd := &cobra.Command{
		Use: use, Short: short, Long: long, Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.sweep = args[0]
			return run(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.config, "config", "c", "", "configuration file whose cluster: section and bank.path apply")
	f.BoolVar(&opts.jsonOut, "json", false, "print JSON on stdout")
	opts.flags = addFlags(f, append([]configFlag{bankFlag}, clusterFlags...))
	return cmd, opts
}

func newBenchStatusCmd(a *app) *cobra.Command {
	cmd, _ := newSweepCmd(a, "status SWEEP", "Show where a sweep on a Temporal server stands",
		`Show a sweep submitted with "bench run --engine temporal": its state, how many tasks finished
(solved, errors), and each task that waits for a worker or runs now (attempt, worker, the run's
iteration at its last heartbeat, why its previous attempt failed).`, runBenchStatus)
	return cmd
}

func runBenchStatus(ctx context.Context, opts *sweepCmdOptions) error {
	a, id := opts.app, opts.sweep
	cc, err := connectCluster(ctx, a, opts.config, opts.flags, false)
	if err != nil {
		return err
	}
	defer cc.Close()
	st, err := cluster.GetStatus(ctx, cc.temporal, id)
	if err != nil {
		return sweepExit(err)
	}
	if opts.jsonOut {
		return a.printJSON(st)
	}
	fmt.Fprintf(a.stdout, "sweep %s: %s, %d of %d tasks finished (%d solved, %d errors)", st.ID, st.State, st.Done, st.Total, st.Solved, st.Errors)
	switch {
	case st.State != "running" && st.State != "cancelling":
	case len(st.Workers) == 0:
		fmt.Fprintf(a.stdout, "; no worker polls task queue %s (start one with `reconstruct worker`)", st.TaskQueue)
	default:
		fmt.Fprintf(a.stdout, "; workers: %s", strings.Join(st.Workers, ", "))
	}
	fmt.Fprintln(a.stdout)
	for _, rt := range st.Running {
		line := fmt.Sprintf("  %-9s %-32s attempt %d", rt.State, rt.Job, rt.Attempt)
		if rt.Worker != "" && rt.State != "scheduled" {
			line += "  worker " + rt.Worker
		}
		if rt.Heartbeat.RunID != "" {
			line += fmt.Sprintf("  run %s iteration %d (%s)", rt.Heartbeat.RunID, rt.Heartbeat.Iteration, rt.Heartbeat.Phase)
		}
		if !rt.LastHeartbeat.IsZero() {
			line += fmt.Sprintf("  heartbeat %s ago", time.Since(rt.LastHeartbeat).Round(time.Second))
		}
		if rt.LastFailure != "" {
			line += "  previous attempt: " + firstLineOf(rt.LastFailure)
		}
		fmt.Fprintln(a.stdout, line)
	}
	return nil
}

func newBenchCollectCmd(a *app) *cobra.Command {
	cmd, opts := newSweepCmd(a, "collect SWEEP --out DIR", "Wait for a sweep on a Temporal server and write its summary",
		`Follow a sweep submitted with "bench run --engine temporal" (printing each task as it
finishes) until it completes, then write its output directory as the local engine does:
tasks/ (one record per task), runs/ (each run's workspace, from the bank), summary.json,
summary.csv and summary.md, plus cluster.json (which worker ran each task, in how many
attempts, where the time went). Ctrl-C stops following, not the sweep.`, runBenchCollect)
	cmd.Flags().StringVar(&opts.out, "out", "", "output directory")
	return cmd
}

func runBenchCollect(ctx context.Context, opts *sweepCmdOptions) error {
	a, id := opts.app, opts.sweep
	if opts.out == "" {
		return withCode(exitUsage, errors.New("--out is required"))
	}
	cc, err := connectCluster(ctx, a, opts.config, opts.flags, true)
	if err != nil {
		return err
	}
	defer cc.Close()
	return collectSweep(ctx, a, cc.temporal, cc.bank, id, opts.out, opts.jsonOut)
}

func newBenchCancelCmd(a *app) *cobra.Command {
	cmd, _ := newSweepCmd(a, "cancel SWEEP", "Stop a sweep on a Temporal server",
		`Cancel a sweep submitted with "bench run --engine temporal": no task starts any more, and
the running ones stop at their next safe point with everything recorded. The sweep then
completes with the tasks that had finished; "bench collect" writes their summary, and the
same "bench run" into the same output directory runs the others.`, runBenchCancel)
	return cmd
}

func runBenchCancel(ctx context.Context, opts *sweepCmdOptions) error {
	a, id := opts.app, opts.sweep
	cc, err := connectCluster(ctx, a, opts.config, opts.flags, false)
	if err != nil {
		return err
	}
	defer cc.Close()
	if err := cluster.Cancel(ctx, cc.temporal, id); err != nil {
		return sweepExit(err)
	}
	fmt.Fprintf(a.progress(), "sweep %s: cancel requested; running tasks stop at their next safe point\n", id)
	return nil
}
