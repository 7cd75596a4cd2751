package main

import "github.com/spf13/cobra"

// addCommands registers every command of reconstruct: this is the one
// place a command is added, top-level commands to the root and
// subcommands to their group. A group's subcommands share the options
// struct its persistent flags fill (--bank, --run, --json...).
//
// Each command is an options struct, a newXCmd that only parses flags into
// it, and a runX(ctx, opts) that does the work and prints its output.
func addCommands(root *cobra.Command, a *app) {
	runs := &runsOptions{app: a}
	cands := &candidatesOptions{app: a}
	root.AddCommand(
		newRunCmd(a),
		newScoreCmd(a),
		group(newRunsCmd(runs), newRunsListCmd(runs), newRunsShowCmd(runs)),
		group(newCandidatesCmd(cands), newCandidatesListCmd(cands), newCandidatesShowCmd(cands),
			newCandidatesDiffCmd(cands), newCandidatesRescoreCmd(cands)),
		bankCommands(&bankOptions{getenv: a.getenv, app: a}),
		group(newBenchCmd(), newBenchRunCmd(a), newBenchReportCmd(a), newBenchCompareCmd(a),
			newBenchStatusCmd(a), newBenchCollectCmd(a), newBenchCancelCmd(a)),
		newWorkerCmd(a),
		group(newSandboxCmd(), newBuildImageCmd(a, nil), newPruneCmd(a, nil)),
		group(newBindingCmd(), newBindingModulesCmd(a)),
		newVersionCmd(),
	)
}

// bankCommands is `reconstruct bank` with its subcommands, all reading o.
func bankCommands(o *bankOptions) *cobra.Command {
	return group(newBankCmd(o), newBankCreateCmd(o), newBankActCmd(o), newBankRegisterCmd(o), newBankCheckoutCmd(o),
		newBankListCmd(o), newBankLogCmd(o), newBankEventsCmd(o), newBankServeCmd(o), newBankCheckCmd(o), newBankMigrateCmd(o))
}

// group adds subs to the group command parent and returns parent.
func group(parent *cobra.Command, subs ...*cobra.Command) *cobra.Command {
	parent.AddCommand(subs...)
	return parent
}
