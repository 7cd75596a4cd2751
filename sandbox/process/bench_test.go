package process

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/sandbox"
)

const benchSource = "def f(x):\n    return x + 1\n"

func benchInputs(n int) []json.RawMessage {
	in := make([]json.RawMessage, n)
	for i := range in {
		in[i] = json.RawMessage(strconv.Itoa(i))
	}
	return in
}

func benchSandbox(b *testing.B) *Sandbox {
	b.Helper()
	testenv.NeedPython(b)
	s, err := New(context.Background(), Options{Dir: b.TempDir(), Log: zap.NewNop()})
	if err != nil {
		b.Fatalf("New: %v", err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

func runBatch(b *testing.B, s *Sandbox, inputs []json.RawMessage) {
	out, err := s.Call(context.Background(), sandbox.CallRequest{
		Program: sandbox.Program{Source: benchSource, Function: "f"},
		Inputs:  inputs,
	})
	if err != nil {
		b.Fatalf("Call: %v", err)
	}
	if last := out[len(out)-1]; last.Status != sandbox.StatusOK {
		b.Fatalf("last outcome %+v", last)
	}
}

// harnessCPU is the CPU time used so far by the harness and its reaped
// children (all the per-request work happens in those), from /proc.
func harnessCPU(b *testing.B, s *Sandbox) time.Duration {
	b.Helper()
	s.mu.Lock()
	pid := s.h.cmd.Process.Pid
	s.mu.Unlock()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	// Fields after the command name: state is field 3; utime, stime,
	// cutime, cstime are fields 14-17 (1-based), in clock ticks.
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+2:]))
	var ticks int64
	for _, v := range f[11:15] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			b.Fatal(err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / 100 // USER_HZ
}

// BenchmarkCallIdle is a batch arriving at an idle sandbox, the way a run
// uses it: the harness has had time to fork its spare child between
// batches (the pause is outside the timer).
func BenchmarkCallIdle(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(fmt.Sprintf("batch=%d", n), func(b *testing.B) {
			s := benchSandbox(b)
			inputs := benchInputs(n)
			runBatch(b, s, inputs)
			cpu0 := harnessCPU(b, s)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				time.Sleep(20 * time.Millisecond)
				b.StartTimer()
				runBatch(b, s, inputs)
			}
			b.StopTimer()
			// Includes forking the next spare child (off the request path).
			b.ReportMetric(float64(harnessCPU(b, s)-cpu0)/float64(time.Millisecond)/float64(b.N), "harness-cpu-ms/op")
		})
	}
}

// BenchmarkCallBackToBack is throughput: batches with no pause, so each
// one also waits for the spare child forked after the previous one.
func BenchmarkCallBackToBack(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(fmt.Sprintf("batch=%d", n), func(b *testing.B) {
			s := benchSandbox(b)
			inputs := benchInputs(n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				runBatch(b, s, inputs)
			}
		})
	}
}

// freshRunner is what a batch costs without a resident harness: start the
// interpreter, read the batch, call, print the outcomes.
const freshRunner = `
import json, sys
ns = {}
exec(compile(sys.argv[1], "<candidate>", "exec"), ns)
f = ns["f"]
out = []
for x in json.load(sys.stdin):
    out.append(json.dumps(f(x)))
sys.stdout.write("[" + ",".join(out) + "]")
`

// BenchmarkFreshPython starts a new interpreter per batch (no namespaces:
// a lower bound on that approach).
func BenchmarkFreshPython(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(fmt.Sprintf("batch=%d", n), func(b *testing.B) {
			s := benchSandbox(b)
			python := s.Python()
			raw, _ := json.Marshal(benchInputs(n))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				cmd := exec.Command(python, "-I", "-c", freshRunner, benchSource)
				cmd.Stdin = strings.NewReader(string(raw))
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("python: %v", err)
				}
				var got []json.RawMessage
				if err := json.Unmarshal(out, &got); err != nil || len(got) != n {
					b.Fatalf("output %q: %v", out, err)
				}
			}
		})
	}
}
