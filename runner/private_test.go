package runner

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/workflow"
)

// A binding module travels into the sandbox as the task's files do: one
// in a directory nobody else may read (mode 0700, its files 0600) runs in
// either sandbox, with a data file of its package.
func TestBindingInAPrivateDirectory(t *testing.T) {
	testenv.NeedPython(t)
	inEachSandbox(t, func(t *testing.T, kind string) {
		src := t.TempDir()
		testenv.WriteFiles(t, src, map[string]string{
			"bench/__init__.py": "",
			"bench/data.txt":    "2\n",
			"bench/tasks.py": "import os\n\n\ndef _factor():\n    with open(os.path.join(os.path.dirname(__file__), 'data.txt')) as f:\n        return int(f.read())\n\n\n" +
				"def make():\n    k = _factor()\n    return {'input_type': 'an integer', 'kind': 'int', 'oracle': lambda x: k * x,\n" +
				"            'random_inputs': lambda n, exclude: [len(exclude) + i for i in range(n)]}\n",
			"solve.py":    "def solve(x):\n    return 2 * x\n",
			"replay.yaml": "candidates:\n  - file: solve.py\n",
			"task.yaml": "task: {factory: bench.tasks:make}\nagent: {kind: replay, replay: {script: replay.yaml}}\n" +
				"workflow: {max_iterations: 2, early_stop: 2, random_share: 0.5, coverage_gate: false}\n",
		})
		dir := testenv.PrivateCopy(t, src)
		c := loadIn(t, filepath.Join(dir, "task.yaml"), kind, false)
		res, err := Run(context.Background(), c, Options{})
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		if res.StopReason != workflow.StopEarly || res.FinalAccuracy != 1 || res.RandomInputs == 0 {
			t.Errorf("stop %s, final accuracy %v, %d random inputs", res.StopReason, res.FinalAccuracy, res.RandomInputs)
		}
	})
}
