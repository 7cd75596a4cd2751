package workflow

import (
	"fmt"
	"strings"
)

// Counters are the part of a run's state that the rules of an iteration
// read and change (docs/workflow.md, "The loop" and "Gates").
type Counters struct {
	Consecutive       int
	Promotions        int
	MemoRewrites      int
	ComplexityStrikes int
	// CoverageKey is the missing-category set the last batches were
	// granted on, CoverageBatches how many in a row.
	CoverageKey     string
	CoverageBatches int
	// Stalled counts the sessions in a row that changed nothing.
	Stalled int
}

// Verdict is what an iteration's evaluation says, as the rules need it.
type Verdict struct {
	// FullPass: the candidate passed every observed example.
	FullPass bool
	// Memorised is how many distinct observed inputs it embeds.
	Memorised int
	// Complexity is its complexity penalty.
	Complexity float64
	// Uncovered are the coverage categories the observed inputs lack.
	Uncovered []string
	// Tokens is what the run has spent so far, this session included.
	Tokens int
	// Repeated: the session returned the previous session's program on the
	// same examples.
	Repeated bool
	// SearchLeft: the agent (a Searcher) says its search on these examples
	// has strategies left, which the next session goes on with: a repeated
	// session is then no stall.
	SearchLeft bool
	// Rivals is what the agent's rival search says of this candidate
	// (RivalsNotSearched for an agent that searches none).
	Rivals RivalCheck
	// Exhausted: every valid input of the task's finite domain has been
	// observed (every one is among the examples the candidate ran on).
	Exhausted bool
	// Outranked: the final selection on these examples would not be this
	// candidate but an archived one that fails some of them, with a
	// better stage score (the engine looks only when the pass would
	// otherwise end the run with early_stop).
	Outranked bool
}

// Decision is what the rules make of one iteration.
type Decision struct {
	// Counters are the counters after the iteration.
	Counters Counters
	// Promoted: the pass is a promotion; Counted: it counts towards early
	// stop.
	Promoted, Counted bool
	// Gate names the gate that held the pass (memorisation, complexity,
	// coverage) and GateDecision what it decided (rewrite, not_promoted,
	// not_counted); GrantedAnyway: the memorisation gate let a memorised
	// pass through after its rewrites.
	Gate, GateDecision string
	GrantedAnyway      bool
	// Unverified: the promotion does not count because the agent's rival
	// search has not yet split this candidate from every rival it found
	// (Gate is "rivals" unless another gate held the pass first).
	Unverified bool
	// Outranked: the selection gate held the pass — the run's final
	// program would be an earlier candidate failing observed examples.
	Outranked bool
	// Missing are the coverage categories that still block early stop
	// when a batch is granted (the coverage gate held the pass when it
	// was a promotion); a batch granted on the same set three times in a
	// row stops them blocking.
	Missing []string
	// Batch: a new batch of examples is granted.
	Batch bool
	// Stop is the stop reason the iteration ends the run with ("": none).
	Stop string
}

