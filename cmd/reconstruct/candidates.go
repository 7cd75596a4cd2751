package main

import (
	"context"
	"encoding/json"
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
	"github.com/reconstruct/reconstruct/workflow"
)

type candidatesOptions struct {
	// bank is where a run's workspace archive is read when the workspace
	// is not on this machine.
	bank    string
	run     string
	jsonOut bool
	tests   string
	box     string
	fn      string
}

func newCandidatesCmd(a *app) *cobra.Command {
	opts := &candidatesOptions{}
	cmd := &cobra.Command{
		Use:   "candidates",
		Short: "Inspect the archived candidates of a workspace",
		Long: `Inspect a workspace's .oc_candidates archive. By default the commands look at the
latest run in the archive; --run RUN picks another (list --run all shows every run).
When the workspace is not on this machine (or lacks the run), --run RUN reads the
workspace archive the run stored in the bank (--bank, e.g. a shared postgres:// bank).`,
	}
	cmd.PersistentFlags().StringVar(&opts.run, "run", "", "run id (default: the latest run; list accepts \"all\")")
	cmd.PersistentFlags().BoolVar(&opts.jsonOut, "json", false, "print JSON on stdout")
	cmd.PersistentFlags().StringVar(&opts.bank, "bank", "", "bank holding the runs' workspace archives: a SQLite file or a postgres:// URL (default: RECONSTRUCT_BANK_PATH, else the per-user bank)")
	list := &cobra.Command{
		Use: "list WORKSPACE", Short: "List archived candidates", Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runCandidatesList(c.Context(), a, opts, args[0]) },
	}
	show := &cobra.Command{
		Use: "show WORKSPACE ITER", Short: "Show one candidate's program and record", Args: cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			return runCandidatesShow(c.Context(), a, opts, args[0], args[1])
		},
	}
	diff := &cobra.Command{
		Use: "diff WORKSPACE A B", Short: "Unified diff of two candidates (iterations, or RUN:ITER)", Args: cobra.ExactArgs(3),
		RunE: func(c *cobra.Command, args []string) error {
			return runCandidatesDiff(c.Context(), a, opts, args[0], args[1], args[2])
		},
	}
	rescore := &cobra.Command{
		Use:   "rescore WORKSPACE [--tests heldout.jsonl]",
		Short: "Re-score every candidate on the final examples or on held-out tests",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runCandidatesRescore(c.Context(), a, opts, args[0])
		},
	}
	rescore.Flags().StringVar(&opts.tests, "tests", "", "held-out tests (default: the workspace's examples.jsonl)")
	rescore.Flags().StringVar(&opts.box, "sandbox", "auto", "sandbox: auto, process or docker")
	rescore.Flags().StringVar(&opts.fn, "function", "", "function name (default: the run's task.function_name)")
	cmd.AddCommand(list, show, diff, rescore)
	return cmd
}

// openRun opens a workspace's archive and picks the records of one run;
// a run that is not in the local workspace is read from the bank.
func openRun(ctx context.Context, a *app, opts *candidatesOptions, workspace, run string) (*candidates.Archive, []candidates.Record, string, error) {
	arch, err := candidates.OpenExisting(workspace)
	if run != "" && run != "all" && (err != nil || !hasRun(arch, run)) {
		dir, berr := runFromBank(ctx, a, opts, run)
		if berr != nil {
			if err == nil {
				err = fmt.Errorf("%s: no candidates from run %q", workspace, run)
			}
			return nil, nil, "", withCode(exitUsage, fmt.Errorf("%w; nor in the bank: %w", err, berr))
		}
		workspace = dir
		arch, err = candidates.OpenExisting(dir)
	}
	if err != nil && run == "" {
		return nil, nil, "", withCode(exitUsage, fmt.Errorf("%w (give --run RUN to read a run from the bank)", err))
	}
	if err != nil {
		return nil, nil, "", withCode(exitUsage, err)
	}
	all, err := arch.List()
	if err != nil {
		return nil, nil, "", err
	}
	if len(all) == 0 {
		return nil, nil, "", withCode(exitUsage, fmt.Errorf("%s: the archive is empty", workspace))
	}
	if run == "all" {
		return arch, all, run, nil
	}
	if run == "" {
		run = all[len(all)-1].RunID
	}
	var recs []candidates.Record
	for _, r := range all {
		if r.RunID == run {
			recs = append(recs, r)
		}
	}
	if len(recs) == 0 {
		return nil, nil, "", withCode(exitUsage, fmt.Errorf("%s: no candidates from run %q", workspace, run))
	}
	return arch, recs, run, nil
}

