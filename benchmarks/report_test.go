package benchmarks

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"github.com/reconstruct/reconstruct/internal/chart"
	"github.com/reconstruct/reconstruct/task"
)

// testResults is a small sweep over three levels: some solved, one task
// whose run failed with an error.
func testResults() []TaskResult {
	return []TaskResult{
		{ID: "base_add", Name: "base_add", Level: "base", Solved: true, HeldoutAccuracy: 1, HeldoutPassed: 20, HeldoutTotal: 20, StopReason: "early_stop", Iterations: 2, Promotions: 1, Examples: 12, WallSeconds: 1.5,
			CPUSeconds: 1.25, PeakRSSBytes: 300 << 20, PeakHeapBytes: 200 << 20},
		{ID: "base_abs", Name: "base_abs", Level: "base", Solved: true, HeldoutAccuracy: 1, HeldoutPassed: 20, HeldoutTotal: 20, StopReason: "early_stop", Iterations: 1, Examples: 10, WallSeconds: 0.8},
		{ID: "base_max", Name: "base_max", Level: "base", HeldoutAccuracy: 0.75, HeldoutPassed: 15, HeldoutTotal: 20, StopReason: "max_iterations", Iterations: 5, Promotions: 3, Examples: 30, WallSeconds: 6.2},
		{ID: "algorithm_gcd", Name: "algorithm_gcd", Level: "algorithm", Solved: true, HeldoutAccuracy: 1, HeldoutPassed: 20, HeldoutTotal: 20, StopReason: "early_stop", Iterations: 3, Promotions: 2, Examples: 18, WallSeconds: 2.4},
		{ID: "algorithm_crash", Name: "algorithm_crash", Level: "algorithm", WallSeconds: 0.3, Error: "oracle: hidden program crashed: exit status 1"},
		{ID: "hard_sort", Name: "hard_sort", Level: "hard", HeldoutAccuracy: 0.1, HeldoutPassed: 2, HeldoutTotal: 20, StopReason: "max_iterations", Iterations: 8, Promotions: 4, Examples: 40, WallSeconds: 7.9,
			CPUSeconds: 15.5, PeakRSSBytes: 1536 << 20, PeakHeapBytes: 1 << 30},
		{ID: "hard_rev", Name: "hard_rev", Level: "hard", Solved: true, HeldoutAccuracy: 1, HeldoutPassed: 20, HeldoutTotal: 20, StopReason: "early_stop", Iterations: 4, Promotions: 2, Examples: 22, WallSeconds: 3.3},
	}
}

// withTokens gives each task a token count, as an LLM agent's sweep has.
func withTokens(rs []TaskResult) []TaskResult {
	for i := range rs {
		rs[i].Tokens = task.Usage{PromptTokens: 1000 * (i + 1), CompletionTokens: 100 * (i + 1)}
	}
	return rs
}

// writeSweep writes a sweep directory holding summary.json for results.
// reportPage writes a sweep of results, renders its report and returns
// the sweep's directory, the files written and the HTML page.
func reportPage(t *testing.T, results []TaskResult) (string, ReportFiles, []byte) {
	t.Helper()
	dir, _ := writeSweep(t, results)
	files, err := Report(context.Background(), dir, "")
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(files.HTML)
	if err != nil {
		t.Fatal(err)
	}
	return dir, files, page
}

func writeSweep(t *testing.T, results []TaskResult) (string, Summary) {
	t.Helper()
	s := Summarize(results)
	s.TasksDir = "benchmarks/tasks/test"
	s.Parallel = 2
	s.Repeat = 1
	s.StartedAt = time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	s.FinishedAt = s.StartedAt.Add(14 * time.Second)
	s.WallSeconds = 14
	s.Sessions = []Session{{StartedAt: s.StartedAt, FinishedAt: s.FinishedAt, WallSeconds: 14, Ran: len(results),
		CPUSeconds: 20.5, SandboxCPUSeconds: 3, PeakRSSBytes: 1600 << 20, PeakHeapBytes: 1100 << 20, FinalRSSBytes: 700 << 20, FinalHeapBytes: 90 << 20}}
	dir := t.TempDir()
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, SummaryJSON), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, s
}

// node helpers over a parsed HTML tree.

