package docker

import (
	"context"
	"testing"

	"github.com/docker/docker/api/types/container"
)

// PruneExited removes the containers of a run that no longer run — what a
// killed run leaves — and keeps the running ones. Scoped to this test's
// run id: other tests' containers are never touched.
func TestPruneExited(t *testing.T) {
	api, ref := needImage(t)
	runID := testRunID(t)
	ids := runSandboxes(t, ref, runID)
	// The first one's harness is gone, as when its reconstruct was killed.
	stop := 0
	if err := api.ContainerStop(context.Background(), ids[0], container.StopOptions{Timeout: &stop}); err != nil {
		t.Fatal(err)
	}
	removed, err := PruneExited(context.Background(), api, runID)
	if err != nil {
		t.Fatalf("PruneExited: %v", err)
	}
	if len(removed) != 1 || removed[0] != ids[0] {
		t.Errorf("removed %v, want the stopped container %s alone", removed, shortID(ids[0]))
	}
	if !gone(t, api, ids[0]) {
		t.Errorf("the stopped container %s survived", shortID(ids[0]))
	}
	if gone(t, api, ids[1]) {
		t.Errorf("the running container %s was removed", shortID(ids[1]))
	}
}

// runSandboxes starts an agent and an oracle sandbox of the run runID on one
// workspace, closed when the test ends, and returns their container ids.
func runSandboxes(t *testing.T, ref, runID string) []string {
	t.Helper()
	ws := t.TempDir()
	var ids []string
	for _, role := range []Role{RoleAgent, RoleOracle} {
		s, err := New(context.Background(), Options{Image: ref, RunID: runID, Role: role, Mounts: []Mount{WorkspaceMount(ws)}})
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		t.Cleanup(func() { s.Close() })
		ids = append(ids, s.ContainerID())
	}
	return ids
}
