package synth

import (
	"encoding/json"
	"syscall"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/task"
)

func BenchmarkEnumerate(b *testing.B) {
	c := familyCases[3]
	var exs []task.Example
	for _, in := range []string{"[1,-2,3]", "[0,5]", "[-7]", "[4,4,-1,2]", "[9,8,7,6,5]", "[2]", "[]", "[10,-10]"} {
		v, _ := task.Decode(json.RawMessage(in))
		out, _ := json.Marshal(c.f(v))
		exs = append(exs, task.Example{Input: json.RawMessage(in), Output: out})
	}
	// An unreachable target keeps the enumerator busy for whole levels.
	exs[0].Output = json.RawMessage(`[123456789]`)
	p, err := newProblem(taskFor(c), exs)
	if err != nil {
		b.Fatal(err)
	}
	lams := defaultLambdas()
	b.ResetTimer()
	var evaluated int64
	start, cpuStart := time.Now(), cpuTime(b)
	for i := 0; i < b.N; i++ {
		// The enumerator alone, level by level (no time-budgeted sweeps),
		// so that every iteration does the same work.
		en := newEnumerator(enumConfig{
			envs: p.envs, vars: p.b.types, consts: topConsts(p), ops: catalog.top,
			lams: lams, deadline: time.Now().Add(time.Hour), memLimit: defaultMemoryBytes,
		})
		en.grow(6, nil)
		evaluated += en.evaluated
	}
	b.ReportMetric(float64(evaluated)/time.Since(start).Seconds(), "programs/s")
	// Per CPU-second of the process (the search and its garbage collector),
	// which other processes sharing the cores do not distort.
	b.ReportMetric(float64(evaluated)/(cpuTime(b)-cpuStart).Seconds(), "programs/cpu-s")
	b.ReportMetric(float64(evaluated)/float64(b.N), "programs/op")
}

// cpuTime is the user and system CPU time the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
