package benchmarks

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/internal/atomicfile"
	"github.com/reconstruct/reconstruct/internal/chart"
	"github.com/reconstruct/reconstruct/internal/machine"
	"github.com/reconstruct/reconstruct/internal/procmem"
)

// ReportDir is the default report directory inside a sweep directory.
const ReportDir = "report"

// ReportHTML is the report page's file name.
const ReportHTML = "report.html"

// ReportFiles lists what Report wrote.
type ReportFiles struct {
	Dir   string      `json:"dir"`
	HTML  string      `json:"html"`
	Plots []PlotFiles `json:"plots"`
}

// PlotFiles are the SVG and PNG copies of one plot.
type PlotFiles struct {
	Name string `json:"name"`
	SVG  string `json:"svg"`
	PNG  string `json:"png"`
}

// All lists every file written: the page, then each plot's SVG and PNG.
func (r ReportFiles) All() []string {
	out := []string{r.HTML}
	for _, p := range r.Plots {
		out = append(out, p.SVG, p.PNG)
	}
	return out
}

// Report reads the sweep in dir (its summary.json, or a summary.json path)
// and writes the report into outDir (default: report/ in the sweep
// directory): a self-contained report.html with the plots inline, and an SVG
// and a PNG copy of every plot.
func Report(ctx context.Context, dir, outDir string) (ReportFiles, error) {
	s, err := ReadSummary(dir)
	if err != nil {
		return ReportFiles{}, err
	}
	if outDir == "" {
		outDir = DefaultReportDir(dir)
	}
	return WriteReport(ctx, s, outDir)
}

// DefaultReportDir is where Report writes by default for a sweep directory
// or a summary.json path.
func DefaultReportDir(sweep string) string {
	if st, err := os.Stat(sweep); err == nil && !st.IsDir() {
		sweep = filepath.Dir(sweep)
	}
	return filepath.Join(sweep, ReportDir)
}

// WriteReport writes the report of s into outDir. Every file is written
// atomically; report.html is written last, so its presence means the plots
// beside it are complete.
func WriteReport(ctx context.Context, s Summary, outDir string) (ReportFiles, error) {
	f, err := chart.NewFonts()
	if err != nil {
		return ReportFiles{}, err
	}
	charts := []*chart.Chart{solveRateChart(s, f), iterationsExamplesChart(s, f)}
	// A sweep whose agents used no model has no tokens to plot: the page
	// says so in words rather than showing an empty panel.
	if totalTokens(s) > 0 {
		charts = append(charts, tokensChart(s, f))
	}
	charts = append(charts, timeChart(s, f))
	files := ReportFiles{Dir: outDir, HTML: filepath.Join(outDir, ReportHTML)}
	var plots []htmlPlot
	for _, sc := range charts {
		if err := ctx.Err(); err != nil {
			return ReportFiles{}, fmt.Errorf("report: %w", err)
		}
		pf := PlotFiles{Name: sc.Name, SVG: filepath.Join(outDir, sc.Name+".svg"), PNG: filepath.Join(outDir, sc.Name+".png")}
		if err := atomicfile.Write(pf.SVG, sc.SVGFile(), 0o644); err != nil {
			return ReportFiles{}, fmt.Errorf("report: %w", err)
		}
		img, err := sc.PNG(f)
		if err != nil {
			return ReportFiles{}, fmt.Errorf("report: %w", err)
		}
		if err := atomicfile.Write(pf.PNG, img, 0o644); err != nil {
			return ReportFiles{}, fmt.Errorf("report: %w", err)
		}
		files.Plots = append(files.Plots, pf)
		// The page is built from trusted markup: Chart.SVG escapes every
		// string that came from the summary.
		plots = append(plots, htmlPlot{Name: sc.Name, Title: sc.Title, SVG: template.HTML(sc.SVG())})
	}
	page, err := renderHTML(s, plots)
	if err != nil {
		return ReportFiles{}, err
	}
	if err := atomicfile.Write(files.HTML, page, 0o644); err != nil {
		return ReportFiles{}, fmt.Errorf("report: %w", err)
	}
	return files, nil
}

