package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"

	"github.com/reconstruct/reconstruct/benchmarks"
)

// Two committed sweeps in the summary.json format: A has 4 of 7 tasks
// solved and one error; B solves 5 of 7 and differs from A in every bucket.
const (
	sweepA = "../../benchmarks/testdata/report/sweep-a"
	sweepB = "../../benchmarks/testdata/report/sweep-b"
)

func testApp() (*app, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return &app{stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}, &out, &errOut
}

// command builds a command on a and sends cobra's own messages (usage,
// "Error:") to a's stderr, as the root command does.
func command(a *app, newCmd func(*app) *cobra.Command, args ...string) *cobra.Command {
	cmd := newCmd(a)
	cmd.SetOut(a.stderr)
	cmd.SetErr(a.stderr)
	cmd.SetArgs(args)
	return cmd
}

// copySweep copies a sweep's summary.json into a temporary sweep directory,
// so the default report directory is not written into testdata.
func copySweep(t *testing.T, src string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(src, benchmarks.SummaryJSON))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, benchmarks.SummaryJSON), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func reportFiles(dir string, tokens bool) []string {
	out := []string{filepath.Join(dir, benchmarks.ReportHTML)}
	plots := []string{benchmarks.PlotSolveRate, benchmarks.PlotIterationsExamples, benchmarks.PlotTimePerTask}
	if tokens {
		// A sweep whose runs used no tokens has no plot of them.
		plots = []string{benchmarks.PlotSolveRate, benchmarks.PlotIterationsExamples, benchmarks.PlotTokensSolved, benchmarks.PlotTimePerTask}
	}
	for _, p := range plots {
		out = append(out, filepath.Join(dir, p+".svg"), filepath.Join(dir, p+".png"))
	}
	return out
}

