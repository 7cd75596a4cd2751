package synth

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Component-wise outputs and string templates. A problem whose outputs
// are lists of one fixed length is split into one problem per component
// (dsl.Problem.Components); a string output built from fixed text and
// values into one problem per hole of its templates, and one of which
// template an example follows when there are several (dsl.Templates).
// Each part is searched on its own, by a whole search of its own (a part
// may itself split), the time left shared fairly among the parts not yet
// solved; the programs found are joined into one program (dsl.TupleOp,
// dsl.ConcatOp with dsl.FormatOp, dsl.ChooseOp), which the emitted
// function writes as one expression.

// Shares of a session the whole problem's search gets before a split is
// tried: a fixed-length list is most often one list operation (sorted,
// divmod, a bounding box), so it gets half; a string template's holes are
// small programs the whole search would not combine, so it gets a third.
const (
	wholeShareList     = 0.5
	wholeShareTemplate = 1.0 / 3
)

// maxSplitDepth bounds the nesting of splits (a hole that is itself a
// template, a component that is a tuple).
const maxSplitDepth = 2

// plan is the solver of a problem: its whole search, alone or before a
// split, or the split alone when the outputs have no type as a whole.
func plan(p *dsl.Problem, spec searchSpec, depth int) solver {
	whole := &wholeSolver{p: p, spec: spec}
	if depth >= maxSplitDepth {
		return whole
	}
	if p.Out == dsl.Tuple {
		if sp := componentSplit(p, spec, depth); sp != nil {
			return sp
		}
		return whole
	}
	// Each alternative gets its share of the memory as of the time: the
	// whole search's bank lives on while the split runs.
	either := func(share float64, sp *splitSolver) solver {
		whole.spec.memLimit = int64(float64(spec.memLimit) * share)
		sp.spec.memLimit = spec.memLimit - whole.spec.memLimit
		return newAlternatives([]solver{whole, sp}, []float64{share, 1})
	}
	if parts := p.Components(); parts != nil {
		if sp := componentSplit(p, spec, depth); sp != nil {
			return either(wholeShareList, sp)
		}
	}
	if sp := templateSplit(p, spec, depth); sp != nil {
		return either(wholeShareTemplate, sp)
	}
	return whole
}

// splitSolver searches the parts of a problem one by one and joins the
// programs found.
type splitSolver struct {
	whole *dsl.Problem
	spec  searchSpec
	depth int
	parts []*dsl.Problem
	// names say what each part is, for the notes.
	names   []string
	solvers []solver
	results []searchResult
	started []bool
	// join makes the whole program of the parts' programs (nil where a
	// part has none yet), or nil.
	join func(progs []*dsl.Node) *dsl.Node
	// derive, when set, may make part i's program from the other parts'
	// programs found so far (nil where none), before part i is searched;
	// nil when it cannot. late are the parts it derives, searched after
	// the others so that those are found first.
	derive func(i int, progs []*dsl.Node) *dsl.Node
	late   []bool
	// compose, when set, is tried as derive is on a part whose own search
	// has run without solving it (composeParts): a last resort, since a
	// part's own program is most often simpler.
	compose func(i int, progs []*dsl.Node) *dsl.Node
	// kind says how the problem was split, for the notes.
	kind string
}

func (s *splitSolver) evaluated() int64 {
	var n int64
	for _, r := range s.results {
		n += r.evaluated
	}
	return n
}

// solve gives each part not yet solved a fair share of what is left (the
// k-th of n parts left gets 1/(n-k+1) of it), twice over: what the parts
// solved early left is shared by the others on the second round.
func (s *splitSolver) solve(b budget) searchResult {
	if s.solvers == nil {
		s.solvers = make([]solver, len(s.parts))
		s.results = make([]searchResult, len(s.parts))
		s.started = make([]bool, len(s.parts))
		spec := s.spec
		spec.memLimit = max(spec.memLimit/int64(len(s.parts)), 16<<20)
		for i, sub := range s.parts {
			s.solvers[i] = plan(sub, spec, s.depth+1)
		}
	}
	var used int64
	for round := 0; round < 2; round++ {
		var pending, late []int
		for i, r := range s.results {
			if !r.solved && (!s.started[i] || s.solvers[i] != nil && s.solvers[i].resumable()) {
				if i < len(s.late) && s.late[i] {
					late = append(late, i)
					continue
				}
				pending = append(pending, i)
			}
		}
		pending = append(pending, late...)
		if len(pending) == 0 {
			break
		}
		for k, i := range pending {
			if b.spent(used) {
				break
			}
			if s.derived(i, s.derive) || s.started[i] && s.derived(i, s.compose) {
				continue
			}
			r := s.solvers[i].solve(b.share(1/float64(len(pending)-k), used))
			used += r.evaluated - s.results[i].evaluated
			s.results[i], s.started[i] = r, true
			if r.solved {
				// Its bank is no longer needed.
				s.solvers[i].close()
				s.solvers[i] = nil
			}
		}
	}
	return s.result()
}

