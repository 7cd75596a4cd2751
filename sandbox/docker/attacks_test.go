package docker

import (
	"testing"

	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/sandbox/sandboxtest"
)

// TestAttacks runs the adversarial suite against the Docker sandbox, set up
// as a run sets it up: the evaluator's container with a scratch tmpfs for /workspace, the oracle's on the task directory, the agent's on its workspace.
func TestAttacks(t *testing.T) {
	_, ref := needImage(t)
	sandboxtest.Run(t, sandboxtest.Env{
		Kind: "docker",
		Eval: func(t *testing.T) sandbox.Sandbox {
			return newTestSandbox(t, ref, RoleAgent, ScratchMount(0))
		},
		Oracle: func(t *testing.T, dir string) sandbox.Sandbox {
			st := sandboxtest.OracleStage(t, dir)
			return sandbox.Staged(newTestSandbox(t, ref, RoleOracle, ProgramMount(st.Dir)), st)
		},
		Agent: func(t *testing.T, ws string) sandbox.Sandbox {
			return newTestSandbox(t, ref, RoleAgent, WorkspaceMount(ws))
		},
		Generation: func(b sandbox.Sandbox) string { return b.(*Sandbox).ContainerID() },
	})
}
