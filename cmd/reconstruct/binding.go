package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/spf13/cobra"

	"github.com/reconstruct/reconstruct/binding"
	"github.com/reconstruct/reconstruct/internal/atomicfile"
)

func newBindingCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "binding",
		Short: "Python modules for binding tasks and driving the bank (see docs/binding.md)",
	}
}

type bindingModulesOptions struct {
	app *app
	dir string // where the modules are written
}

func newBindingModulesCmd(a *app) *cobra.Command {
	opts := &bindingModulesOptions{app: a}
	return &cobra.Command{
		Use:   "modules DIR",
		Short: "Write reconstruct_binding.py and reconstruct_bank.py into DIR",
		Long: `Write the pure-Python modules shipped with reconstruct into DIR (created if missing),
to import them from your own Python: reconstruct_binding (the ReconstructionTask
dataclass; a run puts it on the binding's path by itself) and reconstruct_bank (a
client of 'reconstruct bank serve --stdio'). Existing files of those names are replaced.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.dir = args[0]
			return runBindingModules(c.Context(), opts)
		},
	}
}

// runBindingModules writes the modules and prints their paths; it does
// no I/O that ctx could bound.
func runBindingModules(_ context.Context, opts *bindingModulesOptions) error {
	if err := os.MkdirAll(opts.dir, 0o755); err != nil {
		return withCode(exitUsage, err)
	}
	names := make([]string, 0, len(binding.Modules))
	for n := range binding.Modules {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := filepath.Join(opts.dir, n)
		if err := atomicfile.Write(p, []byte(binding.Modules[n]), 0o644); err != nil {
			return err
		}
		fmt.Fprintln(opts.app.stdout, p)
	}
	return nil
}
