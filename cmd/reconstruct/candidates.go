package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/reconstruct/reconstruct/bank/backend"
	"github.com/reconstruct/reconstruct/benchmarks"
	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/runner"
	"github.com/reconstruct/reconstruct/task"
)

// candidatesOptions are the flags every candidates command shares.
type candidatesOptions struct {
	app *app
	// bank is where a run's workspace archive is read when the workspace
	// is not on this machine.
	bank    string
	run     string
	jsonOut bool
}

func newCandidatesCmd(opts *candidatesOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "candidates",
		Short: "Inspect the archived candidates of a workspace",
		Long: `Inspect a workspace's .oc_candidates archive. By default the commands look at the
latest run in the archive; --run RUN picks another (list --run all shows every run).
When the workspace is not on this machine (or lacks the run), --run RUN reads the
workspace archive the run stored in the bank (--bank, e.g. a shared postgres:// bank).`,
	}
	cmd.PersistentFlags().StringVar(&opts.run, "run", "", "run id (default: the latest run; list accepts \"all\")")
	_ = cmd.RegisterFlagCompletionFunc("run", opts.app.runIDs(func() string { return opts.bank }))
	cmd.PersistentFlags().BoolVar(&opts.jsonOut, "json", false, "print JSON on stdout")
	cmd.PersistentFlags().StringVar(&opts.bank, "bank", "", bankUsage("bank holding the runs' workspaces", false))
	return cmd
}

// selectRun selects the run a command acts on (runner.SelectRun), reading
// it from the bank when the workspace lacks it; a selection that finds no
// candidates is a usage error.
func (o *candidatesOptions) selectRun(ctx context.Context, workspace, run string) (runner.RunCandidates, error) {
	sel, err := runner.SelectRun(ctx, workspace, run, o.runFromBank)
	var none *runner.NoCandidatesError
	if errors.As(err, &none) {
		if none.NoArchive {
			return sel, withCode(exitUsage, fmt.Errorf("%w (give --run RUN to read a run from the bank)", err))
		}
		return sel, withCode(exitUsage, err)
	}
	return sel, err
}

