package main

import "github.com/spf13/cobra"

// addCommands adds the command groups that live in their own files.
func addCommands(root *cobra.Command, a *app) {
	root.AddCommand(newCandidatesCmd(a), newSandboxCmd(a), newBenchCmd(a), newBankCmd(a), newRunsCmd(a), newWorkerCmd(a), newBindingCmd(a))
}
