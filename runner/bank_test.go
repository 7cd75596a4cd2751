package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

func TestRunIsRecordedInTheBank(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	c := quickstart(t, nil)
	res, err := Run(context.Background(), c, Options{RunID: "bank-run"})
	if err != nil {
		t.Fatal(err)
	}
	b, closeBank, err := OpenBank(context.Background(), c.Bank.Path, ReadBank, BankOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeBank()
	ws, err := FindRun(context.Background(), b, "bank-run")
	if err != nil {
		t.Fatal(err)
	}
	if ws != "running_max-bank-run" {
		t.Errorf("bank workspace = %q", ws)
	}
	inBank, err := RunEvents(context.Background(), b, ws)
	if err != nil {
		t.Fatal(err)
	}
	onDisk, err := workflow.ReadEvents(c.Workspace)
	if err != nil {
		t.Fatal(err)
	}
	canonical := cmp.Transformer("canonical", func(raw json.RawMessage) string { return task.MustCanonical(raw) })
	if diff := cmp.Diff(onDisk, inBank, canonical); diff != "" {
		t.Errorf("bank journal differs from events.jsonl (-file +bank):\n%s", diff)
	}
	log, err := b.Log(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, r := range log {
		msg, _, _ := strings.Cut(r.Message, " (") // the archive's size varies
		if !strings.HasPrefix(msg, "workspace archive") {
			msg = r.Message
		}
		msgs = append(msgs, r.Action+": "+msg)
	}
	want := []string{"create: run started",
		"update: batch of 2 examples (2 known)", "update: batch of 4 examples (6 known)", "update: batch of 6 examples (12 known)",
		"update: batch of 8 examples (20 known)", "update: batch of 10 examples (30 known)", "update: final program",
		"update: workspace archive"}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("revisions (-want +got):\n%s", diff)
	}
	obs, err := b.Observe(context.Background(), ws, "")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := obs.Outputs["known"].Int(); n != 30 {
		t.Errorf("known output = %d, want 30", n)
	}
	p, _ := obs.Outputs["program"].Program()
	if p == nil || p.Source != res.FinalProgram || p.Function != "solve" {
		t.Errorf("program output %+v, want the final program", p)
	}
	// The workspace archive holds the run's files as they are on disk.
	data, _, err := RunArchive(context.Background(), b, "bank-run")
	if err != nil {
		t.Fatal(err)
	}
	copyDir := filepath.Join(t.TempDir(), "copy")
	if err := candidates.Unpack(data, copyDir, candidates.DefaultBundleLimit); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{agent.CandidateFile, workflow.EventsFile, filepath.Join(candidates.Dir, "manifest.json")} {
		want, _ := os.ReadFile(filepath.Join(c.Workspace, f))
		got, err := os.ReadFile(filepath.Join(copyDir, f))
		if err != nil || string(got) != string(want) || len(want) == 0 {
			t.Errorf("archived %s: %d bytes (%v), want the workspace's %d", f, len(got), err, len(want))
		}
	}
	runs, err := Runs(context.Background(), b)
	if err != nil || len(runs) != 1 || runs[0].StopReason != workflow.StopEarly || runs[0].Known != 30 || runs[0].Iterations != 6 {
		t.Errorf("Runs = %+v, %v", runs, err)
	}
}

// longScript is the quickstart's replay script with enough proposals for a
// forked run to go on.
func longScript(t *testing.T) string {
	t.Helper()
	rng := rand.New(rand.NewSource(7))
	seen := map[string]bool{}
	var b strings.Builder
	b.WriteString(`candidates:
  - source: |
      def solve(input_data):
          return sorted(input_data)
  - source: |
      def solve(input_data):
          result = []
          best = None
          for x in input_data:
              best = x if best is None else max(best, x)
              result.append(best)
          return result
proposals:
  - inputs: [[3, 1, 2], [5, -4, 7, 0]]
`)
	for k := 4; k <= 44; k += 2 {
		var ins []string
		for len(ins) < k {
			n := 1 + rng.Intn(12)
			xs := make([]string, n)
			for i := range xs {
				xs[i] = fmt.Sprint(rng.Intn(101) - 50)
			}
			s := "[" + strings.Join(xs, ", ") + "]"
			if !seen[s] {
				seen[s] = true
				ins = append(ins, s)
			}
		}
		fmt.Fprintf(&b, "  - inputs: [%s]\n", strings.Join(ins, ", "))
	}
	p := filepath.Join(t.TempDir(), "script.yaml")
	os.WriteFile(p, []byte(b.String()), 0o644)
	return p
}

func TestForkTurnsOnCoverageGate(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	script := longScript(t)
	bankPath := filepath.Join(t.TempDir(), "bank.db")
	c := quickstart(t, map[string]any{"agent.replay.script": script, "bank.path": bankPath, "workflow.early_stop": 2})
	first, err := Run(context.Background(), c, Options{RunID: "parent"})
	if err != nil {
		t.Fatal(err)
	}
	if first.StopReason != workflow.StopEarly || first.KnownExamples != 6 {
		t.Fatalf("parent: %s with %d examples", first.StopReason, first.KnownExamples)
	}
	fc := quickstart(t, map[string]any{"agent.replay.script": script, "bank.path": bankPath, "workflow.coverage_gate": true})
	res, err := Fork(context.Background(), fc, "parent", Options{RunID: "child"})
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != workflow.StopEarly || res.KnownExamples <= first.KnownExamples {
		t.Fatalf("fork: stop %s, %d examples", res.StopReason, res.KnownExamples)
	}
	if diff := cmp.Diff(first.Examples, res.Examples[:len(first.Examples)]); diff != "" {
		t.Errorf("the fork did not start from the parent's examples (-parent +fork):\n%s", diff)
	}
	gates := 0
	for _, r := range res.Events[len(first.Events):] {
		if r.Gate == "coverage" {
			gates++
		}
	}
	if gates == 0 {
		t.Errorf("the coverage gate never held a promotion back in the fork: %+v", res.Events)
	}
	// The fork's archive holds the parent's candidates as its own.
	arch, _ := candidates.OpenExisting(fc.Workspace)
	recs, _ := arch.Run("child")
	if len(recs) != res.Iterations {
		t.Errorf("fork archive has %d candidates of run child, want %d", len(recs), res.Iterations)
	}
	b, closeBank, _ := OpenBank(context.Background(), bankPath, ReadBank, BankOptions{})
	defer closeBank()
	wss, _ := b.Workspaces(context.Background())
	var forked string
	for _, w := range wss {
		if strings.HasSuffix(w.Name, "-child") {
			forked = w.ForkedFrom
		}
	}
	if !strings.HasPrefix(forked, "running_max-parent@") {
		t.Errorf("child workspace forked_from = %q", forked)
	}
	info, err := ShowRun(context.Background(), b, "child")
	if err != nil || info.ForkedFrom != "parent" || !info.Settings.CoverageGate {
		t.Errorf("ShowRun(child) = %+v, %v", info, err)
	}
}

func TestForkRefusesAnotherTask(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	bankPath := filepath.Join(t.TempDir(), "bank.db")
	c := quickstart(t, map[string]any{"bank.path": bankPath})
	if _, err := Run(context.Background(), c, Options{RunID: "p"}); err != nil {
		t.Fatal(err)
	}
	other := quickstart(t, map[string]any{"bank.path": bankPath, "task.name": "something_else"})
	if _, err := Fork(context.Background(), other, "p", Options{}); err == nil || !strings.Contains(err.Error(), "something_else") {
		t.Errorf("fork onto another task: %v", err)
	}
}

func TestRegisteredProgramMapsOverAList(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	c := quickstart(t, nil)
	if _, err := Run(context.Background(), c, Options{RunID: "prog-run"}); err != nil {
		t.Fatal(err)
	}
	programs := NewProgramRunner(c.Sandbox, nil)
	defer programs.Close()
	b, closeBank, err := OpenBank(context.Background(), c.Bank.Path, WriteBank, BankOptions{Programs: programs})
	if err != nil {
		t.Fatal(err)
	}
	defer closeBank()
	prog, err := ProgramOfRun(context.Background(), b, "prog-run")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.RegisterProgram(context.Background(), "running_max", prog); err != nil {
		t.Fatal(err)
	}
	inputs := [][]int{{3, 1, 2}, {}, {-5, 4, -9, 8}, {7}}
	var items []bank.Value
	for _, in := range inputs {
		raw, _ := json.Marshal(in)
		v, err := bank.JSONValue(raw)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, v)
	}
	g := &bank.Graph{
		Inputs:  map[string]bank.Value{"xs": bank.List(bank.KindJSON, items)},
		Nodes:   []bank.Node{{ID: "maxes", Map: &bank.Apply{Op: "running_max", Items: "xs", Bindings: map[string]string{}}}},
		Outputs: map[string]string{"maxes": "maxes"},
	}
	if _, err := b.Create(context.Background(), "apply-test", g, "map the reconstructed program"); err != nil {
		t.Fatal(err)
	}
	obs, err := b.Observe(context.Background(), "apply-test", "")
	if err != nil {
		t.Fatal(err)
	}
	if obs.Error != "" {
		t.Fatalf("observe: %s", obs.Error)
	}
	got, _ := obs.Outputs["maxes"].Items()
	// The hidden program's outputs, computed by the hidden program itself.
	hidden := quickstartHidden(t, c, inputs)
	if len(got) != len(hidden) {
		t.Fatalf("%d outputs, want %d", len(got), len(hidden))
	}
	for i, v := range got {
		raw, _ := v.JSON()
		if !task.Equal(raw, hidden[i], 0) {
			t.Errorf("output %d = %s, hidden program says %s", i, raw, hidden[i])
		}
	}
}

