package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// smallHidden accepts the ten integers 0 to 9 and nothing else.
const smallHidden = `def f(x):
    if not isinstance(x, int) or isinstance(x, bool) or not 0 <= x <= 9:
        raise ValueError("an integer from 0 to 9")
    return x * x + 1
`

// smallGenerator draws from the integers 0 to 9 not observed yet: fewer
// than asked when fewer are left.
const smallGenerator = `def generate(k, exclude, rng):
    left = [x for x in range(10) if x not in exclude]
    rng.shuffle(left)
    return left[:k]
`

// A task whose valid inputs are the ten integers 0 to 9, run with the
// built-in synthesizer as a new user would — with and without a
// generator, with the defaults and with an early stop too large to be
// reached, its domain stated in task.domain, in the constraint text only,
// or known only from a generator that runs out — observes every input
// once, never asks the hidden program for one twice but to check that it
// answers the same, and ends exhausted with exit 0 and a program verified
// on the whole domain. Resuming it says it has finished.
func TestSmallDomainRunsToExhaustion(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	const withDomain = "  input_constraints: \"one integer between 0 and 9\"\n  domain: {lo: 0, hi: 9}\n"
	const withText = "  input_constraints: \"one integer between 0 and 9\"\n"
	const withGenerator = "  random_inputs: {python: generator.py, function: generate}\n"
	tests := []struct {
		name     string
		task     string
		flags    []string
		wantFrom string
	}{
		{"task.domain, defaults", withDomain, nil, "task.domain"},
		{"task.domain, early stop 40", withDomain, []string{"--early-stop", "40"}, "task.domain"},
		{"task.domain and a generator, defaults", withDomain + withGenerator, nil, "task.domain"},
		{"task.domain and a generator, early stop 40", withDomain + withGenerator, []string{"--early-stop", "40"}, "task.domain"},
		{"the constraint text, defaults", withText, nil, "task.input_constraints"},
		{"a generator alone, early stop 40", withGenerator, []string{"--early-stop", "40"}, workflow.DomainFromGenerator},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := writeTask(t, dir, smallHidden, tt.task+
				"agent: {kind: synth, synth: {time_limit: 5s, run_time_limit: 0s}}\nsandbox: {kind: process}\nbank: {path: bank.db}\n")
			if strings.Contains(tt.task, "generator.py") {
				testenv.WriteFiles(t, dir, map[string]string{"generator.py": smallGenerator})
			}
			ws := filepath.Join(dir, "ws")
			r := cli(t, dir, nil, append([]string{"run", "--config", cfg, "--workspace", ws, "--run-id", "small"}, tt.flags...)...)
			if r.code != exitOK {
				t.Fatalf("exit %d, want 0\n%s", r.code, r.stderr)
			}
			for _, w := range []string{"stop: " + workflow.StopExhausted, "verified exhaustively: the candidate passes every one of the 10 valid inputs (" + tt.wantFrom + ")"} {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, r.stdout)
				}
			}
			var res workflow.Result
			if err := json.Unmarshal([]byte(mustRead(t, filepath.Join(ws, workflow.ResultFile))), &res); err != nil {
				t.Fatal(err)
			}
			if res.StopReason != workflow.StopExhausted || !res.VerifiedExhaustively || res.FinalAccuracy != 1 {
				t.Fatalf("stop %s, verified_exhaustively %v, final accuracy %v; want exhausted, true, 1\n%s",
					res.StopReason, res.VerifiedExhaustively, res.FinalAccuracy, r.stderr)
			}
			if res.Domain == nil || *res.Domain != (workflow.FiniteDomain{From: tt.wantFrom, Inputs: 10}) {
				t.Errorf("domain %+v, want 10 inputs from %s, none left", res.Domain, tt.wantFrom)
			}
			var inputs []string
			for _, ex := range res.Examples {
				inputs = append(inputs, task.MustCanonical(ex.Input))
			}
			slices.Sort(inputs)
			if want := []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}; !slices.Equal(inputs, want) {
				t.Errorf("observed inputs %v, want each of 0 to 9 once", inputs)
			}
			// The journal: each input is in one batch, and no proposal was
			// refused for repeating one.
			batched := map[string]int{}
			for _, line := range strings.Split(strings.TrimSpace(mustRead(t, filepath.Join(ws, workflow.EventsFile))), "\n") {
				var ev workflow.Event
				if err := json.Unmarshal([]byte(line), &ev); err != nil {
					t.Fatal(err)
				}
				switch ev.Type {
				case workflow.EventBatchGranted:
					var b workflow.BatchGranted
					if err := json.Unmarshal(ev.Data, &b); err != nil {
						t.Fatal(err)
					}
					for _, ex := range b.Examples {
						batched[task.MustCanonical(ex.Input)]++
					}
				case workflow.EventProposalRejected:
					var p workflow.ProposalRejected
					if err := json.Unmarshal(ev.Data, &p); err != nil {
						t.Fatal(err)
					}
					if strings.HasPrefix(p.Reason, "repeat") || strings.HasPrefix(p.Reason, "wrong count") {
						t.Errorf("proposal of batch %d rejected: %s", p.Batch, p.Reason)
					}
				}
			}
			for in, n := range batched {
				if n != 1 {
					t.Errorf("input %s granted in %d batches", in, n)
				}
			}
			if len(batched) != 10 {
				t.Errorf("%d inputs granted, want 10", len(batched))
			}

			r = cli(t, dir, nil, "run", "--resume", "small", "--bank", filepath.Join(dir, "bank.db"))
			if r.code != exitUsage || !strings.Contains(r.stderr, "the run has already finished (exhausted)") {
				t.Errorf("resume: exit %d, want 2 saying the run finished exhausted\n%s", r.code, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(ws, "candidate.py")); err != nil {
				t.Errorf("no final program: %v", err)
			}
		})
	}
}