type htmlPlot struct {
	Name, Title string
	SVG         template.HTML
}

type htmlLevel struct {
	Name  string
	Stats LevelStats
	Total bool
}

// htmlGroups is a table of the tasks grouped by level or by family: its
// heading, its id, the name of its first column, which also names each
// row's data- attribute (data-level, data-family), and its rows.
type htmlGroups struct {
	Heading, ID, Column string
	Rows                []htmlLevel
}

// reportTemplate is the page: inline CSS, the plots as inline SVG, no
// scripts and no external resources, so the file can be mailed or archived
// alone. The links to the SVG and PNG copies are relative.
const reportTemplate = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="reconstruct bench report">
<title>Sweep report: {{.S.Solved}}/{{.S.Runs}} solved</title>
<style>
:root { --solved: #1b9e77; --unsolved: #d95f02; --error: #7f7f7f; --line: #dddddd; --muted: #666666; }
* { box-sizing: border-box; }
body { font-family: "Helvetica Neue", Helvetica, Arial, sans-serif; color: #222222; margin: 0; background: #f6f7f9; line-height: 1.4; }
main { max-width: 1040px; margin: 0 auto; padding: 24px 32px 48px; background: #ffffff; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.sub { color: var(--muted); margin: 0 0 16px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 10px 16px; min-width: 130px; }
.card .v { font-size: 22px; font-weight: bold; }
.card .k { color: var(--muted); font-size: 13px; }
dl.settings { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; font-size: 14px; margin: 0; }
dl.settings dt { color: var(--muted); }
dl.settings dd { margin: 0; font-family: ui-monospace, Menlo, Consolas, monospace; word-break: break-all; }
table { border-collapse: collapse; width: 100%; font-size: 13.5px; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #f0f2f5; position: sticky; top: 0; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.total td { font-weight: bold; }
td.err { color: #9b2c2c; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; max-width: 320px; word-break: break-word; }
.badge { display: inline-block; padding: 0 6px; border-radius: 3px; color: #ffffff; font-size: 12px; }
.badge.solved { background: var(--solved); }
.badge.unsolved { background: var(--unsolved); }
.badge.error { background: var(--error); }
figure { margin: 16px 0 24px; }
figure svg { max-width: 100%; height: auto; border: 1px solid var(--line); }
figcaption { font-size: 13px; color: var(--muted); }
figcaption a { color: inherit; }
</style>
</head>
<body>
<main>
<h1>Sweep report</h1>
<p class="sub" id="headline">{{if .S.TasksDir}}task set {{.S.TasksDir}} · {{end}}{{.Headline}}</p>
<div class="cards">
<div class="card"><div class="v" id="tasks">{{.S.Tasks}}</div><div class="k">tasks</div></div>
{{- if ne .S.Runs .S.Tasks}}
<div class="card"><div class="v" id="runs">{{.S.Runs}}</div><div class="k">runs</div></div>
{{- end}}
<div class="card"><div class="v" id="solved">{{.S.Solved}}</div><div class="k">solved</div></div>
<div class="card"><div class="v" id="rate">{{percent .S.SolveRate}}</div><div class="k">solve rate</div></div>
<div class="card"><div class="v" id="wrong-early-stops">{{.S.WrongEarlyStops}}</div><div class="k">wrong early stops</div></div>
{{- if .S.VerifiedExhaustively}}
<div class="card"><div class="v" id="verified-exhaustively">{{.S.VerifiedExhaustively}}</div><div class="k">verified exhaustively{{if .S.WrongExhaustive}} ({{.S.WrongExhaustive}} failing held-out){{end}}</div></div>
{{- end}}
<div class="card"><div class="v" id="errors">{{.S.Errors}}</div><div class="k">errors</div></div>
{{- if .S.Pending}}
<div class="card"><div class="v" id="pending">{{len .S.Pending}}</div><div class="k">pending</div></div>
{{- end}}
<div class="card"><div class="v" id="wall">{{seconds .S.WallSeconds}}</div><div class="k">wall time</div></div>
<div class="card"><div class="v" id="tokens">{{.Tokens}}</div><div class="k">tokens</div></div>
</div>
<dl class="settings">
<dt>tasks</dt><dd>{{orDash .S.TasksDir}}</dd>
<dt>config</dt><dd>{{orDash .S.Config}}</dd>
<dt>filter</dt><dd>{{orDash .S.Filter}}</dd>
<dt>parallel</dt><dd>{{.S.Parallel}}</dd>
<dt>repeat</dt><dd>{{.S.Repeat}}</dd>
{{- range .S.Settings}}
<dt>settings</dt><dd class="run-settings">{{.}}</dd>
{{- end}}
<dt>started</dt><dd>{{time .S.StartedAt}}</dd>
<dt>finished</dt><dd>{{time .S.FinishedAt}}</dd>
<dt>sessions</dt><dd>{{len .S.Sessions}}</dd>
<dt>reconstruct</dt><dd id="version">{{orDash .S.Version}}</dd>
<dt>machine</dt><dd id="machine">{{machine .S.Machine}}</dd>
<dt>load</dt><dd id="load">{{load .S.Load}}</dd>
{{- with .S.Process}}
<dt>process</dt><dd id="process">{{.}}</dd>
{{- end}}
{{- if .S.Pending}}
<dt>pending</dt><dd>{{join .S.Pending}}</dd>
{{- end}}
</dl>
{{- if or .S.SharedSettings .S.SettingsVary}}

<h2>Settings</h2>
<dl class="settings" id="settings">
{{- range $k := .SettingKeys}}
<dt>{{$k}}</dt><dd>{{index $.S.SharedSettings $k}}</dd>
{{- end}}
{{- if .S.SettingsVary}}
<dt>differing between runs</dt><dd>{{join .S.SettingsVary}}</dd>
{{- end}}
</dl>
{{- end}}
{{- range $t := .Groups}}

<h2>{{$t.Heading}}</h2>
<table id="{{$t.ID}}">
<thead><tr><th>{{$t.Column}}</th><th class="n">tasks</th>{{if $.Repeated}}<th class="n">runs</th>{{end}}<th class="n">solved</th><th class="n">rate</th><th class="n">errors</th></tr></thead>
<tbody>
{{- range $t.Rows}}
<tr{{if .Total}} class="total"{{end}} data-{{$t.Column}}="{{.Name}}"><td>{{.Name}}</td><td class="n">{{.Stats.Tasks}}</td>{{if $.Repeated}}<td class="n">{{.Stats.Runs}}</td>{{end}}<td class="n">{{.Stats.Solved}}</td><td class="n">{{rate .Stats.Rate}}</td><td class="n">{{.Stats.Errors}}</td></tr>
{{- end}}
</tbody>
</table>
{{- end}}

<h2>Plots</h2>
{{- if not .Tokens}}
<p id="no-tokens">No LLM tokens: no run of this sweep used a model (the built-in synthesizer and replay use none), so there is no plot of tokens.</p>
{{- end}}
{{- range .Plots}}
<figure id="plot-{{.Name}}">
{{.SVG}}
<figcaption>{{.Title}} · <a href="{{.Name}}.svg">SVG</a> · <a href="{{.Name}}.png">PNG</a></figcaption>
</figure>
{{- end}}

<h2>Tasks</h2>
<table id="tasks-table">
<thead><tr><th>task</th><th>level</th><th>result</th><th class="n">held-out accuracy</th><th>stop reason</th><th class="n">iterations</th><th class="n">promotions</th><th class="n">examples</th><th class="n">tokens</th><th class="n">wall time</th><th class="n">CPU</th><th class="n">peak memory</th><th>error</th></tr></thead>
<tbody>
{{- range .Tasks}}
{{- $st := status .}}
<tr data-task="{{.ID}}" data-status="{{$st}}"><td>{{.ID}}</td><td>{{.Level}}</td><td><span class="badge {{$st}}">{{$st}}</span></td><td class="n">{{acc .}}</td><td>{{orDash .StopReason}}</td><td class="n">{{.Iterations}}</td><td class="n">{{.Promotions}}</td><td class="n">{{.Examples}}</td><td class="n">{{.Tokens.Total}}</td><td class="n">{{seconds .WallSeconds}}</td><td class="n">{{cpu .}}</td><td class="n">{{peak .}}</td><td class="err">{{.Error}}</td></tr>
{{- end}}
</tbody>
</table>
</main>
</body>
</html>
`

var reportFuncs = template.FuncMap{
	"percent": chart.FormatPercent,
	"rate":    ratePct,
	"seconds": chart.FormatSeconds,
	"status":  taskStatus,
	"acc": func(r TaskResult) string {
		if r.HeldoutTotal == 0 {
			return "—"
		}
		return fmt.Sprintf("%.3f (%d/%d)", r.HeldoutAccuracy, r.HeldoutPassed, r.HeldoutTotal)
	},
	"time": func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.UTC().Format("2006-01-02 15:04:05 UTC")
	},
	"cpu": func(r TaskResult) string {
		if r.CPUSeconds <= 0 {
			return "—"
		}
		return chart.FormatSeconds(r.CPUSeconds)
	},
	"peak": func(r TaskResult) string {
		if r.PeakRSSBytes <= 0 {
			return "—"
		}
		return fmt.Sprintf("%.0f MiB", procmem.MB(r.PeakRSSBytes))
	},
	"orDash":  orDash,
	"load":    loadText,
	"machine": func(m *machine.Info) string { return m.String() },
	"join":    func(xs []string) string { return strings.Join(xs, ", ") },
}

// totalTokens adds up the tokens of every run.
func totalTokens(s Summary) int {
	n := 0
	for _, r := range s.Results {
		n += r.Tokens.Total()
	}
	return n
}

func renderHTML(s Summary, plots []htmlPlot) ([]byte, error) {
	tmpl, err := template.New("report").Funcs(reportFuncs).Parse(reportTemplate)
	if err != nil {
		return nil, fmt.Errorf("report template: %w", err)
	}
	var levels []htmlLevel
	for _, l := range s.LevelNames() {
		levels = append(levels, htmlLevel{Name: l, Stats: s.Levels[l]})
	}
	levels = append(levels, htmlLevel{Name: "all levels", Stats: LevelStats{Tasks: s.Tasks, Runs: s.Runs, Solved: s.Solved, Rate: s.SolveRate, Errors: s.Errors}, Total: true})
	groups := []htmlGroups{{Heading: "Levels", ID: "levels", Column: "level", Rows: levels}}
	// The families' table only when a task names a family.
	if names, stats := s.familyRows(); len(names) > 0 {
		var families []htmlLevel
		for _, f := range names {
			families = append(families, htmlLevel{Name: f, Stats: stats[f], Total: f == AllFamilies})
		}
		groups = append(groups, htmlGroups{Heading: "Families", ID: "families", Column: "family", Rows: families})
	}
	var buf bytes.Buffer
	err = tmpl.Execute(&buf, map[string]any{
		"S":           s,
		"Headline":    s.Headline(),
		"Repeated":    s.Runs != s.Tasks,
		"SettingKeys": settingKeys(s.SharedSettings),
		"Groups":      groups,
		"Tasks":       tasksByLevel(s),
		"Plots":       plots,
		"Tokens":      totalTokens(s),
	})
	if err != nil {
		return nil, fmt.Errorf("render report: %w", err)
	}
	return buf.Bytes(), nil
}
