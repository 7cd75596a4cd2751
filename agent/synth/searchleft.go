package synth

import (
	"fmt"
	"strings"
	"time"
)

// A run whose examples stop changing — nothing fits them, so the
// workflow grants no new ones — keeps one search going: each session goes
// on where the one before stopped (agent.go, goOn), and the workflow
// counts a session that returns the same program as a stall only once the
// synthesizer says its search has nothing left (workflow.Searcher). It has
// nothing left when the search ran through every size and strategy, when
// the run's search time is spent, or when the DSL cannot express the
// task's values at all; the account says which.

// SearchLeft implements workflow.Searcher: whether the search of the last
// session has anything left to try on its examples, and, when it has
// not, what it tried and what ended it.
func (a *Agent) SearchLeft() (bool, string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.left, a.account
}

// setLeft records what the session's search left on its examples: stuck is
// the search kept to go on with (nil when it cannot), s the session.
func (a *Agent) setLeft(s *session, stuck solver, n int) {
	budget := a.runBudgetLeft()
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case s == nil || s.result.solved:
		a.left, a.account = false, ""
	case stuck != nil && budget:
		a.left, a.account = true, ""
	default:
		a.left, a.account = false, a.accountOf(s.result, stuck != nil, n)
	}
}

// setUnsupported records that no search can run on the task's values.
func (a *Agent) setUnsupported(why error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.left = false
	a.account = "the synthesizer's DSL cannot express this task's values (" + why.Error() + "): no search strategy applies; the best constant was written"
}

// accountOf says what a search that found nothing tried; timeUp: it could
// go on, but the run's search budget is spent.
func (a *Agent) accountOf(res searchResult, timeUp bool, n int) string {
	var tried []string
	tried = append(tried, fmt.Sprintf("every program up to size %d", res.level))
	if res.level >= 4 {
		tried = append(tried, "the machines, walks, queues, loop and lambda sweeps and the sketches of its families")
	}
	tried = append(tried, "conditionals and moduli of partial programs", "the last resorts")
	var why string
	switch {
	case timeUp && a.opts.MaxPrograms > 0:
		why = fmt.Sprintf("the run's search budget is spent (%d programs)", a.runPrograms())
	case timeUp:
		why = fmt.Sprintf("the run's search time is spent (%v)", a.opts.RunTimeLimit)
	case res.memFull:
		why = "the search ran out of strategies within its memory bound"
	default:
		why = "the search ran out of strategies"
	}
	return fmt.Sprintf("no program fits the %d examples: %s after trying %s", n, why, strings.Join(tried, ", "))
}

// minRunSessions is the least a run's search budget holds in sessions'
// worth when sessions are bounded by programs: the first session and the
// five more that a stuck search went on for under the default stall limit
// before the search said whether it had strategies left, so that a
// programs-bounded sweep searches no less than it did (a task solved after
// a million programs of 300,000-program sessions stays solved).
const minRunSessions = 6

// runPrograms is the run's search budget in programs when sessions are
// bounded by programs: as many sessions' worth as the run's time limit
// holds session time limits, at least minRunSessions.
func (a *Agent) runPrograms() int64 {
	k := 1.0
	if a.opts.RunTimeLimit > 0 && a.opts.TimeLimit > 0 {
		k = float64(a.opts.RunTimeLimit) / float64(a.opts.TimeLimit)
	}
	return int64(max(k, minRunSessions) * float64(a.opts.MaxPrograms))
}

// runBudgetLeft reports whether the run's search budget is not spent yet:
// its time (RunTimeLimit), or with MaxPrograms its programs (runPrograms).
func (a *Agent) runBudgetLeft() bool {
	if a.opts.MaxPrograms > 0 {
		a.mu.Lock()
		defer a.mu.Unlock()
		return a.opts.RunTimeLimit <= 0 || a.programs < a.runPrograms()
	}
	return a.runTimeLeft()
}

// spend counts a session's search in the run's budgets.
func (a *Agent) spend(d time.Duration, programs int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.searched += d
	a.programs += programs
}
