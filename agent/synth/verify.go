package synth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// A proposal is the candidate's test: before it proposes, the synthesizer
// looks for rivals of the candidate it wrote last — programs consistent
// with every example that disagree with it on some input of the pool —
// and chooses first the inputs that split every rival from the candidate.
// The workflow counts a promotion towards early stop only once such a
// search for that very candidate split every rival it found
// (workflow.RivalSearcher); Rivals reports it.

// maxListedRivals bounds the rivals a report names; the others are
// counted.
const maxListedRivals = 16

// maxReports bounds the reports kept for the workflow to ask about.
const maxReports = 8

// wrote records the program of the session a Write wrote and the digest of
// the candidate.py it wrote: the candidate the next proposal's rival
// search is for (s is nil for a program the search did not make).
func (a *Agent) wrote(s *session, src string) {
	sum := sha256.Sum256([]byte(src))
	a.mu.Lock()
	defer a.mu.Unlock()
	a.written, a.writtenSHA = s, hex.EncodeToString(sum[:])
}

// Rivals implements workflow.RivalSearcher: the rival search behind the
// proposal that returned these inputs.
func (a *Agent) Rivals(proposal []json.RawMessage) (agent.RivalReport, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	rep, ok := a.reports[proposalKey(proposal)]
	return rep, ok
}

// keepReport remembers the report of a proposal (the latest maxReports).
func (a *Agent) keepReport(proposal []json.RawMessage, rep agent.RivalReport) {
	key := proposalKey(proposal)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.reports == nil {
		a.reports = map[string]agent.RivalReport{}
	}
	if _, have := a.reports[key]; !have {
		a.reportOrder = append(a.reportOrder, key)
	}
	a.reports[key] = rep
	for len(a.reportOrder) > maxReports {
		delete(a.reports, a.reportOrder[0])
		a.reportOrder = a.reportOrder[1:]
	}
}

func proposalKey(inputs []json.RawMessage) string {
	parts := make([]string, len(inputs))
	for i, in := range inputs {
		c, err := task.Canonical(in)
		if err != nil {
			c = string(in)
		}
		parts[i] = c
	}
	return strings.Join(parts, "\x00")
}

// candidateOn returns the program the last Write wrote when it reads the
// inputs as p does and is consistent with every example of p, with the
// digest of its candidate.py.
func (a *Agent) candidateOn(p *dsl.Problem) (*dsl.Node, string) {
	a.mu.Lock()
	s, sha := a.written, a.writtenSHA
	a.mu.Unlock()
	if s == nil || s.prog.Root == nil || s.prog.Binding != p.B.Line || !slices.Equal(s.types, p.B.Types) ||
		s.prog.Round != p.Round || s.prog.Nullable != p.Nullable {
		return nil, ""
	}
	vals := make([]any, len(p.Envs))
	for i, env := range p.Envs {
		vals[i] = dsl.EvalSafe(s.prog.Root, env)
	}
	if !p.AllMatch(vals) {
		return nil, ""
	}
	return s.prog.Root, sha
}

// rivalSplit is what a proposal knows of the candidate and its rivals on
// the pool.
type rivalSplit struct {
	p    *dsl.Problem
	surv []*dsl.Entry
	// keys[j][s] is rival s's output class on pool input extra j, cand[j]
	// the candidate's (nil without a candidate).
	keys [][]dsl.Hasher
	cand []dsl.Hasher
	// extraOf maps a pool index to its extra index.
	extraOf map[int]int
	sha     string
	// cancelled: the search was cut short by the context.
	cancelled bool
}

// differs reports whether rival s disagrees with the candidate on pool
// input extra j.
func (r *rivalSplit) differs(j, s int) bool {
	return r.cand != nil && r.keys[j][s] != r.cand[j]
}

// rivalsOfCandidate are the rivals that disagree with the candidate on
// some input of the pool.
func (r *rivalSplit) rivalsOfCandidate() []int {
	var out []int
	for s := range r.surv {
		for j := range r.keys {
			if r.differs(j, s) {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// splitCandidate picks, greedily and in order's order, pool inputs (extra
// indices) that split the most rivals not yet split from the candidate,
// until every rival is split or room inputs are chosen.
func (r *rivalSplit) splitCandidate(room int, order []int) []int {
	open := map[int]bool{}
	for _, s := range r.rivalsOfCandidate() {
		open[s] = true
	}
	var chosen []int
	used := map[int]bool{}
	for len(chosen) < room && len(open) > 0 {
		best, bestN := -1, 0
		for _, j := range order {
			if used[j] {
				continue
			}
			n := 0
			for s := range open {
				if r.differs(j, s) {
					n++
				}
			}
			if n > bestN {
				best, bestN = j, n
			}
		}
		if best < 0 {
			break
		}
		used[best] = true
		chosen = append(chosen, best)
		for s := range open {
			if r.differs(best, s) {
				delete(open, s)
			}
		}
	}
	return chosen
}

// report says which rivals of the candidate the proposal (pool indices, in
// the order proposed) splits, which inputs split each, and whether every
// rival found is split; constructed counts the proposal's built inputs.
func (r *rivalSplit) report(chosen []int, constructed int) agent.RivalReport {
	rep := agent.RivalReport{Candidate: r.sha, Searched: len(r.surv), Constructed: constructed}
	more := 0
	for _, s := range r.rivalsOfCandidate() {
		var by []int
		for k, i := range chosen {
			if j, ok := r.extraOf[i]; ok && r.differs(j, s) {
				by = append(by, k+1)
			}
		}
		switch {
		case len(by) == 0:
			rep.Unsplit++
		case len(rep.Rivals) < maxListedRivals:
			rep.Rivals = append(rep.Rivals, agent.Rival{Program: pythonOf(r.p, r.surv[s].N), SplitBy: by})
		default:
			more++
		}
	}
	rep.More = more
	rep.Complete = rep.Unsplit == 0 && !r.cancelled
	return rep
}

// pythonOf writes a rival as a Python expression over the task's
// variables (its DSL form if it has no Python form).
func pythonOf(p *dsl.Problem, n *dsl.Node) (code string) {
	defer func() {
		if recover() != nil {
			code = n.String()
		}
	}()
	e := dsl.NewEmitter(p.B.Names)
	return e.Node(n, e.Vars).S
}

// candidateConsts are the integers a program computes with or compares
// against, its lambdas' included.
func candidateConsts(n *dsl.Node) []int64 {
	var out []int64
	var walk func(m *dsl.Node)
	walk = func(m *dsl.Node) {
		if m == nil {
			return
		}
		if m.Op == nil && m.Var < 0 {
			switch c := m.Const.(type) {
			case int64:
				out = append(out, c)
			case float64:
				if c == float64(int64(c)) {
					out = append(out, int64(c))
				}
			}
		}
		for l := m.Lam; l != nil; l = l.Next {
			walk(l.Body)
		}
		for _, k := range m.Kids {
			walk(k)
		}
	}
	walk(n)
	return out
}
