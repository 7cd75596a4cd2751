package benchmarks

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"github.com/reconstruct/reconstruct/workflow"
)

// withFamilies gives the tasks of testResults the families named by ID.
func withFamilies(families map[string]string) []TaskResult {
	rs := testResults()
	for i := range rs {
		rs[i].Family = families[rs[i].ID]
	}
	return rs
}

func TestSummaryFamilies(t *testing.T) {
	tests := []struct {
		name     string
		families map[string]string
		// want is the per-family table; nil when none should appear.
		want map[string]LevelStats
		// rows are the rows of the family table in order ("" cells: none).
		rows []string
		// taskRow is the Markdown row of hard_sort.
		taskRow string
	}{
		{
			name:    "no family anywhere",
			taskRow: "| hard_sort | hard | no | 2/20 |",
		},
		{
			name:     "some tasks with a family",
			families: map[string]string{"base_add": "window", "base_max": "window", "algorithm_crash": "stack", "hard_rev": "stack"},
			want: map[string]LevelStats{
				"window": {Tasks: 2, Runs: 2, Solved: 1, Rate: 0.5},
				"stack":  {Tasks: 2, Runs: 2, Solved: 1, Rate: 0.5, Errors: 1},
				NoFamily: {Tasks: 3, Runs: 3, Solved: 2, Rate: 2.0 / 3},
			},
			rows: []string{
				"| stack | 2 | 1 | 50.0% | 1 |",
				"| window | 2 | 1 | 50.0% | 0 |",
				"| all families | 4 | 2 | 50.0% | 1 |",
				"| — | 3 | 2 | 66.7% | 0 |",
			},
			taskRow: "| hard_sort | hard | — | no | 2/20 |",
		},
		{
			name: "every task with a family",
			families: map[string]string{"base_add": "text", "base_abs": "text", "base_max": "text", "algorithm_gcd": "digits",
				"algorithm_crash": "digits", "hard_sort": "dp_loop", "hard_rev": "dp_loop"},
			want: map[string]LevelStats{
				"text":    {Tasks: 3, Runs: 3, Solved: 2, Rate: 2.0 / 3},
				"digits":  {Tasks: 2, Runs: 2, Solved: 1, Rate: 0.5, Errors: 1},
				"dp_loop": {Tasks: 2, Runs: 2, Solved: 1, Rate: 0.5},
			},
			rows: []string{
				"| digits | 2 | 1 | 50.0% | 1 |",
				"| dp_loop | 2 | 1 | 50.0% | 0 |",
				"| text | 3 | 2 | 66.7% | 0 |",
				"| all families | 7 | 4 | 57.1% | 1 |",
			},
			taskRow: "| hard_sort | hard | dp_loop | no | 2/20 |",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Summarize(withFamilies(tt.families))
			if tt.want == nil {
				if s.Families != nil {
					t.Errorf("Families = %v, want none", s.Families)
				}
			} else {
				if diff := cmp.Diff(tt.want, s.Families); diff != "" {
					t.Errorf("Families (-want +got):\n%s", diff)
				}
			}
			md := Markdown(s)
			var rows []string
			inTable := false
			for _, line := range strings.Split(md, "\n") {
				switch {
				case strings.HasPrefix(line, "| family |"):
					inTable = true
				case inTable && strings.HasPrefix(line, "|---"):
				case inTable && strings.HasPrefix(line, "| "):
					rows = append(rows, line)
				default:
					inTable = false
				}
			}
			if diff := cmp.Diff(tt.rows, rows); diff != "" {
				t.Errorf("family table rows (-want +got):\n%s\n%s", diff, md)
			}
			if !strings.Contains(md, tt.taskRow) {
				t.Errorf("Markdown lacks the task row %q:\n%s", tt.taskRow, md)
			}
			if hasColumn := strings.Contains(md, "| level | family | solved |"); hasColumn != (tt.want != nil) {
				t.Errorf("family column present = %v, want %v:\n%s", hasColumn, tt.want != nil, md)
			}
		})
	}
}

