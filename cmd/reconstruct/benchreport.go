package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/benchmarks"
)

type benchReportOptions struct {
	app     *app
	dir     string // the sweep's output directory
	out     string
	jsonOut bool
}

func newBenchReportCmd(a *app) *cobra.Command {
	opts := &benchReportOptions{app: a}
	cmd := &cobra.Command{
		Use:   "report DIR",
		Short: "Write an HTML report with plots for a sweep",
		Long: `Read DIR/summary.json (written by bench run) and write a self-contained report.html
(inline CSS and SVG, no scripts, no external resources) with the per-level table, the
per-task table and plots of the solve rate per level, iterations and examples per task,
tokens against solved and wall time per task, plus an SVG and a PNG copy of every plot.
The report goes to DIR/report unless --out says otherwise.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.dir = args[0]
			return runBenchReport(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.out, "out", "", "report directory (default DIR/report)")
	cmd.Flags().BoolVar(&opts.jsonOut, "json", false, "print the files written as a JSON list")
	return cmd
}

func runBenchReport(ctx context.Context, opts *benchReportOptions) error {
	a, dir := opts.app, opts.dir
	s, err := benchmarks.ReadSummary(dir)
	if err != nil {
		return withCode(exitUsage, err)
	}
	out := opts.out
	if out == "" {
		out = benchmarks.DefaultReportDir(dir)
	}
	files, err := benchmarks.WriteReport(ctx, s, out)
	if err != nil {
		return withCode(exitInfra, err)
	}
	a.logger().Info("bench report written", zap.String("dir", files.Dir), zap.Int("tasks", s.Tasks), zap.Int("files", len(files.All())))
	if opts.jsonOut {
		return a.printJSON(files.All())
	}
	for _, f := range files.All() {
		if _, err := fmt.Fprintln(a.stdout, f); err != nil {
			return err
		}
	}
	return nil
}

type benchCompareOptions struct {
	app        *app
	dirA, dirB string // the two sweeps' output directories
	jsonOut    bool
}

func newBenchCompareCmd(a *app) *cobra.Command {
	opts := &benchCompareOptions{app: a}
	cmd := &cobra.Command{
		Use:   "compare A B",
		Short: "Compare two sweeps per task and per level",
		Long: `Read the summary.json of sweeps A and B and show them side by side: per level the
solve rates and their difference (B − A, in percentage points), and per task (matched by
task ID) whether it was solved in A only, in B only, in both or in neither. Tasks present
in one sweep only are listed separately.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.dirA, opts.dirB = args[0], args[1]
			return runBenchCompare(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.jsonOut, "json", false, "print the comparison as JSON")
	return cmd
}

// runBenchCompare only reads two summary files, which ctx does not
// bound.
func runBenchCompare(_ context.Context, opts *benchCompareOptions) error {
	a, dirA, dirB := opts.app, opts.dirA, opts.dirB
	sa, err := benchmarks.ReadSummary(dirA)
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("sweep A: %w", err))
	}
	sb, err := benchmarks.ReadSummary(dirB)
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("sweep B: %w", err))
	}
	c := benchmarks.Compare(sa, sb)
	if opts.jsonOut {
		return a.printJSON(c)
	}
	return c.WriteText(a.stdout, dirA, dirB)
}
