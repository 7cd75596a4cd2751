package synth

import (
	"encoding/json"
	"math/rand"
	"slices"
	"strings"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
	"github.com/reconstruct/reconstruct/agent/synth/inputs"
)

// The pool a proposal chooses from holds, beside edge cases and random
// inputs, inputs built to probe the candidate (inputs/construct.go): the
// relations its arguments may stand in, the boundaries of its constants
// and every coverage category of the task's kind. Random inputs seldom
// make two lists permutations of each other or put an element right at a
// threshold, so a rival that differs from the candidate only there would
// never be seen.

// Bounds of the probes a pool holds.
const (
	// maxProbes bounds the relations and boundaries built per proposal.
	maxProbes = 24
	// categoryTries bounds the draws looking for an input of one category.
	categoryTries = 200
)

// originProbe prefixes the origin of a built input in a structured pool.
const originProbe = "probe:"

// probeRand is the random source of a proposal's probes, apart from the
// one its random inputs are drawn with.
func probeRand(req agent.ProposeRequest, seed int64) *rand.Rand {
	return rand.New(rand.NewSource(seed*7_368_787 + int64(len(req.Examples))*104_723 + int64(req.Attempt)*1_299_709 + 17))
}

// probeSources are the observed inputs probes are built from, the latest
// first.
func probeSources(exs []task.Example) []any {
	var out []any
	for i := len(exs) - 1; i >= 0; i-- {
		if v, ok := dsl.DecodeRaw(exs[i].Input); ok {
			out = append(out, v)
		}
	}
	return out
}

// tupleInput reports whether an input is a tuple of arguments whose
// relations are probed: two lists, a pair, several arguments.
func tupleInput(shape string, tp *inputs.Template) bool {
	switch shape {
	case "two_lists", "pair", "args":
		return true
	}
	return tp != nil && tp.Kind == inputs.TkTuple
}

// probes builds the relations and boundaries of a proposal's pool from the
// observed inputs and the constants of the candidate the last Write wrote.
func (a *Agent) probes(req agent.ProposeRequest, rng *rand.Rand, tuple bool, maxLen int) []inputs.Built {
	if len(req.Examples) == 0 {
		return nil
	}
	a.mu.Lock()
	s := a.written
	a.mu.Unlock()
	var consts []int64
	if s != nil && s.prog.Root != nil {
		consts = candidateConsts(s.prog.Root)
	}
	return inputs.Construct(inputs.Construction{Rand: rng, Sources: probeSources(req.Examples), Tuple: tuple,
		Consts: consts, MaxLen: maxLen, Max: maxProbes})
}

// withProbes adds to a choice up to n probes (pool indices whose probe is
// set, other than categories, which fill covers), one of each kind in
// turn: first the kinds of relation no observed input shows, then the
// boundaries of the candidate's constants, then the others.
func withProbes(chosen []int, probes []inputs.Probe, n int, shown map[inputs.Probe]bool) []int {
	used := map[int]bool{}
	for _, i := range chosen {
		used[i] = true
	}
	var kinds []inputs.Probe
	byKind := map[inputs.Probe][]int{}
	for i, p := range probes {
		if p == "" || p == inputs.ProbeCategory || used[i] {
			continue
		}
		if byKind[p] == nil {
			kinds = append(kinds, p)
		}
		byKind[p] = append(byKind[p], i)
	}
	rank := func(p inputs.Probe) int {
		switch {
		case p == inputs.ProbeBoundary:
			return 1
		case !shown[p]:
			return 0
		}
		return 2
	}
	slices.SortStableFunc(kinds, func(a, b inputs.Probe) int { return rank(a) - rank(b) })
	for k := 0; n > 0; k++ {
		added := false
		for _, p := range kinds {
			if k < len(byKind[p]) && n > 0 {
				chosen = append(chosen, byKind[p][k])
				n--
				added = true
			}
		}
		if !added {
			break
		}
	}
	return chosen
}

// reportRivals keeps the rival report of a proposal for the workflow
// (Rivals): which rivals of the candidate the proposed inputs split.
func (a *Agent) reportRivals(split *rivalSplit, out []json.RawMessage, chosen []int, probes []inputs.Probe) {
	if split == nil {
		return
	}
	built := 0
	for _, i := range chosen {
		if i < len(probes) && probes[i] != "" {
			built++
		}
	}
	a.keepReport(out, split.report(chosen, built))
}

// probeOf reads the probe of a structured pool's origin ("" for none).
func probeOf(origin string) inputs.Probe {
	p, ok := strings.CutPrefix(origin, originProbe)
	if !ok {
		return ""
	}
	return inputs.Probe(p)
}