func hasRun(arch *candidates.Archive, run string) bool {
	recs, err := arch.Run(run)
	return err == nil && len(recs) > 0
}

// runFromBank unpacks the workspace archive a run stored in the bank into
// the user's cache (once per archive: the directory is named by its hash)
// and returns that directory.
func runFromBank(ctx context.Context, a *app, opts *candidatesOptions, run string) (string, error) {
	l, err := a.resolveBank(opts.bank, nil)
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
	dir := filepath.Join(cache, "reconstruct", "runs", strings.TrimPrefix(hash, "sha256:"))
	if _, err := os.Stat(dir); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return "", err
	}
	if err := candidates.Unpack(data, dir, candidates.DefaultBundleLimit); err != nil {
		if _, serr := os.Stat(dir); serr == nil {
			return dir, nil // another command unpacked it meanwhile
		}
		return "", err
	}
	fmt.Fprintf(a.stderr, "run %s: read from the bank %s (unpacked in %s)\n", run, backend.Describe(loc), dir)
	return dir, nil
}

func (a *app) printJSON(v any) error {
	enc := json.NewEncoder(a.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func runCandidatesList(ctx context.Context, a *app, opts *candidatesOptions, workspace string) error {
	_, recs, _, err := openRun(ctx, a, opts, workspace, opts.run)
	if err != nil {
		return err
	}
	if opts.jsonOut {
		return a.printJSON(recs)
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ITER\tRUN\tPASSED\tKNOWN\tSCORE\tCOMPLEXITY\tHARDCODING\tFILE")
	for _, r := range recs {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%.3f\t%.3f\t%.3f\t%s\n", r.Iteration, r.RunID, r.Passed, r.Known, r.Score, r.Complexity, r.Hardcoding, r.File)
	}
	return tw.Flush()
}

// findCandidate resolves "ITER" or "RUN:ITER".
func findCandidate(ctx context.Context, a *app, opts *candidatesOptions, workspace, ref string) (*candidates.Archive, candidates.Record, error) {
	run := opts.run
	if r, it, ok := strings.Cut(ref, ":"); ok {
		run, ref = r, it
	}
	iter, err := strconv.Atoi(ref)
	if err != nil {
		return nil, candidates.Record{}, withCode(exitUsage, fmt.Errorf("candidate %q: want an iteration number or RUN:ITER", ref))
	}
	arch, recs, run, err := openRun(ctx, a, opts, workspace, run)
	if err != nil {
		return nil, candidates.Record{}, err
	}
	for _, r := range recs {
		if r.Iteration == iter {
			return arch, r, nil
		}
	}
	return nil, candidates.Record{}, withCode(exitUsage, fmt.Errorf("%s: run %s has no iteration %d", workspace, run, iter))
}

func runCandidatesShow(ctx context.Context, a *app, opts *candidatesOptions, workspace, ref string) error {
	arch, rec, err := findCandidate(ctx, a, opts, workspace, ref)
	if err != nil {
		return err
	}
	src, err := arch.Source(rec)
	if err != nil {
		return err
	}
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

func runCandidatesDiff(ctx context.Context, a *app, opts *candidatesOptions, workspace, refA, refB string) error {
	archA, recA, err := findCandidate(ctx, a, opts, workspace, refA)
	if err != nil {
		return err
	}
	archB, recB, err := findCandidate(ctx, a, opts, workspace, refB)
	if err != nil {
		return err
	}
	srcA, err := archA.Source(recA)
	if err != nil {
		return err
	}
	srcB, err := archB.Source(recB)
	if err != nil {
		return err
	}
	d := candidates.UnifiedDiff(recA.File, recB.File, string(srcA), string(srcB))
	if opts.jsonOut {
		return a.printJSON(map[string]any{"a": recA, "b": recB, "diff": d, "equal": d == ""})
	}
	_, err = fmt.Fprint(a.stdout, d)
	return err
}

// runInfo is what rescore needs from a run's journal.
type runInfo struct {
	Task     task.Task         `json:"task"`
	Settings workflow.Settings `json:"settings"`
}

func readRunInfo(workspace, run string) (runInfo, error) {
	evs, err := workflow.ReadEvents(workspace)
	if err != nil {
		return runInfo{}, err
	}
	for _, ev := range evs {
		if ev.Type == workflow.EventRunStarted && (run == "" || run == "all" || ev.RunID == run) {
			var info runInfo
			if err := json.Unmarshal(ev.Data, &info); err != nil {
				return runInfo{}, fmt.Errorf("%s: run_started event: %w", workspace, err)
			}
			return info, nil
		}
	}
	return runInfo{}, fmt.Errorf("%s: no run_started event for run %q in %s", workspace, run, workflow.EventsFile)
}

func runCandidatesRescore(ctx context.Context, a *app, opts *candidatesOptions, workspace string) error {
	arch, recs, run, err := openRun(ctx, a, opts, workspace, opts.run)
	if err != nil {
		return err
	}
	workspace = filepath.Dir(arch.Path()) // the bank's copy when the run came from there
	fn, atol := opts.fn, task.DefaultAtol
	if info, err := readRunInfo(workspace, run); err == nil {
		if fn == "" {
			fn = info.Task.FunctionName
		}
		if info.Settings.Atol > 0 {
			atol = info.Settings.Atol
		}
	}
	if fn == "" {
		return withCode(exitUsage, fmt.Errorf("%s: cannot tell the function name; give --function", workspace))
	}
	var examples []task.Example
	source := filepath.Join(workspace, workflow.ExamplesFile)
	if opts.tests != "" {
		tests, err := benchmarks.ReadTests(opts.tests)
		if err != nil {
			return withCode(exitUsage, err)
		}
		for _, t := range tests {
			examples = append(examples, task.Example{Input: t.Input, Output: t.Output})
		}
		source = opts.tests
	} else if examples, err = workflow.ReadExamples(workspace); err != nil {
		return withCode(exitUsage, fmt.Errorf("read the final examples: %w", err))
	}
	c, err := config.Defaults(a.getenv)
	if err != nil {
		return err
	}
	c.Sandbox.Kind = opts.box
	box, err := runner.OpenScoringSandbox(ctx, c, a.logger())
	if err != nil {
		return withCode(exitInfra, err)
	}
	defer box.Close()
	scored, err := candidates.Rescore(ctx, arch, recs, box, fn, examples, runner.Limits(c), atol)
	if err != nil {
		return withCode(exitInfra, err)
	}
	if opts.jsonOut {
		return a.printJSON(map[string]any{"examples": source, "total": len(examples), "candidates": scored})
	}
	fmt.Fprintf(a.stdout, "re-scored on %d examples from %s\n", len(examples), source)
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ITER\tRUN\tPASSED\tACCURACY\tSCORE\tCOMPLEXITY\tHARDCODING")
	for _, r := range scored {
		fmt.Fprintf(tw, "%d\t%s\t%d/%d\t%.3f\t%.3f\t%.3f\t%.3f\n", r.Record.Iteration, r.Record.RunID, r.Passed, r.Total, r.Accuracy, r.Score, r.Complexity, r.Hardcoding)
	}
	return tw.Flush()
}
