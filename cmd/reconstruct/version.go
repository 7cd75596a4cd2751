package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/reconstruct/reconstruct/internal/stamp"
)

type versionOptions struct {
	out     io.Writer
	jsonOut bool
}

func newVersionCmd() *cobra.Command {
	opts := &versionOptions{}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version: the module version and the VCS revision it was built from",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.out = cmd.OutOrStdout()
			return runVersion(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.jsonOut, "json", false, "print the version as JSON on stdout")
	return cmd
}

// runVersion prints the version; it does no I/O that ctx could bound.
func runVersion(_ context.Context, opts *versionOptions) error {
	if opts.jsonOut {
		enc := json.NewEncoder(opts.out)
		enc.SetIndent("", "  ")
		return enc.Encode(stamp.This())
	}
	_, err := fmt.Fprintf(opts.out, "reconstruct %s\n", stamp.This().Text)
	return err
}
