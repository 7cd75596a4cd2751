package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/reconstruct/reconstruct/benchmarks"
	"github.com/reconstruct/reconstruct/runner"
	"github.com/reconstruct/reconstruct/task"
)

type scoreOptions struct {
	app                        *app
	configFile, program, tests string
	jsonOut                    bool
	flags                      map[string]*pflag.Flag
}

func newScoreCmd(a *app) *cobra.Command {
	opts := &scoreOptions{app: a}
	cmd := &cobra.Command{
		Use:   "score --config task.yaml --program FILE [--tests heldout.jsonl]",
		Short: "Score a program on a task's held-out tests",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			for _, f := range []string{"config", "program"} {
				if err := requireFlag(cmd, f); err != nil {
					return err
				}
			}
			return runScore(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.configFile, "config", "c", "", "task configuration (task.yaml)")
	cmd.Flags().StringVar(&opts.program, "program", "", "the Python program to score")
	cmd.Flags().StringVar(&opts.tests, "tests", "", "held-out tests (default: the task's heldout.jsonl)")
	cmd.Flags().BoolVar(&opts.jsonOut, "json", false, "print the score as JSON")
	cmd.Flags().String("sandbox", "", "sandbox: auto, process or docker")
	opts.flags = map[string]*pflag.Flag{"sandbox.kind": cmd.Flags().Lookup("sandbox")}
	return cmd
}

func runScore(ctx context.Context, opts *scoreOptions) error {
	a := opts.app
	c, err := loadConfig(a, opts.configFile, opts.flags)
	if err != nil {
		return err
	}
	src, err := os.ReadFile(opts.program)
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("--program: %w", err))
	}
	testsPath := opts.tests
	if testsPath == "" {
		testsPath = c.Task.Heldout
	}
	if testsPath == "" {
		return withCode(exitUsage, fmt.Errorf("%s has no heldout.jsonl beside it; give --tests FILE", c.File))
	}
	tests, err := benchmarks.ReadTests(testsPath)
	if err != nil {
		return withCode(exitUsage, err)
	}
	box, err := runner.OpenScoringSandbox(ctx, c.Sandbox, a.logger())
	if err != nil {
		return withCode(exitInfra, err)
	}
	defer box.Close()
	sc, err := benchmarks.ScoreProgram(ctx, box, string(src), c.Task.FunctionName, tests, c.Sandbox.Limits(), c.Workflow.Atol)
	if err != nil {
		return withCode(exitInfra, err)
	}
	if opts.jsonOut {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sc); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(a.stdout, "accuracy: %.4f  passed: %d/%d\n", sc.Accuracy, sc.Passed, sc.Total)
		for i, f := range sc.Failures {
			if i == 10 {
				fmt.Fprintf(a.stdout, "… %d more failures\n", len(sc.Failures)-10)
				break
			}
			got := string(f.Actual)
			if f.Error != "" {
				got = f.Error
			}
			fmt.Fprintf(a.stdout, "  input %s: expected %s, got %s\n", task.MustCanonical(f.Input), task.MustCanonical(f.Expected), got)
		}
	}
	if sc.Passed < sc.Total {
		return withCode(exitRejected, fmt.Errorf("%d of %d held-out tests failed", sc.Total-sc.Passed, sc.Total))
	}
	return nil
}
