package synth

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/reconstruct/reconstruct/task"
)

// TestPythonMatchesGo runs each family's emitted program in python3 and
// compares it with the Go evaluation, and keeps the emitted source as a
// golden file.
func TestPythonMatchesGo(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: cannot compare emitted Python with the Go evaluator")
	}
	for _, c := range familyCases {
		t.Run(c.name, func(t *testing.T) {
			p, prog := solveCase(t, c)
			src := prog.Python("solve", "")
			golden := filepath.Join("testdata", c.name+".py")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run with -update): %v", err)
			}
			if diff := cmp.Diff(string(want), src); diff != "" {
				t.Errorf("emitted Python differs from %s (-want +got):\n%s", golden, diff)
			}
			inputs := append(append([]string{}, c.inputs...), c.probe...)
			got := runCandidate(t, py, src, inputs)
			for i, in := range inputs {
				v, _ := task.Decode(json.RawMessage(in))
				env, err := p.b.env(v)
				if err != nil {
					t.Fatal(err)
				}
				goVal := toJSON(p.rounded(evalNode(prog.Root, env)))
				if !task.Equal(got[i], goVal, 1e-9) {
					t.Errorf("input %s: python %s, go %s\n%s", in, got[i], goVal, src)
				}
			}
		})
	}
}
