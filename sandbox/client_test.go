package sandbox_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap/zaptest"

	"github.com/reconstruct/reconstruct/sandbox"
)

// fakeHarness answers each request line with reply(request); a nil reply
// means no answer at all.
type fakeHarness struct {
	client   *sandbox.Client
	requests chan map[string]any
	toClient *io.PipeWriter
}

func newFake(t *testing.T, reply func(req map[string]any) []string) *fakeHarness {
	t.Helper()
	reqR, reqW := io.Pipe()
	respR, respW := io.Pipe()
	f := &fakeHarness{requests: make(chan map[string]any, 16), toClient: respW}
	f.client = sandbox.NewClient(respR, reqW, zaptest.NewLogger(t))
	go func() {
		sc := bufio.NewScanner(reqR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var req map[string]any
			if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
				respW.CloseWithError(err)
				return
			}
			f.requests <- req
			for _, line := range reply(req) {
				if _, err := io.WriteString(respW, line+"\n"); err != nil {
					return
				}
			}
		}
		respW.Close()
	}()
	t.Cleanup(func() { f.client.Close(); respW.Close() })
	return f
}

func TestClientMatchesResponsesByID(t *testing.T) {
	f := newFake(t, func(req map[string]any) []string {
		id := int64(req["id"].(float64))
		switch req["op"] {
		case "call":
			return []string{
				fmt.Sprintf(`{"id":%d,"ok":true,"s":"o","ns":[0],"v":[[0]]}`, id+100), // someone else's
				`{"id":null,"ok":false,"error":"malformed request"}`,
				fmt.Sprintf(`{"id":%d,"ok":true,"s":"oe","ns":[500000000,250000000],"v":[{"a":[1,2]},"ValueError: x"]}`, id),
			}
		case "generate":
			return []string{fmt.Sprintf(`{"id":%d,"ok":false,"error":"the generator raised RuntimeError: no"}`, id)}
		}
		return []string{fmt.Sprintf(`{"id":%d,"ok":true,"version":"v-test"}`, id)}
	})
	ctx := context.Background()
	got, err := f.client.Call(ctx, sandbox.CallRequest{Program: sandbox.Program{Source: "x", Function: "f"}, Inputs: raws(`1`, `2`)})
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	want := []sandbox.Outcome{
		{Status: sandbox.StatusOK, Output: json.RawMessage(`{"a":[1,2]}`), Seconds: 0.5},
		{Status: sandbox.StatusError, Error: "ValueError: x", Seconds: 0.25},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	req := <-f.requests
	if diff := cmp.Diff(map[string]any{
		"id": 1.0, "op": "call",
		"program": map[string]any{"source": "x", "function": "f"},
		"inputs":  []any{1.0, 2.0},
		"limits":  map[string]any{"timeout": 2.0, "memory_bytes": float64(sandbox.DefaultMemoryBytes), "output_bytes": float64(sandbox.DefaultOutputBytes)},
	}, req); diff != "" {
		t.Errorf("wire request (-want +got):\n%s", diff)
	}

	_, err = f.client.Generate(ctx, sandbox.GenerateRequest{Program: sandbox.Program{Source: "x", Function: "g"}, K: 2})
	var re *sandbox.RemoteError
	if !errors.As(err, &re) || re.Op != "generate" || re.Message != "the generator raised RuntimeError: no" {
		t.Errorf("Generate error %v, want RemoteError from generate", err)
	}
	if err := f.client.Err(); err != nil {
		t.Errorf("client broken after a remote error: %v", err)
	}
	version, err := f.client.Ping(ctx)
	if err != nil || version != "v-test" {
		t.Errorf("Ping = %q, %v", version, err)
	}
}

func TestClientRejectsMalformedOutcomes(t *testing.T) {
	for _, tc := range []struct {
		name, columns, want string
	}{
		{"no outcomes", ``, "without outcomes"},
		{"no status for the input", `"s":"","ns":[],"v":[]`, "0 status codes"},
		{"a status too many", `"s":"oo","ns":[1],"v":[1]`, "2 status codes"},
		{"a time missing", `"s":"oo","ns":[1],"v":[1,2]`, "1 times"},
		{"a value missing", `"s":"oo","ns":[1,2],"v":[1]`, "1 values"},
		{"an unknown status code", `"s":"oz","ns":[1,2],"v":[1,2]`, "unknown status code"},
		{"an error that is not text", `"s":"oe","ns":[1,2],"v":[1,{"x":1}]`, "input 1: error text"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, func(req map[string]any) []string {
				sep := ","
				if tc.columns == "" {
					sep = ""
				}
				return []string{fmt.Sprintf(`{"id":%v,"ok":true%s%s}`, req["id"], sep, tc.columns)}
			})
			_, err := f.client.Call(context.Background(), sandbox.CallRequest{Program: sandbox.Program{Source: "x", Function: "f"}, Inputs: raws(`1`, `2`)})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Call error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

func TestClientCancelBreaksTheClient(t *testing.T) {
	f := newFake(t, func(map[string]any) []string { return nil })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := f.client.Call(ctx, sandbox.CallRequest{Program: sandbox.Program{Source: "x", Function: "f"}, Inputs: raws(`1`)})
		done <- err
	}()
	<-f.requests
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Call after cancel: %v, want context.Canceled", err)
	}
	if err := f.client.Err(); !errors.Is(err, sandbox.ErrClientBroken) {
		t.Errorf("Err() = %v, want ErrClientBroken", err)
	}
	if _, err := f.client.Ping(context.Background()); !errors.Is(err, sandbox.ErrClientBroken) {
		t.Errorf("Ping on a broken client: %v, want ErrClientBroken", err)
	}
}

func TestClientHarnessExit(t *testing.T) {
	f := newFake(t, func(map[string]any) []string { return nil })
	done := make(chan error, 1)
	go func() {
		_, err := f.client.Analyse(context.Background(), sandbox.AnalyseRequest{Source: "x"})
		done <- err
	}()
	<-f.requests
	f.toClient.Close()
	select {
	case err := <-done:
		if !errors.Is(err, sandbox.ErrHarnessExited) {
			t.Errorf("Analyse when the harness exits: %v, want ErrHarnessExited", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Analyse still waiting after the harness exited")
	}
	select {
	case <-f.client.Failed():
	default:
		t.Error("Failed() not closed after the harness exited")
	}
}

func TestCallDeadlineGrowsWithInputs(t *testing.T) {
	l := sandbox.Limits{Timeout: time.Second}
	one, many := sandbox.CallDeadline(l, 1), sandbox.CallDeadline(l, 1000)
	if one < 2*time.Second {
		t.Errorf("deadline for one input %v, want at least load + call timeouts", one)
	}
	if many < 1000*time.Second {
		t.Errorf("deadline for 1000 inputs %v, want at least 1000 timeouts", many)
	}
}

// A call's inputs reach the harness as one line, each the JSON value it
// was (compacted when it spanned lines); an input that is not one JSON
// value is refused before anything is sent.
func TestClientCallEncodesInputs(t *testing.T) {
	f := newFake(t, func(req map[string]any) []string {
		n := len(req["inputs"].([]any))
		ns := strings.TrimSuffix(strings.Repeat("0,", n), ",")
		v := strings.TrimSuffix(strings.Repeat("1,", n), ",")
		return []string{fmt.Sprintf(`{"id":%v,"ok":true,"s":"%s","ns":[%s],"v":[%s]}`, req["id"], strings.Repeat("o", n), ns, v)}
	})
	ctx := context.Background()
	prog := sandbox.Program{Source: "x", Function: "f"}
	if _, err := f.client.Call(ctx, sandbox.CallRequest{Program: prog, Inputs: raws(`1`, ``, "[1,\n 2]", `{"a": "<b>\u00e9"}`, ` "s" `)}); err != nil {
		t.Fatalf("Call: %v", err)
	}
	req := <-f.requests
	want := []any{1.0, nil, []any{1.0, 2.0}, map[string]any{"a": "<b>é"}, "s"}
	if diff := cmp.Diff(want, req["inputs"]); diff != "" {
		t.Errorf("inputs on the wire (-want +got):\n%s", diff)
	}
	for _, bad := range []string{`1 2`, `[1,`, `"a`, `{}x`} {
		_, err := f.client.Call(ctx, sandbox.CallRequest{Program: prog, Inputs: raws(`1`, bad)})
		if err == nil || !strings.Contains(err.Error(), "input 1 is not one JSON value") {
			t.Errorf("input %q: error %v, want one naming input 1", bad, err)
		}
	}
	if err := f.client.Err(); err != nil {
		t.Errorf("a refused request broke the client: %v", err)
	}
	select {
	case req := <-f.requests:
		t.Errorf("a refused request reached the harness: %v", req)
	default:
	}
}
