package runner

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// A listed domain must hold every valid input: one listed too small would
// end a run exhausted, claiming a program verified on inputs it never saw.
// Every benchmark task whose description lists its inputs lists each of
// its held-out inputs.
func TestListedDomainsHoldTheHeldoutInputs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "benchmarks", "tasks", "io2code-style", "*", "task.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no benchmark tasks: %v", err)
	}
	listed := 0
	for _, f := range files {
		c, err := config.Load(config.Options{File: f})
		if err != nil {
			t.Fatal(err)
		}
		ins, from, ok := taskDomain{c.Task.Describe()}.Inputs(workflow.DomainLimit)
		if !ok {
			continue
		}
		listed++
		t.Logf("%s: %d inputs from %s (%s; %s)", c.Task.Name, len(ins), from, c.Task.InputType, c.Task.InputConstraints)
		has := map[string]bool{}
		for _, in := range ins {
			has[task.MustCanonical(in)] = true
		}
		fh, err := os.Open(filepath.Join(filepath.Dir(f), "heldout.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var line struct{ Input json.RawMessage }
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
				t.Fatal(err)
			}
			if !has[task.MustCanonical(line.Input)] {
				t.Errorf("%s: held-out input %s is not among the %d inputs listed from %s", c.Task.Name, line.Input, len(ins), from)
			}
		}
		_ = fh.Close()
	}
	t.Logf("%d of %d tasks list their inputs", listed, len(files))
	if listed == 0 {
		t.Error("no benchmark task lists its inputs: the test checks nothing")
	}
}
