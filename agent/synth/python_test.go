package synth

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
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
			checkGolden(t, filepath.Join("testdata", c.name+".py"), src)
			inputs := append(append([]string{}, c.inputs...), c.probe...)
			got := runCandidate(t, py, src, inputs)
			for i, in := range inputs {
				v, _ := task.Decode(json.RawMessage(in))
				env, err := p.B.Env(v)
				if err != nil {
					t.Fatal(err)
				}
				goVal := dsl.ToJSON(p.Rounded(dsl.EvalNode(prog.Root, env)))
				if !task.Equal(got[i], goVal, 1e-9) {
					t.Errorf("input %s: python %s, go %s\n%s", in, got[i], goVal, src)
				}
			}
		})
	}
}
