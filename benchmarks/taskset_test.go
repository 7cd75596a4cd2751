package benchmarks

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/testenv"
)

// shippedTaskSet is the task set this repository ships.
var shippedTaskSet = filepath.Join("tasks", "io2code-style")

// TestShippedTaskSetPassesItsCheck runs the held-out tool's own checks: its
// unit tests, and --check over every shipped task (generator, hidden
// program, held-out file).
func TestShippedTaskSetPassesItsCheck(t *testing.T) {
	testenv.NeedPython(t)
	tests := []struct {
		name string
		args []string
	}{
		{"make_heldout unit tests", []string{"-m", "unittest", "discover", "-s", "tools", "-p", "test_*.py"}},
		{"make_heldout --check", []string{filepath.Join("tools", "make_heldout.py"), "--check", "--quiet", shippedTaskSet}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "python3", tt.args...)
			cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("python3 %s: %v\n%s", strings.Join(tt.args, " "), err, out)
			}
		})
	}
}

// shippedFamilies are the families of the shipped task set (README.md
// describes each); "" is a task of no family.
var shippedFamilies = []string{"", "window", "two_stream", "state_machine", "digits", "stack", "dp_loop",
	"multi_arg", "text", "formatted", "loops", "words", "char_table", "two_seq", "multi_result", "float_sim",
	"grammar"}

// minFamilySize is the fewest tasks a family holds: fewer would make its row
// in a sweep's per-family table too small to compare.
const minFamilySize = 8

// TestShippedTasksLoad loads every shipped task.yaml with the run
// configuration loader: the sweep would stop on any the loader rejects. Every
// task names one of the set's families, and every family keeps at least
// minFamilySize tasks.
func TestShippedTasksLoad(t *testing.T) {
	families := map[string]int{}
	for _, f := range shippedFamilies {
		families[f] = 0
	}
	dirs, err := Discover(shippedTaskSet, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 277 {
		t.Fatalf("found %d tasks in %s, want at least 277", len(dirs), shippedTaskSet)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			c, err := config.Load(config.Options{File: filepath.Join(dir, "task.yaml")})
			if err != nil {
				t.Fatal(err)
			}
			if c.Task.Name != filepath.Base(dir) || !strings.HasPrefix(c.Task.Name, c.Task.Level+"_") {
				t.Errorf("name %q, level %q in directory %s", c.Task.Name, c.Task.Level, dir)
			}
			if _, ok := families[c.Task.Family]; !ok {
				t.Errorf("family %q is not one of the set's families", c.Task.Family)
			} else {
				families[c.Task.Family]++
			}
			if c.Task.Heldout == "" {
				t.Errorf("no held-out file")
			}
		})
	}
	for _, f := range shippedFamilies[1:] {
		if families[f] < minFamilySize {
			t.Errorf("family %q has %d tasks, want at least %d", f, families[f], minFamilySize)
		}
	}
}