func attrOf(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func findAll(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

// cellTexts returns the text of every td below n, in order.
func cellTexts(n *html.Node) []string {
	var cells []string
	for _, td := range findAll(n, func(n *html.Node) bool { return n.Data == "td" }) {
		cells = append(cells, textOf(td))
	}
	return cells
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func hasAttr(tag, key string) func(*html.Node) bool {
	return func(n *html.Node) bool {
		_, ok := attrOf(n, key)
		return n.Data == tag && ok
	}
}

// tableRows returns the rows of a report table by their data-<key>
// attribute (data-level, data-family, data-task), and those keys in the
// order of the page; row makes each row's text from its element and the
// texts of its cells.
func tableRows(root *html.Node, key string, row func(tr *html.Node, cells []string) string) ([]string, map[string]string) {
	var order []string
	rows := map[string]string{}
	for _, tr := range findAll(root, hasAttr("tr", "data-"+key)) {
		k, _ := attrOf(tr, "data-"+key)
		order = append(order, k)
		rows[k] = row(tr, cellTexts(tr))
	}
	return order, rows
}

// joinCells is a row of tableRows as the texts of its cells, spaced.
func joinCells(_ *html.Node, cells []string) string { return strings.Join(cells, " ") }

// plotSVGs parses report.html and returns its inline SVGs by data-plot.
func plotSVGs(t *testing.T, page []byte) (*html.Node, map[string]*html.Node) {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatalf("report.html does not parse: %v", err)
	}
	svgs := map[string]*html.Node{}
	for _, n := range findAll(doc, hasAttr("svg", "data-plot")) {
		name, _ := attrOf(n, "data-plot")
		if _, dup := svgs[name]; dup {
			t.Errorf("plot %s appears twice", name)
		}
		svgs[name] = n
	}
	return doc, svgs
}

// dataRows collects, for each element with data-<key>, the values of the
// listed data attributes, keyed by the data-<key> value.
func dataRows(root *html.Node, tag, key string, fields ...string) map[string][]string {
	out := map[string][]string{}
	for _, n := range findAll(root, hasAttr(tag, "data-"+key)) {
		k, _ := attrOf(n, "data-"+key)
		var vals []string
		for _, f := range fields {
			v, _ := attrOf(n, "data-"+f)
			vals = append(vals, v)
		}
		out[k] = vals
	}
	return out
}

func TestReport(t *testing.T) {
	dir, files, page := reportPage(t, testResults())
	outDir := filepath.Join(dir, ReportDir)
	want := []string{filepath.Join(outDir, ReportHTML)}
	// No run used a model: no plot of tokens.
	for _, p := range []string{PlotSolveRate, PlotIterationsExamples, PlotTimePerTask} {
		want = append(want, filepath.Join(outDir, p+".svg"), filepath.Join(outDir, p+".png"))
	}
	if diff := cmp.Diff(want, files.All()); diff != "" {
		t.Errorf("files written (-want +got):\n%s", diff)
	}
	doc, svgs := plotSVGs(t, page)
	if got := len(svgs); got != 3 {
		t.Fatalf("inline plots: got %d, want 3", got)
	}

	t.Run("header", func(t *testing.T) {
		got := map[string]string{}
		for _, id := range []string{"tasks", "solved", "rate", "errors", "wall"} {
			for _, n := range findAll(doc, func(n *html.Node) bool { v, _ := attrOf(n, "id"); return v == id }) {
				got[id] = textOf(n)
			}
		}
		want := map[string]string{"tasks": "7", "solved": "4", "rate": "57%", "errors": "1", "wall": "14 s"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("header cards (-want +got):\n%s", diff)
		}
		// The process's CPU time and memory, from the sessions.
		var process string
		for _, n := range findAll(doc, func(n *html.Node) bool { v, _ := attrOf(n, "id"); return v == "process" }) {
			process = textOf(n)
		}
		if w := "CPU 20.5 s (sandbox processes 3.0 s); peak memory 1600 MiB resident, 1100 MiB Go heap; 700 MiB resident and 90 MiB Go heap once the last run had ended"; !strings.Contains(process, w) {
			t.Errorf("process = %q, want it to say %q", process, w)
		}
	})

	t.Run("level table", func(t *testing.T) {
		_, got := tableRows(doc, "level", joinCells)
		want := map[string]string{
			"base":       "base 3 2 66.7% 0",
			"algorithm":  "algorithm 2 1 50.0% 1",
			"hard":       "hard 2 1 50.0% 0",
			"all levels": "all levels 7 4 57.1% 1",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("levels (-want +got):\n%s", diff)
		}
	})

	t.Run("task table", func(t *testing.T) {
		order, got := tableRows(doc, "task", func(tr *html.Node, cells []string) string {
			st, _ := attrOf(tr, "data-status")
			return st + ": " + strings.Join(cells[2:], " | ")
		})
		wantOrder := []string{"base_abs", "base_add", "base_max", "algorithm_crash", "algorithm_gcd", "hard_rev", "hard_sort"}
		if diff := cmp.Diff(wantOrder, order); diff != "" {
			t.Errorf("task rows (-want +got):\n%s", diff)
		}
		want := map[string]string{
			"base_abs":        "solved: solved | 1.000 (20/20) | early_stop | 1 | 0 | 10 | 0 | 0.80 s | — | — | ",
			"base_add":        "solved: solved | 1.000 (20/20) | early_stop | 2 | 1 | 12 | 0 | 1.50 s | 1.25 s | 300 MiB | ",
			"base_max":        "unsolved: unsolved | 0.750 (15/20) | max_iterations | 5 | 3 | 30 | 0 | 6.20 s | — | — | ",
			"algorithm_crash": "error: error | — | — | 0 | 0 | 0 | 0 | 0.30 s | — | — | oracle: hidden program crashed: exit status 1",
			"algorithm_gcd":   "solved: solved | 1.000 (20/20) | early_stop | 3 | 2 | 18 | 0 | 2.40 s | — | — | ",
			"hard_rev":        "solved: solved | 1.000 (20/20) | early_stop | 4 | 2 | 22 | 0 | 3.30 s | — | — | ",
			"hard_sort":       "unsolved: unsolved | 0.100 (2/20) | max_iterations | 8 | 4 | 40 | 0 | 7.90 s | 16 s | 1536 MiB | ",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("task rows (-want +got):\n%s", diff)
		}
	})

	t.Run("solve rate bars", func(t *testing.T) {
		got := dataRows(svgs[PlotSolveRate], "rect", "level", "solved", "tasks", "rate")
		want := map[string][]string{
			"base":       {"2", "3", strconv.FormatFloat(2.0/3, 'f', -1, 64)},
			"algorithm":  {"1", "2", "0.5"},
			"hard":       {"1", "2", "0.5"},
			"all levels": {"4", "7", strconv.FormatFloat(4.0/7, 'f', -1, 64)},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("solve-rate bars (-want +got):\n%s", diff)
		}
		// The bar heights are proportional to the rates.
		heights := map[string]float64{}
		for _, n := range findAll(svgs[PlotSolveRate], hasAttr("rect", "data-level")) {
			lvl, _ := attrOf(n, "data-level")
			h, _ := attrOf(n, "height")
			heights[lvl], _ = strconv.ParseFloat(h, 64)
		}
		if got, want := heights["algorithm"]/heights["base"], 0.75; got < want-0.01 || got > want+0.01 {
			t.Errorf("bar height ratio algorithm/base = %.3f, want %.2f", got, want)
		}
		var labels []string
		for _, n := range findAll(svgs[PlotSolveRate], func(n *html.Node) bool { return n.Data == "text" }) {
			labels = append(labels, textOf(n))
		}
		for _, l := range []string{"67%", "2/3", "50%", "1/2", "57%", "4/7", "1 error"} {
			if !contains(labels, l) {
				t.Errorf("solve-rate chart lacks label %q; labels %q", l, labels)
			}
		}
	})

	t.Run("iterations and examples", func(t *testing.T) {
		itBy, exBy := map[string]string{}, map[string]string{}
		for _, n := range findAll(svgs[PlotIterationsExamples], hasAttr("rect", "data-task")) {
			id, _ := attrOf(n, "data-task")
			st, _ := attrOf(n, "data-status")
			if v, ok := attrOf(n, "data-iterations"); ok {
				itBy[id] = v + " " + st
			}
			if v, ok := attrOf(n, "data-examples"); ok {
				exBy[id] = v + " " + st
			}
		}
		wantIt, wantEx := map[string]string{}, map[string]string{}
		for _, r := range testResults() {
			wantIt[r.ID] = strconv.Itoa(r.Iterations) + " " + taskStatus(r)
			wantEx[r.ID] = strconv.Itoa(r.Examples) + " " + taskStatus(r)
		}
		if diff := cmp.Diff(wantIt, itBy); diff != "" {
			t.Errorf("iteration bars (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(wantEx, exBy); diff != "" {
			t.Errorf("example bars (-want +got):\n%s", diff)
		}
	})

	t.Run("tokens", func(t *testing.T) {
		if _, ok := svgs[PlotTokensSolved]; ok {
			t.Error("a sweep without tokens has an empty plot of them")
		}
		if !strings.Contains(textOf(doc), "No LLM tokens: no run of this sweep used a model") {
			t.Error("a sweep without tokens does not say so")
		}
	})

	t.Run("time per task", func(t *testing.T) {
		var order []string
		for _, n := range findAll(svgs[PlotTimePerTask], hasAttr("rect", "data-seconds")) {
			id, _ := attrOf(n, "data-task")
			sec, _ := attrOf(n, "data-seconds")
			order = append(order, id+"="+sec)
		}
		want := []string{"hard_sort=7.9", "base_max=6.2", "hard_rev=3.3", "algorithm_gcd=2.4", "base_add=1.5", "base_abs=0.8", "algorithm_crash=0.3"}
		if diff := cmp.Diff(want, order); diff != "" {
			t.Errorf("time bars, longest first (-want +got):\n%s", diff)
		}
	})

	t.Run("self-contained", func(t *testing.T) {
		if n := findAll(doc, func(n *html.Node) bool {
			return n.Data == "script" || n.Data == "link" || n.Data == "img" || n.Data == "iframe"
		}); len(n) > 0 {
			t.Errorf("report has %d script/link/img/iframe elements", len(n))
		}
		for _, n := range findAll(doc, hasAttr("a", "href")) {
			href, _ := attrOf(n, "href")
			if strings.Contains(href, ":") || strings.Contains(href, "/") {
				t.Errorf("link %q leaves the report directory", href)
			} else if _, err := os.Stat(filepath.Join(outDir, href)); err != nil {
				t.Errorf("link %q: %v", href, err)
			}
		}
	})

	t.Run("svg and png files", func(t *testing.T) {
		for _, p := range files.Plots {
			data, err := os.ReadFile(p.SVG)
			if err != nil {
				t.Fatal(err)
			}
			w, h := checkSVG(t, p.Name, data)
			f, err := os.Open(p.PNG)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(f)
			f.Close()
			if err != nil {
				t.Fatalf("%s: %v", p.PNG, err)
			}
			if got, want := img.Bounds().Size(), (image.Point{int(math.Ceil(w * chart.PNGScale)), int(math.Ceil(h * chart.PNGScale))}); got != want {
				t.Errorf("%s: size %v, want %v", p.PNG, got, want)
			}
			// The PNG is a drawing, not a blank canvas: it holds the plot's
			// colours.
			colours := countColours(img)
			wantCol := colSolved
			switch p.Name {
			case PlotSolveRate:
				wantCol = colBar
			case PlotTokensSolved: // translucent points over white
				wantCol = overWhite(chart.WithAlpha(colSolved, 0xc0))
			}
			if colours[wantCol] < 100 {
				t.Errorf("%s: %d pixels of %v, want a plot drawn in it", p.PNG, colours[wantCol], wantCol)
			}
			if colours[chart.TextColor] == 0 {
				t.Errorf("%s: no text pixels", p.PNG)
			}
		}
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkSVG decodes an .svg file as XML and returns the root's size.
func checkSVG(t *testing.T, name string, data []byte) (w, h float64) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s.svg is not XML: %v", name, err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if el.Name.Local != "svg" || el.Name.Space != "http://www.w3.org/2000/svg" {
					t.Fatalf("%s.svg root is %v", name, el.Name)
				}
				for _, a := range el.Attr {
					switch a.Name.Local {
					case "width":
						w, _ = strconv.ParseFloat(a.Value, 64)
					case "height":
						h, _ = strconv.ParseFloat(a.Value, 64)
					case "data-plot":
						if a.Value != name {
							t.Errorf("%s.svg has data-plot %q", name, a.Value)
						}
					}
				}
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if w <= 0 || h <= 0 {
		t.Fatalf("%s.svg size %vx%v", name, w, h)
	}
	return w, h
}

func countColours(img image.Image) map[color.NRGBA]int {
	out := map[color.NRGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			out[c]++
		}
	}
	return out
}

// overWhite composites a translucent colour over a white background.
func overWhite(c color.NRGBA) color.NRGBA {
	mix := func(v uint8) uint8 { return uint8((int(v)*int(c.A) + 255*(255-int(c.A)) + 127) / 255) }
	return color.NRGBA{mix(c.R), mix(c.G), mix(c.B), 0xff}
}

func TestReportTokens(t *testing.T) {
	dir, _ := writeSweep(t, withTokens(testResults()))
	files, err := Report(context.Background(), dir, filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(files.HTML)
	if err != nil {
		t.Fatal(err)
	}
	doc, svgs := plotSVGs(t, page)
	// Tokens by task in testResults order: 1100, 2200, …, 7700.
	// solved: base_add 1100, base_abs 2200, algorithm_gcd 4400, hard_rev 7700;
	// unsolved: base_max 3300, hard_sort 6600; error: algorithm_crash 5500.
	got := dataRows(svgs[PlotTokensSolved], "text", "group", "n", "median")
	want := map[string][]string{"solved": {"4", "3300"}, "unsolved": {"2", "4950"}, "error": {"1", "5500"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("token groups (-want +got):\n%s", diff)
	}
	points := dataRows(svgs[PlotTokensSolved], "circle", "task", "tokens", "status")
	if diff := cmp.Diff([]string{"6600", "unsolved"}, points["hard_sort"]); diff != "" {
		t.Errorf("hard_sort point (-want +got):\n%s", diff)
	}
	if strings.Contains(textOf(doc), "No LLM tokens") {
		t.Error("a sweep with tokens says it used none")
	}
}

func TestReportEmptySweep(t *testing.T) {
	_, files, page := reportPage(t, nil)
	_, svgs := plotSVGs(t, page)
	for _, name := range []string{PlotSolveRate, PlotIterationsExamples, PlotTimePerTask} {
		svg, ok := svgs[name]
		if !ok {
			t.Errorf("plot %s missing", name)
			continue
		}
		if !strings.Contains(textOf(svg), "no tasks in this sweep") {
			t.Errorf("plot %s of an empty sweep does not say so", name)
		}
	}
	for _, p := range files.Plots {
		data, err := os.ReadFile(p.PNG)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			t.Errorf("%s: %v", p.PNG, err)
		}
	}
}

// Task IDs come from task directories: markup in them must stay text.
func TestReportEscapes(t *testing.T) {
	rs := testResults()
	rs[0].ID = `<script>alert("x")</script>&`
	rs[0].Error = `<img src="http://example.invalid/x.png">`
	_, files, page := reportPage(t, rs)
	doc, svgs := plotSVGs(t, page)
	if n := findAll(doc, func(n *html.Node) bool { return n.Data == "script" || n.Data == "img" }); len(n) > 0 {
		t.Errorf("markup from the summary became %d elements", len(n))
	}
	got := dataRows(svgs[PlotTimePerTask], "rect", "task", "seconds")
	if _, ok := got[rs[0].ID]; !ok {
		t.Errorf("time plot lacks task %q; has %v", rs[0].ID, got)
	}
	for _, p := range files.Plots {
		data, err := os.ReadFile(p.SVG)
		if err != nil {
			t.Fatal(err)
		}
		checkSVG(t, p.Name, data)
	}
}

func TestReportBadInput(t *testing.T) {
	wrongFormat := t.TempDir()
	if err := os.WriteFile(filepath.Join(wrongFormat, SummaryJSON), []byte(`{"format": 99, "tasks": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	notJSON := t.TempDir()
	if err := os.WriteFile(filepath.Join(notJSON, SummaryJSON), []byte("tasks,solved\n1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, dir, want string
	}{
		{"missing", t.TempDir(), "read sweep summary"},
		{"wrong format", wrongFormat, "written in a newer format: format 99"},
		{"not json", notJSON, "invalid character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Report(context.Background(), tt.dir, "")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
			if _, err := os.Stat(filepath.Join(tt.dir, ReportDir)); !os.IsNotExist(err) {
				t.Errorf("a failed report left %s behind (%v)", ReportDir, err)
			}
		})
	}
}

func TestReportCancelled(t *testing.T) {
	dir, _ := writeSweep(t, testResults())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Report(ctx, dir, ""); err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("got %v, want a cancellation error", err)
	}
}
