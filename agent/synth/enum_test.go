package synth

import (
	"encoding/json"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

func BenchmarkEnumerate(b *testing.B) {
	// An unreachable target keeps the enumerator busy for whole levels.
	p := unreachableProblem(b)
	lams := defaultLambdas()
	b.ResetTimer()
	var evaluated int64
	start, cpuStart := time.Now(), cpuTime(b)
	for i := 0; i < b.N; i++ {
		// The enumerator alone, level by level (no time-budgeted sweeps),
		// so that every iteration does the same work.
		en := newEnumerator(enumConfig{
			envs: p.Envs, vars: p.B.Types, consts: topConsts(p), ops: dsl.Catalog.Top,
			lams: lams, deadline: time.Now().Add(time.Hour), memLimit: DefaultMemoryBytes,
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

// unreachableProblem is a list task whose first example no program of the
// DSL fits: the enumerator stays busy for whole levels.
func unreachableProblem(t testing.TB) *dsl.Problem {
	t.Helper()
	c := familyCases[3]
	var exs []task.Example
	for _, in := range []string{"[1,-2,3]", "[0,5]", "[-7]", "[4,4,-1,2]", "[9,8,7,6,5]", "[2]", "[]", "[10,-10]"} {
		v, _ := task.Decode(json.RawMessage(in))
		out, _ := json.Marshal(c.f(v))
		exs = append(exs, task.Example{Input: json.RawMessage(in), Output: out})
	}
	exs[0].Output = json.RawMessage(`[123456789]`)
	p, err := newProblem(taskFor(c), exs)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// bankLog lists every program of an enumerator's bank, by type and size, in
// the order they were found.
func bankLog(en *enumerator) []string {
	var out []string
	for t := range en.bank {
		for _, es := range en.bank[t] {
			for _, e := range es {
				out = append(out, e.N.String())
			}
		}
	}
	return out
}

// An enumerator stopped by its budget and resumed goes on where it stopped:
// its bank is the one an enumerator given the whole budget at once builds,
// whichever point of a level the cut fell on.
func TestEnumeratorResume(t *testing.T) {
	p := unreachableProblem(t)
	lams := defaultLambdas()
	fresh := func(budget int64) *enumerator {
		return newEnumerator(enumConfig{
			envs: p.Envs, vars: p.B.Types, consts: topConsts(p), ops: dsl.Catalog.Top,
			lams: lams, maxEval: budget, memLimit: DefaultMemoryBytes,
		})
	}
	const total = 1 << 17
	whole := fresh(total)
	whole.grow(defaultMaxSize, nil)
	if !whole.timedOut {
		t.Fatalf("the whole budget completed every size (level %d): no cut to resume", whole.level)
	}
	want := bankLog(whole)
	for _, first := range []int64{1 << 10, 37 << 10, 100 << 10} {
		en := fresh(first)
		en.grow(defaultMaxSize, nil)
		if !en.timedOut {
			t.Fatalf("budget %d: not cut", first)
		}
		cutLevel := en.level + 1
		en.resume(time.Time{}, total-first, nil)
		en.grow(defaultMaxSize, nil)
		got := bankLog(en)
		if len(got) != len(want) {
			t.Errorf("cut at %d programs (in level %d): %d programs banked after resuming, %d in one go", first, cutLevel, len(got), len(want))
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("cut at %d programs (in level %d): program %d is %s, in one go %s", first, cutLevel, i, got[i], want[i])
				break
			}
		}
	}
}

// A closed done channel stops the enumerator within a few programs and
// marks it cancelled, not timed out.
func TestEnumeratorCancelled(t *testing.T) {
	p := unreachableProblem(t)
	done := make(chan struct{})
	close(done)
	en := newEnumerator(enumConfig{
		envs: p.Envs, vars: p.B.Types, consts: topConsts(p), ops: dsl.Catalog.Top,
		lams: defaultLambdas(), deadline: time.Now().Add(time.Hour), done: done, memLimit: DefaultMemoryBytes,
	})
	en.grow(defaultMaxSize, nil)
	if !en.cancelled || en.timedOut {
		t.Errorf("cancelled = %v, timedOut = %v; want a cancellation", en.cancelled, en.timedOut)
	}
	if en.evaluated > 1024 {
		t.Errorf("%d programs evaluated after the cancellation, want at most 1024", en.evaluated)
	}
}

// BenchmarkSearch runs the golden test's searches (whole searches:
// levels, sweeps and strategies, until each finds its program) and
// reports the programs they evaluate per CPU-second and their CPU time:
// the enumerator as a search uses it, new programs judged on the
// examples.
func BenchmarkSearch(b *testing.B) {
	searches := goldenSearches()
	problems := make([]*dsl.Problem, len(searches))
	for i, s := range searches {
		p, err := newProblem(s.t, examplesFor(b, s.c, s.c.inputs))
		if err != nil {
			b.Fatal(err)
		}
		problems[i] = p
	}
	defaultLambdas()
	b.ResetTimer()
	var evaluated int64
	cpuStart := cpuTime(b)
	for i := 0; i < b.N; i++ {
		for _, p := range problems {
			res := search(p, searchSpec{shared: testShared, deadline: time.Now().Add(goldenDeadline), memLimit: DefaultMemoryBytes, maxSize: defaultMaxSize})
			evaluated += res.evaluated
		}
	}
	cpu := cpuTime(b) - cpuStart
	b.ReportMetric(float64(evaluated)/cpu.Seconds(), "programs/cpu-s")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}

// A program built of constants alone is evaluated on the first
// environment and its value copied to the others (vec.same): its values
// are still those of evaluating it on each environment, and a program
// that reads an input never counts as the same everywhere.
func TestSameProgramsMatchEvaluation(t *testing.T) {
	p := unreachableProblem(t)
	en := newEnumerator(enumConfig{
		envs: p.Envs, vars: p.B.Types, consts: topConsts(p), ops: dsl.Catalog.Top,
		lams: defaultLambdas(), deadline: time.Now().Add(time.Hour), memLimit: DefaultMemoryBytes,
	})
	en.grow(4, nil)
	same, checked := 0, 0
	for typ := range en.bank {
		for _, es := range en.bank[typ] {
			for _, e := range es {
				if !e.Col.Same {
					continue
				}
				same++
				if usesVar(e.N) {
					t.Fatalf("%s reads an input but counts as the same on every environment", e.N)
				}
				if e.N.Op == nil {
					continue
				}
				checked++
				for i, env := range p.Envs {
					want, got := dsl.EvalNode(e.N, env), e.At(i)
					if !dsl.EqualTo(got, want, 0) && !(dsl.IsErr(got) && dsl.IsErr(want)) {
						t.Fatalf("%s on environment %d = %v, evaluated %v", e.N, i, got, want)
					}
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("%d programs the same on every environment (%d of them constants' operations), want many", same, checked)
	}
}

// An operator that panics on one choice of its arguments drops that one
// program: the programs before and after it in the same level are kept,
// and a level cut short and resumed keeps the same programs.
func TestEnumeratorSurvivesPanickingOperator(t *testing.T) {
	// boom(a, b) = 1000a + b, panicking when a is 5 and b is 0, or a is
	// 10 and b is 10; boom1(a) = a + 1000, panicking when a is 5.
	boom := &dsl.Operator{Name: "boom", Args: []dsl.Type{dsl.Int, dsl.Int}, Ret: dsl.Int, Cost: 1,
		Kern: func(_ *dsl.Arena, _ *dsl.Lambda, args []dsl.Vec, n int, out any, _ []bool) {
			a, b, o := args[0].Data.([]int64), args[1].Data.([]int64), out.([]int64)
			for i := range n {
				if (a[i] == 5 && b[i] == 0) || (a[i] == 10 && b[i] == 10) {
					panic("boom")
				}
				o[i] = 1000*a[i] + b[i]
			}
		}}
	boom1 := &dsl.Operator{Name: "boom1", Args: []dsl.Type{dsl.Int}, Ret: dsl.Int, Cost: 1,
		Kern: func(_ *dsl.Arena, _ *dsl.Lambda, args []dsl.Vec, n int, out any, _ []bool) {
			a, o := args[0].Data.([]int64), out.([]int64)
			for i := range n {
				if a[i] == 5 {
					panic("boom1")
				}
				o[i] = a[i] + 1000
			}
		}}
	newEn := func(consts int, maxEval int64) *enumerator {
		c := make([]any, consts)
		for i := range c {
			c[i] = int64(i * 5)
		}
		return newEnumerator(enumConfig{
			envs: [][]any{{int64(1)}, {int64(2)}}, vars: []dsl.Type{dsl.Int},
			consts: c, ops: []*dsl.Operator{boom1, boom},
			deadline: time.Now().Add(time.Hour), maxEval: maxEval, memLimit: DefaultMemoryBytes,
		})
	}
	en := newEn(3, 0) // 0, 5, 10
	en.grow(3, nil)
	// boom(0, b) is b, found before; boom1(5), boom(5, 0) and boom(10,
	// 10) panicked.
	want := []string{"v0", "0", "5", "10", "boom1(v0)", "boom1(0)", "boom1(10)",
		"boom1(boom1(v0))", "boom1(boom1(0))", "boom1(boom1(10))",
		"boom(v0, v0)", "boom(v0, 0)", "boom(v0, 5)", "boom(v0, 10)",
		"boom(5, v0)", "boom(5, 5)", "boom(5, 10)", "boom(10, v0)", "boom(10, 0)", "boom(10, 5)"}
	if got := bankLog(en); !slices.Equal(got, want) {
		t.Errorf("banked %v, want %v", got, want)
	}

	// A level cut short after a panic and resumed goes through the same
	// choices of arguments, each once: the search checks its budget
	// every 1024 programs, and the size-3 level here has 41 × 41 choices
	// of boom's arguments, the panics in its first 400.
	en = newEn(40, 0)
	en.grow(3, nil)
	cut := newEn(40, 1000)
	cut.grow(3, nil)
	if !cut.timedOut || cut.level != 2 {
		t.Fatalf("a budget of 1000 programs: cut in level %d (timed out: %v), want in level 3", cut.level+1, cut.timedOut)
	}
	cut.resume(time.Time{}, en.evaluated, nil)
	cut.grow(3, nil)
	if got, want := bankLog(cut), bankLog(en); !slices.Equal(got, want) {
		t.Errorf("banked %d programs after resuming, %d in one go", len(got), len(want))
	}
	if cut.evaluated != en.evaluated {
		t.Errorf("%d programs evaluated with a cut, %d in one go", cut.evaluated, en.evaluated)
	}
}
