package sketch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Error diffusion. A list of intensities mapped to two output levels,
// where each element plus the error carried from the one before is
// compared with a threshold and the error the output leaves is carried
// on: 1-D dithering, a sigma-delta modulator, rounding a stream so that
// its running total stays close. The machine is
//
//	v = x + carry; out = high if v >= t else low; carry = v - (k if out == high else 0)
//
// from a carry of 0, where k is what the high level stands for (255 for a
// pixel, 10 for a digit's tens). The state is hidden and not one of the
// lambda banks' transitions (it reads the output), so the threshold t and
// the weight k are searched directly, each over the range the elements
// span, every pair checked on the examples.

// maxDiffusionRange bounds the thresholds and weights tried.
const maxDiffusionRange = 512

// diffusion is one filling: the threshold, the weight of the high level,
// and the two levels.
type diffusion struct {
	t, k      int64
	low, high int64
}

// run gives the levels of xs, or ErrV when an addition overflows.
func (d diffusion) run(xs []int64) any {
	out := make([]int64, len(xs))
	var carry int64
	for i, x := range xs {
		v, good := dsl.AddI(x, carry)
		if !good {
			return dsl.ErrV
		}
		out[i] = d.low
		carry = v
		if v >= d.t {
			out[i] = d.high
			carry = v - d.k
		}
	}
	return out
}

// Diffusion tries every threshold and weight when a list of
// integers maps to a list of two levels of the same length; it reports
// whether consider accepted a program.
func Diffusion(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	st := newStreams(p, en.Envs)
	if st == nil || len(st.elem) != 1 || st.elem[0] != dsl.Int || st.outElem != dsl.Int || en.Stopped {
		return false
	}
	var levels []int64
	for _, out := range st.outs {
		for _, o := range out {
			if v := o.(int64); !slices.Contains(levels, v) {
				if len(levels) == 2 {
					return false
				}
				levels = append(levels, v)
			}
		}
	}
	if len(levels) != 2 {
		return false
	}
	low, high := min(levels[0], levels[1]), max(levels[0], levels[1])
	lo, hi := int64(0), int64(1)
	for _, ls := range st.lists[:len(st.outs)] {
		for _, x := range ls[0] {
			lo, hi = min(lo, x.(int64)), max(hi, x.(int64))
		}
	}
	span := hi - lo
	if span > maxDiffusionRange {
		return false
	}
	// The usual weights first: the high level itself (a pixel's 255),
	// one past the largest element (a digit's tens), the largest; then
	// the others. For each, thresholds from half the weight outwards:
	// a threshold halfway keeps the carried error smallest.
	ks := []int64{high, hi + 1, hi}
	for k := int64(1); k <= 2*span+1; k++ {
		ks = append(ks, k)
	}
	var fills []diffusion
	seen := map[int64]bool{}
	for _, k := range ks {
		if k < 1 || seen[k] {
			continue
		}
		seen[k] = true
		mid := (k + 1) / 2
		for d := int64(0); d <= max(dsl.AbsI(mid-lo), dsl.AbsI(hi+1-mid)); d++ {
			ts := []int64{mid + d, mid - d}
			if d == 0 {
				ts = ts[:1]
			}
			for _, t := range ts {
				if t >= lo && t <= hi+1 {
					fills = append(fills, diffusion{t: t, k: k, low: low, high: high})
				}
			}
		}
	}
	return fillSketch(en, p, fills, func(d diffusion, env []any) any { return d.run(env[0].([]int64)) },
		func(d diffusion) *dsl.Node { return diffusionNode(p, d) }, consider)
}

// diffusionNode is the program of an error diffusion over the list
// variable.
func diffusionNode(p *dsl.Problem, d diffusion) *dsl.Node {
	op := &dsl.Operator{Name: fmt.Sprintf("error_diffusion[t=%d, k=%d, levels %d/%d]", d.t, d.k, d.low, d.high),
		Args: p.B.Types, Ret: dsl.ListInt, Fam: dsl.FamScan, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return d.run(a[0].([]int64)) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("error_diffusion", p.B.Names, diffusionLoop(d, p.B.Names[0])), a...)
		}}
	return overVars(p, op, 12)
}

// diffusionLoop renders the helper: a loop carrying the error.
func diffusionLoop(d diffusion, xs string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "    carry, out = 0, []\n    for x in %s:\n        v = x + carry\n", xs)
	if d.low == 0 && d.high == 1 {
		fmt.Fprintf(&sb, "        level = int(v >= %d)\n        carry = v - %d * level\n", d.t, d.k)
	} else {
		fmt.Fprintf(&sb, "        level = %d if v >= %d else %d\n", d.high, d.t, d.low)
		fmt.Fprintf(&sb, "        carry = v - %d if level == %d else v\n", d.k, d.high)
	}
	sb.WriteString("        out.append(level)\n    return out\n")
	return sb.String()
}
