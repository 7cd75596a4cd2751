package synth

import (
	"sync"
	"testing"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// TestConcurrentSearches runs searches in two goroutines at once, as a
// sweep with --parallel 2 runs two tasks' synthesizers in one process,
// and checks that each finds what it finds alone: the two share one
// Shared, which neither has built banks in yet, and the catalogue, and
// nothing a search writes may live in them (run with -race as well).
func TestConcurrentSearches(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a dozen searches")
	}
	searches := goldenSearches()[:8]
	problems := make([]*dsl.Problem, len(searches))
	alone := make([]string, len(searches))
	spec := testSpec()
	spec.maxPrograms = 1 << 22
	for i, s := range searches {
		p, err := newProblem(s.t, examplesFor(t, s.c, s.c.inputs))
		if err != nil {
			t.Fatalf("%s: %v", s.c.name, err)
		}
		problems[i] = p
		alone[i] = found(search(p, spec))
	}
	spec.shared = NewShared(SharedOptions{})
	var wg sync.WaitGroup
	got := make([][]string, 2)
	for g := range got {
		got[g] = make([]string, len(problems))
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The two goroutines take the problems in opposite orders,
			// so that different searches overlap.
			for k := range problems {
				i := k
				if g == 1 {
					i = len(problems) - 1 - k
				}
				got[g][i] = found(search(problems[i], spec))
			}
		}()
	}
	wg.Wait()
	for g := range got {
		for i, s := range searches {
			if got[g][i] != alone[i] {
				t.Errorf("%s, searched beside another search: %s; alone: %s", s.c.name, got[g][i], alone[i])
			}
		}
	}
}

func found(res searchResult) string {
	if res.best == nil {
		return "nothing"
	}
	return res.best.String()
}