func TestBenchReportCmd(t *testing.T) {
	t.Run("default directory, text", func(t *testing.T) {
		dir := copySweep(t, sweepA)
		a, out, _ := testApp()
		cmd := command(a, newBenchReportCmd, dir)
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		want := reportFiles(filepath.Join(dir, benchmarks.ReportDir), false)
		if diff := cmp.Diff(want, strings.Fields(out.String())); diff != "" {
			t.Errorf("printed files (-want +got):\n%s", diff)
		}
		for _, f := range want {
			if _, err := os.Stat(f); err != nil {
				t.Error(err)
			}
		}
	})

	t.Run("--out and --json", func(t *testing.T) {
		outDir := filepath.Join(t.TempDir(), "rep")
		a, out, _ := testApp()
		cmd := command(a, newBenchReportCmd, sweepB, "--out", outDir, "--json")
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		var got []string
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("--json output %q: %v", out.String(), err)
		}
		if diff := cmp.Diff(reportFiles(outDir, true), got); diff != "" {
			t.Errorf("files (-want +got):\n%s", diff)
		}
		f, err := os.Open(filepath.Join(outDir, benchmarks.PlotSolveRate+".png"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := png.Decode(f); err != nil {
			t.Errorf("solve_rate.png: %v", err)
		}
		if _, err := os.Stat(filepath.Join(sweepB, benchmarks.ReportDir)); !os.IsNotExist(err) {
			t.Errorf("--out given but the sweep directory got a report (%v)", err)
		}
	})
}

func TestBenchCompareCmd(t *testing.T) {
	t.Run("text", func(t *testing.T) {
		a, out, _ := testApp()
		cmd := command(a, newBenchCompareCmd, sweepA, sweepB)
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, l := range strings.Split(out.String(), "\n") {
			lines = append(lines, strings.Join(strings.Fields(l), " "))
		}
		for _, want := range []string{
			"A " + sweepA + " 7 tasks, 4 solved (57.1%), 1 error",
			"B " + sweepB + " 7 tasks, 5 solved (71.4%), 0 errors",
			"the rates below are of the 6 tasks both sweeps have; 2 tasks in one sweep only (1 in A, 1 in B) are left out",
			"base 2/3 66.7% 3/3 100.0% +33.3 pp",
			"all levels 4/6 66.7% 4/6 66.7% +0.0 pp",
			"6 tasks in both sweeps, 2 solved differently: solved in A only 1, in B only 1, in both 3, in neither 1",
			"hard_rev hard solved unsolved A only",
			"geometry_area geometry solved",
		} {
			found := false
			for _, l := range lines {
				found = found || l == want
			}
			if !found {
				t.Errorf("output lacks line %q; got:\n%s", want, out.String())
			}
		}
	})

	t.Run("json", func(t *testing.T) {
		a, out, _ := testApp()
		cmd := command(a, newBenchCompareCmd, sweepA, sweepB, "--json")
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		var c benchmarks.Comparison
		if err := json.Unmarshal(out.Bytes(), &c); err != nil {
			t.Fatalf("--json output: %v", err)
		}
		want := benchmarks.BucketCounts{Common: 6, OnlyA: 1, OnlyB: 1, Both: 3, Neither: 1, InAOnly: 1, InBOnly: 1}
		if diff := cmp.Diff(want, c.Buckets); diff != "" {
			t.Errorf("buckets (-want +got):\n%s", diff)
		}
		// geometry is in B only.
		if got, want := len(c.Levels), 3; got != want {
			t.Errorf("levels: got %d, want %d", got, want)
		}
	})
}

func TestBenchReportCompareBadInput(t *testing.T) {
	wrong := t.TempDir()
	if err := os.WriteFile(filepath.Join(wrong, benchmarks.SummaryJSON), []byte(`{"format": 7}`), 0o644); err != nil {
		t.Fatal(err)
	}
	garbage := t.TempDir()
	if err := os.WriteFile(filepath.Join(garbage, benchmarks.SummaryJSON), []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "nope")
	tests := []struct {
		name string
		cmd  func(*app) *cobra.Command
		args []string
		want string
	}{
		{"report missing", newBenchReportCmd, []string{missing}, "read sweep summary"},
		{"report wrong format", newBenchReportCmd, []string{wrong}, "written in a newer format: format 7"},
		{"report not json", newBenchReportCmd, []string{garbage}, "invalid character"},
		{"compare missing A", newBenchCompareCmd, []string{missing, sweepB}, "sweep A: read sweep summary"},
		{"compare wrong B", newBenchCompareCmd, []string{sweepA, wrong}, "sweep B: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, out, _ := testApp()
			cmd := command(a, tt.cmd, tt.args...)
			err := cmd.Execute()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got error %v, want one containing %q", err, tt.want)
			}
			if got, want := exitCode(err), exitUsage; got != want {
				t.Errorf("exit code %d, want %d", got, want)
			}
			if out.Len() != 0 {
				t.Errorf("stdout on error: %q", out.String())
			}
		})
	}
	if _, err := os.Stat(filepath.Join(wrong, benchmarks.ReportDir)); !os.IsNotExist(err) {
		t.Errorf("a rejected summary got a report directory (%v)", err)
	}
}

func TestBenchReportArgs(t *testing.T) {
	tests := []struct {
		cmd  func(*app) *cobra.Command
		args []string
	}{
		{newBenchReportCmd, nil},
		{newBenchReportCmd, []string{sweepA, sweepB}},
		{newBenchCompareCmd, []string{sweepA}},
		{newBenchCompareCmd, []string{sweepA, sweepB, sweepA}},
	}
	for _, tt := range tests {
		a, _, _ := testApp()
		cmd := command(a, tt.cmd, tt.args...)
		wrapUsageErrors(cmd)
		if err := cmd.Execute(); exitCode(err) != exitUsage {
			t.Errorf("%s %q: got %v (exit %d), want a usage error", cmd.Name(), tt.args, err, exitCode(err))
		}
	}
}