// Decide applies the rules of one iteration to the counters before it and
// the verdict on its candidate. It is the whole of the loop's judgement —
// promotion, the gates, early stop, the budget, stalls, whether a batch is
// granted — and does nothing: the engine carries the decision out.
//
// The rules, in order:
//   - A candidate that does not pass every example is no promotion and
//     resets the consecutive count; no batch is granted.
//   - Memorisation gate: a pass embedding MemorisedThreshold or more
//     observed inputs is sent back for a rewrite on the same evidence (no
//     promotion, the consecutive count reset), twice; the third time the
//     batch is granted anyway. The rewrite counter restarts with any pass
//     that gets through.
//   - Complexity gate: a pass with complexity ≥ ComplexityGateThreshold is
//     granted its batch but is no promotion (the consecutive count reset),
//     up to three times a run.
//   - Coverage gate: a promotion counts towards early stop only once the
//     observed inputs cover the kind's categories; a missing set stops
//     blocking after three batches granted on it in a row.
//   - Rivals: for an agent that searches rivals, a promotion counts
//     towards early stop only when the batch it was judged on came from a
//     rival search for this very candidate that split every rival found
//     (the candidate passing that batch rules them all out); it does not
//     reset the consecutive count.
//   - Selection gate: a promotion that would end the run with early_stop
//     while the final selection on the same examples would choose an
//     earlier candidate that fails some of them (its stage score is
//     better) does not count, and no batch is granted: the agent is
//     asked for a program that outranks it, on the same evidence. Without
//     it, early_stop would be claimed for a final program that is wrong on
//     an observed example.
//   - A counted promotion that reaches early_stop ends the run
//     (early_stop), whatever the budget.
//   - The budget is checked once the candidate is evaluated and archived:
//     spent, the run ends (budget_exhausted) before any new batch.
//   - Without a new batch, stall_limit sessions in a row that changed
//     nothing end the run (stalled); a session whose agent says its search
//     has strategies left changed something.
//
// Before the gates: a full pass when every valid input of a finite domain
// has been observed ends the run (exhausted), a counted promotion. The
// program is then right on the whole domain, and every gate guards
// against a pass that would not hold beyond the observed inputs, of which
// there are none; nor is there a batch left to grant.
func Decide(c Counters, v Verdict, s Settings) Decision {
	d := Decision{Counters: c}
	n := &d.Counters
	if v.Repeated && !v.SearchLeft {
		n.Stalled++
	} else {
		n.Stalled = 0
	}
	switch {
	case !v.FullPass:
		n.Consecutive = 0
	case v.Exhausted:
		n.MemoRewrites = 0
		n.Promotions++
		n.Consecutive++
		d.Promoted, d.Counted = true, true
		d.Stop = StopExhausted
	case s.MemorisationGate && v.Memorised >= MemorisedThreshold && c.MemoRewrites < 2:
		n.MemoRewrites++
		n.Consecutive = 0
		d.Gate, d.GateDecision = "memorisation", "rewrite"
	default:
		d.GrantedAnyway = s.MemorisationGate && v.Memorised >= MemorisedThreshold
		n.MemoRewrites = 0
		d.Batch, d.Promoted, d.Counted = true, true, true
		if s.ComplexityGate && v.Complexity >= ComplexityGateThreshold && c.ComplexityStrikes < 3 {
			n.ComplexityStrikes++
			d.Promoted, d.Counted = false, false
			d.Gate, d.GateDecision = "complexity", "not_promoted"
		}
		d.Missing = blocking(c, v.Uncovered, s)
		if d.Promoted && len(d.Missing) > 0 {
			d.Counted = false
			d.Gate, d.GateDecision = "coverage", "not_counted"
		}
		if d.Promoted && v.Rivals == RivalsPending {
			d.Unverified = true
			if d.Counted {
				d.Counted = false
				d.Gate, d.GateDecision = "rivals", "not_counted"
			}
		}
		if d.Promoted && v.Outranked && s.SelectionGate {
			d.Outranked, d.Batch = true, false
			if d.Counted {
				d.Counted = false
				d.Gate, d.GateDecision = "selection", "not_counted"
			}
		}
		switch {
		case d.Counted:
			n.Promotions++
			n.Consecutive++
		case d.Promoted:
			n.Promotions++
		default:
			n.Consecutive = 0
		}
	}
	switch {
	case d.Stop != "":
	case d.Counted && n.Consecutive >= s.EarlyStop:
		d.Stop, d.Batch = StopEarly, false
	case s.TokenBudget > 0 && v.Tokens >= s.TokenBudget:
		d.Stop, d.Batch = StopBudget, false
	case !d.Batch && s.StallLimit > 0 && n.Stalled >= s.StallLimit:
		d.Stop = StopStalled
	}
	if d.Batch && len(d.Missing) > 0 {
		key := strings.Join(d.Missing, ",")
		if key == n.CoverageKey {
			n.CoverageBatches++
		} else {
			n.CoverageKey, n.CoverageBatches = key, 1
		}
	}
	return d
}

// blocking are the coverage categories that still block early stop: none
// without the gate, none once three batches in a row were granted on the
// same missing set.
func blocking(c Counters, uncovered []string, s Settings) []string {
	if !s.CoverageGate || len(uncovered) == 0 {
		return nil
	}
	if strings.Join(uncovered, ",") == c.CoverageKey && c.CoverageBatches >= 3 {
		return nil
	}
	return uncovered
}

// Messages are what the decision asks of the agent in its next feedback.
func (d Decision) Messages(memorised []string, complexity float64) []string {
	var out []string
	switch {
	case d.GateDecision == "rewrite":
		out = append(out, fmt.Sprintf("the candidate embeds %d observed inputs verbatim (%s); it is not a verified pass. Rewrite it as a general program on the same evidence (request %d of 2).",
			len(memorised), joinShown(memorised, 3), d.Counters.MemoRewrites))
	case d.GrantedAnyway:
		out = append(out, "memorisation gate: two rewrites did not remove the embedded inputs; batch granted anyway")
	}
	if d.Gate == "complexity" {
		out = append(out, fmt.Sprintf("complexity penalty %.2f ≥ %.1f: the batch is granted but the pass is not a promotion (%d of 3); prefer a simpler program",
			complexity, ComplexityGateThreshold, d.Counters.ComplexityStrikes))
	}
	return out
}

// joinShown joins at most max values, with … for the rest.
func joinShown(xs []string, max int) string {
	if len(xs) > max {
		xs = append(xs[:max:max], "…")
	}
	return strings.Join(xs, ", ")
}
