package main

import (
	"context"
	"encoding/json"
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
		return enc.Encode(buildOf(debug.ReadBuildInfo()))
	}
	_, err := fmt.Fprintf(opts.out, "reconstruct %s\n", versionString(debug.ReadBuildInfo()))
	return err
}

// build is what the build information says of this reconstruct.
type build struct {
	Version string `json:"version"`
	// Revision is the VCS revision ("" when none was recorded), Time its
	// commit time, and Modified set for a build with uncommitted changes.
	Revision  string `json:"revision,omitempty"`
	Time      string `json:"time,omitempty"`
	Modified  bool   `json:"modified,omitempty"`
	GoVersion string `json:"go_version,omitempty"`
	// Text is the version as `reconstruct version` prints it.
	Text string `json:"text"`
}

// buildOf reads the build information: the module version (or the one
// set with -ldflags), the VCS revision, its time, and the Go version.
func buildOf(info *debug.BuildInfo, ok bool) build {
	b := build{Version: version}
	if !ok {
		if b.Version == "" {
			b.Version = "unknown"
			b.Text = "unknown (built without module information)"
		} else {
			b.Text = b.Version
		}
		return b
	}
	if b.Version == "" {
		b.Version = info.Main.Version
	}
	if b.Version == "" || b.Version == "(devel)" {
		b.Version = "devel"
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	b.GoVersion = info.GoVersion
	var parts []string
	if rev := b.Revision; rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if b.Modified {
			rev += "+dirty"
		}
		parts = append(parts, "revision "+rev)
		if b.Time != "" {
			parts = append(parts, b.Time)
		}
	} else {
		parts = append(parts, "no VCS revision recorded")
	}
	if b.GoVersion != "" {
		parts = append(parts, b.GoVersion)
	}
	b.Text = b.Version + " (" + strings.Join(parts, ", ") + ")"
	return b
}

// versionString describes the build: the module version (or the one set
// with -ldflags), the VCS revision with "+dirty" for uncommitted changes,
// the commit time and the Go version.
func versionString(info *debug.BuildInfo, ok bool) string { return buildOf(info, ok).Text }
