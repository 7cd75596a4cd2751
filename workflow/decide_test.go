package workflow

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDecide checks the iteration's rules row by row, each row one rule
// of the protocol (docs/workflow.md, "The loop" and "Gates").
func TestDecide(t *testing.T) {
	base := DefaultSettings() // early_stop 5, no gates, no budget, stall_limit 5
	with := func(mod func(*Settings)) Settings {
		s := base
		mod(&s)
		return s
	}
	pass := Verdict{FullPass: true}
	fail := Verdict{}
	missing := []string{"empty", "long"}
	tests := []struct {
		rule string
		c    Counters
		v    Verdict
		s    Settings
		want Decision
	}{
		{rule: "a full pass is a promotion and earns a batch",
			c: Counters{Consecutive: 1, Promotions: 1}, v: pass, s: base,
			want: Decision{Counters: Counters{Consecutive: 2, Promotions: 2}, Promoted: true, Counted: true, Batch: true}},
		{rule: "a failing candidate gets no batch and resets the consecutive count",
			c: Counters{Consecutive: 3, Promotions: 3}, v: fail, s: base,
			want: Decision{Counters: Counters{Promotions: 3}}},
		{rule: "early_stop consecutive promotions end the run",
			c: Counters{Consecutive: 4, Promotions: 4}, v: pass, s: base,
			want: Decision{Counters: Counters{Consecutive: 5, Promotions: 5}, Promoted: true, Counted: true, Stop: StopEarly}},
		{rule: "the budget is checked after the candidate: a failing one ends the run",
			c: Counters{}, v: Verdict{Tokens: 100}, s: with(func(s *Settings) { s.TokenBudget = 100 }),
			want: Decision{Stop: StopBudget}},
		{rule: "a pass on the budget's iteration still counts as a promotion, without a batch",
			c: Counters{Consecutive: 1, Promotions: 1}, v: Verdict{FullPass: true, Tokens: 150}, s: with(func(s *Settings) { s.TokenBudget = 100 }),
			want: Decision{Counters: Counters{Consecutive: 2, Promotions: 2}, Promoted: true, Counted: true, Stop: StopBudget}},
		{rule: "a pass on the budget's iteration can still end the run with early_stop",
			c: Counters{Consecutive: 4, Promotions: 4}, v: Verdict{FullPass: true, Tokens: 150}, s: with(func(s *Settings) { s.TokenBudget = 100 }),
			want: Decision{Counters: Counters{Consecutive: 5, Promotions: 5}, Promoted: true, Counted: true, Stop: StopEarly}},
		{rule: "below the budget nothing stops",
			c: Counters{}, v: Verdict{FullPass: true, Tokens: 99}, s: with(func(s *Settings) { s.TokenBudget = 100 }),
			want: Decision{Counters: Counters{Consecutive: 1, Promotions: 1}, Promoted: true, Counted: true, Batch: true}},
		{rule: "memorisation gate: a memorised pass is sent back for a rewrite, the count reset",
			c: Counters{Consecutive: 2, Promotions: 2}, v: Verdict{FullPass: true, Memorised: 3}, s: with(func(s *Settings) { s.MemorisationGate = true }),
			want: Decision{Counters: Counters{Promotions: 2, MemoRewrites: 1}, Gate: "memorisation", GateDecision: "rewrite"}},
		{rule: "memorisation gate: the second request too",
			c: Counters{MemoRewrites: 1}, v: Verdict{FullPass: true, Memorised: 5}, s: with(func(s *Settings) { s.MemorisationGate = true }),
			want: Decision{Counters: Counters{MemoRewrites: 2}, Gate: "memorisation", GateDecision: "rewrite"}},
		{rule: "memorisation gate: after two rewrites the batch is granted anyway, the counter restarts",
			c: Counters{MemoRewrites: 2}, v: Verdict{FullPass: true, Memorised: 3}, s: with(func(s *Settings) { s.MemorisationGate = true }),
			want: Decision{Counters: Counters{Consecutive: 1, Promotions: 1}, Promoted: true, Counted: true, GrantedAnyway: true, Batch: true}},
		{rule: "memorisation gate: two embedded inputs are not memorised",
			c: Counters{}, v: Verdict{FullPass: true, Memorised: 2}, s: with(func(s *Settings) { s.MemorisationGate = true }),
			want: Decision{Counters: Counters{Consecutive: 1, Promotions: 1}, Promoted: true, Counted: true, Batch: true}},
		{rule: "memorisation gate off: a memorised pass is a promotion",
			c: Counters{}, v: Verdict{FullPass: true, Memorised: 9}, s: base,
			want: Decision{Counters: Counters{Consecutive: 1, Promotions: 1}, Promoted: true, Counted: true, Batch: true}},
		{rule: "a failing memorised candidate is only a failure",
			c: Counters{}, v: Verdict{Memorised: 9}, s: with(func(s *Settings) { s.MemorisationGate = true }),
			want: Decision{}},
		{rule: "complexity gate: a complex pass gets its batch but is no promotion",
			c: Counters{Consecutive: 2, Promotions: 2}, v: Verdict{FullPass: true, Complexity: 0.8}, s: with(func(s *Settings) { s.ComplexityGate = true }),
			want: Decision{Counters: Counters{Promotions: 2, ComplexityStrikes: 1}, Gate: "complexity", GateDecision: "not_promoted", Batch: true}},
		{rule: "complexity gate: at most three times a run",
			c: Counters{ComplexityStrikes: 3}, v: Verdict{FullPass: true, Complexity: 0.95}, s: with(func(s *Settings) { s.ComplexityGate = true }),
			want: Decision{Counters: Counters{Consecutive: 1, Promotions: 1, ComplexityStrikes: 3}, Promoted: true, Counted: true, Batch: true}},
		{rule: "complexity gate: below 0.8 a pass is a promotion",
			c: Counters{}, v: Verdict{FullPass: true, Complexity: 0.79}, s: with(func(s *Settings) { s.ComplexityGate = true }),
			want: Decision{Counters: Counters{Consecutive: 1, Promotions: 1}, Promoted: true, Counted: true, Batch: true}},
		{rule: "coverage gate: a promotion with categories missing does not count towards early stop",
			c: Counters{Consecutive: 4, Promotions: 4}, v: Verdict{FullPass: true, Uncovered: missing}, s: with(func(s *Settings) { s.CoverageGate = true }),
			want: Decision{Counters: Counters{Consecutive: 4, Promotions: 5, CoverageKey: "empty,long", CoverageBatches: 1},
				Promoted: true, Gate: "coverage", GateDecision: "not_counted", Missing: missing, Batch: true}},
		{rule: "coverage gate: the same missing set counts its batches",
			c: Counters{CoverageKey: "empty,long", CoverageBatches: 2}, v: Verdict{FullPass: true, Uncovered: missing}, s: with(func(s *Settings) { s.CoverageGate = true }),
			want: Decision{Counters: Counters{Promotions: 1, CoverageKey: "empty,long", CoverageBatches: 3},
				Promoted: true, Gate: "coverage", GateDecision: "not_counted", Missing: missing, Batch: true}},
		{rule: "coverage gate: after three batches on the same set it stops blocking",
			c: Counters{Consecutive: 4, Promotions: 4, CoverageKey: "empty,long", CoverageBatches: 3}, v: Verdict{FullPass: true, Uncovered: missing}, s: with(func(s *Settings) { s.CoverageGate = true }),
			want: Decision{Counters: Counters{Consecutive: 5, Promotions: 5, CoverageKey: "empty,long", CoverageBatches: 3}, Promoted: true, Counted: true, Stop: StopEarly}},
		{rule: "coverage gate: another missing set starts counting again",
			c: Counters{CoverageKey: "empty,long", CoverageBatches: 3}, v: Verdict{FullPass: true, Uncovered: []string{"long"}}, s: with(func(s *Settings) { s.CoverageGate = true }),
			want: Decision{Counters: Counters{Promotions: 1, CoverageKey: "long", CoverageBatches: 1},
				Promoted: true, Gate: "coverage", GateDecision: "not_counted", Missing: []string{"long"}, Batch: true}},
		{rule: "coverage gate: everything covered counts at once",
			c: Counters{}, v: Verdict{FullPass: true}, s: with(func(s *Settings) { s.CoverageGate = true }),
			want: Decision{Counters: Counters{Consecutive: 1, Promotions: 1}, Promoted: true, Counted: true, Batch: true}},
		{rule: "coverage gate off: missing categories do not matter",
			c: Counters{}, v: Verdict{FullPass: true, Uncovered: missing}, s: base,
			want: Decision{Counters: Counters{Consecutive: 1, Promotions: 1}, Promoted: true, Counted: true, Batch: true}},
		{rule: "a complex pass with categories missing is held by the complexity gate; its batch counts for coverage",
			c: Counters{}, v: Verdict{FullPass: true, Complexity: 0.9, Uncovered: missing}, s: with(func(s *Settings) { s.ComplexityGate, s.CoverageGate = true, true }),
			want: Decision{Counters: Counters{ComplexityStrikes: 1, CoverageKey: "empty,long", CoverageBatches: 1},
				Gate: "complexity", GateDecision: "not_promoted", Missing: missing, Batch: true}},
		{rule: "selection gate: a pass that would stop the run while an earlier failing candidate outranks it does not count, and gets no batch",
			c: Counters{Consecutive: 4, Promotions: 4}, v: Verdict{FullPass: true, Outranked: true}, s: base,
			want: Decision{Counters: Counters{Consecutive: 4, Promotions: 5}, Promoted: true, Outranked: true,
				Gate: "selection", GateDecision: "not_counted"}},
		{rule: "selection gate: off, the same pass ends the run",
			c: Counters{Consecutive: 4, Promotions: 4}, v: Verdict{FullPass: true, Outranked: true}, s: with(func(s *Settings) { s.SelectionGate = false }),
			want: Decision{Counters: Counters{Consecutive: 5, Promotions: 5}, Promoted: true, Counted: true, Stop: StopEarly}},
		{rule: "selection gate: a held pass repeated without a search left stalls the run",
			c: Counters{Consecutive: 4, Promotions: 5, Stalled: 4}, v: Verdict{FullPass: true, Outranked: true, Repeated: true}, s: base,
			want: Decision{Counters: Counters{Consecutive: 4, Promotions: 6, Stalled: 5}, Promoted: true, Outranked: true,
				Gate: "selection", GateDecision: "not_counted", Stop: StopStalled}},
		{rule: "selection gate: a failing candidate is only a failure",
			c: Counters{Consecutive: 4, Promotions: 4}, v: Verdict{Outranked: true}, s: base,
			want: Decision{Counters: Counters{Promotions: 4}}},
		{rule: "rivals: a promotion whose rivals the agent's search has not split yet does not count, and resets nothing",
			c: Counters{Consecutive: 2, Promotions: 2}, v: Verdict{FullPass: true, Rivals: RivalsPending}, s: base,
			want: Decision{Counters: Counters{Consecutive: 2, Promotions: 3}, Promoted: true, Unverified: true,
				Gate: "rivals", GateDecision: "not_counted", Batch: true}},
		{rule: "rivals: a pending promotion at the threshold does not stop the run",
			c: Counters{Consecutive: 4, Promotions: 4}, v: Verdict{FullPass: true, Rivals: RivalsPending}, s: base,
			want: Decision{Counters: Counters{Consecutive: 4, Promotions: 5}, Promoted: true, Unverified: true,
				Gate: "rivals", GateDecision: "not_counted", Batch: true}},
		{rule: "rivals: a promotion judged on the batch that split its rivals counts and can stop the run",
			c: Counters{Consecutive: 4, Promotions: 4}, v: Verdict{FullPass: true, Rivals: RivalsSplit}, s: base,
			want: Decision{Counters: Counters{Consecutive: 5, Promotions: 5}, Promoted: true, Counted: true, Stop: StopEarly}},
		{rule: "rivals: an agent that searches none keeps the rules without",
			c: Counters{Consecutive: 4, Promotions: 4}, v: Verdict{FullPass: true, Rivals: RivalsNotSearched}, s: base,
			want: Decision{Counters: Counters{Consecutive: 5, Promotions: 5}, Promoted: true, Counted: true, Stop: StopEarly}},
		{rule: "rivals: with categories missing too, the coverage gate is named and the rivals recorded",
			c: Counters{}, v: Verdict{FullPass: true, Uncovered: missing, Rivals: RivalsPending}, s: with(func(s *Settings) { s.CoverageGate = true }),
			want: Decision{Counters: Counters{Promotions: 1, CoverageKey: "empty,long", CoverageBatches: 1}, Promoted: true, Unverified: true,
				Gate: "coverage", GateDecision: "not_counted", Missing: missing, Batch: true}},
		{rule: "rivals: a failing candidate is only a failure",
			c: Counters{Consecutive: 3, Promotions: 3}, v: Verdict{Rivals: RivalsPending}, s: base,
			want: Decision{Counters: Counters{Promotions: 3}}},
		{rule: "rivals: a pass the complexity gate holds is no promotion to verify",
			c: Counters{}, v: Verdict{FullPass: true, Complexity: 0.9, Rivals: RivalsPending}, s: with(func(s *Settings) { s.ComplexityGate = true }),
			want: Decision{Counters: Counters{ComplexityStrikes: 1}, Gate: "complexity", GateDecision: "not_promoted", Batch: true}},
		{rule: "rivals: a memorisation rewrite is no promotion to verify",
			c: Counters{Consecutive: 2, Promotions: 2}, v: Verdict{FullPass: true, Memorised: 3, Rivals: RivalsPending}, s: with(func(s *Settings) { s.MemorisationGate = true }),
			want: Decision{Counters: Counters{Promotions: 2, MemoRewrites: 1}, Gate: "memorisation", GateDecision: "rewrite"}},
		{rule: "rivals: a memorised pass granted anyway still waits for its rivals",
			c: Counters{MemoRewrites: 2, Consecutive: 1, Promotions: 1}, v: Verdict{FullPass: true, Memorised: 3, Rivals: RivalsPending}, s: with(func(s *Settings) { s.MemorisationGate = true }),
			want: Decision{Counters: Counters{Consecutive: 1, Promotions: 2}, Promoted: true, GrantedAnyway: true, Unverified: true,
				Gate: "rivals", GateDecision: "not_counted", Batch: true}},
		{rule: "rivals: a repeated pending promotion earns a batch, so no stall ends the run",
			c: Counters{Stalled: 4, Consecutive: 1, Promotions: 1}, v: Verdict{FullPass: true, Repeated: true, Rivals: RivalsPending}, s: base,
			want: Decision{Counters: Counters{Stalled: 5, Consecutive: 1, Promotions: 2}, Promoted: true, Unverified: true,
				Gate: "rivals", GateDecision: "not_counted", Batch: true}},
		{rule: "rivals: the budget still ends a run whose promotion is pending",
			c: Counters{Consecutive: 4, Promotions: 4}, v: Verdict{FullPass: true, Rivals: RivalsPending, Tokens: 10}, s: with(func(s *Settings) { s.TokenBudget = 10 }),
			want: Decision{Counters: Counters{Consecutive: 4, Promotions: 5}, Promoted: true, Unverified: true,
				Gate: "rivals", GateDecision: "not_counted", Stop: StopBudget}},
		{rule: "a session that repeats the previous one counts as a stall",
			c: Counters{Stalled: 1}, v: Verdict{Repeated: true}, s: base,
			want: Decision{Counters: Counters{Stalled: 2}}},
		{rule: "stall_limit sessions in a row that change nothing end the run",
			c: Counters{Stalled: 4}, v: Verdict{Repeated: true}, s: base,
			want: Decision{Counters: Counters{Stalled: 5}, Stop: StopStalled}},
		{rule: "a repeated program that earns a batch is no stall's end",
			c: Counters{Stalled: 4}, v: Verdict{FullPass: true, Repeated: true}, s: base,
			want: Decision{Counters: Counters{Consecutive: 1, Promotions: 1, Stalled: 5}, Promoted: true, Counted: true, Batch: true}},
		{rule: "a repeated session whose agent's search has strategies left is no stall",
			c: Counters{Stalled: 4}, v: Verdict{Repeated: true, SearchLeft: true}, s: base,
			want: Decision{}},
		{rule: "a repeated session whose agent's search has nothing left is a stall",
			c: Counters{Stalled: 4}, v: Verdict{Repeated: true, SearchLeft: false}, s: base,
			want: Decision{Counters: Counters{Stalled: 5}, Stop: StopStalled}},
		{rule: "stall_limit 0 never stops",
			c: Counters{Stalled: 40}, v: Verdict{Repeated: true}, s: with(func(s *Settings) { s.StallLimit = 0 }),
			want: Decision{Counters: Counters{Stalled: 41}}},
		{rule: "a changed session ends a stall",
			c: Counters{Stalled: 4}, v: fail, s: base,
			want: Decision{}},
		{rule: "a memorisation rewrite that repeats the program is a stall too",
			c: Counters{Stalled: 4}, v: Verdict{FullPass: true, Memorised: 3, Repeated: true}, s: with(func(s *Settings) { s.MemorisationGate = true }),
			want: Decision{Counters: Counters{MemoRewrites: 1, Stalled: 5}, Gate: "memorisation", GateDecision: "rewrite", Stop: StopStalled}},
		{rule: "every valid input observed: a full pass ends the run (exhausted), a counted promotion",
			c: Counters{Consecutive: 1, Promotions: 1}, v: Verdict{FullPass: true, Exhausted: true}, s: base,
			want: Decision{Counters: Counters{Consecutive: 2, Promotions: 2}, Promoted: true, Counted: true, Stop: StopExhausted}},
		{rule: "exhausted comes before early_stop: the stronger claim",
			c: Counters{Consecutive: 4, Promotions: 4}, v: Verdict{FullPass: true, Exhausted: true}, s: base,
			want: Decision{Counters: Counters{Consecutive: 5, Promotions: 5}, Promoted: true, Counted: true, Stop: StopExhausted}},
		{rule: "exhausted: a candidate whose rivals are not split yet is right on the whole domain all the same",
			c: Counters{}, v: Verdict{FullPass: true, Exhausted: true, Rivals: RivalsPending}, s: base,
			want: Decision{Counters: Counters{Consecutive: 1, Promotions: 1}, Promoted: true, Counted: true, Stop: StopExhausted}},
		{rule: "exhausted comes before the budget",
			c: Counters{}, v: Verdict{FullPass: true, Exhausted: true, Tokens: 150}, s: with(func(s *Settings) { s.TokenBudget = 100 }),
			want: Decision{Counters: Counters{Consecutive: 1, Promotions: 1}, Promoted: true, Counted: true, Stop: StopExhausted}},
		{rule: "exhausted: no gate holds a pass on the whole domain",
			c: Counters{MemoRewrites: 1, ComplexityStrikes: 1}, v: Verdict{FullPass: true, Exhausted: true, Memorised: 9, Complexity: 0.95, Uncovered: missing},
			s:    with(func(s *Settings) { s.MemorisationGate, s.ComplexityGate, s.CoverageGate = true, true, true }),
			want: Decision{Counters: Counters{Consecutive: 1, Promotions: 1, ComplexityStrikes: 1}, Promoted: true, Counted: true, Stop: StopExhausted}},
		{rule: "exhausted: a failing candidate goes on, without a batch",
			c: Counters{Consecutive: 2, Promotions: 2}, v: Verdict{Exhausted: true}, s: base,
			want: Decision{Counters: Counters{Promotions: 2}}},
		{rule: "exhausted: a failing candidate can still stall",
			c: Counters{Stalled: 4}, v: Verdict{Exhausted: true, Repeated: true}, s: base,
			want: Decision{Counters: Counters{Stalled: 5}, Stop: StopStalled}},
		{rule: "the budget comes before a stall",
			c: Counters{Stalled: 4}, v: Verdict{Repeated: true, Tokens: 10}, s: with(func(s *Settings) { s.TokenBudget = 10 }),
			want: Decision{Counters: Counters{Stalled: 5}, Stop: StopBudget}},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			got := Decide(tt.c, tt.v, tt.s)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Decide (-want +got):\n%s", diff)
			}
		})
	}
}

// The decision's messages say what the gates asked for.
func TestDecisionMessages(t *testing.T) {
	tests := []struct {
		name string
		d    Decision
		want []string
	}{
		{"rewrite", Decision{GateDecision: "rewrite", Counters: Counters{MemoRewrites: 2}},
			[]string{"the candidate embeds 4 observed inputs verbatim (1, 2, 3, …); it is not a verified pass. Rewrite it as a general program on the same evidence (request 2 of 2)."}},
		{"granted anyway", Decision{GrantedAnyway: true, Batch: true},
			[]string{"memorisation gate: two rewrites did not remove the embedded inputs; batch granted anyway"}},
		{"complexity", Decision{Gate: "complexity", Counters: Counters{ComplexityStrikes: 1}},
			[]string{"complexity penalty 0.85 ≥ 0.8: the batch is granted but the pass is not a promotion (1 of 3); prefer a simpler program"}},
		{"none", Decision{Promoted: true}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.d.Messages([]string{"1", "2", "3", "4"}, 0.85)); diff != "" {
				t.Errorf("Messages (-want +got):\n%s", diff)
			}
		})
	}
}
