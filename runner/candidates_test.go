package runner

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// archiveOf makes a workspace whose archive holds one candidate per run
// named, in order, each defining f as the matching source.
func archiveOf(t *testing.T, runs []string, sources []string) string {
	t.Helper()
	ws := t.TempDir()
	a, err := candidates.Open(ws)
	if err != nil {
		t.Fatal(err)
	}
	for i, run := range runs {
		if _, err := a.Add(candidates.Record{RunID: run, Iteration: i + 1}, []byte(sources[i]), nil); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

func TestSelectRun(t *testing.T) {
	local := archiveOf(t, []string{"run-a", "run-b", "run-a"}, []string{"x = 1\n", "x = 2\n", "x = 3\n"})
	inBank := archiveOf(t, []string{"run-c"}, []string{"x = 4\n"})
	empty := t.TempDir()
	if err := os.MkdirAll(filepath.Join(empty, candidates.Dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(empty, candidates.Dir, "manifest.json"), []byte(`{"entries":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "gone")
	bankErr := errors.New("no run in the bank")
	fetch := func(_ context.Context, run string) (string, error) {
		if run == "run-c" {
			return inBank, nil
		}
		return "", bankErr
	}
	tests := []struct {
		name          string
		workspace     string
		run           string
		wantWorkspace string
		wantRun       string
		wantIters     []int
		wantErr       string // a *NoCandidatesError with this text
		wantNoArchive bool
	}{
		{name: "latest run", workspace: local, wantWorkspace: local, wantRun: "run-a", wantIters: []int{1, 3}},
		{name: "named run", workspace: local, run: "run-b", wantWorkspace: local, wantRun: "run-b", wantIters: []int{2}},
		{name: "every run", workspace: local, run: candidates.AllRuns, wantWorkspace: local, wantRun: candidates.AllRuns, wantIters: []int{1, 2, 3}},
		{name: "a run the workspace lacks comes from the bank", workspace: local, run: "run-c", wantWorkspace: inBank, wantRun: "run-c", wantIters: []int{1}},
		{name: "a workspace not here comes from the bank", workspace: missing, run: "run-c", wantWorkspace: inBank, wantRun: "run-c", wantIters: []int{1}},
		{name: "nowhere", workspace: local, run: "run-z", wantErr: local + `: no candidates from run "run-z"; nor in the bank: no run in the bank`},
		{name: "no archive, no run named", workspace: missing, wantErr: "no candidate archive in " + missing, wantNoArchive: true},
		{name: "no archive, every run", workspace: missing, run: candidates.AllRuns, wantErr: "no candidate archive in " + missing},
		{name: "empty archive", workspace: empty, wantErr: empty + ": the archive is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := SelectRun(context.Background(), tt.workspace, tt.run, fetch)
			if tt.wantErr != "" {
				var none *NoCandidatesError
				if !errors.As(err, &none) || !strings.HasPrefix(err.Error(), tt.wantErr) || none.NoArchive != tt.wantNoArchive {
					t.Fatalf("SelectRun error = %#v (%v), want a *NoCandidatesError %q (NoArchive %v)", err, err, tt.wantErr, tt.wantNoArchive)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var iters []int
			for _, r := range sel.Records {
				iters = append(iters, r.Iteration)
			}
			if sel.Workspace != tt.wantWorkspace || sel.Run != tt.wantRun || sel.Archive == nil {
				t.Errorf("SelectRun = workspace %s, run %s, archive %v; want %s, %s", sel.Workspace, sel.Run, sel.Archive, tt.wantWorkspace, tt.wantRun)
			}
			if diff := cmp.Diff(tt.wantIters, iters); diff != "" {
				t.Errorf("iterations (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSelectRunUnreadableManifest(t *testing.T) {
	ws := archiveOf(t, []string{"run-a"}, []string{"x = 1\n"})
	if err := os.WriteFile(filepath.Join(ws, candidates.Dir, "manifest.json"), []byte("{broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := SelectRun(context.Background(), ws, "", nil)
	var none *NoCandidatesError
	if err == nil || errors.As(err, &none) {
		t.Errorf("SelectRun on a broken manifest = %v, want a failure that is not a *NoCandidatesError", err)
	}
}

func TestUnpackRun(t *testing.T) {
	ws := archiveOf(t, []string{"run-a"}, []string{"x = 1\n"})
	data, _, err := candidates.Pack(ws, []string{candidates.Dir}, candidates.DefaultBundleLimit)
	if err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(t.TempDir(), "runs")
	dir, fresh, err := UnpackRun(data, "sha256:abc", cache)
	if err != nil || !fresh || dir != filepath.Join(cache, "abc") {
		t.Fatalf("first UnpackRun = %s, %v, %v; want %s, fresh", dir, fresh, err, filepath.Join(cache, "abc"))
	}
	sel, err := SelectRun(context.Background(), dir, "run-a", nil)
	if err != nil || len(sel.Records) != 1 {
		t.Errorf("the unpacked archive: %v, %v", sel.Records, err)
	}
	again, fresh, err := UnpackRun([]byte("not read again"), "sha256:abc", cache)
	if err != nil || fresh || again != dir {
		t.Errorf("second UnpackRun = %s, %v, %v; want %s from the cache", again, fresh, err, dir)
	}
	if _, _, err := UnpackRun([]byte("not a bundle"), "sha256:def", cache); err == nil {
		t.Error("UnpackRun of a broken bundle succeeded")
	}
}

func TestRescoringOf(t *testing.T) {
	ws := t.TempDir()
	started := func(run, fn string, atol float64) workflow.Event {
		data, err := json.Marshal(workflow.RunStarted{Task: task.Task{FunctionName: fn}, Settings: workflow.Settings{Atol: atol}})
		if err != nil {
			t.Fatal(err)
		}
		return workflow.Event{RunID: run, Type: workflow.EventRunStarted, Data: data}
	}
	if err := workflow.WriteJournal(ws, []workflow.Event{started("r1", "solve", 0.5), started("r2", "other", 0)}, nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, workspace, run, function string
		want                           Rescoring
		wantErr                        error
	}{
		{name: "first run", workspace: ws, run: "", want: Rescoring{Function: "solve", Atol: 0.5}},
		{name: "every run reads the first", workspace: ws, run: candidates.AllRuns, want: Rescoring{Function: "solve", Atol: 0.5}},
		{name: "a run without atol keeps the default", workspace: ws, run: "r2", want: Rescoring{Function: "other", Atol: task.DefaultAtol}},
		{name: "the function given wins", workspace: ws, run: "r1", function: "mine", want: Rescoring{Function: "mine", Atol: 0.5}},
		{name: "no journal, function given", workspace: t.TempDir(), function: "mine", want: Rescoring{Function: "mine", Atol: task.DefaultAtol}},
		{name: "no journal", workspace: t.TempDir(), wantErr: ErrNoFunction},
		{name: "run not in the journal", workspace: ws, run: "r9", wantErr: ErrNoFunction},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := RescoringOf(tt.workspace, tt.run, tt.function)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("RescoringOf error = %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr != nil {
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("RescoringOf (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRescore(t *testing.T) {
	needPython(t)
	ws := archiveOf(t, []string{"r", "r", "r"}, []string{
		"def f(x):\n    return 2 * x\n",
		"def f(x):\n    return x + 2\n",
		"def f(x):\n    return 2 * x\n", // the same program: scored once
	})
	sel, err := SelectRun(context.Background(), ws, "r", nil)
	if err != nil {
		t.Fatal(err)
	}
	var examples []task.Example
	for _, x := range []int{1, 2, 3} {
		in, _ := json.Marshal(x)
		out, _ := json.Marshal(2 * x)
		examples = append(examples, task.Example{Input: in, Output: out})
	}
	c := quickstart(t, nil)
	got, err := Rescore(context.Background(), c.Sandbox, nopLog(), sel, Rescoring{Function: "f", Atol: task.DefaultAtol, Examples: examples})
	if err != nil {
		t.Fatal(err)
	}
	var passed []int
	for _, r := range got {
		passed = append(passed, r.Passed)
		if r.Total != 3 {
			t.Errorf("iteration %d: total %d, want 3", r.Record.Iteration, r.Total)
		}
	}
	if diff := cmp.Diff([]int{3, 1, 3}, passed); diff != "" {
		t.Errorf("passed per candidate (-want +got):\n%s", diff)
	}
}
