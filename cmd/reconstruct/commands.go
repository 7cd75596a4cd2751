package main

import "github.com/spf13/cobra"

// addCommands registers every top-level command of reconstruct: this is
// the one place a command is added to the root. A command group (bank,
// bench, candidates, runs, sandbox, binding) adds its own subcommands in
// its constructor, as they share the group's flags.
//
// Each command is an options struct, a newXCmd that only parses flags into
// it, and a runX(ctx, opts) that does the work and prints its output.
func addCommands(root *cobra.Command, a *app) {
	root.AddCommand(
		newRunCmd(a),
		newScoreCmd(a),
		newRunsCmd(a),
		newCandidatesCmd(a),
		newBankCmd(a),
		newBenchCmd(a),
		newWorkerCmd(a),
		newSandboxCmd(a),
		newBindingCmd(a),
		newVersionCmd(),
	)
}