func TestReportFamilyTable(t *testing.T) {
	tests := []struct {
		name     string
		families map[string]string
		want     map[string]string
	}{
		{"no family anywhere", nil, map[string]string{}},
		{"some tasks with a family", map[string]string{"base_add": "window", "hard_rev": "stack", "hard_sort": "stack"},
			map[string]string{
				"stack":      "stack 2 1 50.0% 0",
				"window":     "window 1 1 100.0% 0",
				AllFamilies:  "all families 3 2 66.7% 0",
				NoFamily:     "— 4 2 50.0% 1",
				"(rows)":     "stack window all families —",
				"(total of)": "all families",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, page := reportPage(t, withFamilies(tt.families))
			doc, err := html.Parse(strings.NewReader(string(page)))
			if err != nil {
				t.Fatal(err)
			}
			var totals []string
			order, got := tableRows(doc, "family", func(tr *html.Node, cells []string) string {
				if c, _ := attrOf(tr, "class"); c == "total" {
					f, _ := attrOf(tr, "data-family")
					totals = append(totals, f)
				}
				return joinCells(tr, cells)
			})
			if len(order) > 0 {
				got["(rows)"] = strings.Join(order, " ")
				got["(total of)"] = strings.Join(totals, " ")
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("family table (-want +got):\n%s", diff)
			}
			if hasTable := strings.Contains(string(page), `id="families"`); hasTable != (len(tt.want) > 0) {
				t.Errorf("families table present = %v, want %v", hasTable, len(tt.want) > 0)
			}
		})
	}
}

func TestSummaryFamiliesRoundTrip(t *testing.T) {
	s := Summarize(withFamilies(map[string]string{"base_add": "window"}))
	dir := t.TempDir()
	if err := WriteSummary(dir, s); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSummary(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s.Families, back.Families); diff != "" {
		t.Errorf("families after a round trip (-want +got):\n%s", diff)
	}
	csvText, err := os.ReadFile(filepath.Join(dir, SummaryCSV))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(csvText), "\n")
	if !strings.HasPrefix(lines[0], "id,name,level,family,kind,") || !strings.Contains(string(csvText), "base_add,base_add,base,window,") {
		t.Errorf("summary.csv lacks the family column:\n%s", csvText)
	}
}

// mustReadFile is the content of the file at p.
func mustReadFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A run that stopped with early_stop on a program that fails a held-out
// test is a wrong early stop: counted and named in the summary and the
// report, apart from the unsolved runs that did not claim success; the
// runs' settings are grouped with where they came from.
func TestSummaryWrongEarlyStopsAndSettings(t *testing.T) {
	gen := map[string]string{"workflow.random_share": "default for a task with a generator", "workflow.coverage_gate": "default for a task with a generator"}
	flag := map[string]string{"workflow.random_share": "--random-share", "workflow.coverage_gate": "default"}
	rs := testResults()
	for i := range rs {
		if rs[i].StopReason != "" {
			rs[i].RandomShare, rs[i].CoverageGate, rs[i].Origins = 0.5, true, gen
		}
	}
	// hard_rev claimed success and fails 3 of 20 held-out tests; base_max
	// and hard_sort fail too, but stopped at max_iterations.
	rs[6].Solved, rs[6].HeldoutPassed, rs[6].HeldoutAccuracy = false, 17, 0.85
	rs[0].RandomShare, rs[0].CoverageGate, rs[0].Origins = 0, false, flag
	s := Summarize(rs)
	if s.WrongEarlyStops != 1 {
		t.Errorf("WrongEarlyStops = %d, want 1", s.WrongEarlyStops)
	}
	want := []SettingsGroup{
		{RandomShare: 0.5, CoverageGate: true, Origins: gen, Runs: 5},
		{RandomShare: 0, CoverageGate: false, Origins: flag, Runs: 1},
	}
	if diff := cmp.Diff(want, s.Settings); diff != "" {
		t.Errorf("Settings (-want +got):\n%s", diff)
	}
	md := Markdown(s)
	for _, line := range []string{
		"Wrong early stops (early_stop on a program that fails a held-out test): **1**: hard_rev.",
		"- random_share 0.5 (default for a task with a generator), coverage_gate true (default for a task with a generator): 5 runs",
		"- random_share 0 (--random-share), coverage_gate false (default): 1 run",
	} {
		if !strings.Contains(md, line+"\n") {
			t.Errorf("summary.md lacks %q:\n%s", line, md)
		}
	}
	_, _, page := reportPage(t, rs)
	doc, err := html.Parse(strings.NewReader(string(page)))
	if err != nil {
		t.Fatal(err)
	}
	cards := findAll(doc, func(n *html.Node) bool { id, _ := attrOf(n, "id"); return id == "wrong-early-stops" })
	if len(cards) != 1 || textOf(cards[0]) != "1" {
		t.Errorf("report's wrong early stops card: %d found, want one reading 1", len(cards))
	}
	if !strings.Contains(string(page), "random_share 0 (--random-share), coverage_gate false (default): 1 run") {
		t.Errorf("report does not show the settings")
	}
}

