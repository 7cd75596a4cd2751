package sandboxtest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/sandbox"
)

// residentSource records, at import, the process it was imported in and a
// token of that import; its functions return them, so that a test sees
// whether two requests were served by the same import.
const residentSource = `import os, random, time

IMPORT = [os.getpid(), random.SystemRandom().getrandbits(62)]


def who(x):
    if x == "sleep":
        time.sleep(60)
    if x == "die":
        os._exit(3)
    if x == "raise":
        raise ValueError("on purpose")
    return IMPORT


def gen(k, exclude, rng):
    return [IMPORT] * k


def probe(pid):
    # Another program of the same sandbox tries the resident process's
    # memory: it must not get it.
    if not os.path.exists("/proc/%d" % pid):
        return ["no process %d to probe" % pid]
    got = []
    for name in ("mem", "maps", "environ"):
        try:
            with open("/proc/%d/%s" % (pid, name), "rb") as f:
                f.read(64)
            got.append(name)
        except OSError:
            pass
    return got
`

// Resident checks a sandbox's resident programs (sandbox.Program.Resident):
// the program is imported once for every call and generate request of it,
// a raising call keeps that import, a timeout or a crash is reported as
// such and the next request imports it afresh, a program that is not
// resident is imported for every request as before, and another program
// of the same sandbox cannot read the resident process's memory.
func Resident(t *testing.T, box sandbox.Sandbox) {
	t.Helper()
	ctx := context.Background()
	lim := sandbox.Limits{Timeout: 2 * time.Second}
	prog := sandbox.Program{Source: residentSource, Function: "who", Resident: true}
	// call runs one request and returns its outcomes.
	call := func(t *testing.T, p sandbox.Program, inputs ...string) []sandbox.Outcome {
		t.Helper()
		outs, err := box.Call(ctx, sandbox.CallRequest{Program: p, Inputs: raws(inputs...), Limits: lim})
		if err != nil {
			t.Fatalf("Call: %v", err)
		}
		if len(outs) != len(inputs) {
			t.Fatalf("%d outcomes for %d inputs", len(outs), len(inputs))
		}
		return outs
	}
	first := func(t *testing.T) string {
		t.Helper()
		o := call(t, prog, "1")[0]
		if !o.OK() {
			t.Fatalf("call: %s %s", o.Status, o.Error)
		}
		return string(o.Output)
	}

	t.Run("imported once", func(t *testing.T) {
		want := first(t)
		for i := 0; i < 10; i++ {
			for j, o := range call(t, prog, "1", `"raise"`, "2") {
				switch {
				case j == 1 && (o.Status != sandbox.StatusError || !strings.Contains(o.Error, "on purpose")):
					t.Errorf("request %d: the raising input gave %s %q, want an error", i, o.Status, o.Error)
				case j != 1 && string(o.Output) != want:
					t.Errorf("request %d, input %d: served by import %s (%s %s), want %s", i, j, o.Output, o.Status, o.Error, want)
				}
			}
			gp := prog
			gp.Function = "gen"
			ins, err := box.Generate(ctx, sandbox.GenerateRequest{Program: gp, K: 2, Limits: lim})
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			for _, in := range ins {
				if string(in) != want {
					t.Errorf("generate %d: served by import %s, want %s", i, in, want)
				}
			}
		}
	})

	for _, tc := range []struct {
		input  string
		status sandbox.Status
		error  string
	}{
		{"sleep", sandbox.StatusTimeout, "the call took longer than 2s and was killed"},
		{"die", sandbox.StatusCrashed, "exited with status 3"},
	} {
		t.Run("after "+tc.input, func(t *testing.T) {
			before := first(t)
			o := call(t, prog, mustJSON(tc.input))[0]
			if o.Status != tc.status || !strings.Contains(o.Error, tc.error) {
				t.Errorf("%s: %s %q, want %s %q", tc.input, o.Status, o.Error, tc.status, tc.error)
			}
			after := first(t)
			if after == before {
				t.Errorf("the request after %s was served by the old import %s", tc.input, before)
			}
			if again := first(t); again != after {
				t.Errorf("the fresh import %s was not kept: %s", after, again)
			}
		})
	}

	t.Run("not resident", func(t *testing.T) {
		res := first(t)
		p := prog
		p.Resident = false
		a, b := call(t, p, "1")[0], call(t, p, "1")[0]
		if !a.OK() || !b.OK() {
			t.Fatalf("calls: %s %s, %s %s", a.Status, a.Error, b.Status, b.Error)
		}
		if string(a.Output) == string(b.Output) || string(a.Output) == res {
			t.Errorf("a program that is not resident was served by one import: %s, %s (resident %s)", a.Output, b.Output, res)
		}
		if now := first(t); now != res {
			t.Errorf("a request of another program replaced the resident import %s by %s", res, now)
		}
	})

	t.Run("memory unreachable", func(t *testing.T) {
		var imp [2]int64
		if err := json.Unmarshal([]byte(first(t)), &imp); err != nil {
			t.Fatal(err)
		}
		p := sandbox.Program{Source: residentSource, Function: "probe"}
		o := call(t, p, mustJSON(imp[0]))[0]
		if !o.OK() || string(o.Output) != "[]" {
			t.Errorf("another program read the resident process's %s (%s %s)", o.Output, o.Status, o.Error)
		}
	})
}
