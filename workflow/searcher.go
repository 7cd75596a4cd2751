package workflow

import (
	"encoding/json"
	"fmt"

	"github.com/reconstruct/reconstruct/agent"
)

// RivalSearcher is an agent that, before each proposal, searches for
// rivals of its candidate — programs that fit every observed example but
// disagree with the candidate on some valid input — and proposes inputs
// that split them from it (the built-in synthesizer). For such an agent a
// promotion counts towards early stop only when the batch its candidate
// was last judged on came from a rival search for that very candidate
// that split every rival it found (docs/workflow.md, "Rivals decide the
// stop"). Agents without it (the LLM agent) keep the rules without.
type RivalSearcher interface {
	// Rivals reports the rival search behind the proposal that returned
	// these inputs; ok is false when that proposal made none.
	Rivals(proposal []json.RawMessage) (report agent.RivalReport, ok bool)
}

// Searcher is an agent whose sessions on unchanged examples go on with one
// search (the built-in synthesizer): a session that returns the program of
// the session before is a stall only once the agent says that its search
// has nothing left to try on those examples, and the run's stop says what
// the search tried (docs/workflow.md, "Stop").
type Searcher interface {
	// SearchLeft reports whether the search of the agent's last session
	// has strategies left to try on that session's examples; account says
	// what it tried and what ended it when it has none.
	SearchLeft() (left bool, account string)
}

// RivalCheck is what the rival search of a RivalSearcher agent says of
// the candidate an iteration judges.
type RivalCheck string

const (
	// RivalsNotSearched: the agent searches no rivals (or the batch had no
	// agent's part): the rules without rivals apply.
	RivalsNotSearched RivalCheck = ""
	// RivalsSplit: the batch the candidate was judged on came from a rival
	// search for this candidate that split every rival it found.
	RivalsSplit RivalCheck = "split"
	// RivalsPending: no such search for this candidate yet.
	RivalsPending RivalCheck = "pending"
)

// rivalCheck is the iteration's RivalCheck for the candidate of digest
// sha (RivalsNotSearched for an agent that searches none) and, when it is
// pending, why the batch the candidate passed does not verify it.
func (e *engine) rivalCheck(sha string) (RivalCheck, string) {
	if _, ok := e.deps.Agent.(RivalSearcher); !ok || e.st.RivalsFor == rivalsRandomBatch || e.st.RivalsFor == rivalsNone {
		return RivalsNotSearched, ""
	}
	switch {
	case e.st.RivalsWhy != "":
		return RivalsPending, e.st.RivalsWhy
	case e.st.RivalsFor == sha:
		return RivalsSplit, ""
	case e.st.RivalsFor == "":
		return RivalsPending, "no rival search chose the last batch"
	}
	return RivalsPending, "the last batch split the rivals of candidate " + short(e.st.RivalsFor) + ", not of this one"
}

// batchRivals is what a batch whose agent's part was proposed (proposed)
// or drawn at random after every proposal was rejected says of the
// candidate whose rivals the proposal was chosen to split: that
// candidate's digest, and why it verifies no candidate ("" when it split
// every rival found).
// hadCandidate: the run had a candidate when the batch was proposed; a
// proposal for it without a rival search (the agent cannot search the
// rivals of that candidate, on inputs of that shape) leaves the rules
// without rivals to the next promotion (rivalsNone), as for an agent
// that searches none, instead of holding every promotion to come.
func batchRivals(rep *agent.RivalReport, proposed, hadCandidate bool) (candidate, why string) {
	switch {
	case !proposed:
		return "", "the last batch was drawn at random after every proposal was rejected"
	case rep == nil && hadCandidate:
		return rivalsNone, ""
	case rep == nil:
		return "", "the agent made no rival search for the last batch (no candidate to test yet)"
	case rep.Unsplit > 0:
		return rep.Candidate, fmt.Sprintf("the last batch left %d of the rivals found unsplit from candidate %s", rep.Unsplit, short(rep.Candidate))
	case !rep.Complete:
		return rep.Candidate, "the rival search for candidate " + short(rep.Candidate) + " was cut short"
	}
	return rep.Candidate, ""
}

// short is a digest's first 12 characters, as the journal shows it.
func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// rivalsRandomBatch is State.RivalsFor after a batch the agent had no part
// in (random_share rounded to the whole batch): the rules without rivals
// apply to the next promotion, as the user chose every input at random.
const rivalsRandomBatch = "random batch"

// rivalsNone is State.RivalsFor after a batch whose agent's part came from
// a proposal that searched no rivals although the run had a candidate:
// the rules without rivals apply to the next promotion (batchRivals).
const rivalsNone = "no rival search"

// rivalsOf asks a RivalSearcher agent for the report of an accepted
// proposal (nil for other agents, or when the proposal made no search).
func (e *engine) rivalsOf(inputs []json.RawMessage) *agent.RivalReport {
	rs, ok := e.deps.Agent.(RivalSearcher)
	if !ok {
		return nil
	}
	rep, ok := rs.Rivals(inputs)
	if !ok {
		return nil
	}
	return &rep
}

// searchLeft asks a Searcher agent what its last session's search left.
func (e *engine) searchLeft() (bool, string) {
	s, ok := e.deps.Agent.(Searcher)
	if !ok {
		return false, ""
	}
	return s.SearchLeft()
}
