package docker

import (
	"context"
	"fmt"
	"time"

	"github.com/docker/docker/client"

	"github.com/reconstruct/reconstruct/sandbox"
)

// probeTimeout bounds Available's questions to the engine.
const probeTimeout = 5 * time.Second

// Available reports whether a Docker sandbox can run with image: the engine
// answers and the image exists with the harness this binary embeds. When it
// cannot, reason says why and what to do, for the warning of `kind: auto`.
func Available(ctx context.Context, image string) (ok bool, reason string) {
	api, err := NewClient()
	if err != nil {
		return false, err.Error()
	}
	defer api.Close()
	return available(ctx, api, image, []byte(sandbox.Harness))
}

func available(ctx context.Context, api client.APIClient, image string, harness []byte) (bool, string) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	if _, err := api.Ping(ctx); err != nil {
		return false, fmt.Sprintf("the Docker engine at %s does not answer: %v", api.DaemonHost(), err)
	}
	img, err := api.ImageInspect(ctx, image)
	build := "reconstruct sandbox build-image"
	if image != imageFor(harness) {
		build += " --image " + image
	}
	if client.IsErrNotFound(err) {
		return false, fmt.Sprintf("image %s not found: run `%s`", image, build)
	}
	if err != nil {
		return false, fmt.Sprintf("inspect image %s: %v", image, err)
	}
	want := HarnessDigest(harness)
	if img.Config == nil || img.Config.Labels[LabelHarness] != want {
		return false, fmt.Sprintf("image %s was built with another harness: run `%s`", image, build)
	}
	return true, ""
}

// Prune force-removes the containers labelled by reconstruct: those of
// runID, or every run's when runID is "". It returns the IDs removed. A nil
// api connects to the engine named by the environment.
func Prune(ctx context.Context, api client.APIClient, runID string) ([]string, error) {
	if api == nil {
		c, err := NewClient()
		if err != nil {
			return nil, err
		}
		defer c.Close()
		api = c
	}
	return removeListed(ctx, api, runFilter(runID))
}
