package main

import (
	"context"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/runner"
)

// completeValues offers, for every flag of flags bound to a configuration
// key of a few values (sandbox.kind, agent.kind, …), those values.
func completeValues(cmd *cobra.Command, flags map[string]*pflag.Flag) {
	for key, f := range flags {
		if f == nil {
			continue
		}
		if k, ok := config.Lookup(key); ok && len(k.Allowed) > 0 {
			_ = cmd.RegisterFlagCompletionFunc(f.Name, cobra.FixedCompletions(k.Allowed, cobra.ShellCompDirectiveNoFileComp))
		}
	}
}

// completionTimeout bounds the bank's reading for a completion: a shell
// waits for it.
const completionTimeout = 3 * time.Second

// runIDs completes a run id from the bank --bank names (bank returns the
// flag's value when asked), else the default one, each with its task and
// status; a bank that is not there offers nothing, and creates nothing.
func (a *app) runIDs(bank func() string) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		none := cobra.ShellCompDirectiveNoFileComp
		loc, err := config.ResolveBank(bank(), a.getenv, nil)
		if err != nil {
			return nil, none
		}
		ctx, cancel := context.WithTimeout(cmd.Context(), completionTimeout)
		defer cancel()
		b, closeBank, err := runner.OpenBank(ctx, loc.Location, runner.ReadBank, runner.BankOptions{Log: a.logger(), Getenv: a.getenv})
		if err != nil {
			return nil, none
		}
		defer closeBank()
		runs, err := runner.Runs(ctx, b)
		if err != nil {
			return nil, none
		}
		var out []cobra.Completion
		for i := len(runs) - 1; i >= 0; i-- { // the latest first
			r := runs[i]
			out = append(out, cobra.CompletionWithDesc(r.RunID, r.Task.Name+", "+r.Status))
		}
		return out, none
	}
}

// noArgsYet completes one positional argument with complete, and nothing
// after it.
func noArgsYet(complete cobra.CompletionFunc) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return complete(cmd, args, toComplete)
	}
}

// flagString returns the current value of a command's flag, for a
// completion that depends on it (--bank).
func flagString(cmd *cobra.Command, name string) func() string {
	return func() string {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
			return f.Value.String()
		}
		return ""
	}
}
