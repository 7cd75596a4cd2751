package benchmarks

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"

	"github.com/reconstruct/reconstruct/internal/chart"
)

// Palette: solved and unsolved differ in hue and lightness so they stay
// apart in grey print and for the common colour-vision deficiencies.
var (
	colSolved   = color.NRGBA{0x1b, 0x9e, 0x77, 0xff}
	colUnsolved = color.NRGBA{0xd9, 0x5f, 0x02, 0xff}
	colError    = color.NRGBA{0x7f, 0x7f, 0x7f, 0xff}
	colBar      = color.NRGBA{0x3b, 0x6e, 0xa8, 0xff}
	colTotal    = color.NRGBA{0x23, 0x3d, 0x5c, 0xff}
)

// Plot names: the file stems in the report directory and the data-plot
// attribute of each SVG.
const (
	PlotSolveRate          = "solve_rate"
	PlotIterationsExamples = "iterations_examples"
	PlotTokensSolved       = "tokens_solved"
	PlotTimePerTask        = "time_per_task"
)

// Task statuses shown in the plots.
const (
	statusSolved   = "solved"
	statusUnsolved = "unsolved"
	statusError    = "error"
)

func taskStatus(r TaskResult) string {
	switch {
	case r.Error != "":
		return statusError
	case r.Solved:
		return statusSolved
	}
	return statusUnsolved
}

func statusColor(st string) color.NRGBA {
	switch st {
	case statusSolved:
		return colSolved
	case statusError:
		return colError
	}
	return colUnsolved
}

// statusLegend lists the statuses present in a summary (solved and unsolved
// always, error only when a task failed).
func statusLegend(s Summary) []chart.LegendEntry {
	out := []chart.LegendEntry{{Label: statusSolved, Color: colSolved}, {Label: statusUnsolved, Color: colUnsolved}}
	if s.Errors > 0 {
		out = append(out, chart.LegendEntry{Label: statusError, Color: colError})
	}
	return out
}

