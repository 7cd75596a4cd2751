package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// version, when set at build time with -ldflags "-X main.version=…",
// replaces the module version of the build information.
var version = ""

type versionOptions struct {
	out io.Writer
}

func newVersionCmd() *cobra.Command {
	opts := &versionOptions{}
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version: the module version and the VCS revision it was built from",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.out = cmd.OutOrStdout()
			return runVersion(cmd.Context(), opts)
		},
	}
}

// runVersion prints the version; it does no I/O that ctx could bound.
func runVersion(_ context.Context, opts *versionOptions) error {
	_, err := fmt.Fprintf(opts.out, "reconstruct %s\n", versionString(debug.ReadBuildInfo()))
	return err
}

// versionString describes the build: the module version (or the one set
// with -ldflags), the VCS revision with "+dirty" for uncommitted changes,
// the commit time and the Go version.
func versionString(info *debug.BuildInfo, ok bool) string {
	if !ok {
		if version != "" {
			return version
		}
		return "unknown (built without module information)"
	}
	v := version
	if v == "" {
		v = info.Main.Version
	}
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	var rev, when string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	var parts []string
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if dirty {
			rev += "+dirty"
		}
		parts = append(parts, "revision "+rev)
		if when != "" {
			parts = append(parts, when)
		}
	} else {
		parts = append(parts, "no VCS revision recorded")
	}
	if info.GoVersion != "" {
		parts = append(parts, info.GoVersion)
	}
	return v + " (" + strings.Join(parts, ", ") + ")"
}
