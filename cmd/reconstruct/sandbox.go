package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/docker/docker/client"
	"github.com/spf13/cobra"
	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/runner"
	"github.com/reconstruct/reconstruct/sandbox/docker"
)

// newSandboxCmd is `reconstruct sandbox`: the Docker sandbox's image and
// clean-up.
func newSandboxCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "sandbox",
		Short: "Manage the Docker sandbox: build its image, remove left-over containers",
		Args:  cobra.NoArgs,
	}
}

// buildImageOptions are the flags of `sandbox build-image` plus the engine
// client (nil: from the environment).
type buildImageOptions struct {
	Image    string
	Mirror   string
	Suite    string
	Keyring  string
	CacheDir string
	JSON     bool

	API    client.APIClient
	Out    io.Writer
	Log    *zap.Logger
	Getenv func(string) string
}

func newBuildImageCmd(a *app, run func(context.Context, buildImageOptions) error) *cobra.Command {
	opts := buildImageOptions{}
	cmd := &cobra.Command{
		Use:   "build-image",
		Short: "Build the sandbox runner image offline (Debian root filesystem with python3 and the harness)",
		Long: `build-image builds the Docker sandbox's runner image without any registry: debootstrap
makes a minimal Debian root filesystem with python3 from the Debian mirror of this
machine's apt sources (or --mirror / ` + docker.MirrorEnv + `), the harness is added,
and the result is imported with docker import. The root filesystem is cached, so a
re-build is fast; if the image already exists with this binary's harness, nothing is
done. Needs root for debootstrap.

The default image name carries the harness digest, so the image always matches the
binary that uses it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Out = cmd.OutOrStdout()
			opts.Log = a.logger()
			opts.Getenv = a.getenv
			if run != nil {
				return run(cmd.Context(), opts)
			}
			return runBuildImage(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Image, "image", "", "image name:tag to build (default $RECONSTRUCT_SANDBOX_IMAGE, else "+docker.DefaultImageRepo+":<harness digest>)")
	f.StringVar(&opts.Mirror, "mirror", "", "Debian mirror URL (default $"+docker.MirrorEnv+", else the apt sources)")
	f.StringVar(&opts.Suite, "suite", "", "Debian suite (default the apt sources' release)")
	f.StringVar(&opts.Keyring, "keyring", "", "keyring that signs the mirror (default the apt sources' Signed-By)")
	f.StringVar(&opts.CacheDir, "cache-dir", docker.DefaultCacheDir, "where the root filesystem tarball is cached")
	f.BoolVar(&opts.JSON, "json", false, "print the result as JSON")
	return cmd
}

func runBuildImage(ctx context.Context, opts buildImageOptions) error {
	if opts.Image == "" && opts.Getenv != nil {
		opts.Image = opts.Getenv("RECONSTRUCT_SANDBOX_IMAGE")
	}
	if opts.Image != "" && strings.ContainsAny(opts.Image, " \t\n") {
		return withCode(exitUsage, fmt.Errorf("--image %q: not an image name", opts.Image))
	}
	api, closeAPI, err := engine(ctx, opts.API)
	if err != nil {
		return err
	}
	defer closeAPI()
	res, err := docker.BuildImage(ctx, api, docker.BuildOptions{
		Image:    opts.Image,
		Mirror:   opts.Mirror,
		Suite:    opts.Suite,
		Keyring:  opts.Keyring,
		CacheDir: opts.CacheDir,
		Log:      opts.Log,
	})
	if err != nil {
		return withCode(exitInfra, err)
	}
	if opts.JSON {
		return json.NewEncoder(opts.Out).Encode(res)
	}
	_, err = fmt.Fprintln(opts.Out, res)
	return err
}

// pruneOptions are the flags of `sandbox prune`.
type pruneOptions struct {
	RunID string
	All   bool
	// TmpDir is where scratch directories are looked for ("": the
	// temporary directory).
	TmpDir string
	API    client.APIClient
	Out    io.Writer
}

func newPruneCmd(a *app, run func(context.Context, pruneOptions) error) *cobra.Command {
	opts := pruneOptions{}
	cmd := &cobra.Command{
		Use:   "prune",
		Short: "Remove what killed runs left: stopped sandbox containers and scratch directories",
		Long: `prune removes what runs that were killed outright left behind: the containers labelled
` + docker.LabelRunID + ` that no longer run (exited, created, dead), and the scratch
directories reconstruct-evaluator-* and reconstruct-score-* in the temporary directory
that no running reconstruct holds. A run removes its own when it ends, on Ctrl-C and on
errors. --run-id removes one run's containers whatever their state; --all removes the
running containers of every run as well (runs in progress lose their sandboxes).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Out = cmd.OutOrStdout()
			if opts.All && opts.RunID != "" {
				return withCode(exitUsage, errors.New("prune: give --run-id or --all, not both"))
			}
			if run != nil {
				return run(cmd.Context(), opts)
			}
			return runPrune(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.RunID, "run-id", "", "remove this run's containers, running or not")
	cmd.Flags().BoolVar(&opts.All, "all", false, "remove every reconstruct container, running ones included")
	return cmd
}

func runPrune(ctx context.Context, opts pruneOptions) error {
	dirs, derr := runner.PruneScratch(opts.TmpDir)
	for _, d := range dirs {
		fmt.Fprintf(opts.Out, "removed scratch directory %s\n", d)
	}
	if derr != nil {
		derr = withCode(exitInfra, derr)
	}
	api, closeAPI, err := engine(ctx, opts.API)
	if err != nil {
		return errors.Join(err, derr)
	}
	defer closeAPI()
	var removed []string
	switch {
	case opts.RunID != "":
		removed, err = docker.Prune(ctx, api, opts.RunID)
	case opts.All:
		removed, err = docker.Prune(ctx, api, "")
	default:
		removed, err = docker.PruneExited(ctx, api, "")
	}
	for _, id := range removed {
		fmt.Fprintf(opts.Out, "removed container %.12s\n", id)
	}
	if err != nil {
		return errors.Join(withCode(exitInfra, err), derr)
	}
	if len(removed) == 0 && len(dirs) == 0 {
		_, err = fmt.Fprintln(opts.Out, "nothing to remove")
	}
	return errors.Join(err, derr)
}

// engine returns api, or a client from the environment that answers; an
// unreachable engine is an infrastructure failure (exit 3).
func engine(ctx context.Context, api client.APIClient) (client.APIClient, func(), error) {
	if api != nil {
		return api, func() {}, nil
	}
	c, err := docker.NewClient()
	if err != nil {
		return nil, nil, withCode(exitInfra, err)
	}
	if _, err := c.Ping(ctx); err != nil {
		c.Close()
		return nil, nil, withCode(exitInfra, fmt.Errorf("the Docker engine at %s does not answer (start it with scripts/docker-up.sh): %w", c.DaemonHost(), err))
	}
	return c, func() { c.Close() }, nil
}
