package sandboxtest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/sandbox"
)

// limitsProbe reports the limits its call runs under and what it can do
// with them: open files, start a process, allocate memory.
const limitsProbe = `import os, resource

def f(x):
    out = {}
    for name in ("RLIMIT_NOFILE", "RLIMIT_NPROC", "RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_DATA", "RLIMIT_STACK"):
        out[name] = list(resource.getrlimit(getattr(resource, name)))
    try:
        fds = [os.open("/dev/null", os.O_RDONLY) for _ in range(200)]
        for fd in fds:
            os.close(fd)
        out["files"] = "ok"
    except OSError as e:
        out["files"] = type(e).__name__
    try:
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
        out["fork"] = "ok"
    except OSError as e:
        out["fork"] = type(e).__name__
    try:
        b = bytearray(64 << 20)
        out["memory"] = "ok"
    except MemoryError:
        out["memory"] = "MemoryError"
    return out
`

// limitsPoisoner lowers the limits of every process it can reach but its
// own (and, unless asked for, PID 1's): the harness, its zygote, its
// spare children.
const limitsPoisoner = `import os, resource

LIMITS = (("RLIMIT_NOFILE", 8), ("RLIMIT_NPROC", 1), ("RLIMIT_AS", 32 << 20), ("RLIMIT_DATA", 32 << 20), ("RLIMIT_FSIZE", 0), ("RLIMIT_STACK", 64 << 10))

def f(x):
    lowered = []
    me = os.getpid()
    for p in os.listdir("/proc"):
        if not p.isdigit() or int(p) == me or (int(p) == 1 and x != "every process"):
            continue
        for name, val in LIMITS:
            try:
                resource.prlimit(int(p), getattr(resource, name), (val, val))
                lowered.append([int(p), name])
            except (OSError, ValueError):
                pass
    return lowered
`

// PoisonedLimits is finding 5 of the third security issue: a candidate
// lowering, with prlimit, the limits of the harness and its spare children
// (which share its uid in a container, or the caller's in the process
// sandbox when it is not root) made the next evaluation fail — an
// infrastructure error that ended the run and made the poisoner its final
// program. After such a candidate, the next program must run exactly as in
// a sandbox nothing touched: the same limits, able to open files, start a
// process and allocate memory, and the request must not fail. newBox
// starts the sandbox under test (an evaluator's).
func PoisonedLimits(t *testing.T, newBox func(t *testing.T) sandbox.Sandbox) {
	t.Helper()
	ctx := context.Background()
	probe := sandbox.Program{Source: limitsProbe, Function: "f"}
	call := func(t *testing.T, box sandbox.Sandbox, prog sandbox.Program, input string) sandbox.Outcome {
		t.Helper()
		cctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		out, err := box.Call(cctx, sandbox.CallRequest{Program: prog, Inputs: []json.RawMessage{json.RawMessage(input)}, Limits: sandbox.Limits{Timeout: 60 * time.Second}})
		if err != nil {
			t.Fatalf("Call: %v", err)
		}
		return out[0]
	}
	ref := call(t, newBox(t), probe, `0`)
	if !ref.OK() {
		t.Fatalf("the probe in an untouched sandbox: %s %s", ref.Status, ref.Error)
	}
	for _, who := range []string{"the spare children and the zygote", "every process"} {
		t.Run(who, func(t *testing.T) {
			box := newBox(t)
			call(t, box, probe, `1`)
			time.Sleep(idleBeforeAttack) // spares forked, as between batches
			got := call(t, box, sandbox.Program{Source: limitsPoisoner, Function: "f"}, mustJSON(who))
			t.Logf("the poisoner: %s %s %s", got.Status, clip(string(got.Output)), got.Error)
			if !got.OK() {
				t.Fatalf("the poisoner did not finish: %s %s", got.Status, got.Error)
			}
			var lowered [][]any
			_ = json.Unmarshal(got.Output, &lowered)
			if len(lowered) == 0 {
				t.Logf("no process in reach: the sandbox's processes run as another uid than its programs")
			}
			after := call(t, box, probe, `2`)
			if !after.OK() || string(after.Output) != string(ref.Output) {
				t.Errorf("after the poisoner: %s %s %s\nwant what an untouched sandbox gives: %s", after.Status, after.Output, after.Error, ref.Output)
			}
			t.Logf("outcome | prlimit on %s | %d limits lowered | %s", who, len(lowered), verdict(after, ref))
		})
	}
}

func verdict(after, ref sandbox.Outcome) string {
	if after.OK() && string(after.Output) == string(ref.Output) {
		return "contained"
	}
	return fmt.Sprintf("BREACHED: %s", after.Status)
}