// The wall time of a sweep one of whose sessions was killed (it recorded
// no time) says which runs it is the time of.
func TestSummaryWallTimeOfKilledSessions(t *testing.T) {
	tests := []struct {
		name     string
		sessions []Session
		want     string // "" : no such note
	}{
		{name: "every session recorded", sessions: []Session{{WallSeconds: 10, Ran: 4}, {WallSeconds: 5, Ran: 3}}},
		{name: "an older summary without sessions"},
		{name: "a killed session", sessions: []Session{{WallSeconds: 5, Ran: 1}},
			want: "(the time of 1 of the 7 runs: the others finished in a session stopped before it could record its time)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Summarize(testResults())
			s.Sessions = tt.sessions
			md := Markdown(s)
			if got := strings.Contains(md, "(the time of "); got != (tt.want != "") || !strings.Contains(md, tt.want) {
				t.Errorf("summary.md headline:\n%s\nwant %q", strings.SplitN(md, "\n\n", 3)[1], tt.want)
			}
		})
	}
}

// A run that ended exhausted on a program passing every valid input is
// counted as verified exhaustively, in summary.json, summary.md, the CSV
// and the report; one that still fails a held-out test (its held-out
// tests hold an input outside the listed domain) is named apart.
func TestSummaryVerifiedExhaustively(t *testing.T) {
	rs := testResults()
	rs[0].StopReason, rs[0].VerifiedExhaustively = workflow.StopExhausted, true // base_add, solved
	rs[2].StopReason, rs[2].VerifiedExhaustively = workflow.StopExhausted, true // base_max, 15 of 20
	s := Summarize(rs)
	if s.VerifiedExhaustively != 2 || s.WrongExhaustive != 1 {
		t.Errorf("VerifiedExhaustively %d, WrongExhaustive %d; want 2, 1", s.VerifiedExhaustively, s.WrongExhaustive)
	}
	md := Markdown(s)
	want := "Verified exhaustively (stop exhausted: every valid input observed, and passed by the final program): **2**; of them failing a held-out test, an input outside the domain listed: **1**: base_max.\n"
	if !strings.Contains(md, want) {
		t.Errorf("summary.md lacks %q:\n%s", want, md)
	}
	var csvBuf strings.Builder
	if err := writeCSV(&csvBuf, s); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(csvBuf.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "verified_exhaustively")
	if col < 0 {
		t.Fatalf("summary.csv has no verified_exhaustively column: %v", rows[0])
	}
	n := 0
	for _, row := range rows[1:] {
		if row[col] == "true" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("summary.csv marks %d runs verified exhaustively, want 2", n)
	}
	_, _, page := reportPage(t, rs)
	doc, err := html.Parse(strings.NewReader(string(page)))
	if err != nil {
		t.Fatal(err)
	}
	cards := findAll(doc, func(n *html.Node) bool { id, _ := attrOf(n, "id"); return id == "verified-exhaustively" })
	if len(cards) != 1 || textOf(cards[0]) != "2" {
		t.Errorf("report's verified exhaustively card: %d found, want one reading 2", len(cards))
	}
	if strings.Contains(Markdown(Summarize(testResults())), "Verified exhaustively") {
		t.Errorf("the summary of a sweep without exhausted runs speaks of them")
	}
}
