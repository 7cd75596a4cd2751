package main

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/benchmarks"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/runner"
	"github.com/reconstruct/reconstruct/task"
)

// runsOptions are the flags every runs command shares.
type runsOptions struct {
	app        *app
	bankPath   string
	configFile string
	jsonOut    bool
}

func newRunsCmd(opts *runsOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "Read runs back from the bank",
		Long: `Read runs back from the bank: --bank, else RECONSTRUCT_BANK_PATH, else the bank.path
of --config's configuration, else the per-user bank ($XDG_DATA_HOME/reconstruct/bank.db
or ~/.local/share/reconstruct/bank.db). Reading never creates a bank.`,
	}
	cmd.PersistentFlags().StringVar(&opts.bankPath, "bank", "", bankUsage("bank the runs are read from", true))
	cmd.PersistentFlags().StringVarP(&opts.configFile, "config", "c", "", "read the bank of this run configuration")
	cmd.PersistentFlags().BoolVar(&opts.jsonOut, "json", false, "print JSON on stdout")
	return cmd
}

// open opens the bank the runs commands read, never creating it; ok is
// false (and nothing is open) when there is no bank there.
func (o *runsOptions) open(ctx context.Context) (b *bank.Bank, closeBank func() error, loc string, err error) {
	a := o.app
	var c *config.Config
	if o.configFile != "" {
		if c, err = loadConfig(a, o.configFile, nil); err != nil {
			return nil, nil, "", err
		}
	}
	l, err := a.resolveBank(o.bankPath, c)
	if err != nil {
		return nil, nil, "", err
	}
	b, closeBank, err = runner.OpenBank(ctx, l.Location, runner.ReadBank, runner.BankOptions{Log: a.logger(), Getenv: a.getenv})
	if err != nil && !errors.Is(err, runner.ErrNoBank) {
		return nil, nil, l.Location, withCode(openExit(err), err)
	}
	return b, closeBank, l.Location, err
}

type runsListOptions struct {
	*runsOptions
	task, status string
}

// runStatuses are the values of runs list --status (runner.RunInfo.Status).
var runStatuses = []string{"finished", "stopped", "interrupted"}

