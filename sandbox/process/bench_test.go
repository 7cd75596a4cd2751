package process

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/sandbox/sandboxtest"
)

const benchSource = "def f(x):\n    return x + 1\n"

// idleGap is the pause before each timed batch of the idle benchmarks: a
// run sends its batches seconds apart, so a batch arrives at an idle
// sandbox (whose harness has forked its next child in the meantime).
const idleGap = 300 * time.Millisecond

func benchInputs(n int) []json.RawMessage {
	in := make([]json.RawMessage, n)
	for i := range in {
		in[i] = json.RawMessage(strconv.Itoa(i))
	}
	return in
}

// benchWant is what benchSource returns on benchInputs(n).
func benchWant(n int) []json.RawMessage {
	want := make([]json.RawMessage, n)
	for i := range want {
		want[i] = json.RawMessage(strconv.Itoa(i + 1))
	}
	return want
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

// runBatch evaluates a batch and compares every output with the expected
// one in Go, as the workflow does.
func runBatch(b *testing.B, s *Sandbox, inputs, want []json.RawMessage) {
	out, err := s.Call(context.Background(), sandbox.CallRequest{
		Program: sandbox.Program{Source: benchSource, Function: "f"},
		Inputs:  inputs,
	})
	if err != nil {
		b.Fatalf("Call: %v", err)
	}
	for i, o := range out {
		if o.Status != sandbox.StatusOK || !bytes.Equal(o.Output, want[i]) {
			b.Fatalf("input %d: outcome %+v, want output %s", i, o, want[i])
		}
	}
}

func (s *Sandbox) harnessPID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.h.cmd.Process.Pid
}

// BenchmarkCallIdle is a batch of a trivial candidate arriving at an idle
// sandbox, the way a run uses it: the harness has had time to fork its
// spare child between batches (the pause is outside the timer; the CPU
// figures include the fork, which is off the request path). Every output
// is compared in Go.
func BenchmarkCallIdle(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(fmt.Sprintf("batch=%d", n), func(b *testing.B) {
			s := benchSandbox(b)
			inputs, want := benchInputs(n), benchWant(n)
			runBatch(b, s, inputs, want)
			cpu := sandboxtest.StartCPU(b, s.harnessPID)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				time.Sleep(idleGap)
				b.StartTimer()
				runBatch(b, s, inputs, want)
			}
			b.StopTimer()
			cpu.Report()
		})
	}
}

// BenchmarkEvaluationIdle is a candidate's evaluation as a run makes it:
// at an idle sandbox, an analysis and then, at once, a call of 30 inputs
// (the second request of the pair is served by the second spare child).
func BenchmarkEvaluationIdle(b *testing.B) {
	s := benchSandbox(b)
	inputs, want := benchInputs(30), benchWant(30)
	analyse := func() {
		if _, err := s.Analyse(context.Background(), sandbox.AnalyseRequest{Source: benchSource, FunctionName: "f", Inputs: inputs, Outputs: want}); err != nil {
			b.Fatalf("Analyse: %v", err)
		}
	}
	analyse()
	runBatch(b, s, inputs, want)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		time.Sleep(idleGap)
		b.StartTimer()
		analyse()
		runBatch(b, s, inputs, want)
	}
}

// BenchmarkCallBackToBack is throughput: batches with no pause, so that,
// once the two spare children are used, each one waits for a fork.
func BenchmarkCallBackToBack(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(fmt.Sprintf("batch=%d", n), func(b *testing.B) {
			s := benchSandbox(b)
			inputs, want := benchInputs(n), benchWant(n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				runBatch(b, s, inputs, want)
			}
		})
	}
}

// residentPython is the baseline of BenchmarkCallIdle: the same candidate
// called in a plain, resident Python process (no sandbox, no fork, no
// isolation, no limits), fed the same JSON batch on stdin and answering a
// JSON list of outputs on stdout. It is the least an evaluation outside the
// orchestrator's process costs.
const residentPython = `
import json, sys
ns = {}
exec(compile(sys.argv[1], "<candidate>", "exec"), ns)
f = ns["f"]
dumps = json.JSONEncoder(allow_nan=False, separators=(",", ":")).encode
out = sys.stdout
for line in sys.stdin:
    out.write(dumps([f(x) for x in json.loads(line)]) + "\n")
    out.flush()
`

// BenchmarkResidentPython is the baseline for BenchmarkCallIdle, measured
// the same way (idle gap, outputs compared in Go).
func BenchmarkResidentPython(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(fmt.Sprintf("batch=%d", n), func(b *testing.B) {
			testenv.NeedPython(b)
			python, err := resolvePython(context.Background(), DefaultPython)
			if err != nil {
				b.Fatal(err)
			}
			cmd := exec.Command(python, "-I", "-c", residentPython, benchSource)
			stdin, err := cmd.StdinPipe()
			if err != nil {
				b.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				b.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
			defer func() { stdin.Close(); _ = cmd.Wait() }()
			r := bufio.NewReaderSize(stdout, 1<<20)
			inputs, want := benchInputs(n), benchWant(n)
			call := func() {
				line, err := json.Marshal(inputs)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := stdin.Write(append(line, '\n')); err != nil {
					b.Fatal(err)
				}
				resp, err := r.ReadBytes('\n')
				if err != nil && err != io.EOF {
					b.Fatal(err)
				}
				var got []json.RawMessage
				if err := json.Unmarshal(resp, &got); err != nil || len(got) != n {
					b.Fatalf("output %q: %v", resp, err)
				}
				for i := range got {
					if !bytes.Equal(got[i], want[i]) {
						b.Fatalf("input %d: output %s, want %s", i, got[i], want[i])
					}
				}
			}
			call()
			pid := cmd.Process.Pid
			cpu := sandboxtest.StartCPU(b, func() int { return pid })
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				time.Sleep(idleGap)
				b.StartTimer()
				call()
			}
			b.StopTimer()
			cpu.Report()
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
				cmd.Stdin = bytes.NewReader(raw)
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
