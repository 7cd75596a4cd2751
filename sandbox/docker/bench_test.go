package docker

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/client"
	"github.com/docker/docker/pkg/stdcopy"

	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/sandbox/process"
	"github.com/reconstruct/reconstruct/sandbox/sandboxtest"
)

// idleGap is the pause before each timed batch of the idle variants: a run
// sends its batches seconds apart, so a batch arrives at an idle sandbox
// (whose harness has forked its next child in the meantime).
const idleGap = 300 * time.Millisecond

const benchCandidate = "def solve(x):\n    return x + 1\n"

func benchInputs(n int) []json.RawMessage {
	in := make([]json.RawMessage, n)
	for i := range in {
		in[i] = json.RawMessage(strconv.Itoa(i))
	}
	return in
}

// BenchmarkRoundTrip is the evaluation round trip of a trivial candidate on
// 1 and 1,000 inputs, every output compared in Go: in the Docker sandbox (a
// message to the resident harness), in the process sandbox, and with a
// `docker exec` per batch (the design the resident harness replaces).
// Sub-benchmarks "idle" pause before each batch, the way a run uses the
// sandbox; "b2b" send batches back to back. The idle Docker ones report
// where the CPU time went (see sandboxtest.CPUMeter).
func BenchmarkRoundTrip(b *testing.B) {
	api, ref := needImage(b)
	ws := b.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "candidate.py"), []byte(benchCandidate), 0o644); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	dock, err := New(ctx, Options{Image: ref, RunID: "bench", Role: RoleAgent, Mounts: []Mount{WorkspaceMount(ws)}})
	if err != nil {
		b.Fatal(err)
	}
	defer dock.Close()
	proc, err := process.New(ctx, process.Options{Dir: ws})
	if err != nil {
		b.Fatal(err)
	}
	defer proc.Close()
	prog := sandbox.Program{Path: filepath.Join(ws, "candidate.py"), Function: "solve"}

	harnessPID := func() int {
		info, err := api.ContainerInspect(ctx, dock.ContainerID())
		if err != nil || info.State == nil || info.State.Pid == 0 {
			b.Fatalf("the harness's pid: %v", err)
		}
		return info.State.Pid
	}

	backends := []struct {
		name string
		pid  func() int // the harness's, for the CPU figures
		call func(ctx context.Context, in []json.RawMessage) error
	}{
		{"docker", harnessPID, func(ctx context.Context, in []json.RawMessage) error {
			return checkCall(dock.Call(ctx, sandbox.CallRequest{Program: prog, Inputs: in}))
		}},
		{"process", nil, func(ctx context.Context, in []json.RawMessage) error {
			return checkCall(proc.Call(ctx, sandbox.CallRequest{Program: prog, Inputs: in}))
		}},
		{"docker-exec", nil, func(ctx context.Context, in []json.RawMessage) error {
			return execBatch(ctx, api, dock.ContainerID(), dock.opts.User, in)
		}},
	}
	for _, be := range backends {
		for _, n := range []int{1, 1000} {
			in := benchInputs(n)
			for _, idle := range []bool{true, false} {
				mode := "b2b"
				if idle {
					mode = "idle"
				}
				b.Run(fmt.Sprintf("%s/%d/%s", be.name, n, mode), func(b *testing.B) {
					var cpu *sandboxtest.CPUMeter
					if idle && be.pid != nil {
						cpu = sandboxtest.StartCPU(b, be.pid)
					}
					for i := 0; i < b.N; i++ {
						if idle {
							b.StopTimer()
							time.Sleep(idleGap)
							b.StartTimer()
						}
						if err := be.call(ctx, in); err != nil {
							b.Fatal(err)
						}
					}
					b.StopTimer()
					if cpu != nil {
						cpu.Report()
					}
				})
			}
		}
	}
}

// checkCall compares every output with what benchCandidate returns on
// benchInputs, in Go, as the workflow does.
func checkCall(out []sandbox.Outcome, err error) error {
	if err != nil {
		return err
	}
	for i, o := range out {
		if !o.OK() {
			return fmt.Errorf("input %d: %s: %s", i, o.Status, o.Error)
		}
		if want := strconv.Itoa(i + 1); string(o.Output) != want {
			return fmt.Errorf("input %d: output %s, want %s", i, o.Output, want)
		}
	}
	return nil
}

// execRunner evaluates a batch in a fresh interpreter: the candidate's path
// and the inputs arrive as argv, the outputs leave on stdout.
const execRunner = `import json, sys, importlib.util
spec = importlib.util.spec_from_file_location("candidate", sys.argv[1])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
print(json.dumps([mod.solve(x) for x in json.loads(sys.argv[2])]))
`

// execBatch runs one batch with `docker exec python3 -c ...`.
func execBatch(ctx context.Context, api client.APIClient, id, user string, in []json.RawMessage) error {
	inputs, err := json.Marshal(in)
	if err != nil {
		return err
	}
	created, err := api.ContainerExecCreate(ctx, id, container.ExecOptions{
		User: user, WorkingDir: WorkspaceDir, AttachStdout: true, AttachStderr: true,
		Cmd: []string{"python3", "-I", "-B", "-c", execRunner, WorkspaceDir + "/candidate.py", string(inputs)},
	})
	if err != nil {
		return err
	}
	conn, err := api.ContainerExecAttach(ctx, created.ID, container.ExecAttachOptions{})
	if err != nil {
		return err
	}
	defer conn.Close()
	var stdout, stderr bytes.Buffer
	if _, err := stdcopy.StdCopy(&stdout, &stderr, conn.Reader); err != nil {
		return err
	}
	var out []json.RawMessage
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || len(out) != len(in) {
		return fmt.Errorf("docker exec batch: %d outputs for %d inputs (%v): %s", len(out), len(in), err, stderr.String())
	}
	return nil
}
