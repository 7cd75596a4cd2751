package synth

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// firstSolution enumerates p up to maxSize with a memory bound of limit
// bytes (0: none) and returns the first program consistent with every
// example (a copy: the bank's may be transient), with its enumerator.
func firstSolution(p *dsl.Problem, limit int64, maxSize int) (*dsl.Node, *enumerator) {
	en := newEnumerator(enumConfig{
		envs: p.Envs, vars: p.B.Types, consts: topConsts(p), ops: dsl.Catalog.Top,
		lams: defaultLambdas(), deadline: time.Now().Add(time.Hour), memLimit: limit,
	})
	var found *dsl.Node
	en.onNew = func(t dsl.Type, e *dsl.Entry) bool {
		if p.OkType(t) && p.AllMatchCol(e.Col) {
			found = e.N.Clone()
			return true
		}
		return false
	}
	en.grow(maxSize, nil)
	return found, en
}

// listProblem is the problem of f's outputs on the inputs (lists of
// integers).
func listProblem(t *testing.T, ins []string, f func([]int64) any) *dsl.Problem {
	t.Helper()
	var exs []task.Example
	for _, in := range ins {
		var xs []int64
		if err := json.Unmarshal([]byte(in), &xs); err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(f(xs))
		exs = append(exs, task.Example{Input: json.RawMessage(in), Output: out})
	}
	p, err := newProblem(task.Task{FunctionName: "solve", Kind: task.KindList, InputType: "list of integers"}, exs)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMemoryBoundFreezesAndStillSolves bounds a search's memory below what
// the size of its solution needs: the bank stops growing at the bound (by
// the budget's own count), and the programs of the next size, built from
// what it holds and checked without being kept, still give the solution
// the unbounded search finds.
func TestMemoryBoundFreezesAndStillSolves(t *testing.T) {
	ins := []string{"[1,-2,3]", "[0,5]", "[-7]", "[4,4,-1,2]", "[9,8,7,6,5]", "[2]", "[10,-10]", "[3,3]"}
	tests := []struct {
		name string
		f    func([]int64) any
	}{
		{"the spread times the length", func(xs []int64) any {
			lo, hi := xs[0], xs[0]
			for _, x := range xs {
				lo, hi = min(lo, x), max(hi, x)
			}
			return (hi - lo) * int64(len(xs))
		}},
		{"the largest minus the length, squared", func(xs []int64) any {
			m := xs[0]
			for _, x := range xs {
				m = max(m, x)
			}
			d := m - int64(len(xs))
			return d * d
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := listProblem(t, ins, tt.f)
			want, free := firstSolution(p, 0, 8)
			if want == nil {
				t.Fatalf("the unbounded search found nothing")
			}
			if free.memFull {
				t.Fatalf("the unbounded search says its memory is full")
			}
			// The memory the sizes below the solution's take, and a
			// little more: the solution's own size does not fit.
			_, below := firstSolution(p, 0, want.Size-1)
			need := below.mem.peak.Load()
			limit := need + need/8
			if free.mem.peak.Load() <= limit {
				t.Fatalf("the solution's size takes %d bytes, within %d: the bound would not be reached", free.mem.peak.Load(), limit)
			}
			got, en := firstSolution(p, limit, 8)
			if en.heapFull {
				// The process's heap passed its share before the count
				// reached the bound: memory the package's earlier tests
				// left alive, not this search's (a run of the package
				// froze here in size 3). After a collection the search
				// runs again; a second freeze by the heap is a failure.
				t.Logf("frozen by the process's heap (about %d of %d bytes) in size %d: again after a collection", en.heapLive, en.heapShare, en.frozeAt)
				en.release()
				runtime.GC()
				got, en = firstSolution(p, limit, 8)
				if en.heapFull {
					t.Fatalf("frozen by the process's heap again (about %d of %d bytes) in size %d", en.heapLive, en.heapShare, en.frozeAt)
				}
			}
			if !en.memFull {
				t.Fatalf("the bounded search (%d bytes) never reached its bound (peak %d)", limit, en.mem.peak.Load())
			}
			if peak := en.mem.peak.Load(); peak > limit {
				t.Errorf("the bounded search held %d bytes at its peak, over its bound of %d", peak, limit)
			}
			if en.frozeAt != want.Size {
				t.Errorf("froze in size %d, want %d (the solution's: the sizes below fit)", en.frozeAt, want.Size)
			}
			if got == nil || got.String() != want.String() {
				t.Errorf("bounded search found %v, want %v (the unbounded search's)", got, want)
			}
			en.release()
			if u := en.mem.used.Load(); u != 0 {
				t.Errorf("%d bytes still counted after the search was released", u)
			}
		})
	}
}

// TestAgentMemoryBoundSaysSo runs a session whose searches the bound
// stops: the notes say the bank stopped growing, and the memory the
// agent's searches held stays within memory_mb by their own count.
func TestAgentMemoryBoundSaysSo(t *testing.T) {
	c := familyCases[3]
	const bound = 48 << 20
	ag := New(Options{Seed: 1, TimeLimit: 3 * time.Second, MemoryBytes: bound, Shared: testShared})
	defer ag.Close()
	exs := examplesFor(t, c, []string{"[1,-2,3]", "[0,5]", "[-7]", "[4,4,-1,2]", "[9,8,7,6,5]", "[2]", "[]", "[10,-10]"})
	exs[0].Output = json.RawMessage(`[123456789]`) // nothing fits: the search runs to its clock
	res, err := ag.Write(t.Context(), agent.WriteRequest{Task: taskFor(c), Examples: exs, Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Notes, "memory reached its bound") {
		t.Errorf("notes do not say the memory bound stopped the bank:\n%s", res.Notes)
	}
	peak, b := ag.MemoryPeak()
	if b != bound || peak <= 0 || peak > bound {
		t.Errorf("MemoryPeak() = %d of %d, want within (0, %d]", peak, b, bound)
	}
	ag.Close()
	if u := ag.mem.used.Load(); u != 0 {
		t.Errorf("%d bytes still counted after Close", u)
	}
}

// fakeHeap has readHeap report, for the rest of the test, a heap alive
// that holds missed bytes more for each byte the bounded searches running
// count: a count that misses most of what the searches hold, which only
// the heap shows.
func fakeHeap(t *testing.T, missed float64) {
	t.Helper()
	gcTune.Lock()
	users := gcTune.users
	gcTune.Unlock()
	if users != 0 {
		t.Fatalf("%d searches run beside the test: the heap it reports would not be theirs", users)
	}
	real := readHeap
	readHeap = func() (inUse, live int64) {
		// Called with gcTune's lock held (rebase): what the bounded
		// searches running count now.
		var counted int64
		for a := range gcTune.running {
			if a.bound > 0 {
				counted += a.charged
			}
		}
		extra := int64(missed * float64(max(counted, 0)))
		inUse, live = real()
		return inUse + extra, live + extra
	}
	t.Cleanup(func() { readHeap = real })
}

// TestHeapFeedbackFreezesWhatTheCountMisses runs the search of
// TestMemoryBoundFreezesAndStillSolves under a budget its count never
// reaches, in a process whose heap holds more than the budgets count
// (fakeHeap): the heap passes the process's share in the solution's
// size, the bank freezes there all the same, says it was the heap, and
// the programs checked without being kept still give the solution.
func TestHeapFeedbackFreezesWhatTheCountMisses(t *testing.T) {
	ins := []string{"[1,-2,3]", "[0,5]", "[-7]", "[4,4,-1,2]", "[9,8,7,6,5]", "[2]", "[10,-10]", "[3,3]"}
	p := listProblem(t, ins, func(xs []int64) any {
		lo, hi := xs[0], xs[0]
		for _, x := range xs {
			lo, hi = min(lo, x), max(hi, x)
		}
		return (hi - lo) * int64(len(xs))
	})
	// What the search counts before it grows, what the sizes below the
	// solution's add to it, and what the solution's size adds; the
	// searches that measured it are dropped, and collected, so that the
	// heap holds no bank when the test's search starts.
	start := newEnumerator(enumConfig{envs: p.Envs, vars: p.B.Types, consts: topConsts(p), ops: dsl.Catalog.Top, lams: defaultLambdas()})
	initial := start.mem.used.Load()
	start.release()
	want, free := firstSolution(p, 0, 8)
	if want == nil {
		t.Fatalf("the unbounded search found nothing")
	}
	whole := free.mem.peak.Load() - initial
	free.release()
	_, below := firstSolution(p, 0, want.Size-1)
	growth := below.mem.peak.Load() - initial
	below.release()
	free, below = nil, nil
	runtime.GC()
	need := growth + growth/8
	if whole <= need {
		t.Fatalf("the solution's size adds %d bytes, within %d: the share would not be passed", whole, need)
	}
	// The budget's own bound is far above what the search takes; the
	// heap the collections measure grows by so much more than it counts
	// that the process's share (that bound) is passed once the search
	// counts need.
	const limit = DefaultMemoryBytes
	bound := int64(limit + limit/8)
	fakeHeap(t, float64(bound)/float64(need))

	// A collection measures the heap every 64 programs the bank keeps:
	// the collector runs when the real heap reaches the memory limit,
	// which the fake one does not fill.
	en := newEnumerator(enumConfig{
		envs: p.Envs, vars: p.B.Types, consts: topConsts(p), ops: dsl.Catalog.Top,
		lams: defaultLambdas(), deadline: time.Now().Add(time.Hour), memLimit: limit,
	})
	defer en.release()
	var got *dsl.Node
	kept := 0
	en.onNew = func(t dsl.Type, e *dsl.Entry) bool {
		if kept++; kept%64 == 0 {
			measureCollectionNow()
		}
		if p.OkType(t) && p.AllMatchCol(e.Col) {
			got = e.N.Clone()
			return true
		}
		return false
	}
	en.grow(8, nil)
	if !en.memFull || !en.heapFull {
		t.Fatalf("the search did not freeze on the heap (memFull %v, heapFull %v, counted %d of %d)", en.memFull, en.heapFull, en.mem.peak.Load(), int64(limit))
	}
	if peak := en.mem.peak.Load(); peak >= limit {
		t.Errorf("the search counted %d bytes: its own bound (%d) stopped it, not the heap", peak, int64(limit))
	}
	if en.heapLive <= en.heapShare {
		t.Errorf("frozen with %d bytes of heap alive of a share of %d", en.heapLive, en.heapShare)
	}
	if en.frozeAt != want.Size {
		t.Errorf("froze in size %d, want %d (the solution's: the sizes below fit)", en.frozeAt, want.Size)
	}
	if got == nil || got.String() != want.String() {
		t.Errorf("the search frozen on the heap found %v, want %v (the unbounded search's)", got, want)
	}
}

// TestAgentHeapBoundSaysSo runs a session in a process whose heap grows
// far more than its budgets count (fakeHeap): the notes say the process's
// memory stopped the bank, not the search's own count.
func TestAgentHeapBoundSaysSo(t *testing.T) {
	c := familyCases[3]
	ag := New(Options{Seed: 1, TimeLimit: 3 * time.Second, MaxPrograms: 2_000_000, Shared: testShared})
	defer ag.Close()
	exs := examplesFor(t, c, []string{"[1,-2,3]", "[0,5]", "[-7]", "[4,4,-1,2]", "[9,8,7,6,5]", "[2]", "[]", "[10,-10]"})
	exs[0].Output = json.RawMessage(`[123456789]`) // nothing fits: the search runs to its clock
	fakeHeap(t, 1000)
	// Collections measure the heap while the session searches (the fake
	// heap does not fill the memory limit, which would run them).
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				measureCollectionNow()
			}
		}
	}()
	res, err := ag.Write(t.Context(), agent.WriteRequest{Task: taskFor(c), Examples: exs, Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Notes, "The process's memory reached its bound") {
		t.Errorf("notes do not say the process's heap stopped the bank:\n%s", res.Notes)
	}
	if peak, bound := ag.MemoryPeak(); peak > bound/2 {
		t.Errorf("the searches counted %d bytes of %d: their own bound, not the heap's, could have stopped them", peak, bound)
	}
}

// measureCollectionNow takes the measures of a collection
// (measureCollection) as if one had just ended.
func measureCollectionNow() {
	gcTune.Lock()
	defer gcTune.Unlock()
	measureCollection()
}