func itoa(n int) string     { return strconv.Itoa(n) }
func ftoa(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// solveRateChart is a bar per level (and one for the whole sweep) with the
// share of tasks solved.
func solveRateChart(s Summary, f *chart.Fonts) *chart.Chart {
	sc := &chart.Chart{Name: PlotSolveRate, W: 720, H: 400}
	one, many := s.Unit()
	sc.DrawTitle("Solve rate per level",
		fmt.Sprintf("%d of %s solved (%s); solved means held-out accuracy 1.0", s.Solved, Count(s.Runs, one, many), chart.FormatPercent(s.SolveRate)))
	fr := chart.Frame{X0: 72, Y0: 92, X1: sc.W - 24, Y1: sc.H - 62, Top: 1, Step: 0.2}
	sc.DrawValueAxis(fr, many+" solved", chart.FormatPercent)
	type bar struct {
		name  string
		st    LevelStats
		total bool
	}
	var bars []bar
	for _, l := range s.LevelNames() {
		bars = append(bars, bar{name: l, st: s.Levels[l]})
	}
	if len(bars) > 1 {
		bars = append(bars, bar{name: "all levels", st: LevelStats{Tasks: s.Tasks, Runs: s.Runs, Solved: s.Solved, Rate: s.SolveRate, Errors: s.Errors}, total: true})
	}
	if len(bars) == 0 {
		sc.EmptyNote(fr, "no tasks in this sweep")
		return sc
	}
	slot := (fr.X1 - fr.X0) / float64(len(bars))
	bw := math.Min(84, slot*0.62)
	for i, b := range bars {
		cx := fr.X0 + slot*(float64(i)+0.5)
		top := fr.Y(b.st.Rate)
		col := colBar
		if b.total {
			col = colTotal
		}
		sc.Rect(&chart.Rect{X: cx - bw/2, Y: top, W: bw, H: fr.Y1 - top, Fill: col,
			Tip:  fmt.Sprintf("%s: %d of %d solved (%s)", b.name, b.st.Solved, b.st.Runs, chart.FormatPercent(b.st.Rate)),
			Data: []chart.Attr{{K: "level", V: b.name}, {K: "solved", V: itoa(b.st.Solved)}, {K: "tasks", V: itoa(b.st.Tasks)}, {K: "runs", V: itoa(b.st.Runs)}, {K: "rate", V: ftoa(b.st.Rate)}, {K: "errors", V: itoa(b.st.Errors)}}})
		sc.Text(&chart.Text{X: cx, Y: top - 20, S: chart.FormatPercent(b.st.Rate), Size: 13, Bold: true, Anchor: chart.AnchorMiddle})
		sc.Text(&chart.Text{X: cx, Y: top - 6, S: fmt.Sprintf("%d/%d", b.st.Solved, b.st.Runs), Size: 11, Anchor: chart.AnchorMiddle, Color: chart.MutedColor})
		sc.Text(&chart.Text{X: cx, Y: fr.Y1 + 18, S: f.Truncate(b.name, 12, slot-4), Size: 12, Bold: b.total, Anchor: chart.AnchorMiddle})
		if b.st.Errors > 0 {
			sc.Text(&chart.Text{X: cx, Y: fr.Y1 + 34, S: fmt.Sprintf("%d %s", b.st.Errors, plural(b.st.Errors, "error", "errors")), Size: 10.5, Anchor: chart.AnchorMiddle, Color: colError})
		}
	}
	return sc
}

// tasksByLevel orders results by level (LevelNames order) and then by ID.
func tasksByLevel(s Summary) []TaskResult {
	rank := map[string]int{}
	for i, l := range s.LevelNames() {
		rank[l] = i
	}
	out := append([]TaskResult(nil), s.Results...)
	sort.SliceStable(out, func(i, j int) bool {
		if ri, rj := rank[out[i].Level], rank[out[j].Level]; ri != rj {
			return ri < rj
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// iterationsExamplesChart shows two bar panels over the same task axis:
// iterations used and examples in the final set, coloured by status.
func iterationsExamplesChart(s Summary, f *chart.Fonts) *chart.Chart {
	sc := &chart.Chart{Name: PlotIterationsExamples, W: 960}
	sc.DrawTitle("Iterations and examples per task", "tasks grouped by level; hover a bar for the task")
	sc.DrawLegend(f, sc.W-24, 24, statusLegend(s))
	tasks := tasksByLevel(s)
	x0, x1 := 72.0, sc.W-24
	slot := (x1 - x0) / math.Max(1, float64(len(tasks)))
	bw := math.Max(1, math.Min(28, slot*0.75))
	showLabels := slot >= 11
	maxIt, maxEx := 0, 0
	for _, r := range tasks {
		maxIt, maxEx = max(maxIt, r.Iterations), max(maxEx, r.Examples)
	}
	panels := []struct {
		key, heading, axis string
		value              func(TaskResult) int
		max                int
	}{
		{"iterations", "Iterations used", "iterations", func(r TaskResult) int { return r.Iterations }, maxIt},
		{"examples", "Examples in the final set", "examples", func(r TaskResult) int { return r.Examples }, maxEx},
	}
	var frames []chart.Frame
	y0 := 92.0
	for _, p := range panels {
		top, step := chart.NiceScale(float64(p.max), true)
		fr := chart.Frame{X0: x0, Y0: y0, X1: x1, Y1: y0 + 170, Top: top, Step: step}
		frames = append(frames, fr)
		sc.Text(&chart.Text{X: x0, Y: y0 - 12, S: p.heading, Size: 12.5, Bold: true})
		sc.DrawValueAxis(fr, p.axis, chart.FormatNumber)
		if len(tasks) == 0 {
			sc.EmptyNote(fr, "no tasks in this sweep")
		}
		for i, r := range tasks {
			v := p.value(r)
			cx := x0 + slot*(float64(i)+0.5)
			top := math.Min(fr.Y(float64(v)), fr.Y1-1.5) // a zero stays visible as a sliver
			st := taskStatus(r)
			sc.Rect(&chart.Rect{X: cx - bw/2, Y: top, W: bw, H: fr.Y1 - top, Fill: statusColor(st),
				Tip:  fmt.Sprintf("%s (%s): %d %s, %s", r.ID, r.Level, v, p.key, st),
				Data: []chart.Attr{{K: "task", V: r.ID}, {K: "level", V: r.Level}, {K: "status", V: st}, {K: p.key, V: itoa(v)}}})
		}
		y0 = fr.Y1 + 44
	}
	bottom := frames[len(frames)-1].Y1
	labelRow := bottom + 18
	if showLabels {
		longest := 0.0
		for _, r := range tasks {
			longest = math.Max(longest, f.Width(r.ID, 10, false))
		}
		longest = math.Min(longest, 150)
		for i, r := range tasks {
			cx := x0 + slot*(float64(i)+0.5)
			sc.Text(&chart.Text{X: cx + 3.5, Y: bottom + 6, S: f.Truncate(r.ID, 10, 150), Size: 10, Anchor: chart.AnchorEnd, Vertical: true})
		}
		labelRow = bottom + 6 + longest + 16
	}
	// Level groups: a dashed separator between groups and the level name
	// under each.
	for i := 0; i < len(tasks); {
		j := i
		for j < len(tasks) && tasks[j].Level == tasks[i].Level {
			j++
		}
		left, right := x0+slot*float64(i), x0+slot*float64(j)
		if i > 0 {
			for _, fr := range frames {
				sc.Line(left, fr.Y0, left, fr.Y1, chart.MutedColor, 1, 3)
			}
		}
		name := f.Truncate(fmt.Sprintf("%s (%d)", tasks[i].Level, j-i), 12, right-left-2)
		sc.Text(&chart.Text{X: (left + right) / 2, Y: labelRow, S: name, Size: 12, Bold: true, Anchor: chart.AnchorMiddle})
		i = j
	}
	sc.H = labelRow + 18
	return sc
}

// quantile is the linear-interpolation quantile of sorted values.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	pos := q * float64(len(sorted)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(sorted)-1)
	return sorted[lo] + (sorted[hi]-sorted[lo])*(pos-float64(lo))
}

// minBox is the smallest strip that gets a box: quartiles of fewer points
// mislead more than the points alone.
const minBox = 5

// tokensChart plots each task's tokens in a strip per status, with a
// median line and, from minBox tasks, a box (quartiles) and whiskers
// (range). It is drawn only when some run used tokens: the report of a
// sweep that used none (the synthesizer agent) says so in words.
func tokensChart(s Summary, f *chart.Fonts) *chart.Chart {
	sc := &chart.Chart{Name: PlotTokensSolved, W: 720, H: 420}
	groups := []string{statusSolved, statusUnsolved}
	if s.Errors > 0 {
		groups = append(groups, statusError)
	}
	vals := map[string][]float64{}
	var members = map[string][]TaskResult{}
	maxTok := 0
	total := 0
	for _, r := range s.Results {
		st := taskStatus(r)
		members[st] = append(members[st], r)
		vals[st] = append(vals[st], float64(r.Tokens.Total()))
		maxTok = max(maxTok, r.Tokens.Total())
		total += r.Tokens.Total()
	}
	sc.DrawTitle("Tokens against solved", fmt.Sprintf("LLM tokens per task (prompt + completion), %s in total", chart.FormatNumber(float64(total))))
	top, step := chart.NiceScale(float64(maxTok), true)
	fr := chart.Frame{X0: 84, Y0: 72, X1: sc.W - 24, Y1: sc.H - 66, Top: top, Step: step}
	sc.DrawValueAxis(fr, "tokens per task", chart.FormatNumber)
	slot := (fr.X1 - fr.X0) / float64(len(groups))
	for gi, g := range groups {
		cx := fr.X0 + slot*(float64(gi)+0.5)
		col := statusColor(g)
		v := append([]float64(nil), vals[g]...)
		sort.Float64s(v)
		med := quantile(v, 0.5)
		switch {
		case len(v) >= minBox:
			q1, q3 := quantile(v, 0.25), quantile(v, 0.75)
			sc.Line(cx, fr.Y(v[0]), cx, fr.Y(q1), col, 1.2, 0)
			sc.Line(cx, fr.Y(q3), cx, fr.Y(v[len(v)-1]), col, 1.2, 0)
			sc.Rect(&chart.Rect{X: cx - 42, Y: fr.Y(q3), W: 84, H: math.Max(fr.Y(q1)-fr.Y(q3), 0.01),
				Fill: chart.WithAlpha(col, 0x30), Stroke: col, StrokeW: 1.2,
				Tip: fmt.Sprintf("%s: quartiles %s–%s, median %s tokens", g, chart.FormatNumber(q1), chart.FormatNumber(q3), chart.FormatNumber(med))})
			sc.Line(cx-42, fr.Y(med), cx+42, fr.Y(med), col, 2.5, 0)
		case len(v) >= 2 && v[len(v)-1] > 0:
			sc.Line(cx-42, fr.Y(med), cx+42, fr.Y(med), col, 2.5, 0)
		}
		for i, r := range members[g] {
			// Deterministic jitter (golden-ratio sequence) spreads equal values.
			_, frac := math.Modf(float64(i+1) * 0.6180339887)
			sc.Circle(&chart.Circle{CX: cx + (frac-0.5)*64, CY: fr.Y(float64(r.Tokens.Total())), R: 4.5,
				Fill: chart.WithAlpha(col, 0xc0), Stroke: chart.White,
				Tip:  fmt.Sprintf("%s: %d tokens (%d prompt, %d completion), %s", r.ID, r.Tokens.Total(), r.Tokens.PromptTokens, r.Tokens.CompletionTokens, g),
				Data: []chart.Attr{{K: "task", V: r.ID}, {K: "status", V: g}, {K: "tokens", V: itoa(r.Tokens.Total())}}})
		}
		sc.Text(&chart.Text{X: cx, Y: fr.Y1 + 20, S: g, Size: 12.5, Bold: true, Anchor: chart.AnchorMiddle,
			Data: []chart.Attr{{K: "group", V: g}, {K: "n", V: itoa(len(v))}, {K: "median", V: ftoa(med)}}})
		note := fmt.Sprintf("n=%d", len(v))
		if len(v) > 0 {
			note += ", median " + chart.FormatNumber(med)
		}
		sc.Text(&chart.Text{X: cx, Y: fr.Y1 + 36, S: note, Size: 11, Anchor: chart.AnchorMiddle, Color: chart.MutedColor})
	}
	return sc
}

// timeChart is a horizontal bar per task, longest first.
func timeChart(s Summary, f *chart.Fonts) *chart.Chart {
	tasks := append([]TaskResult(nil), s.Results...)
	sort.SliceStable(tasks, func(i, j int) bool {
		if tasks[i].WallSeconds != tasks[j].WallSeconds {
			return tasks[i].WallSeconds > tasks[j].WallSeconds
		}
		return tasks[i].ID < tasks[j].ID
	})
	n := len(tasks)
	rowH := 16.0
	if n > 150 {
		rowH = math.Max(2, 2400/float64(n))
	}
	showLabels := rowH >= 10
	fontSize := math.Min(11, rowH-4)
	sum, maxT := 0.0, 0.0
	for _, r := range tasks {
		sum += r.WallSeconds
		maxT = math.Max(maxT, r.WallSeconds)
	}
	sc := &chart.Chart{Name: PlotTimePerTask, W: 960}
	sub := fmt.Sprintf("longest first; %s summed over %d %s", chart.FormatSeconds(sum), n, plural(n, "task", "tasks"))
	if s.WallSeconds > 0 {
		sub += fmt.Sprintf(", sweep wall time %s", chart.FormatSeconds(s.WallSeconds))
		if s.Parallel > 0 {
			sub += fmt.Sprintf(" with --parallel %d", s.Parallel)
		}
	}
	sc.DrawTitle("Wall time per task", sub)
	sc.DrawLegend(f, sc.W-24, 24, statusLegend(s))
	labelW := 20.0
	if showLabels {
		for _, r := range tasks {
			labelW = math.Max(labelW, f.Width(r.ID, fontSize, false))
		}
		labelW = math.Min(labelW, 240) + 12
	}
	top, step := chart.NiceScale(maxT, false)
	x0, x1 := 16+labelW, sc.W-76
	y0 := 84.0
	y1 := y0 + math.Max(1, float64(n))*rowH
	xOf := func(v float64) float64 { return x0 + v/top*(x1-x0) }
	for _, v := range chart.Ticks(top, step) {
		x := xOf(v)
		if v > 0 {
			sc.Line(x, y0, x, y1, chart.GridColor, 1, 0)
		}
		sc.Line(x, y0-4, x, y0, chart.AxisColor, 1, 0)
		sc.Text(&chart.Text{X: x, Y: y0 - 8, S: chart.FormatNumber(v), Size: 11, Anchor: chart.AnchorMiddle, Color: chart.MutedColor})
	}
	sc.Line(x0, y0, x1, y0, chart.AxisColor, 1, 0)
	sc.Line(x0, y0, x0, y1, chart.AxisColor, 1, 0)
	if n == 0 {
		sc.EmptyNote(chart.Frame{X0: x0, Y0: y0, X1: x1, Y1: y0 + 40}, "no tasks in this sweep")
		y1 = y0 + 40
	}
	for i, r := range tasks {
		y := y0 + float64(i)*rowH
		st := taskStatus(r)
		w := math.Max(1, xOf(r.WallSeconds)-x0)
		sc.Rect(&chart.Rect{X: x0, Y: y + rowH*0.15, W: w, H: rowH * 0.7, Fill: statusColor(st),
			Tip:  fmt.Sprintf("%s (%s): %s, %s", r.ID, r.Level, chart.FormatSeconds(r.WallSeconds), st),
			Data: []chart.Attr{{K: "task", V: r.ID}, {K: "status", V: st}, {K: "seconds", V: ftoa(r.WallSeconds)}}})
		if showLabels {
			base := y + rowH/2 + fontSize*0.36
			sc.Text(&chart.Text{X: x0 - 6, Y: base, S: f.Truncate(r.ID, fontSize, 240), Size: fontSize, Anchor: chart.AnchorEnd})
			sc.Text(&chart.Text{X: x0 + w + 4, Y: base, S: chart.FormatSeconds(r.WallSeconds), Size: fontSize - 0.5, Color: chart.MutedColor})
		}
	}
	sc.Text(&chart.Text{X: (x0 + x1) / 2, Y: y1 + 26, S: "wall time per task (seconds)", Size: 12, Anchor: chart.AnchorMiddle})
	sc.H = y1 + 40
	return sc
}
