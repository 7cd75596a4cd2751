package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
)

// The task of the mistake tests: the identity on short lists of small
// integers, with a generator of such lists.
const (
	mistakeHidden = `def f(xs):
    if not isinstance(xs, list) or len(xs) > 12:
        raise ValueError("want a list of at most 12 integers")
    return list(xs)
`
	mistakeGenerator = `def generate(k, exclude, rng):
    seen = {str(x) for x in exclude}
    out = []
    while len(out) < k:
        x = [rng.randint(-9, 9) for _ in range(rng.randint(0, 5))]
        if str(x) not in seen:
            seen.add(str(x))
            out.append(x)
    return out
`
	mistakeYAML = `task:
  name: t
  input_type: "a list of integers"
  kind: list
  oracle: {python: hidden.py, function: f}
  random_inputs: {python: generator.py, function: generate}
sandbox: {kind: process, call_timeout: 60s}
agent: {synth: {time_limit: 5s}}
workflow: {max_iterations: 6}
`
)

// A mistake in a task's files is the task author's: exit status 2, a
// message naming the file and the fix, and nothing left behind (no
// workspace, no bank) when the check before the run finds it; a hidden
// program's exception that rejects no input is such a mistake too, with its
// traceback, unless the task declares it.
func TestTaskMistakes(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	tests := []struct {
		name            string
		hidden, gen     string
		wantCode        int
		want            []string
		leavesNoRecords bool
	}{
		{
			name:            "a generator returning 42",
			gen:             "def generate(k, exclude, rng):\n    return 42\n",
			wantCode:        exitUsage,
			want:            []string{"generator.py (task.random_inputs.python) failed when asked for 2 inputs: the generator returned int, not a list", "must return a list of at most k JSON-able inputs"},
			leavesNoRecords: true,
		},
		{
			name:            "a hidden program importing a missing module",
			hidden:          "import no_such_module_here\n" + mistakeHidden,
			wantCode:        exitUsage,
			want:            []string{"hidden.py (task.oracle.python) cannot be loaded: ModuleNotFoundError: No module named 'no_such_module_here'"},
			leavesNoRecords: true,
		},
		{
			name:            "a hidden program returning a set",
			hidden:          strings.Replace(mistakeHidden, "return list(xs)", "return set(xs)", 1),
			wantCode:        exitUsage,
			want:            []string{"hidden.py (task.oracle.python) returned a value JSON cannot hold", "Object of type set is not JSON serializable", "lists (not sets)"},
			leavesNoRecords: true,
		},
		{
			name:            "a hidden program raising RuntimeError",
			hidden:          strings.Replace(mistakeHidden, "    return list(xs)", "    if len(xs) >= 0:\n        raise RuntimeError('boom')\n    return list(xs)", 1),
			wantCode:        exitUsage,
			want:            []string{"hidden.py (task.oracle.python) raised an exception that rejects no input on input 1", "Traceback (most recent call last):", `hidden.py", line 5, in f`, "RuntimeError: boom", "task.oracle.reject_exceptions"},
			leavesNoRecords: true,
		},
		{
			name:     "a hidden program raising RuntimeError on inputs the check does not try",
			hidden:   strings.Replace(mistakeHidden, "    return list(xs)", "    if len(xs) > 5:\n        raise RuntimeError('boom on long lists')\n    return list(xs)", 1),
			wantCode: exitUsage,
			want:     []string{"error of the task:", "raised an exception that rejects no input", "RuntimeError: boom on long lists", "stopped on it; fix the task and run it again"},
		},
		{
			name:     "a hidden program raising an exception the task declares",
			hidden:   "class Bad(Exception):\n    pass\n\n\n" + strings.Replace(mistakeHidden, "raise ValueError", "raise Bad", 1),
			wantCode: exitOK,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			hidden, gen := tt.hidden, tt.gen
			if hidden == "" {
				hidden = mistakeHidden
			}
			if gen == "" {
				gen = mistakeGenerator
			}
			yaml := mistakeYAML
			if tt.wantCode == exitOK {
				yaml = strings.Replace(yaml, "function: f}", "function: f, reject_exceptions: [Bad]}", 1)
			}
			testenv.WriteFiles(t, dir, map[string]string{"task/hidden.py": hidden, "task/generator.py": gen, "task/task.yaml": yaml})
			ws := filepath.Join(dir, "ws")
			r := cli(t, dir, nil, "run", "--config", filepath.Join(dir, "task", "task.yaml"), "--workspace", ws)
			if r.code != tt.wantCode {
				t.Fatalf("exit %d, want %d\n%s", r.code, tt.wantCode, r.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			if strings.Contains(r.stderr, "--resume") {
				t.Errorf("a task's mistake is given the advice of an infrastructure failure:\n%s", r.stderr)
			}
			if tt.leavesNoRecords {
				for _, p := range []string{ws, filepath.Join(dir, ".data")} {
					if _, err := os.Stat(p); err == nil {
						t.Errorf("%s was created", p)
					}
				}
			}
		})
	}
}
