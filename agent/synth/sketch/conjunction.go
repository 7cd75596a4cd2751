package sketch

import (
	"math/bits"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// A condition of two tests: a filter that keeps the multiples of 7 that
// are not multiples of 5 tests `i % 7 == 0 and not i % 5 == 0`, a
// program of size 8 that a hole's enumerator reaches slowly over the
// whole catalogue. Its parts are small: the tests (truth values of size
// 4 or less) are collected once, with their values as bit sets, and the
// condition is one test, its negation, or two tests (either negated)
// joined by and or or. A conjunction's tests each hold wherever the
// condition does, a disjunction's hold only where it does, so only those
// are paired.

var (
	opAnd = dsl.Catalog.Find("and", dsl.Bool, dsl.Bool)
	opOr  = dsl.Catalog.Find("or", dsl.Bool, dsl.Bool)
	opNot = dsl.Catalog.Find("not", dsl.Bool)
)

// maxConjLits bounds the tests paired on each side.
const maxConjLits = 1500

// literal is a test or its negation, with its values as a bit set.
type literal struct {
	t    *term
	neg  bool
	bits []uint64
	size int
}

func (l literal) node() *dsl.Node {
	if !l.neg {
		return l.t.n
	}
	return &dsl.Node{Op: opNot, Kids: []*dsl.Node{l.t.n}, Var: -1, Size: 1 + l.t.n.Size}
}

// conjunction returns the smallest condition of one or two of the tests
// (truth-valued terms, smallest first) that is want on every point, or
// nil.
func conjunction(tests []*term, want []bool) *dsl.Node {
	if opAnd == nil || opOr == nil || opNot == nil {
		return nil
	}
	words := (len(want) + 63) / 64
	w := make([]uint64, words)
	for k, b := range want {
		if b {
			w[k/64] |= 1 << (k % 64)
		}
	}
	full := make([]uint64, words)
	for k := range want {
		full[k/64] |= 1 << (k % 64)
	}
	var supers, subs []literal
	var best *dsl.Node
	take := func(n *dsl.Node) {
		if best == nil || n.Size < best.Size {
			best = n
		}
	}
	for _, t := range tests {
		if t.b == nil || t.bad != nil && hasTrue(t.bad) || len(t.b) != len(want) {
			continue
		}
		pos := make([]uint64, words)
		for k, b := range t.b {
			if b {
				pos[k/64] |= 1 << (k % 64)
			}
		}
		neg := make([]uint64, words)
		for k := range neg {
			neg[k] = full[k] &^ pos[k]
		}
		for _, l := range []literal{{t: t, bits: pos, size: t.n.Size}, {t: t, neg: true, bits: neg, size: t.n.Size + 1}} {
			switch {
			case equalBits(l.bits, w):
				take(l.node())
			case isSubset(w, l.bits) && len(supers) < maxConjLits:
				supers = append(supers, l)
			case isSubset(l.bits, w) && len(subs) < maxConjLits:
				subs = append(subs, l)
			}
		}
	}
	pair := func(ls []literal, op *dsl.Operator, join func(a, b uint64) uint64) {
		for x, a := range ls {
			for _, b := range ls[x+1:] {
				if best != nil && 1+a.size+b.size >= best.Size || a.t == b.t {
					continue
				}
				good := true
				for k := range w {
					if join(a.bits[k], b.bits[k]) != w[k] {
						good = false
						break
					}
				}
				if good {
					an, bn := a.node(), b.node()
					take(&dsl.Node{Op: op, Kids: []*dsl.Node{an, bn}, Var: -1, Size: 1 + an.Size + bn.Size})
				}
			}
		}
	}
	pair(supers, opAnd, func(a, b uint64) uint64 { return a & b })
	pair(subs, opOr, func(a, b uint64) uint64 { return a | b })
	return best
}

func hasTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

func equalBits(a, b []uint64) bool {
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// isSubset reports whether every bit of a is in b.
func isSubset(a, b []uint64) bool {
	n := 0
	for k := range a {
		n += bits.OnesCount64(a[k] &^ b[k])
	}
	return n == 0
}
