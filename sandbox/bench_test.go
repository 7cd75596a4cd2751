package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
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
