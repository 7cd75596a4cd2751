package synth

import (
	"fmt"
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
	// Built by an earlier run of the test (-count): built again.
	lamMu.Lock()
	delete(lamCache, fmt.Sprint(mined))
	lamMu.Unlock()
	b, ok := lambdasFor(mined, done)
	if ok {
		t.Fatal("a cancelled build reports complete banks")
	}
	full := mustLambdas(mined)
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
