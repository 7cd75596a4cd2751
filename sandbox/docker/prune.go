package docker

import (
	"context"
	"errors"
	"fmt"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/client"
)

// PruneExited force-removes the reconstruct containers that no longer run
// (exited, created but never started, dead) — what runs that were killed
// left behind — of runID, or of every run when runID is "". Running
// containers belong to runs in progress and are kept. It returns the IDs
// removed.
func PruneExited(ctx context.Context, api client.APIClient, runID string) ([]string, error) {
	args := runFilter(runID)
	for _, status := range []string{"created", "exited", "dead"} {
		args.Add("status", status)
	}
	return removeListed(ctx, api, args)
}

// runFilter selects the containers of runID, or of every run when "".
func runFilter(runID string) filters.Args {
	label := LabelRunID
	if runID != "" {
		label += "=" + runID
	}
	return filters.NewArgs(filters.Arg("label", label))
}

// removeListed force-removes the containers args selects and returns the
// IDs removed.
func removeListed(ctx context.Context, api client.APIClient, args filters.Args) ([]string, error) {
	list, err := api.ContainerList(ctx, container.ListOptions{All: true, Filters: args})
	if err != nil {
		return nil, fmt.Errorf("list reconstruct containers: %w", err)
	}
	var removed []string
	var errs []error
	for _, c := range list {
		err := api.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true, RemoveVolumes: true})
		if err != nil && !client.IsErrNotFound(err) {
			errs = append(errs, fmt.Errorf("remove container %s: %w", shortID(c.ID), err))
			continue
		}
		removed = append(removed, c.ID)
	}
	return removed, errors.Join(errs...)
}
