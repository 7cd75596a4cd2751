package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/runner"
	"github.com/reconstruct/reconstruct/workflow"
)

type runOptions struct {
	configFile string
	jsonOut    bool
	runID      string
	resume     string
	fork       string
	flags      map[string]*pflag.Flag
}

func newRunCmd(a *app) *cobra.Command {
	opts := &runOptions{}
	cmd := &cobra.Command{
		Use:   "run --config FILE",
		Short: "Run one reconstruction task",
		Long: `Run one reconstruction task from a YAML configuration (a task directory's task.yaml
or any run config). Settings come from the file, then RECONSTRUCT_* environment
variables, then flags. The workspace receives candidate.py, .oc_candidates/,
result.json, events.jsonl and examples.jsonl.

Exit status: 0 when the final program passes every observed example, 1 when the
run ended without one (or was interrupted), 2 for bad input, 3 for an
infrastructure failure.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case opts.resume != "" && (opts.fork != "" || cmd.Flags().Changed("config")):
				return withCode(exitUsage, errors.New("--resume continues a run with its recorded configuration: give neither --config nor --fork"))
			case opts.resume == "":
				if err := requireFlag(cmd, "config"); err != nil {
					return err
				}
			}
			return runRun(cmd.Context(), a, opts)
		},
	}
	cmd.Flags().StringVarP(&opts.configFile, "config", "c", "", "run configuration file (YAML)")
	cmd.Flags().BoolVar(&opts.jsonOut, "json", false, "print the Result as JSON on stdout")
	cmd.Flags().StringVar(&opts.runID, "run-id", "", "run id (default: generated)")
	cmd.Flags().StringVar(&opts.resume, "resume", "", "continue the interrupted run RUN from the bank")
	cmd.Flags().StringVar(&opts.fork, "fork", "", "start from run RUN's examples and candidates, with this configuration's settings")
	opts.flags = addConfigFlags(cmd.Flags())
	return cmd
}

func runRun(ctx context.Context, a *app, opts *runOptions) error {
	ropts := runner.Options{Log: a.logger(), Progress: a.stderr, RunID: opts.runID}
	var res *workflow.Result
	var err error
	workspace := ""
	if opts.resume != "" {
		bankPath := bankPathFrom(a, opts.flags)
		res, err = runner.Resume(ctx, bankPath, opts.resume, ropts)
	} else {
		c, lerr := loadConfig(a, opts.configFile, opts.flags)
		if lerr != nil {
			return lerr
		}
		workspace = c.Workspace
		if opts.fork != "" {
			res, err = runner.Fork(ctx, c, opts.fork, ropts)
		} else {
			res, err = runner.Run(ctx, c, ropts)
		}
	}
	if res != nil {
		workspace = res.Workspace
		if perr := printResult(a, res, opts.jsonOut); perr != nil && err == nil {
			err = perr
		}
	}
	switch {
	case err == nil:
	case errors.Is(err, context.Canceled):
		return withCode(exitRejected, fmt.Errorf("run interrupted; everything so far is in %s", workspace))
	case errors.Is(err, runner.ErrConfig):
		return withCode(exitUsage, err)
	default:
		return withCode(exitInfra, err)
	}
	if res.FinalProgram == "" || res.FinalAccuracy < 1 {
		return withCode(exitRejected, fmt.Errorf("run ended (%s) without a program that passes every observed example", res.StopReason))
	}
	return nil
}

func printResult(a *app, res *workflow.Result, jsonOut bool) error {
	if jsonOut {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	cand := "(none)"
	if res.FinalProgram != "" {
		cand = filepath.Join(res.Workspace, "candidate.py")
	}
	_, err := fmt.Fprintf(a.stdout, "stop: %s  iterations: %d  promotions: %d  examples: %d  final score: %.3f  tokens: %d\ncandidate: %s\nresult: %s\n",
		res.StopReason, res.Iterations, res.Promotions, res.KnownExamples, res.FinalScore, res.Tokens.Total(),
		cand, filepath.Join(res.Workspace, workflow.ResultFile))
	return err
}

// bankPathFrom is the bank of --bank, RECONSTRUCT_BANK_PATH or
// RECONSTRUCT_BANK, or the default.
func bankPathFrom(a *app, flags map[string]*pflag.Flag) string {
	if f := flags["bank.path"]; f != nil && f.Changed {
		return f.Value.String()
	}
	for _, env := range []string{"RECONSTRUCT_BANK_PATH", "RECONSTRUCT_BANK"} {
		if v := a.getenv(env); v != "" {
			return v
		}
	}
	return config.DefaultBankPath
}