// quickstartHidden asks the hidden program (in its sandbox) for outputs.
func quickstartHidden(t *testing.T, c *config.Config, inputs [][]int) []json.RawMessage {
	t.Helper()
	boxes, err := OpenSandboxes(context.Background(), c, "hidden-check", nopLog())
	if err != nil {
		t.Fatal(err)
	}
	defer boxes.Close()
	orc, _ := NewOracle(c, boxes.Oracle)
	raws := make([]json.RawMessage, len(inputs))
	for i, in := range inputs {
		raws[i], _ = json.Marshal(in)
	}
	answers, err := orc.Query(context.Background(), raws)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]json.RawMessage, len(answers))
	for i, a := range answers {
		out[i] = a.Output
	}
	return out
}

// A run goes on (resume, fork) only from a journal whose examples are the
// bank's content-hashed ones: an example altered in the journal is
// refused as tampering, naming it.
func TestContinueRefusesAJournalThatDiffersFromTheBank(t *testing.T) {
	ctx := context.Background()
	b, closeBank, err := OpenBank(ctx, filepath.Join(t.TempDir(), "bank.db"), WriteBank, BankOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeBank()
	rec, err := NewRunWorkspace(ctx, b, "t-run", "solve")
	if err != nil {
		t.Fatal(err)
	}
	recorded := []task.Example{{Input: json.RawMessage(`[5,-4,7,0]`), Output: json.RawMessage(`[5,5,7,7]`), Source: task.SourceInitial}}
	if err := rec.RecordExamples(ctx, "", recorded); err != nil {
		t.Fatal(err)
	}
	if _, err := ContinueRunWorkspace(ctx, b, "t-run", "solve", recorded); err != nil {
		t.Fatalf("the same examples: %v", err)
	}
	altered := []task.Example{{Input: json.RawMessage(`[5,-4,7,0]`), Output: json.RawMessage(`[5,5,7,8]`), Source: task.SourceInitial}}
	_, err = ContinueRunWorkspace(ctx, b, "t-run", "solve", altered)
	if !errors.Is(err, bank.ErrTampered) || !strings.Contains(err.Error(), "[5,5,7,8]") {
		t.Fatalf("an altered journal: %v, want bank.ErrTampered naming the example", err)
	}
}
