package synth

import (
	"testing"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// TestLambdasFor checks the banks of a mined constant. They are bounded by
// counts, not by the clock (a loaded machine once built them without the
// anchored lambdas), so the anchored lambdas are always there.
func TestLambdasFor(t *testing.T) {
	if got, want := mustLambdas(nil), defaultLambdas(); got != want {
		t.Errorf("lambdasFor(nil) is not the default banks")
	}
	b := mustLambdas([]int64{1000})
	if again := mustLambdas([]int64{1000}); again != b {
		t.Errorf("lambdasFor did not cache the banks of one constant set")
	}
	// The anchored lambdas put the mined constant around small bodies.
	want := map[string]bool{"λx.min(1000, square(x))": false, "λxy.mod(add(x, y), 1000)": false}
	for _, sig := range []dsl.Sig{dsl.SigI, dsl.SigII} {
		for _, ls := range b.By[sig][dsl.Int] {
			for _, l := range ls {
				if _, have := want[l.String()]; have {
					want[l.String()] = true
				}
			}
		}
	}
	for l, found := range want {
		if !found {
			t.Errorf("banks for 1000 lack %s", l)
		}
	}
}

func TestKeyedLambdas(t *testing.T) {
	b := defaultLambdas()
	want := map[string]bool{"λxy.add(abs(x), abs(y))": false, "λxy.max(abs(x), abs(y))": false}
	for _, ls := range b.By[dsl.SigII][dsl.Int] {
		for _, l := range ls {
			if _, have := want[l.String()]; have {
				want[l.String()] = true
			}
		}
	}
	for l, found := range want {
		if !found {
			t.Errorf("default banks lack %s", l)
		}
	}
}

// A cancelled build returns at once with incomplete banks, which are not
// cached: the next call builds them in full.
func TestLambdasForCancelled(t *testing.T) {
	done := make(chan struct{})
	close(done)
	mined := []int64{4242}
	s := NewShared(SharedOptions{})
	b, ok := s.lambdasFor(mined, done)
	if ok {
		t.Fatal("a cancelled build reports complete banks")
	}
	full, _ := s.lambdasFor(mined, nil)
	if full == b {
		t.Fatal("the cancelled build's banks were cached")
	}
	count := func(b *dsl.Lambdas) int {
		n := 0
		for _, ls := range b.By[dsl.SigI][dsl.Int] {
			n += len(ls)
		}
		return n
	}
	if got, want := count(b), count(full); got >= want {
		t.Errorf("cancelled build has %d integer lambdas, the full one %d", got, want)
	}
}

// A Shared keeps the banks of its last TaskBanks constant sets and the
// default banks; an agent given none makes its own.
func TestShared(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lambda banks four times")
	}
	s := NewShared(SharedOptions{TaskBanks: 1})
	defaults := s.defaults()
	first, _ := s.lambdasFor([]int64{1000}, nil)
	if again, _ := s.lambdasFor([]int64{1000}, nil); again != first {
		t.Errorf("the banks of one constant set were built twice")
	}
	second, _ := s.lambdasFor([]int64{2000}, nil)
	if again, _ := s.lambdasFor([]int64{2000}, nil); again != second {
		t.Errorf("the banks of the last constant set were not kept")
	}
	if again, _ := s.lambdasFor([]int64{1000}, nil); again == first {
		t.Errorf("the banks of a constant set past TaskBanks were kept")
	}
	if s.defaults() != defaults {
		t.Errorf("the default banks were not kept")
	}
	if got := len(s.order); got != 1 {
		t.Errorf("%d task banks kept, want 1", got)
	}

	own, other := New(Options{}), New(Options{})
	if own.opts.Shared == nil || own.opts.Shared == other.opts.Shared {
		t.Errorf("agents given no Shared share one (%p, %p)", own.opts.Shared, other.opts.Shared)
	}
	if a := New(Options{Shared: s}); a.opts.Shared != s {
		t.Errorf("an agent given a Shared uses another")
	}
}
