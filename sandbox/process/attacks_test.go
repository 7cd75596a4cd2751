package process

import (
	"strconv"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/sandbox/sandboxtest"
)

// TestAttacks runs the adversarial suite against the process sandbox, set
// up as a run sets it up: the evaluator on an empty scratch directory, the
// oracle on the task directory, the agent's shell on its workspace.
func TestAttacks(t *testing.T) {
	testenv.NeedPython(t)
	sandboxtest.Run(t, sandboxtest.Env{
		Kind: "process",
		Eval: func(t *testing.T) sandbox.Sandbox { return newSandbox(t, Options{Dir: t.TempDir()}) },
		Oracle: func(t *testing.T, dir string) sandbox.Sandbox {
			return newSandbox(t, Options{Dir: dir, Hide: []string{"heldout.jsonl"}})
		},
		Agent: func(t *testing.T, ws string) sandbox.Sandbox { return newSandbox(t, Options{Dir: ws}) },
		Generation: func(b sandbox.Sandbox) string {
			s := b.(*Sandbox)
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.h == nil {
				return "none"
			}
			return strconv.Itoa(s.h.cmd.Process.Pid)
		},
	})
}