// derived reports whether part i's program was made from the others'
// (derive or compose), which solves it without a search.
func (s *splitSolver) derived(i int, derive func(int, []*dsl.Node) *dsl.Node) bool {
	if derive == nil {
		return false
	}
	progs := make([]*dsl.Node, len(s.parts))
	for j, r := range s.results {
		if r.solved {
			progs[j] = r.best
		}
	}
	n := derive(i, progs)
	if n == nil {
		return false
	}
	s.results[i] = searchResult{best: n, passed: len(s.parts[i].Outs), solved: true, evaluated: s.results[i].evaluated, level: s.results[i].level}
	s.started[i] = true
	if s.solvers[i] != nil {
		s.solvers[i].close()
		s.solvers[i] = nil
	}
	return true
}

// result joins the parts' programs: a solution when every part is solved
// and the join passes every example, else the best partial program.
func (s *splitSolver) result() searchResult {
	res := searchResult{evaluated: s.evaluated(), level: -1}
	progs := make([]*dsl.Node, len(s.parts))
	solved := true
	for i, r := range s.results {
		progs[i] = r.best
		solved = solved && r.solved
		res.timedOut = res.timedOut || r.timedOut
		res.memFull = res.memFull || r.memFull
		res.memBytes += r.memBytes
		if r.memFull && (res.frozeAt == 0 || r.frozeAt < res.frozeAt) {
			res.frozeAt = r.frozeAt
		}
		if r.heapFull && !res.heapFull {
			res.heapFull, res.heapLive, res.heapShare = true, r.heapLive, r.heapShare
		}
		res.banked += r.banked
		if res.level < 0 || r.level < res.level {
			res.level = r.level
		}
	}
	res.level = max(res.level, 0)
	res.note = s.describe()
	n := s.join(progs)
	if n == nil {
		return res
	}
	vals := make([]any, len(s.whole.Envs))
	for i, env := range s.whole.Envs {
		vals[i] = dsl.EvalSafe(n, env)
	}
	_, res.passed = s.whole.Matches(vals)
	res.best = n
	if solved && res.passed == len(s.whole.Outs) && !s.spec.skip[n.String()] {
		res.solved = true
		res.survivors = []*dsl.Entry{{N: n, BoxedVals: vals}}
	}
	return res
}

func (s *splitSolver) close() {
	for _, sv := range s.solvers {
		if sv != nil {
			sv.close()
		}
	}
}

func (s *splitSolver) resumable() bool {
	if s.solvers == nil {
		return true
	}
	for i, r := range s.results {
		if !r.solved && (!s.started[i] || s.solvers[i] != nil && s.solvers[i].resumable()) {
			return true
		}
	}
	return false
}

// describe says how the problem was split and what each part found.
func (s *splitSolver) describe() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Split the outputs %s into %d parts, each searched on its own:", s.kind, len(s.parts))
	for i, r := range s.results {
		switch {
		case r.solved:
			fmt.Fprintf(&sb, " %s: %s;", s.names[i], r.best)
		case r.best != nil:
			fmt.Fprintf(&sb, " %s: nothing consistent (best passes %d of %d);", s.names[i], r.passed, len(s.parts[i].Outs))
		default:
			fmt.Fprintf(&sb, " %s: nothing found;", s.names[i])
		}
	}
	return strings.TrimSuffix(sb.String(), ";") + ".\n"
}

// componentSplit splits a problem whose outputs are lists of one length
// into its components; nil when they are not.
func componentSplit(p *dsl.Problem, spec searchSpec, depth int) *splitSolver {
	parts := p.Components()
	if parts == nil {
		return nil
	}
	s := &splitSolver{whole: p, spec: spec, depth: depth, parts: parts, kind: fmt.Sprintf("(lists of %d)", len(parts))}
	for i := range parts {
		s.names = append(s.names, fmt.Sprintf("component %d", i))
	}
	s.compose = func(i int, progs []*dsl.Node) *dsl.Node { return composeParts(p, parts, i, progs) }
	if p.Object {
		s.kind, s.names = "(objects)", []string{"keys", "values"}
		if keys, ok := sameKeys(parts[0]); ok {
			// A record: the same keys every time, written as they are.
			s.derive = func(i int, _ []*dsl.Node) *dsl.Node {
				if i != 0 {
					return nil
				}
				return &dsl.Node{Const: keys, Var: -1, Size: 1}
			}
		}
	}
	s.join = func(progs []*dsl.Node) *dsl.Node {
		kinds := make([]dsl.Type, len(progs))
		size := 1
		for i, n := range progs {
			if n == nil {
				return nil
			}
			kinds[i] = nodeType(p, n)
			size += n.Size
		}
		return &dsl.Node{Op: dsl.TupleOp(p, kinds), Kids: progs, Var: -1, Size: size}
	}
	return s
}

// sameKeys returns the keys of an object problem's keys part when every
// output has the same ones.
func sameKeys(keys *dsl.Problem) ([]string, bool) {
	var first []string
	for i, o := range keys.Outs {
		ks, ok := o.([]string)
		if !ok || i > 0 && !slices.Equal(ks, first) {
			return nil, false
		}
		first = ks
	}
	return first, first != nil
}

// nodeType is the static type of a program over p's variables.
func nodeType(p *dsl.Problem, n *dsl.Node) dsl.Type {
	switch {
	case n.Op != nil:
		return n.Op.Ret
	case n.Var >= 0:
		return p.B.Types[n.Var]
	}
	t, _ := dsl.TypeOf(n.Const)
	return t
}