func newRunsListCmd(o *runsOptions) *cobra.Command {
	opts := &runsListOptions{runsOptions: o}
	cmd := &cobra.Command{
		Use: "list [--task REGEXP] [--status STATUS]", Short: "List the runs recorded in the bank", Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return runRunsList(c.Context(), opts) },
	}
	cmd.Flags().StringVar(&opts.task, "task", "", "only the runs of the tasks whose name matches this regular expression")
	cmd.Flags().StringVar(&opts.status, "status", "", "only the runs of this status: "+strings.Join(runStatuses, ", ")+" (stopped and interrupted runs can be resumed)")
	_ = cmd.RegisterFlagCompletionFunc("status", cobra.FixedCompletions(runStatuses, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func runRunsList(ctx context.Context, opts *runsListOptions) error {
	a := opts.app
	var taskRE *regexp.Regexp
	if opts.task != "" {
		re, err := regexp.Compile(opts.task)
		if err != nil {
			return withCode(exitUsage, fmt.Errorf("--task: %w", err))
		}
		taskRE = re
	}
	if opts.status != "" && !slices.Contains(runStatuses, opts.status) {
		return withCode(exitUsage, fmt.Errorf("--status %q: want one of %s", opts.status, strings.Join(runStatuses, ", ")))
	}
	b, closeBank, loc, err := opts.open(ctx)
	var runs []runner.RunInfo
	switch {
	case errors.Is(err, runner.ErrNoBank):
		// No bank yet: no runs, and nothing created.
	case err != nil:
		return err
	default:
		defer closeBank()
		if runs, err = runner.Runs(ctx, b); err != nil {
			return withCode(exitInfra, err)
		}
	}
	all := len(runs)
	runs = slices.DeleteFunc(runs, func(r runner.RunInfo) bool {
		return (taskRE != nil && !taskRE.MatchString(r.Task.Name)) || (opts.status != "" && r.Status != opts.status)
	})
	if opts.jsonOut {
		if runs == nil {
			runs = []runner.RunInfo{}
		}
		return a.printJSON(runs)
	}
	if len(runs) == 0 {
		if all > 0 {
			_, err := fmt.Fprintf(a.stdout, "none of the %s in the bank %s matches\n", benchmarks.Count(all, "run", "runs"), loc)
			return err
		}
		_, err := fmt.Fprintf(a.stdout, "no runs in the bank %s\n", loc)
		return err
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tTASK\tSTATUS\tSTOP\tITERATIONS\tEXAMPLES\tSCORE\tTOKENS\tSTARTED")
	for _, r := range runs {
		score := "-"
		if r.FinalScore != nil {
			score = fmt.Sprintf("%.3f", *r.FinalScore)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%s\t%d\t%s\n", r.RunID, r.Task.Name, r.Status, r.StopReason,
			r.Iterations, r.Known, score, r.Tokens.Total(), r.StartedAt.Format("2006-01-02 15:04:05"))
	}
	return tw.Flush()
}

type runsShowOptions struct {
	*runsOptions
	run string
}

func newRunsShowCmd(o *runsOptions) *cobra.Command {
	opts := &runsShowOptions{runsOptions: o}
	cmd := &cobra.Command{
		Use: "show RUN", Short: "Show one run: task, settings, stop reason, examples, iterations, score, tokens", Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.run = args[0]
			return runRunsShow(c.Context(), opts)
		},
	}
	cmd.ValidArgsFunction = noArgsYet(o.app.runIDs(func() string { return o.bankPath }))
	return cmd
}

func runRunsShow(ctx context.Context, opts *runsShowOptions) error {
	a, run := opts.app, opts.run
	b, closeBank, loc, err := opts.open(ctx)
	if errors.Is(err, runner.ErrNoBank) {
		return withCode(exitUsage, fmt.Errorf("no run %q: %w", run, err))
	}
	if err != nil {
		return err
	}
	defer closeBank()
	info, err := runner.ShowRun(ctx, b, run)
	if errors.Is(err, bank.ErrTampered) {
		// Stored content that fails its hash is never shown as if true.
		return withCode(exitInfra, fmt.Errorf("%w in the bank %s", err, loc))
	}
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("%w in the bank %s", err, loc))
	}
	if opts.jsonOut {
		return a.printJSON(info)
	}
	w := a.stdout
	fmt.Fprintf(w, "run:         %s (bank workspace %s)\n", info.RunID, info.BankWorkspace)
	fmt.Fprintf(w, "task:        %s (%s, kind %s, %s)\n", info.Task.Name, info.Task.Level, info.Task.Kind, info.Task.InputType)
	if info.ForkedFrom != "" {
		fmt.Fprintf(w, "forked from: %s\n", info.ForkedFrom)
	}
	s := info.Settings
	fmt.Fprintf(w, "settings:    initial %d, step %d, early stop %d, max iterations %d, random share %g, gates: coverage %v, memorisation %v, complexity %v, domain %v, budget %d, seed %d\n",
		s.InitialBatch, s.BatchStep, s.EarlyStop, s.MaxIterations, s.RandomShare, s.CoverageGate, s.MemorisationGate, s.ComplexityGate, s.DomainCheck, s.TokenBudget, s.Seed)
	fmt.Fprintf(w, "status:      %s %s\n", info.Status, info.StopReason)
	if info.Error != "" {
		fmt.Fprintf(w, "error:       %s\n", info.Error)
	}
	fmt.Fprintf(w, "iterations:  %d (%d promotions)\n", info.Iterations, info.Promotions)
	if info.FinalScore != nil {
		fmt.Fprintf(w, "final score: %.3f\n", *info.FinalScore)
	}
	fmt.Fprintf(w, "tokens:      %d prompt, %d completion\n", info.Tokens.PromptTokens, info.Tokens.CompletionTokens)
	fmt.Fprintf(w, "workspace:   %s\n", info.Workspace)
	fmt.Fprintf(w, "examples:    %d\n", info.Known)
	for _, ex := range info.Examples {
		fmt.Fprintf(w, "  %-8s %s -> %s\n", ex.Source, task.MustCanonical(ex.Input), task.MustCanonical(ex.Output))
	}
	return nil
}
