package workflow

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"
)

// rivalAgent is a scripted agent that searches rivals: each proposal
// reports a search for the candidate.py the workspace holds, complete when
// complete says so.
type rivalAgent struct {
	*scriptAgent
	complete func(k int) bool
	// searchless: its proposals search no rivals, candidate or not.
	searchless bool
	mu         sync.Mutex
	reports    map[string]agent.RivalReport
}

var _ RivalSearcher = (*rivalAgent)(nil)

func (a *rivalAgent) Propose(ctx context.Context, req agent.ProposeRequest) (agent.ProposeResult, error) {
	res, err := a.scriptAgent.Propose(ctx, req)
	if err != nil {
		return res, err
	}
	src, rerr := os.ReadFile(filepath.Join(req.Workspace, agent.CandidateFile))
	if rerr != nil || a.searchless {
		return res, nil // no candidate yet, or no search: no report
	}
	sum := sha256.Sum256(src)
	rep := agent.RivalReport{Candidate: hex.EncodeToString(sum[:]), Complete: a.complete(req.K), Searched: 2,
		Rivals: []agent.Rival{{Program: "x * x", SplitBy: []int{1}}}}
	if !rep.Complete {
		rep.Unsplit = 1
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.reports == nil {
		a.reports = map[string]agent.RivalReport{}
	}
	a.reports[proposalKey(res.Inputs)] = rep
	return res, nil
}

func (a *rivalAgent) Rivals(inputs []json.RawMessage) (agent.RivalReport, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	rep, ok := a.reports[proposalKey(inputs)]
	return rep, ok
}

func proposalKey(inputs []json.RawMessage) string {
	parts := make([]string, len(inputs))
	for i, in := range inputs {
		parts[i] = task.MustCanonical(in)
	}
	return strings.Join(parts, "\x00")
}

// With an agent that searches rivals, a promotion counts towards early
// stop only when the batch it passed came from a complete rival search for
// that very candidate; the journal says which rivals which inputs split.
func TestRivalsDecideTheStop(t *testing.T) {
	always := func(int) bool { return true }
	tests := []struct {
		name       string
		programs   []string
		complete   func(k int) bool
		settings   Settings
		propose    func(req agent.ProposeRequest) []json.RawMessage
		wantStop   string
		wantIters  int
		wantPromos int
		wantGated  []int    // iterations the rivals gate held
		wantWhy    []string // what its gate event says of each, in part
		searchless bool
	}{
		{name: "the first promotion waits for the first rival search", programs: []string{"double"}, complete: always, settings: settings(nil),
			wantStop: StopEarly, wantIters: 6, wantPromos: 6, wantGated: []int{1}, wantWhy: []string{"no candidate to test yet"}},
		{name: "a search that leaves rivals unsplit never counts", programs: []string{"double"}, complete: func(int) bool { return false },
			settings: settings(func(s *Settings) { s.MaxIterations = 7 }),
			wantStop: StopMaxIterations, wantIters: 7, wantPromos: 7, wantGated: []int{1, 2, 3, 4, 5, 6, 7}, wantWhy: []string{"no candidate to test yet", "left 1 of the rivals found unsplit from candidate", "left 1", "left 1", "left 1", "left 1", "left 1"}},
		{name: "a search complete once the batch is large enough", programs: []string{"double"}, complete: func(k int) bool { return k >= 6 },
			settings: settings(nil),
			wantStop: StopEarly, wantIters: 7, wantPromos: 7, wantGated: []int{1, 2}, wantWhy: []string{"no candidate to test yet", "left 1 of the rivals found unsplit"}},
		{name: "a new candidate waits for a search of its own", programs: []string{"double", "double", "double #v2"}, complete: always,
			settings: settings(nil),
			wantStop: StopEarly, wantIters: 7, wantPromos: 7, wantGated: []int{1, 3}, wantWhy: []string{"no candidate to test yet", ", not of this one"}},
		{name: "a batch drawn at random after every proposal failed verifies nothing",
			programs: []string{"double"}, complete: always, settings: settings(func(s *Settings) { s.ProposeAttempts = 0 }),
			propose: func(req agent.ProposeRequest) []json.RawMessage {
				if len(req.Examples) == 6 { // the third batch: one input too few
					return make([]json.RawMessage, req.K-1)
				}
				out := make([]json.RawMessage, req.K)
				for i := range out {
					out[i] = json.RawMessage(fmt.Sprint(1000*len(req.Examples) + 7 + i))
				}
				return out
			},
			wantStop: StopEarly, wantIters: 7, wantPromos: 7, wantGated: []int{1, 3}, wantWhy: []string{"no candidate to test yet", "drawn at random after every proposal was rejected"}},
		{name: "proposals that search no rivals for the candidate keep the rules without rivals", programs: []string{"double"}, complete: always,
			settings: settings(nil), searchless: true,
			wantStop: StopEarly, wantIters: 6, wantPromos: 6, wantGated: []int{1}, wantWhy: []string{"no candidate to test yet"}},
		{name: "batches drawn wholly at random keep the rules without rivals", programs: []string{"double"}, complete: func(int) bool { return false },
			settings: settings(func(s *Settings) { s.RandomShare = 1 }),
			wantStop: StopEarly, wantIters: 5, wantPromos: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.programs...)
			h.agent.proposeFn = tt.propose
			ra := &rivalAgent{scriptAgent: h.agent, complete: tt.complete, searchless: tt.searchless}
			d := h.deps()
			d.Agent = ra
			res, err := Run(context.Background(), h.spec(tt.settings, task.KindInt), d)
			if err != nil {
				t.Fatal(err)
			}
			got := []any{res.StopReason, res.Iterations, res.Promotions}
			if diff := cmp.Diff([]any{tt.wantStop, tt.wantIters, tt.wantPromos}, got); diff != "" {
				t.Errorf("stop, iterations, promotions (-want +got):\n%s", diff)
			}
			var gated []int
			for _, r := range res.Events {
				if r.Promoted && !r.Counted && r.Gate == "rivals" {
					gated = append(gated, r.Iteration)
				}
			}
			if diff := cmp.Diff(tt.wantGated, gated); diff != "" {
				t.Errorf("iterations held by the rivals gate (-want +got):\n%s", diff)
			}
			// The journal says why each was held, for which candidate.
			var why []string
			for _, ev := range h.rec.events {
				if ev.Type != EventGate {
					continue
				}
				var g Gate
				if err := json.Unmarshal(ev.Data, &g); err != nil {
					t.Fatal(err)
				}
				if g.Gate != "rivals" {
					continue
				}
				if g.Decision != "not_counted" || len(g.Candidate) != 64 {
					t.Errorf("iteration %d: rivals gate %+v, want not_counted with the candidate's digest", ev.Iteration, g)
				}
				why = append(why, g.Reason)
			}
			if len(why) != len(tt.wantWhy) {
				t.Fatalf("rivals gate events say %q, want %d saying %q", why, len(tt.wantWhy), tt.wantWhy)
			}
			for i, w := range tt.wantWhy {
				if !strings.Contains(why[i], w) {
					t.Errorf("rivals gate event %d says %q, want it to say %q", i+1, why[i], w)
				}
			}
			// Every accepted proposal made after a candidate existed
			// records its rival search.
			for _, ev := range h.rec.events {
				if ev.Type != EventProposalAccepted || ev.Iteration == 0 || tt.searchless {
					continue
				}
				var pa ProposalAccepted
				if err := json.Unmarshal(ev.Data, &pa); err != nil {
					t.Fatal(err)
				}
				if pa.Rivals == nil || len(pa.Rivals.Rivals) != 1 || pa.Rivals.Rivals[0].Program != "x * x" || pa.Rivals.Candidate == "" {
					t.Errorf("proposal_accepted of batch %d records rivals %+v, want the agent's report", pa.Batch, pa.Rivals)
				}
			}
		})
	}
}