// runFromBank unpacks the workspace archive a run stored in the bank into
// the user's cache (runner.UnpackRun) and returns that directory.
func (o *candidatesOptions) runFromBank(ctx context.Context, run string) (string, error) {
	a := o.app
	l, err := a.resolveBank(o.bank, nil)
	if err != nil {
		return "", err
	}
	loc := l.Location
	b, closeBank, err := runner.OpenBank(ctx, loc, runner.ReadBank, runner.BankOptions{Log: a.logger(), Getenv: a.getenv})
	if errors.Is(err, runner.ErrNoBank) {
		return "", withCode(exitUsage, fmt.Errorf("no run %q: %w", run, err))
	}
	if err != nil {
		return "", withCode(openExit(err), err)
	}
	defer closeBank()
	data, hash, err := runner.RunArchive(ctx, b, run)
	if err != nil {
		return "", fmt.Errorf("bank %s: %w", backend.Describe(loc), err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	dir, fresh, err := runner.UnpackRun(data, hash, filepath.Join(cache, "reconstruct", "runs"))
	if err != nil {
		return "", err
	}
	if fresh {
		fmt.Fprintf(a.progress(), "run %s: read from the bank %s (unpacked in %s)\n", run, backend.Describe(loc), dir)
	}
	return dir, nil
}

type candidatesListOptions struct {
	*candidatesOptions
	workspace string
}

func newCandidatesListCmd(o *candidatesOptions) *cobra.Command {
	opts := &candidatesListOptions{candidatesOptions: o}
	return &cobra.Command{
		Use: "list WORKSPACE", Short: "List archived candidates", Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.workspace = args[0]
			return runCandidatesList(c.Context(), opts)
		},
	}
}

func runCandidatesList(ctx context.Context, opts *candidatesListOptions) error {
	sel, err := opts.selectRun(ctx, opts.workspace, opts.run)
	if err != nil {
		return err
	}
	a := opts.app
	if opts.jsonOut {
		return a.printJSON(sel.Records)
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ITER\tRUN\tPASSED\tKNOWN\tSCORE\tCOMPLEXITY\tHARDCODING\tFILE")
	for _, r := range sel.Records {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%.3f\t%.3f\t%.3f\t%s\n", r.Iteration, r.RunID, r.Passed, r.Known, r.Score, r.Complexity, r.Hardcoding, r.File)
	}
	return tw.Flush()
}

// findCandidate resolves "ITER" or "RUN:ITER" to the candidate's record and
// its program.
func (o *candidatesOptions) findCandidate(ctx context.Context, workspace, ref string) (candidates.Record, []byte, error) {
	run := o.run
	if r, it, ok := strings.Cut(ref, ":"); ok {
		run, ref = r, it
	}
	iter, err := strconv.Atoi(ref)
	if err != nil {
		return candidates.Record{}, nil, withCode(exitUsage, fmt.Errorf("candidate %q: want an iteration number or RUN:ITER", ref))
	}
	sel, err := o.selectRun(ctx, workspace, run)
	if err != nil {
		return candidates.Record{}, nil, err
	}
	for _, r := range sel.Records {
		if r.Iteration == iter {
			src, err := sel.Archive.Source(r)
			return r, src, err
		}
	}
	return candidates.Record{}, nil, withCode(exitUsage, fmt.Errorf("%s: run %s has no iteration %d", workspace, sel.Run, iter))
}

type candidatesShowOptions struct {
	*candidatesOptions
	workspace, ref string
}

func newCandidatesShowCmd(o *candidatesOptions) *cobra.Command {
	opts := &candidatesShowOptions{candidatesOptions: o}
	return &cobra.Command{
		Use: "show WORKSPACE ITER", Short: "Show one candidate's program and record", Args: cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			opts.workspace, opts.ref = args[0], args[1]
			return runCandidatesShow(c.Context(), opts)
		},
	}
}

func runCandidatesShow(ctx context.Context, opts *candidatesShowOptions) error {
	rec, src, err := opts.findCandidate(ctx, opts.workspace, opts.ref)
	if err != nil {
		return err
	}
	a := opts.app
	if opts.jsonOut {
		return a.printJSON(struct {
			candidates.Record
			Source string `json:"source"`
		}{rec, string(src)})
	}
	fmt.Fprintf(a.stdout, "# run %s, iteration %d: passed %d/%d, score %.3f, complexity %.3f, hard-coding %.3f, tokens %d\n",
		rec.RunID, rec.Iteration, rec.Passed, rec.Known, rec.Score, rec.Complexity, rec.Hardcoding, rec.Tokens.Total())
	if rec.Notes != "" {
		for _, line := range strings.Split(strings.TrimSpace(rec.Notes), "\n") {
			fmt.Fprintf(a.stdout, "# %s\n", line)
		}
	}
	_, err = a.stdout.Write(src)
	return err
}

type candidatesDiffOptions struct {
	*candidatesOptions
	workspace, refA, refB string
}

func newCandidatesDiffCmd(o *candidatesOptions) *cobra.Command {
	opts := &candidatesDiffOptions{candidatesOptions: o}
	return &cobra.Command{
		Use: "diff WORKSPACE A B", Short: "Unified diff of two candidates (iterations, or RUN:ITER)", Args: cobra.ExactArgs(3),
		RunE: func(c *cobra.Command, args []string) error {
			opts.workspace, opts.refA, opts.refB = args[0], args[1], args[2]
			return runCandidatesDiff(c.Context(), opts)
		},
	}
}

func runCandidatesDiff(ctx context.Context, opts *candidatesDiffOptions) error {
	recA, srcA, err := opts.findCandidate(ctx, opts.workspace, opts.refA)
	if err != nil {
		return err
	}
	recB, srcB, err := opts.findCandidate(ctx, opts.workspace, opts.refB)
	if err != nil {
		return err
	}
	d := candidates.UnifiedDiff(recA.File, recB.File, string(srcA), string(srcB))
	a := opts.app
	if opts.jsonOut {
		return a.printJSON(map[string]any{"a": recA, "b": recB, "diff": d, "equal": d == ""})
	}
	_, err = fmt.Fprint(a.stdout, d)
	return err
}

type candidatesRescoreOptions struct {
	*candidatesOptions
	workspace string
	tests     string
	box       string
	fn        string
}

func newCandidatesRescoreCmd(o *candidatesOptions) *cobra.Command {
	opts := &candidatesRescoreOptions{candidatesOptions: o}
	cmd := &cobra.Command{
		Use:   "rescore WORKSPACE [--tests heldout.jsonl]",
		Short: "Re-score every candidate on the final examples or on held-out tests",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.workspace = args[0]
			return runCandidatesRescore(c.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.tests, "tests", "", "held-out tests (default: the workspace's examples.jsonl)")
	cmd.Flags().StringVar(&opts.box, "sandbox", "", "sandbox: auto, process or docker (default: "+config.EnvName("sandbox.kind")+", else "+defaultOf("sandbox.kind")+")")
	cmd.Flags().StringVar(&opts.fn, "function", "", "function name (default: the run's task.function_name)")
	return cmd
}

func runCandidatesRescore(ctx context.Context, opts *candidatesRescoreOptions) error {
	a := opts.app
	sel, err := opts.selectRun(ctx, opts.workspace, opts.run)
	if err != nil {
		return err
	}
	workspace := filepath.Dir(sel.Archive.Path()) // the bank's copy when the run came from there
	r, err := runner.RescoringOf(workspace, sel.Run, opts.fn)
	if err != nil { // runner.ErrNoFunction
		return withCode(exitUsage, fmt.Errorf("%s: %w; give --function", workspace, err))
	}
	// The hard-coding penalty is measured against the examples the run
	// observed, whatever the candidates are scored on: as the run measured
	// it, so that list and rescore agree on it.
	observed, source, err := runner.RunExamples(workspace, sel.Run)
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("read the examples the run observed: %w", err))
	}
	r.Examples, r.Observed = observed, observed
	if opts.tests != "" {
		tests, err := benchmarks.ReadTests(opts.tests)
		if err != nil {
			return withCode(exitUsage, err)
		}
		r.Examples = nil
		for _, t := range tests {
			r.Examples = append(r.Examples, task.Example{Input: t.Input, Output: t.Output})
		}
		source = opts.tests
	}
	getenv := a.getenv
	if opts.box != "" {
		// The flag wins over the environment, as for every command.
		if err := config.CheckValue("sandbox.kind", opts.box, "--sandbox"); err != nil {
			return withCode(exitUsage, err)
		}
		getenv = func(k string) string {
			if k == config.EnvName("sandbox.kind") {
				return opts.box
			}
			return a.getenv(k)
		}
	}
	c, err := config.Defaults(getenv)
	if err != nil {
		return withCode(exitUsage, err)
	}
	scored, err := runner.Rescore(ctx, c.Sandbox, a.logger(), sel, r)
	if err != nil {
		return withCode(exitInfra, err)
	}
	if opts.jsonOut {
		return a.printJSON(map[string]any{"examples": source, "total": len(r.Examples), "candidates": scored})
	}
	fmt.Fprintf(a.stdout, "re-scored on %d examples from %s; hard-coding measured against the %d examples the run observed\n", len(r.Examples), source, len(r.Observed))
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ITER\tRUN\tPASSED\tACCURACY\tSCORE\tCOMPLEXITY\tHARDCODING")
	for _, s := range scored {
		fmt.Fprintf(tw, "%d\t%s\t%d/%d\t%.3f\t%.3f\t%.3f\t%.3f\n", s.Record.Iteration, s.Record.RunID, s.Passed, s.Total, s.Accuracy, s.Score, s.Complexity, s.Hardcoding)
	}
	return tw.Flush()
}
