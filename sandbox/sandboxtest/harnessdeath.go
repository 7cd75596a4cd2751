package sandboxtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/sandbox"
)

// HarnessDeath checks what a backend does when its harness dies during a
// call, as both backends must: the input whose call was running when the
// harness died is StatusCrashed, naming the harness; every other input of
// the request gets its own outcome; Call returns no error; and the sandbox
// works afterwards. kill kills the harness now running (the backend's
// harness process, or its container).
//
// The candidate's call on "die" names its process with a marker (prctl
// PR_SET_NAME) and sleeps; the test kills the harness each time a process
// of that name appears, so that the call dies however often it is run.
// The test skips when it cannot see the sandbox's processes in /proc.
func HarnessDeath(t *testing.T, box sandbox.Sandbox, kill func() error) {
	t.Helper()
	if _, err := os.Stat("/proc/self/comm"); err != nil {
		t.Skip("no /proc here: the test cannot see the sandbox's processes")
	}
	var b [3]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	marker := "rcdie" + hex.EncodeToString(b[:]) // at most 15 bytes: a comm
	prog := sandbox.Program{Function: "f", Source: fmt.Sprintf(`import ctypes, time

def f(x):
    if x == "die":
        ctypes.CDLL(None).prctl(15, %q.encode(), 0, 0, 0)
        time.sleep(30)
    return x
`, marker)}
	w := watch(t, marker, kill)

	ctx := context.Background()
	limits := sandbox.Limits{Timeout: 45 * time.Second}
	tests := []struct {
		name   string
		inputs []string
	}{
		{"one input of a batch kills the harness", []string{"a", "die", "c"}},
		{"a request of one input kills the harness", []string{"die"}},
	}
	for _, tt := range tests {
		var inputs []json.RawMessage
		for _, in := range tt.inputs {
			inputs = append(inputs, json.RawMessage(`"`+in+`"`))
		}
		out, err := box.Call(ctx, sandbox.CallRequest{Program: prog, Inputs: inputs, Limits: limits})
		if err != nil {
			t.Fatalf("%s: Call returned an error, want the death as an outcome: %v", tt.name, err)
		}
		if !w.seen() {
			t.Skip("the sandbox's processes are not visible in this /proc (a remote engine?)")
		}
		if len(out) != len(inputs) {
			t.Fatalf("%s: %d outcomes for %d inputs", tt.name, len(out), len(inputs))
		}
		for i, in := range tt.inputs {
			o := out[i]
			switch {
			case in == "die" && (o.Status != sandbox.StatusCrashed || !strings.Contains(o.Error, "harness")):
				t.Errorf("%s: input %q: %s %s, want crashed naming the harness", tt.name, in, o.Status, o.Error)
			case in != "die" && (!o.OK() || string(o.Output) != `"`+in+`"`):
				t.Errorf("%s: input %q: %s %s %s, want ok %q", tt.name, in, o.Status, o.Output, o.Error, in)
			}
		}
	}
	w.stop()
	out, err := box.Call(ctx, sandbox.CallRequest{Program: prog, Inputs: []json.RawMessage{json.RawMessage(`"after"`)}, Limits: limits})
	if err != nil || len(out) != 1 || !out[0].OK() {
		t.Fatalf("a call after the deaths: %+v, %v; want ok", out, err)
	}
}

// watcher kills the harness whenever a process named marker appears.
type watcher struct {
	done chan struct{}
	wg   sync.WaitGroup
	mu   sync.Mutex
	pids map[string]bool
}

func watch(t *testing.T, marker string, kill func() error) *watcher {
	w := &watcher{done: make(chan struct{}), pids: map[string]bool{}}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-w.done:
				return
			case <-tick.C:
			}
			for _, pid := range named(marker) {
				w.mu.Lock()
				fresh := !w.pids[pid]
				w.pids[pid] = true
				w.mu.Unlock()
				if fresh {
					if err := kill(); err != nil {
						t.Errorf("kill the harness: %v", err)
					}
				}
			}
		}
	}()
	t.Cleanup(w.stop)
	return w
}

func (w *watcher) seen() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.pids) > 0
}

func (w *watcher) stop() {
	select {
	case <-w.done:
	default:
		close(w.done)
	}
	w.wg.Wait()
}

// named lists the pids of the processes whose name is comm.
func named(comm string) []string {
	var out []string
	paths, _ := filepath.Glob("/proc/[0-9]*/comm")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err == nil && strings.TrimSpace(string(b)) == comm {
			out = append(out, filepath.Base(filepath.Dir(p)))
		}
	}
	return out
}