// An agent that does not search rivals keeps the rules without: the
// proposals record no rivals and five promotions stop the run.
func TestAgentWithoutRivalSearchKeepsTheRules(t *testing.T) {
	h := newHarness(t, "double")
	res, err := h.run(context.Background(), settings(nil), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != StopEarly || res.Iterations != 5 {
		t.Fatalf("stop %s after %d iterations, want early_stop after 5", res.StopReason, res.Iterations)
	}
	for _, ev := range h.rec.events {
		if ev.Type == EventProposalAccepted && strings.Contains(string(ev.Data), `"rivals"`) {
			t.Errorf("proposal_accepted records rivals for an agent that searches none: %s", ev.Data)
		}
	}
}

// searchAgent is a scripted agent whose search has strategies left for
// its first sessions.
type searchAgent struct {
	*scriptAgent
	left int
}

var _ Searcher = (*searchAgent)(nil)

func (a *searchAgent) SearchLeft() (bool, string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.writes <= a.left {
		return true, ""
	}
	return false, "tried sizes 1..9 and every sketch: nothing fits"
}

// A session that repeats the one before while the agent's search goes on
// is no stall: the run stalls only once the search has nothing left, and
// says what it tried.
func TestStallWaitsForTheSearch(t *testing.T) {
	h := newHarness(t, "square")
	sa := &searchAgent{scriptAgent: h.agent, left: 4}
	d := h.deps()
	d.Agent = sa
	res, err := Run(context.Background(), h.spec(settings(func(s *Settings) { s.StallLimit = 3; s.MaxIterations = 20 }), task.KindInt), d)
	if err != nil {
		t.Fatal(err)
	}
	// Sessions 2 to 4 repeat the first with the search going on; 5, 6
	// and 7 repeat it with nothing left.
	if res.StopReason != StopStalled || res.Iterations != 7 {
		t.Fatalf("stop %s after %d iterations, want stalled after 7", res.StopReason, res.Iterations)
	}
	if want := "tried sizes 1..9 and every sketch: nothing fits"; res.StopDetail != want {
		t.Errorf("stop detail %q, want %q", res.StopDetail, want)
	}
	var stop Stop
	for _, ev := range h.rec.events {
		if ev.Type == EventStop {
			if err := json.Unmarshal(ev.Data, &stop); err != nil {
				t.Fatal(err)
			}
		}
	}
	if stop.Detail != res.StopDetail {
		t.Errorf("stop event detail %q, want %q", stop.Detail, res.StopDetail)
	}
}
