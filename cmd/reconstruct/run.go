package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/oracle"
	"github.com/reconstruct/reconstruct/runner"
	"github.com/reconstruct/reconstruct/workflow"
)

type runOptions struct {
	app        *app
	configFile string
	factory    string
	taskArgs   string
	// origArgs is --args: the original workflow's arguments, a JSON object.
	origArgs string
	jsonOut  bool
	runID    string
	resume   string
	fork     string
	force    bool
	profile  string
	flags    map[string]*pflag.Flag
}

func newRunCmd(a *app) *cobra.Command {
	opts := &runOptions{app: a}
	cmd := &cobra.Command{
		Use:   "run --config FILE",
		Short: "Run one reconstruction task",
		Long: `Run one reconstruction task from a YAML configuration (a task directory's task.yaml
or any run config). Settings come from the file, then RECONSTRUCT_* environment
variables, then flags. The workspace receives candidate.py, .oc_candidates/,
result.json, events.jsonl and examples.jsonl; the files an earlier run left there
are moved to .previous/<its run id>/. A directory holding files reconstruct did not
write is refused unless --force.

Ctrl-C or SIGTERM stops the run at once with everything so far recorded; continue it
with --resume RUN, as a run killed outright or ended by an infrastructure failure.

Exit status: 0 when the final program passes every observed example, 1 when the
run ended without one (or was interrupted), 2 for bad input (nothing is created),
3 for an infrastructure failure.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case opts.resume != "" && (opts.fork != "" || cmd.Flags().Changed("config")):
				return withCode(exitUsage, errors.New("--resume continues a run with its recorded configuration: give neither --config nor --fork"))
			case opts.resume != "" && opts.factory != "":
				return withCode(exitUsage, errors.New("--resume continues a run with its recorded task: give no --task"))
			case opts.taskArgs != "" && opts.factory == "":
				return withCode(exitUsage, errors.New("--task-args goes with --task"))
			case opts.origArgs != "" && (opts.factory != "" || opts.resume != ""):
				return withCode(exitUsage, errors.New("--args names the task and its arguments itself: give neither --task nor --resume with it"))
			case opts.resume == "" && opts.factory == "" && opts.origArgs == "":
				if err := requireFlag(cmd, "config"); err != nil {
					return err
				}
			}
			if opts.profile == "" {
				return runRun(cmd.Context(), opts)
			}
			p, err := startProfile(opts.profile)
			if err != nil {
				return withCode(exitUsage, err)
			}
			err = runRun(cmd.Context(), opts)
			if perr := p.stop(a.stderr); perr != nil && err == nil {
				err = withCode(exitInfra, perr)
			}
			return err
		},
	}
	cmd.Flags().StringVarP(&opts.configFile, "config", "c", "", "run configuration file (YAML)")
	cmd.Flags().StringVar(&opts.factory, "task", "", "bind the task from Python: module:callable, found in the current directory (see docs/binding.md)")
	cmd.Flags().StringVar(&opts.taskArgs, "task-args", "", "the factory's keyword arguments, a JSON object")
	cmd.Flags().StringVar(&opts.origArgs, "args", "", `the original workflow's form, a JSON object: {"task": "module:callable", "task_args": {...}, "random_share": 0.5, ...} (see docs/binding.md)`)
	cmd.Flags().BoolVar(&opts.jsonOut, "json", false, "print the Result as JSON on stdout")
	cmd.Flags().StringVar(&opts.runID, "run-id", "", "run id: letters, digits, '-' and '_' (default: generated)")
	cmd.Flags().StringVar(&opts.resume, "resume", "", "continue the stopped, killed or failed run RUN from the bank")
	cmd.Flags().StringVar(&opts.fork, "fork", "", "start from run RUN's examples and candidates, with this configuration's settings")
	cmd.Flags().BoolVar(&opts.force, "force", false, "use a workspace that holds files reconstruct did not write")
	cmd.Flags().StringVar(&opts.profile, "profile", "", "write a CPU and an allocation profile of the run (cpu.pprof, allocs.pprof) into DIR")
	opts.flags = addConfigFlags(cmd.Flags())
	completeValues(cmd, opts.flags)
	for _, name := range []string{"resume", "fork"} {
		_ = cmd.RegisterFlagCompletionFunc(name, a.runIDs(flagString(cmd, "bank")))
	}
	// Set as flags, not overrides, so that a problem with them names them.
	opts.flags["task.factory"] = cmd.Flags().Lookup("task")
	opts.flags["task.args"] = cmd.Flags().Lookup("task-args")
	return cmd
}

func runRun(ctx context.Context, opts *runOptions) error {
	a := opts.app
	ropts := runner.Options{Log: a.logger(), Progress: a.progress(), RunID: opts.runID, Force: opts.force}
	var res *workflow.Result
	var err error
	workspace := ""
	if opts.resume != "" {
		if err := resumeSettings(a, opts, &ropts); err != nil {
			return err
		}
		loc, lerr := a.resolveBank(flagValue(opts.flags, "bank.path"), nil)
		if lerr != nil {
			return lerr
		}
		res, err = runner.Resume(ctx, loc.Location, opts.resume, ropts)
	} else {
		c, lerr := loadRunConfig(opts)
		if lerr != nil {
			return lerr
		}
		if c.Bank.Enabled || opts.fork != "" {
			// The configuration found its bank as it was loaded
			// (--bank is among its flags); a bank it could not find, or
			// a deprecated variable naming it, is told here.
			if _, berr := a.bankOf(c.BankLocation()); berr != nil {
				return berr
			}
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
	case errors.Is(err, context.Canceled) && res == nil:
		return withCode(exitRejected, errors.New("stopped during start-up, before the run began"))
	case errors.Is(err, context.Canceled):
		return withCode(exitRejected, fmt.Errorf("run interrupted; everything so far is in %s and the bank (continue it with: reconstruct run --resume %s)", workspace, res.RunID))
	case errors.Is(err, runner.ErrConfig), errors.Is(err, workflow.ErrWorkspace):
		return withCode(exitUsage, err)
	case errors.Is(err, oracle.ErrTask):
		// A mistake in the task's files, found once the run was under way
		// (an input the start-up check did not try): fixed, the task is
		// run anew, since the examples so far came from the faulty files.
		return withCode(exitUsage, fmt.Errorf("error of the task: %w\n(run %s stopped on it; fix the task and run it again)", err, res.RunID))
	case res != nil:
		return withCode(exitInfra, fmt.Errorf("%w\n(the run can be continued once the cause is fixed: reconstruct run --resume %s)", err, res.RunID))
	default:
		return withCode(exitInfra, err)
	}
	if res.FinalProgram == "" || res.FinalAccuracy < 1 {
		msg := fmt.Sprintf("run ended (%s) without a program that passes every observed example", res.StopReason)
		if len(res.Rejections) > 0 {
			msg += "; the last proposal was rejected " + strconv.Itoa(len(res.Rejections)) + " times:\n  " + strings.Join(res.Rejections, "\n  ")
		}
		return withCode(exitRejected, errors.New(msg))
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
	if err == nil && res.StopDetail != "" {
		_, err = fmt.Fprintf(a.stdout, "stalled: %s\n", res.StopDetail)
	}
	if err == nil && res.VerifiedExhaustively && res.Domain != nil {
		_, err = fmt.Fprintf(a.stdout, "verified exhaustively: the candidate passes every one of the %d valid inputs (%s)\n", res.Domain.Inputs, res.Domain.From)
	}
	return err
}

// resumeKeys are the settings --resume applies: where the bank, the
// workspace (moved since) and the sandbox are; none changes what the run
// computes.
var resumeKeys = map[string]bool{"bank.path": true, "workspace": true, "sandbox.kind": true}

// resumeSettings applies to a resumed run the setting flags it takes
// (resumeKeys) and refuses the others: a resumed run goes on with the
// settings it was recorded with, and a flag it ignored would be a setting
// the user believes in and the run does not have. A RECONSTRUCT_*
// variable of another setting is ignored with a warning.
func resumeSettings(a *app, opts *runOptions, ropts *runner.Options) error {
	var refused, given []string
	for key, f := range opts.flags {
		if f == nil || !f.Changed || resumeKeys[key] || key == "task.factory" || key == "task.args" {
			continue
		}
		refused = append(refused, "--"+f.Name)
		given = append(given, "--"+f.Name+"="+f.Value.String())
	}
	if len(refused) > 0 {
		sort.Strings(refused)
		sort.Strings(given)
		return withCode(exitUsage, fmt.Errorf("%s: a resumed run goes on with the settings it was recorded with (reconstruct runs show %s lists them); to go on with other settings, start a new run from its examples: reconstruct run --fork %s --config FILE %s",
			strings.Join(refused, ", "), opts.resume, opts.resume, strings.Join(given, " ")))
	}
	ropts.Workspace = flagValue(opts.flags, "workspace")
	if ropts.Workspace != "" {
		abs, err := filepath.Abs(ropts.Workspace)
		if err != nil {
			return withCode(exitUsage, fmt.Errorf("--workspace: %w", err))
		}
		ropts.Workspace = abs
	}
	if kind := flagValue(opts.flags, "sandbox.kind"); kind != "" {
		if err := config.CheckValue("sandbox.kind", kind, "--sandbox"); err != nil {
			return withCode(exitUsage, err)
		}
		ropts.SandboxKind = kind
	}
	for _, k := range config.Table {
		if resumeKeys[k.Name] || strings.HasPrefix(k.Name, "cluster.") {
			continue
		}
		if v := a.getenv(k.Env()); v != "" {
			a.logger().Warn(k.Env() + " is ignored by --resume: the run goes on with the settings it was recorded with")
		}
	}
	return nil
}

// flagValue is the value of the flag bound to key when the user gave it.
func flagValue(flags map[string]*pflag.Flag, key string) string {
	if f := flags[key]; f != nil && f.Changed {
		return f.Value.String()
	}
	return ""
}

// resolveBank finds the command's bank (config.ResolveBank), logging the
// warning of a deprecated variable.
func (a *app) resolveBank(flag string, c *config.Config) (config.BankLocation, error) {
	return a.bankOf(config.ResolveBank(flag, a.getenv, c))
}

// bankOf is a bank found by config.ResolveBank's rule, its warning logged;
// not found, a usage error.
func (a *app) bankOf(loc config.BankLocation, err error) (config.BankLocation, error) {
	if err != nil {
		return loc, withCode(exitUsage, err)
	}
	if loc.Warning != "" {
		a.logger().Warn(loc.Warning)
	}
	return loc, nil
}

// loadRunConfig loads --config, or the task --task names (with --config as
// its settings when given too).
func loadRunConfig(opts *runOptions) (*config.Config, error) {
	a := opts.app
	if opts.origArgs != "" {
		return loadOriginalArgs(opts)
	}
	if opts.factory == "" {
		return loadConfig(a, opts.configFile, opts.flags)
	}
	if opts.taskArgs != "" {
		var args map[string]any
		if err := json.Unmarshal([]byte(opts.taskArgs), &args); err != nil || args == nil {
			return nil, withCode(exitUsage, fmt.Errorf("--task-args: want a JSON object of keyword arguments, got %q", opts.taskArgs))
		}
	}
	// --task and --task-args are in opts.flags.
	return loadCommandLine(opts, nil)
}

// loadCommandLine loads a configuration given (at least partly) on the
// command line: --config when given, else the current directory as the
// binding's, the environment, the flags and override (the values of
// --args, when not nil).
func loadCommandLine(opts *runOptions, override map[string]any) (*config.Config, error) {
	a := opts.app
	lopts := config.Options{File: opts.configFile, Env: true, Getenv: a.getenv, LookupEnv: a.lookupEnv, Flags: opts.flags, Override: override}
	if override != nil {
		lopts.OverrideFrom = config.ArgsSource
	}
	if opts.configFile == "" {
		lopts.Dir = "."
	}
	c, err := config.Load(lopts)
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	return c, nil
}

// loadOriginalArgs loads the configuration of run --args: the original
// workflow's arguments over --config (or, without one, the current
// directory as the binding's), with the original's defaults.
func loadOriginalArgs(opts *runOptions) (*config.Config, error) {
	override, err := config.FromArgs(opts.origArgs)
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	if _, ok := override["task.factory"]; !ok && opts.configFile == "" {
		return nil, withCode(exitUsage, errors.New(`--args: task: required without --config: the factory, "module:callable"`))
	}
	return loadCommandLine(opts, override)
}
