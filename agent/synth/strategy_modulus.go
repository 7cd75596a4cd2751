package synth

import (
	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The learned modulus. A checksum or a count "modulo 10**9 + 7" is a
// program reduced modulo a number the DSL's constants do not reach. After
// each size, every integer program of that size whose values are congruent
// to the outputs modulo one of the usual moduli (larger than every output,
// and reducing at least one value) is tried as "program % m". With two
// examples only the large moduli are tried: a chance congruence modulo m
// has probability 1/m² per program.

// usualModuli are the moduli tried from two examples; smallModuli need
// three.
var (
	usualModuli = []int64{256, 1000, 10000, 65536, 100000, 1000000, 1000000007, 998244353, 1000000009}
	smallModuli = []int64{97, 100, 101, 127, 251}
)

// modulusSketch tries the programs of one size; it reports whether
// consider accepted one.
func modulusSketch(en *enumerator, p *dsl.Problem, size int, consider func(*dsl.Node, []any) bool) bool {
	if p.Out != dsl.Int || p.Nullable || len(p.Outs) < 2 || size >= len(en.bank[dsl.Int]) {
		return false
	}
	outs := make([]int64, len(p.Outs))
	var top int64
	for i, o := range p.Outs {
		v, isInt := o.(int64)
		if !isInt || v < 0 {
			return false
		}
		outs[i], top = v, max(top, v)
	}
	var mods []int64
	for _, m := range usualModuli {
		if m > top {
			mods = append(mods, m)
		}
	}
	if len(outs) >= 3 {
		for _, m := range smallModuli {
			if m > top {
				mods = append(mods, m)
			}
		}
	}
	for _, e := range en.bank[dsl.Int][size] {
		for _, m := range mods {
			if !congruent(e.Col, outs, m) {
				continue
			}
			n := &dsl.Node{Op: dsl.OpMod, Kids: []*dsl.Node{e.N, {Var: -1, Const: m, Size: 1}}, Var: -1, Size: e.N.Size + 2}
			vals := make([]any, len(e.Values()))
			for i, v := range e.Values() {
				vals[i] = dsl.ErrV
				if x, isInt := v.(int64); isInt {
					vals[i], _ = dsl.PyMod(x, m)
				}
			}
			if consider(n, vals) {
				return true
			}
		}
	}
	return false
}

// congruent reports whether a program's values (integers) are outs
// modulo m, one at least reduced.
func congruent(col dsl.Vec, outs []int64, m int64) bool {
	vals, isInt := col.Data.([]int64)
	if !isInt {
		return false
	}
	reduced := false
	for i, o := range outs {
		if col.Bad != nil && col.Bad[i] {
			return false
		}
		v := vals[i]
		if r, _ := dsl.PyMod(v, m); r != o {
			return false
		}
		reduced = reduced || v != o
	}
	return reduced
}
