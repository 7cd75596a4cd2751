package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// callResponse is the harness's response line to a call of n inputs whose
// outputs are the integers 1..n, in the columns the harness sends.
func callResponse(n int) []byte {
	var ns, v []string
	for i := 0; i < n; i++ {
		ns = append(ns, strconv.Itoa(1500+i))
		v = append(v, strconv.Itoa(i+1))
	}
	return fmt.Appendf(nil, `{"id":7,"ok":true,"s":"%s","ns":[%s],"v":[%s]}`, strings.Repeat("o", n), strings.Join(ns, ","), strings.Join(v, ","))
}

// objectResponse is the same response in the harness's first format, one
// object per outcome (the baseline of BenchmarkDecodeCall).
func objectResponse(n int) []byte {
	var items []string
	for i := 0; i < n; i++ {
		items = append(items, fmt.Sprintf(`{"status":"ok","seconds":%g,"output":%d}`, float64(1500+i)/1e9, i+1))
	}
	return fmt.Appendf(nil, `{"id":7,"ok":true,"outcomes":[%s]}`, strings.Join(items, ","))
}

// BenchmarkDecodeCall is the Go side of a call's response: decode the line,
// build the outcomes and compare every output with the expected one. The
// "objects" variant decodes the first format (one JSON object per outcome)
// for comparison in the same run.
func BenchmarkDecodeCall(b *testing.B) {
	for _, n := range []int{1, 1000} {
		want := make([]json.RawMessage, n)
		for i := range want {
			want[i] = json.RawMessage(strconv.Itoa(i + 1))
		}
		check := func(b *testing.B, out []Outcome) {
			for i, o := range out {
				if o.Status != StatusOK || !bytes.Equal(o.Output, want[i]) {
					b.Fatalf("input %d: %+v", i, o)
				}
			}
		}
		b.Run(fmt.Sprintf("columns/batch=%d", n), func(b *testing.B) {
			line := callResponse(n)
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var env envelope
				if err := decodeEnvelope(line, &env); err != nil {
					b.Fatal(err)
				}
				out, err := outcomes(env, n)
				if err != nil {
					b.Fatal(err)
				}
				check(b, out)
			}
		})
		// The same columns decoded by encoding/json (the path before
		// decodeCall, and still the one of any other response).
		b.Run(fmt.Sprintf("columns-encoding-json/batch=%d", n), func(b *testing.B) {
			line := callResponse(n)
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var env envelope
				if err := json.Unmarshal(line, &env); err != nil {
					b.Fatal(err)
				}
				out, err := outcomes(env, n)
				if err != nil {
					b.Fatal(err)
				}
				check(b, out)
			}
		})
		b.Run(fmt.Sprintf("objects/batch=%d", n), func(b *testing.B) {
			line := objectResponse(n)
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var env struct {
					ID       *int64    `json:"id"`
					OK       bool      `json:"ok"`
					Outcomes []Outcome `json:"outcomes"`
				}
				if err := json.Unmarshal(line, &env); err != nil {
					b.Fatal(err)
				}
				check(b, env.Outcomes)
			}
		})
	}
}

// BenchmarkEncodeCall is the Go side of a call's request: the line sent to
// the harness for n integer inputs.
func BenchmarkEncodeCall(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(fmt.Sprintf("batch=%d", n), func(b *testing.B) {
			in := make([]json.RawMessage, n)
			for i := range in {
				in[i] = json.RawMessage(strconv.Itoa(i))
			}
			req := CallRequest{Program: Program{Source: "def f(x):\n    return x + 1\n", Function: "f"}, Inputs: in}
			b.Run("line", func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					line, err := encodeCall(int64(i), req)
					if err != nil || len(line) == 0 {
						b.Fatal(err)
					}
				}
			})
			// The baseline: json.Marshal re-encodes every input.
			b.Run("marshal", func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					line, err := json.Marshal(map[string]any{
						"id": int64(i), "op": "call",
						"program": Program{Source: "def f(x):\n    return x + 1\n", Function: "f"},
						"inputs":  rawList(in),
						"limits":  toWire(Limits{}),
					})
					if err != nil || len(line) == 0 {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// harnessParts times, inside one Python process, the per-input parts of a
// call in the harness (harness.py on stdin): the child's loop over the
// inputs (call, encode, buffer, flush to /dev/null), the server's check and
// store of the child's message and its encoding of the response; and, as
// the baseline, the same candidate called in a bare loop. It prints CPU
// microseconds per input.
const harnessParts = `
import json, mmap, os, sys, time
src = sys.stdin.read().replace('if __name__ == "__main__":', 'if False:')
h = {"__name__": "harness"}
exec(compile(src, "harness.py", "exec"), h)
n, reps = int(sys.argv[1]), int(sys.argv[2])
source = "def f(x):\n    return x + 1\n"
null = os.open(os.devnull, os.O_WRONLY)
child = h["_Child"](null, mmap.mmap(-1, 16), {})
raw, meta = child.read_program({"source": source, "function": "f"})
fn, _ = child.exec_program(raw, meta)
inputs = list(range(n))
state = {"n": 0, "over": False}
def cpu():
    return time.process_time()
t = cpu()
for _ in range(reps):
    h["_call_inputs"](child, fn, inputs, inputs, 1 << 20, state)
    child.flush()
loop = (cpu() - t) / reps
msg = json.loads('{"t":"outs","s":"%s","ns":[%s],"v":[%s]}' % ("o" * n, ",".join(["1500"] * n), ",".join(str(i + 1) for i in range(n))))
server = h["Server"].__new__(h["Server"])
todo = list(range(n))
t = cpu()
for _ in range(reps):
    res = ([None] * n, [0] * n, [None] * n)
    server.record(res, todo, 0, json.loads(json.dumps(msg)))
    server.encode_outcomes(1, res)
srv = (cpu() - t) / reps
t = cpu()
for _ in range(reps):
    out = [fn(x) for x in inputs]
bare = (cpu() - t) / reps
print(json.dumps({"child": loop * 1e6 / n, "server": srv * 1e6 / n, "bare": bare * 1e6 / n}))
`

// BenchmarkHarnessParts is the per-input CPU cost of the harness's parts,
// measured in one Python process beside a bare call of the same candidate
// (the baseline): the child's loop, and the server's handling of the
// child's results. The Go side is BenchmarkDecodeCall and
// BenchmarkEncodeCall; what the pipes and the scheduler add is the rest of
// the round trip (process.BenchmarkCallIdle).
func BenchmarkHarnessParts(b *testing.B) {
	python, err := exec.LookPath("python3")
	if err != nil {
		b.Skip("python3 is not on PATH")
	}
	const n = 1000
	var child, server, bare float64
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(python, "-I", "-c", harnessParts, strconv.Itoa(n), "10")
		cmd.Stdin = strings.NewReader(Harness)
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("python: %v", err)
		}
		var r struct{ Child, Server, Bare float64 }
		if err := json.Unmarshal(out, &r); err != nil {
			b.Fatalf("%s: %v", out, err)
		}
		child += r.Child
		server += r.Server
		bare += r.Bare
	}
	b.ReportMetric(child/float64(b.N), "child-µs/input")
	b.ReportMetric(server/float64(b.N), "server-µs/input")
	b.ReportMetric(bare/float64(b.N), "bare-call-µs/input")
}
