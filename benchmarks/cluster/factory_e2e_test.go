package cluster

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/benchmarks"
	"github.com/reconstruct/reconstruct/internal/testenv"
)

// contractTasks are the four tasks of configs/examples/contract.
const contractTasks = "triple_plus_one,negate,square,distance_to_ten"

// A sweep over the example binding written to the original workflow's
// contract, four tasks, runs on the Temporal engine as on the local one,
// from a directory of mode 0700: every task is bound and its held-out
// tests (its module's heldout) collected on the submitting machine, and
// travels to the workers as a task directory does.
func TestFactorySweepOnBothEngines(t *testing.T) {
	c := newTestCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	dir := testenv.PrivateCopy(t, filepath.Join("..", "..", "configs", "examples", "contract"))
	base := filepath.Join(dir, "sweep.yaml")
	writeFile(t, base, "sandbox: {kind: process, call_timeout: 30s}\nworkflow: {random_share: 0.5, max_iterations: 10}\n", 0o600)
	sweep := []string{"bench", "run", "--factory", "my_bench.binding:make_task", "--names", contractTasks, "--config", base}

	local := filepath.Join(t.TempDir(), "local")
	if stdout, stderr, err := c.run(ctx, []string{"RECONSTRUCT_BANK_PATH=" + filepath.Join(t.TempDir(), "bank.db")},
		append(sweep, "--out", local, "--parallel", "2")...); err != nil {
		t.Fatalf("local sweep: %v\n%s\n%s", err, stdout, stderr)
	}
	want, err := benchmarks.ReadSummary(local)
	if err != nil {
		t.Fatal(err)
	}

	c.startWorker("worker-a", "--parallel", "2")
	out := filepath.Join(t.TempDir(), "cluster")
	c.command(ctx, append(sweep, "--engine", "temporal", "--out", out)...)
	got, err := benchmarks.ReadSummary(out)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Split(contractTasks, ",")
	for _, s := range []benchmarks.Summary{want, got} {
		if diff := cmp.Diff(sortedCopy(all), solvedList(s)); diff != "" {
			t.Errorf("%s engine: solved (-want +got):\n%s", s.Engine, diff)
		}
		for _, r := range s.Results {
			if r.Error != "" || r.HeldoutTotal != 20 || r.StopReason != "early_stop" {
				t.Errorf("%s engine: %s: %s, held-out %d/%d, %q", s.Engine, r.ID, r.StopReason, r.HeldoutPassed, r.HeldoutTotal, r.Error)
			}
		}
	}
	if got.Engine != EngineName || got.TasksDir != "my_bench.binding:make_task" {
		t.Errorf("cluster summary: engine %q, tasks %q", got.Engine, got.TasksDir)
	}
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
