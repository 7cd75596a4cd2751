package synth

import (
	"testing"
	"time"
)

func TestLambdasFor(t *testing.T) {
	deadline := time.Now().Add(20 * time.Second)
	if got, want := lambdasFor(nil, deadline), defaultLambdas(); got != want {
		t.Errorf("lambdasFor(nil) is not the default banks")
	}
	b := lambdasFor([]int64{1000}, deadline)
	if again := lambdasFor([]int64{1000}, deadline); again != b {
		t.Errorf("lambdasFor did not cache the banks of one constant set")
	}
	// The anchored lambdas put the mined constant around small bodies.
	want := map[string]bool{"λx.min(1000, square(x))": false, "λxy.mod(add(x, y), 1000)": false}
	for _, sig := range []lamSig{sigI, sigII} {
		for _, ls := range b.by[sig][tInt] {
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
	for _, ls := range b.by[sigII][tInt] {
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
